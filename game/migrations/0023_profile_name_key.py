"""Profile.name_key: the key a display name is unique under (game.common.names.name_key). Names kept
before it were ASCII and unique case-insensitively, so their keys are their lower-case forms; a pair
that the old check let through (two sign-ups at once) keeps its second name with a key of its own
(`name#id`) until one of them renames."""

from typing import Any

from django.db import migrations, models

from game.common.names import name_key


def fill(apps: Any, schema_editor: Any) -> None:
    Profile = apps.get_model("game", "Profile")
    seen: set[str] = set()
    for profile in Profile.objects.order_by("pk").only("pk", "display_name"):
        key = name_key(profile.display_name)
        if key in seen:
            key = f"{key}#{profile.pk}"
        seen.add(key)
        Profile.objects.filter(pk=profile.pk).update(name_key=key)


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0022_club_time_zone"),
    ]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="name_key",
            field=models.CharField(editable=False, max_length=128, null=True, verbose_name="name key"),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="profile",
            name="name_key",
            field=models.CharField(editable=False, max_length=128, unique=True, verbose_name="name key"),
        ),
    ]
