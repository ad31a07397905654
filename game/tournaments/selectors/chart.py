"""The wall chart of a drawn event (the "kaavio" a club pins on the wall, and the TV page's draw): a
line per player in draw-list order, a column per round, each cell the player's game of that round.

A round here is the player's own round, his n-th game (KaisaKaavio's chart has the same columns): a
player who rested plays his own round 3 in the draw's round 4, and his line still reads on without a
gap. Each cell names the opponent by his number in the list, the player's own score, whether he won
(the shoot-out's `v`, the time's mark) or lost (his first or second loss), and marks the game that put
him out; a game still being played shows its table. The players' numbers are the list's positions,
as the program prints them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.matches.selectors.match_result import TIME_MARK, WINNER_MARK
from game.models.tournaments import Tournament, TournamentEntry, TournamentPairing
from game.tournaments.pairing.double_loss import is_finished
from game.tournaments.pairing.double_loss_state import Record, records
from game.tournaments.selectors.draw import draw_state, drawn_pairings, is_drawn
from game.tournaments.selectors.tournaments import PLAYED, out_rounds, result_marks


@dataclass(frozen=True)
class ChartCell:
    """One game on a player's line. `won` None while it is played; `loss` the loss it was (1 or 2,
    0 for a win); `out` whether it put him out; `mark` the shoot-out's `v` or the time's mark beside
    a winner's score; `score` None for a game not played over the board (a forfeit)."""

    round: int
    opponent: int
    opponent_name: str
    score: int | None
    opponent_score: int | None
    won: bool | None
    loss: int
    out: bool
    mark: str
    table: int | None

    @property
    def score_text(self) -> str:
        if self.won is None:
            return ""
        shown = "–" if self.score is None else f"−{-self.score}" if self.score < 0 else str(self.score)
        return f"{shown}{self.mark}"


@dataclass(frozen=True)
class ChartLine:
    position: int
    entry_id: int
    name: str
    cells: tuple[ChartCell | None, ...]
    losses: int
    wins: int
    points: int
    out_round: int | None
    place: int | None
    playing: bool


def wall_chart(*, tournament: Tournament) -> dict[str, Any] | None:
    """The chart of a drawn event once its list is drawn (None for other formats, or before): its
    rounds, a line per player, and whether the event is over (the placings then follow it)."""
    if not is_drawn(tournament) or tournament.status not in PLAYED:
        return None
    pairings = drawn_pairings(tournament=tournament)
    state = draw_state(tournament=tournament, pairings=pairings)
    table = records(state)
    names = dict(TournamentEntry.objects.filter(tournament=tournament).values_list("pk", "name"))
    position = {entrant: number for number, entrant in enumerate(state.event.entrants, start=1)}
    cells: dict[int, list[ChartCell]] = {entrant: [] for entrant in state.event.entrants}
    losses: dict[int, int] = {}
    for pairing in pairings:
        _add_cells(cells, losses, pairing, position=position, names=names, table=table)
    rounds = max((len(line) for line in cells.values()), default=0)
    finished = is_finished(state)
    out_round = out_rounds(state)
    places = dict(TournamentEntry.objects.filter(tournament=tournament).values_list("pk", "place"))
    lines = [
        ChartLine(
            position=position[entrant],
            entry_id=entrant,
            name=names.get(entrant, "?"),
            cells=tuple(cells[entrant]) + (None,) * (rounds - len(cells[entrant])),
            losses=table[entrant].losses,
            wins=table[entrant].wins,
            points=table[entrant].points,
            out_round=out_round.get(entrant),
            place=places.get(entrant) if finished else None,
            playing=table[entrant].pending > 0,
        )
        for entrant in state.event.entrants
    ]
    return {"rounds": list(range(1, rounds + 1)), "lines": lines, "finished": finished}


def _add_cells(
    cells: dict[int, list[ChartCell]],
    losses: dict[int, int],
    pairing: TournamentPairing,
    *,
    position: dict[int, int],
    names: dict[int, str],
    table: dict[int, Record],
) -> None:
    """A game's cell on each of its players' lines: the opponent, the scores once played, the loss it
    counts and whether it put the player out, the winner's mark, the table while it is to be played."""
    played = pairing.status == TournamentPairing.Status.DONE
    marks = result_marks(pairing)
    scored = played and pairing.how == TournamentPairing.How.PLAYED
    assert pairing.second_id is not None  # the draw gives no byes
    sides = ((pairing.first_id, pairing.second_id), (pairing.second_id, pairing.first_id))
    # Each side's own score and its opponent's, once played.
    scores: tuple[tuple[int | None, int | None], ...] = ((None, None), (None, None))
    if scored:
        scores = ((pairing.first_score, pairing.second_score), (pairing.second_score, pairing.first_score))
    # A game decided with no winner (both sides absent) counts as the first's win, as the draw does.
    winner = (pairing.winner_id or pairing.first_id) if played else None
    mark = WINNER_MARK if marks["shootout"] else TIME_MARK if marks["on_time"] else ""
    for side, (entrant, other) in enumerate(sides):
        won = None if winner is None else winner == entrant
        if won is False:
            losses[entrant] = losses.get(entrant, 0) + 1
        games = len(cells[entrant]) + 1
        cells[entrant].append(
            ChartCell(
                round=games,
                opponent=position[other],
                opponent_name=names.get(other, "?"),
                score=scores[side][0],
                opponent_score=scores[side][1],
                won=won,
                loss=losses.get(entrant, 0) if won is False else 0,
                out=won is False and table[entrant].out_after == games,
                mark=mark if won else "",
                table=pairing.table if not played else None,
            )
        )
