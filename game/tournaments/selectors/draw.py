"""The double-loss draw of a tournament rebuilt from its rows: the draw list from the entries, the
games from the pairings in the order they were drawn. The draw itself is pure
(game/tournaments/pairing/double_loss.py); this module only turns rows into its input, so the same
rows always give the same state, and the page, the services and the tests read one and the same.

The draw list: the entries in seed order (seed 1 is the highest rating when the entries closed,
then the earlier entry; game/tournaments/services/setup.py), the top seeds at the Kaisa handbook's
places (:func:`game.tournaments.pairing.draw_seeding.seeded_draw_list`) and everyone else in an
order drawn from the event's stored `draw_seed` (:func:`game.tournaments.pairing.draw_seeding.shuffled`),
as the program draws its list at random: the same number and entries always give the same list.
Online the top 8 are seeded (all of a field of 8 or fewer); at the club none, unless marked (an
import's `seeds_marked`). An event without a draw number (an import, whose list is the file's, or
one drawn before the number was kept) keeps its top 8 placed and the rest in seed order.

A pairing stores the game's round (the draw's round, `TournamentPairing.round`), its place in the
order it was drawn (`TournamentPairing.index`, counted over the whole tournament) and a cup game's
seat in its round (`slot`); a cup walk-over has no second entry. Each player's own round in a game
is not stored: it is one more than the games he had been drawn in before, which is what the draw
checks it against.
"""

from __future__ import annotations

from django.db.models import Q, QuerySet

from game.matches.clock_presets import event_clock_of
from game.models.tournaments import Tournament, TournamentEntry, TournamentPairing, TournamentVenue
from game.tournaments import values
from game.tournaments.pairing.double_loss import DrawError, DrawState, Event, Format, Game, listing_order
from game.tournaments.pairing.draw_seeding import (
    CHAMPIONSHIP_FIELD,
    MOST_SEEDS,
    championship_draw_list,
    seeded_draw_list,
    shuffled,
)

#: The formats whose games are drawn one at a time rather than paired by whole rounds.
DRAWN_FORMATS = (
    Tournament.Format.DOUBLE_LOSS,
    Tournament.Format.DOUBLE_LOSS_THEN_KNOCKOUT,
    Tournament.Format.TWO_ROUNDS_THEN_CUP,
    Tournament.Format.RANKING_EVENT,
    Tournament.Format.CHAMPIONSHIP,
)
#: The draw's format of each drawn format: a ranking event is a double-loss draw whose list places 8
#: seeds (:func:`seeds_placed`).
DRAW_FORMAT = {
    Tournament.Format.DOUBLE_LOSS: Format.DOUBLE_LOSS,
    Tournament.Format.DOUBLE_LOSS_THEN_KNOCKOUT: Format.DOUBLE_LOSS_THEN_KNOCKOUT,
    Tournament.Format.TWO_ROUNDS_THEN_CUP: Format.TWO_ROUNDS_THEN_CUP,
    Tournament.Format.RANKING_EVENT: Format.DOUBLE_LOSS,
    Tournament.Format.CHAMPIONSHIP: Format.CHAMPIONSHIP,
}
#: The drawn formats that take late entrants at the club (services/late_entries.py): a cup's lots
#: are drawn from the first list, so the cup format does not.
LATE_FORMATS = (Tournament.Format.DOUBLE_LOSS, Tournament.Format.DOUBLE_LOSS_THEN_KNOCKOUT)
#: The entries' seed order (ties never happen once the entries closed: seeds are 1..n).
SEED_ORDER = ("seed", "-rating", "id")


def is_drawn(tournament: Tournament) -> bool:
    return tournament.format in DRAWN_FORMATS


def draw_list(entry_ids: list[int], *, seeds: int | None = None, draw_seed: int | None = None) -> tuple[int, ...]:
    """The draw list of entries given in seed order: the top `seeds` (8 unless said, at most the
    field) at their handbook places, the others in the order `draw_seed` draws (seed order without
    one)."""
    placed = min(MOST_SEEDS, len(entry_ids)) if seeds is None else min(seeds, MOST_SEEDS, len(entry_ids))
    others = entry_ids[placed:]
    if draw_seed is not None:
        others = shuffled(others, draw_seed, "list")
    return seeded_draw_list(entry_ids[:placed], others, draw_seed)


