"""`TournamentEntry.list_place`: a draw list kept place by place (docs/decisions/small-seeded-fields.md).

Small seeded fields are now drawn as KaisaKaavio draws them: a championship under 24 entrants whole, a
field of 8 or fewer whose seeds' places clash with a seed at place 0 drawn and two seeds sharing a place.
An event drawn before keeps the list it was drawn with: its places are stored here, computed as Kaiza
drew them then (the seeds at the head of a small championship; a clashing seed on the nearest free place).
"""

from django.db import migrations, models

from game.tournaments.pairing.draw_seeding import is_crowded, seed_places, shuffled

DRAWN = ("double_loss", "double_loss_then_knockout", "two_rounds_then_cup", "ranking_event", "championship")
CHAMPIONSHIP_FIELD, MOST_SEEDS = 24, 8


def _seeds_placed(tournament) -> int:
    if tournament.format == "ranking_event":
        return MOST_SEEDS if tournament.seeds_marked is None else tournament.seeds_marked
    if tournament.draw_seed is None:
        return MOST_SEEDS
    if tournament.seeds_marked is not None:
        return tournament.seeds_marked
    return 0 if tournament.tables else MOST_SEEDS


def _list_before(tournament, ids: list[int]) -> list[int] | None:
    """The list as Kaiza drew it before, for a field now drawn otherwise; None: drawn as before."""
    size = len(ids)
    if tournament.format == "championship":
        if size >= CHAMPIONSHIP_FIELD or tournament.draw_seed is None:
            return None
        placed = min(CHAMPIONSHIP_FIELD if tournament.seeds_marked is None else tournament.seeds_marked, size)
        others = ids[placed:]
        return ids[:placed] + shuffled(others, tournament.draw_seed, "list")
    placed = min(_seeds_placed(tournament), MOST_SEEDS, size)
    if not placed or not is_crowded(size, placed):
        return None
    others = ids[placed:]
    if tournament.draw_seed is not None:
        others = shuffled(others, tournament.draw_seed, "list")
    slots: list[int | None] = [None] * size
    for entrant, place in zip(ids[:placed], seed_places(size, placed), strict=True):
        slots[place - 1] = entrant
    rest = iter(others)
    return [entrant if entrant is not None else next(rest) for entrant in slots]


def keep_lists(apps, schema_editor) -> None:
    Tournament = apps.get_model("game", "Tournament")
    TournamentEntry = apps.get_model("game", "TournamentEntry")
    for tournament in Tournament.objects.filter(format__in=DRAWN).exclude(status="registration").iterator():
        entries = TournamentEntry.objects.filter(tournament=tournament, late_stage__isnull=True)
        ids = list(entries.order_by("seed", "-rating", "id").values_list("pk", flat=True))
        if len(ids) < 4:
            continue
        listing = _list_before(tournament, ids)
        for place, pk in enumerate(listing or (), start=1):
            TournamentEntry.objects.filter(pk=pk).update(list_place=place)


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0042_file_late_entrants"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournamententry",
            name="list_place",
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name="place in the draw list"),
        ),
        migrations.RunPython(keep_lists, migrations.RunPython.noop),
    ]
