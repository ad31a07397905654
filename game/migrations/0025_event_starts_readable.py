"""An event's start that an earlier version stored beyond what a page can read back becomes the time
the event was made. A KaisaKaavio file dated 9999-12-31 at 23:59 -12:00 was stored on PostgreSQL as
the year 10000, which it stores but cannot return: every page that read the event failed, and so did
every way to remove it. Imports and forms now refuse a start outside the years 1970-2099
(game/tournaments/values.py STARTS_RANGE); the same window is written here, as a migration keeps
its own values. The rows are changed by one UPDATE that never reads them."""

import datetime

from django.db import migrations
from django.db.models import F, Q

EARLIEST = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
LATEST = datetime.datetime(2100, 1, 1, tzinfo=datetime.UTC)


def starts_repair(apps, schema_editor):
    Tournament = apps.get_model("game", "Tournament")
    outside = Q(starts_at__lt=EARLIEST) | Q(starts_at__gte=LATEST)
    Tournament.objects.filter(outside).update(starts_at=F("created_at"))


class Migration(migrations.Migration):
    dependencies = [("game", "0024_puzzle_starter")]

    operations = [migrations.RunPython(starts_repair, migrations.RunPython.noop, elidable=False)]