def championship_list(
    entry_ids: list[int], *, seeds: int | None = None, draw_seed: int | None = None
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A championship's draw list and its seeds, of entries given in seed order: the top `seeds`
    (24 unless said, at most the field) at the championship's places, the others in the order
    `draw_seed` draws (seed order without one). A field smaller than the places is drawn whole,
    seeds included, as the program draws it (docs/decisions/small-seeded-fields.md); its seeds
    still skip their rounds."""
    placed = min(CHAMPIONSHIP_FIELD if seeds is None else seeds, CHAMPIONSHIP_FIELD, len(entry_ids))
    if len(entry_ids) < CHAMPIONSHIP_FIELD and draw_seed is not None:
        return tuple(shuffled(entry_ids, draw_seed, "list")), tuple(entry_ids[:placed])
    others = entry_ids[placed:]
    if draw_seed is not None:
        others = shuffled(others, draw_seed, "list")
    return championship_draw_list(entry_ids[:placed], others), tuple(entry_ids[:placed])


def seeds_placed(tournament: Tournament) -> int | None:
    """How many top seeds the list places (None: the top 8). An event drawn from a number seeds
    online by rating, at the club only what is marked; one without keeps the top 8. A ranking event
    places its top 8 (the entries' seeds: the ranking list's), a championship its top 24."""
    if tournament.format == Tournament.Format.RANKING_EVENT:
        return MOST_SEEDS if tournament.seeds_marked is None else tournament.seeds_marked
    if tournament.format == Tournament.Format.CHAMPIONSHIP:
        return CHAMPIONSHIP_FIELD if tournament.seeds_marked is None else tournament.seeds_marked
    if tournament.draw_seed is None:
        return None
    if tournament.seeds_marked is not None:
        return tournament.seeds_marked
    return 0 if tournament.tables else MOST_SEEDS


def late_draw_list(entries: list[TournamentEntry], *, draw_seed: int | None) -> tuple[int, ...]:
    """The late entrants after everyone drawn before them, as the program numbers them: each late
    draw's entrants after the earlier ones, in an order drawn from the event's number (seed order
    without one)."""
    stages = sorted({e.late_stage for e in entries if e.late_stage is not None})
    listing: list[int] = []
    for stage in stages:
        ids = [e.pk for e in entries if e.late_stage == stage]
        listing.extend(ids if draw_seed is None else shuffled(ids, draw_seed, f"late {stage}"))
    return tuple(listing)


def file_late_entrants(*, tournament: Tournament) -> list[dict[str, str]]:
    """The late entrants an imported KaisaKaavio file lists and nobody drew in yet: name and club."""
    listed = tournament.file_late_entrants if isinstance(tournament.file_late_entrants, list) else []
    entrants = (dict(entrant) for entrant in listed)
    return [{"name": str(e.get("Nimi", "")), "club": str(e.get("Seura", ""))} for e in entrants]


def games_begun(*, tournament: Tournament) -> QuerySet[TournamentPairing]:
    """The games begun: decided, or given a table."""
    return TournamentPairing.objects.filter(tournament=tournament).filter(
        Q(status=TournamentPairing.Status.DONE) | Q(table__isnull=False)
    )


def late_entries_open(tournament: Tournament) -> bool:
    """Whether the event's draw takes a late entrant now (services/late_entries.py): turned on, at
    the club, running, and no game after round 1 begun."""
    if not (tournament.late_entries and tournament.tables and tournament.format in LATE_FORMATS):
        return False
    if tournament.kind != Tournament.Kind.SINGLES:  # a late entrant is one player, by name
        return False
    if tournament.status != Tournament.Status.RUNNING:
        return False
    return not games_begun(tournament=tournament).filter(round__number__gt=1).exists()


def draw_event(*, tournament: Tournament) -> Event:
    every = list(TournamentEntry.objects.filter(tournament=tournament).order_by(*SEED_ORDER))
    entries = [e for e in every if e.late_stage is None]
    ids = [e.pk for e in entries]
    knockout_from = (
        tournament.knockout_from if tournament.format == Tournament.Format.DOUBLE_LOSS_THEN_KNOCKOUT else None
    )
    listing, seeds = _listing(tournament, entries, every)
    lots: tuple[int, ...] = ()
    if tournament.format == Tournament.Format.TWO_ROUNDS_THEN_CUP:
        if any(e.cup_lot is not None for e in entries):
            place = {entrant: i for i, entrant in enumerate(listing)}
            lots = tuple(sorted(ids, key=lambda e: (_lot(entries, e), place[e])))
        elif tournament.draw_seed is not None:
            lots = tuple(shuffled(listing, tournament.draw_seed, "lots"))
    target = event_clock_of(ruleset=tournament.ruleset, time_limit=tournament.time_limit).target_score
    kind = DRAW_FORMAT[Tournament.Format(tournament.format)]
    groups = venue_groups(tournament, entries, listing)
    join = (tournament.join_round or 0) if groups else 0
    return Event(kind, listing, knockout_from, lots, target, values.SCORE_MARGIN, seeds, groups, join)


def _listing(
    tournament: Tournament, entries: list[TournamentEntry], every: list[TournamentEntry]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The draw list (late entrants last) and a championship's seeds."""
    ids = [e.pk for e in entries]
    seeds: tuple[int, ...] = ()
    if tournament.format == Tournament.Format.CHAMPIONSHIP:
        listing, seeds = championship_list(ids, seeds=seeds_placed(tournament), draw_seed=tournament.draw_seed)
    else:
        listing = draw_list(ids, seeds=seeds_placed(tournament), draw_seed=tournament.draw_seed)
        listing += late_draw_list(every, draw_seed=tournament.draw_seed)
    fixed = {e.pk: e.list_place for e in entries if e.list_place is not None}
    if entries and len(fixed) == len(entries):  # a file's list that the seeds cannot say
        listing = (*sorted(ids, key=fixed.__getitem__), *listing[len(ids) :])
    return listing, seeds


def venue_groups(
    tournament: Tournament, entries: list[TournamentEntry], listing: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    """An event at several places: each place's entrants in the list's order, the host's first
    (services/venues.py gives each entry its place when the entries close); empty: one place."""
    if tournament.join_round is None or not entries or any(e.venue_id is None for e in entries):
        return ()
    venue_of = {e.pk: e.venue_id for e in entries}
    numbers = TournamentVenue.objects.filter(tournament=tournament).order_by("number").values_list("pk", flat=True)
    return tuple(tuple(e for e in listing if venue_of.get(e) == venue) for venue in numbers)


def _lot(entries: list[TournamentEntry], entrant: int) -> int:
    lot = next(e.cup_lot for e in entries if e.pk == entrant)
    return len(entries) + 1 if lot is None else lot


def drawn_pairings(*, tournament: Tournament) -> list[TournamentPairing]:
    """The pairings in the order they were drawn."""
    return list(TournamentPairing.objects.filter(tournament=tournament).select_related("round").order_by("index", "pk"))


def draw_state(*, tournament: Tournament, pairings: list[TournamentPairing] | None = None) -> DrawState:
    """The draw as the rows say it is (:func:`draw_games`). Raises DrawError if the rows are not a
    draw it would have made."""
    return DrawState(*draw_games(tournament=tournament, pairings=pairings))


def draw_games(
    *, tournament: Tournament, pairings: list[TournamentPairing] | None = None
) -> tuple[Event, tuple[Game, ...]]:
    """The event and the rows' games in their order, unchecked (a corrected result may leave them
    no draw until it is drawn again). A pairing decided with no winner (both sides no-shows) counts
    as won by its first entry, the one the draw was seeking a game for: the draw has no game both
    players lose. A pairing with no second entry is a cup walk-over."""
    event = draw_event(tournament=tournament)
    games: list[Game] = []
    drawn_in: dict[int, int] = {}
    for pairing in drawn_pairings(tournament=tournament) if pairings is None else pairings:
        first, second = pairing.first_id, pairing.second_id
        own = (drawn_in.get(first, 0) + 1, pairing.round.number if second is None else drawn_in.get(second, 0) + 1)
        winner = None
        if pairing.status == TournamentPairing.Status.DONE:
            winner = pairing.winner_id if pairing.winner_id is not None else first
        games.append(
            Game(
                first,
                second,
                pairing.round.number,
                own[0],
                own[1],
                winner,
                pairing.first_score,
                pairing.second_score,
                int(pairing.slot) if pairing.slot.isdigit() else None,
            )
        )
        drawn_in[first] = own[0]
        if second is not None:
            drawn_in[second] = own[1]
    return event, tuple(games)


def ready_pairings(
    *, tournament: Tournament, pairings: list[TournamentPairing] | None = None, waiting_only: bool = True
) -> list[TournamentPairing]:
    """The games to be played whose players have no earlier game in the program's list still to
    finish (one being played included), in the list's order: the next to play, those not yet on a
    table or given a match (with `waiting_only` False, those already begun too). A game drawn while
    a player's earlier game is still to be played waits for it."""
    pairings = drawn_pairings(tournament=tournament) if pairings is None else pairings
    if not pairings:
        return []  # nothing drawn yet (the entries still open, say)
    try:
        order = listing_order(draw_state(tournament=tournament, pairings=pairings))
    except DrawError:
        order = list(range(len(pairings)))  # rows the draw refuses: a page still shows them, as stored
    unfinished: set[int] = set()
    ready: list[TournamentPairing] = []
    for index in order:
        pairing = pairings[index]
        if pairing.status != TournamentPairing.Status.PLAYING:
            continue
        players = {e for e in (pairing.first_id, pairing.second_id) if e is not None}
        waiting = pairing.table is None and pairing.match_id is None
        if not players & unfinished and (waiting or not waiting_only):
            ready.append(pairing)
        unfinished |= players
    return ready
