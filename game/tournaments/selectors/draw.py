"""The double-loss draw of a tournament (issue 28) rebuilt from its rows: the draw list from the
entries, the games from the pairings in the order they were drawn. The draw itself is pure
(game/tournaments/pairing/double_loss.py); this module only turns rows into its input, so the same
rows always give the same state, and the page, the services and the tests read one and the same.

The draw list is the entries in seed order (seed 1 is the highest rating when the entries closed,
then the earlier entry; game/tournaments/services/setup.py) placed as the Kaisa handbook places the
top seeds: seeds 1 to 8 (all of them in a field of 8 or fewer) go to their handbook places
(:func:`game.tournaments.pairing.draw_seeding.seeded_draw_list`), and the others fill the free places
in seed order. So the order is decided by the seeds alone, and swapping two entries' seeds before
play swaps their places in the list.

A pairing stores the game's round (the draw's round, `TournamentPairing.round`) and its place in the
draw order (`TournamentPairing.index`, counted over the whole tournament). Each player's own round in
a game is not stored: it is one more than the games he had been drawn in before, which is what the
draw checks it against.
"""

from __future__ import annotations

from game.models.tournaments import Tournament, TournamentEntry, TournamentPairing
from game.tournaments.pairing.double_loss import DrawState, Event, Format, Game
from game.tournaments.pairing.draw_seeding import MOST_SEEDS, seeded_draw_list

#: The formats whose games are drawn one at a time rather than paired by whole rounds.
DRAWN_FORMATS = (
    Tournament.Format.DOUBLE_LOSS,
    Tournament.Format.DOUBLE_LOSS_THEN_KNOCKOUT,
    Tournament.Format.TWO_ROUNDS_THEN_CUP,
)
#: The entries' seed order (ties never happen once the entries closed: seeds are 1..n).
SEED_ORDER = ("seed", "-rating", "id")


def is_drawn(tournament: Tournament) -> bool:
    return tournament.format in DRAWN_FORMATS


def draw_list(entry_ids: list[int]) -> tuple[int, ...]:
    """The draw list of entries given in seed order: the top 1-8 at their handbook places."""
    seeds = min(MOST_SEEDS, len(entry_ids))
    return seeded_draw_list(entry_ids[:seeds], entry_ids[seeds:])


def draw_event(*, tournament: Tournament) -> Event:
    ids = list(TournamentEntry.objects.filter(tournament=tournament).order_by(*SEED_ORDER).values_list("pk", flat=True))
    knockout_from = (
        tournament.knockout_from if tournament.format == Tournament.Format.DOUBLE_LOSS_THEN_KNOCKOUT else None
    )
    return Event(Format(tournament.format), draw_list(ids), knockout_from)


def drawn_pairings(*, tournament: Tournament) -> list[TournamentPairing]:
    """The pairings in the order they were drawn."""
    return list(TournamentPairing.objects.filter(tournament=tournament).select_related("round").order_by("index", "pk"))


def draw_state(*, tournament: Tournament, pairings: list[TournamentPairing] | None = None) -> DrawState:
    """The draw as the rows say it is. A pairing decided with no winner (both sides no-shows) counts
    as won by its first entry, the one the draw was seeking a game for: the draw has no game both
    players lose. Raises DrawError if the rows are not a draw it would have made."""
    event = draw_event(tournament=tournament)
    games: list[Game] = []
    drawn_in: dict[int, int] = {}
    for pairing in drawn_pairings(tournament=tournament) if pairings is None else pairings:
        assert pairing.second_id is not None  # the draw never gives a bye: a resting player waits
        own = (drawn_in.get(pairing.first_id, 0) + 1, drawn_in.get(pairing.second_id, 0) + 1)
        winner = None
        if pairing.status == TournamentPairing.Status.DONE:
            winner = pairing.winner_id if pairing.winner_id is not None else pairing.first_id
        games.append(
            Game(
                pairing.first_id,
                pairing.second_id,
                pairing.round.number,
                own[0],
                own[1],
                winner,
                pairing.first_score,
                pairing.second_score,
            )
        )
        drawn_in[pairing.first_id], drawn_in[pairing.second_id] = own
    return DrawState(event, tuple(games))
