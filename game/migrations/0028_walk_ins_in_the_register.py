"""Existing walk-ins become the club's register players: the walk-ins of one club whose names are the
same name (game.common.names.register_key: case, spacing, accents and look-alike letters aside) are one
player, named as first typed; the series placings kept under each walk-in entry are filed under its
player, so a club's series adds the same name's events up at once."""

from typing import Any

from django.db import migrations

from game.common.names import name_clean, register_key


def walk_ins_to_players(apps: Any, schema_editor: Any) -> None:
    TournamentEntry = apps.get_model("game", "TournamentEntry")
    ClubPlayer = apps.get_model("game", "ClubPlayer")
    SeriesPlacing = apps.get_model("game", "SeriesPlacing")
    players: dict[tuple[int, str], Any] = {}
    walk_ins = (
        TournamentEntry.objects.filter(members__isnull=True, player__isnull=True)
        .select_related("tournament")
        .order_by("tournament__starts_at", "tournament_id", "pk")
    )
    for entry in walk_ins:
        club_id = entry.tournament.club_id
        key = register_key(entry.name)[:160]
        player = players.get((club_id, key))
        if player is None:
            player = ClubPlayer.objects.filter(club_id=club_id, name_key=key).first() or ClubPlayer.objects.create(
                club_id=club_id, name=name_clean(entry.name)[:80] or entry.name, name_key=key
            )
            players[(club_id, key)] = player
        entry.player = player
        entry.save(update_fields=["player"])
        SeriesPlacing.objects.filter(entry_id=entry.pk, player_key=f"entry:{entry.pk}").update(
            player_key=f"player:{player.pk}"
        )


def players_to_walk_ins(apps: Any, schema_editor: Any) -> None:
    TournamentEntry = apps.get_model("game", "TournamentEntry")
    SeriesPlacing = apps.get_model("game", "SeriesPlacing")
    for entry in TournamentEntry.objects.filter(player__isnull=False, members__isnull=True):
        SeriesPlacing.objects.filter(entry_id=entry.pk, player_key=f"player:{entry.player_id}").update(
            player_key=f"entry:{entry.pk}"
        )
    TournamentEntry.objects.update(player=None)
    apps.get_model("game", "ClubPlayer").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0027_club_player_register"),
    ]

    operations = [migrations.RunPython(walk_ins_to_players, players_to_walk_ins)]
