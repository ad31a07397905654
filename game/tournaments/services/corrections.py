"""A correction at the club changes only what it must (game/tournaments/services/club.py
`tournament_result_correct`): the later games it draws again are taken out and the draw draws on
from the corrected result, and a game the draw gives again between the same two players is the game
that was there: it keeps its result, its table and its times (given its table, finished), and the
fixes logged on it. So a correction of round 1 that gives round 2 the same pairings loses no result
entered since; only a game between other players is new, and only a result of a game no longer
drawn is lost.

The event is drawn again from the start with every result, those taken out fed in the order they were
entered (the earliest finished first), each once its game is drawn again and its players are free
(services/draw.py `draw_redraw`): the order the draw saw them in the first place, so the rows are the
draw a replay of the event's export makes.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_noop

from game.models.tournaments import Tournament, TournamentBout, TournamentPairing, TournamentResultFix
from game.tournaments.services import draw
from game.tournaments.services.play import pairing_points

#: What becomes of a game a correction draws again (:class:`Redrawn`).
KEPT, LOST, STAYS, GONE = "kept", "lost", "stays", "gone"


@dataclass(frozen=True)
class FixKept:
    fixed_by_id: int | None
    reason: str
    before: dict[str, Any]
    after: dict[str, Any]
    created_at: datetime.datetime


@dataclass(frozen=True)
class BoutKept:
    """A game of a team game taken out with it (its players, the director's draws again, its result)."""

    index: int
    first_player: int
    second_player: int
    drawn_again: int
    winner_side: int | None
    scores: tuple[int, int]
    result_code: str
    finished_at: datetime.datetime | None

    def given_to(self, pairing: TournamentPairing, *, same_sides: bool) -> TournamentBout:
        """The game back in the team game `pairing`, its sides turned if the teams' are."""
        players, scores, side = (self.first_player, self.second_player), self.scores, self.winner_side
        if not same_sides:
            players, scores = players[::-1], scores[::-1]
            side = None if side is None else 1 - side
        return TournamentBout.objects.create(
            pairing=pairing,
            index=self.index,
            first_player_id=players[0],
            second_player_id=players[1],
            drawn_again=self.drawn_again,
            winner_side=side,
            first_score=scores[0],
            second_score=scores[1],
            result_code=self.result_code,
            finished_at=self.finished_at,
        )


@dataclass(frozen=True)
class GameKept:
    """A game about to be taken out by a correction, as it was: enough to give it back."""

    pairing_id: int
    round: int
    first: int
    second: int
    done: bool
    winner: int | None
    how: str
    result_code: str
    scores: tuple[int, int]
    table: int | None
    table_at: datetime.datetime | None
    finished_at: datetime.datetime | None
    fixes: tuple[FixKept, ...] = field(default=())
    bouts: tuple[BoutKept, ...] = field(default=())

    @classmethod
    def of(cls, pairing: TournamentPairing) -> GameKept:
        assert pairing.second_id is not None  # the draw never gives a bye
        return cls(
            pairing_id=pairing.pk,
            round=pairing.round.number,
            first=pairing.first_id,
            second=pairing.second_id,
            done=pairing.status == TournamentPairing.Status.DONE,
            winner=pairing.winner_id,
            how=pairing.how,
            result_code=pairing.result_code,
            scores=(pairing.first_score, pairing.second_score),
            table=pairing.table,
            table_at=pairing.table_at,
            finished_at=pairing.finished_at,
            fixes=tuple(
                FixKept(f.fixed_by_id, f.reason, f.before, f.after, f.created_at)
                for f in TournamentResultFix.objects.filter(pairing_id=pairing.pk).order_by("created_at", "pk")
            ),
            bouts=tuple(
                BoutKept(
                    b.index,
                    b.first_player_id,
                    b.second_player_id,
                    b.drawn_again,
                    b.winner_side,
                    (b.first_score, b.second_score),
                    b.result_code,
                    b.finished_at,
                )
                for b in TournamentBout.objects.filter(pairing_id=pairing.pk).order_by("index")
            ),
        )

    def same_players(self, pairing: TournamentPairing) -> bool:
        return {pairing.first_id, pairing.second_id} == {self.first, self.second}


@dataclass(frozen=True)
class Redrawn:
    """A game a correction draws again: its names, round and table, its result as it stands
    (`score_line`, blank if not played yet) and what becomes of it (`outcome`, known once the
    correction is rehearsed or made): a result `kept` or `lost`, a game not yet played drawn again
    (`stays`, on its table) or no longer drawn (`gone`)."""

    pairing_id: int
    first: str
    second: str
    round: int
    table: int | None
    had_result: bool
    score_line: str = ""
    outcome: str = ""


def outcome_of(game: Redrawn, given: dict[int, int]) -> str:
    if game.had_result:
        return KEPT if game.pairing_id in given else LOST
    return STAYS if game.pairing_id in given else GONE


#: The warning's line for each outcome (placeholders: first, second, round, score).
OUTCOME_WORDS = {
    KEPT: gettext_noop("%(first)s – %(second)s (round %(round)s) %(score)s: the result is kept"),
    LOST: gettext_noop("%(first)s – %(second)s (round %(round)s) %(score)s: the result is lost"),
    STAYS: gettext_noop("%(first)s – %(second)s (round %(round)s), not played yet: drawn again"),
    GONE: gettext_noop("%(first)s – %(second)s (round %(round)s), not played yet: no longer drawn"),
}


def outcome_words(game: Redrawn) -> tuple[str, dict[str, object]]:
    """The warning's line of `game` (words marked for translation, and their placeholders)."""
    return OUTCOME_WORDS[game.outcome], {
        "first": game.first,
        "second": game.second,
        "round": game.round,
        "score": game.score_line,
    }


def redraw_keeping(tournament: Tournament, taken_out: list[GameKept], now: float) -> dict[int, int]:
    """Draw again after a correction took `taken_out` out, giving each of them back to the game the
    draw gives again between the same two players in the same round (see the module's docstring).
    The event is drawn again from the start with every result, those taken out fed in the order they
    were entered (draw.draw_redraw), so the rows are the draw a replay of the event's export makes; a
    result is given back when that draw has its game played, a game not yet played its table. Returns,
    for each game given back, its old pairing id -> the pairing that is it now. The caller then
    advances the draw as after any result (play.draw_advance: tables, rounds, the end)."""
    del now  # the draw made again searches as of the results, not the clock
    outs = [
        draw.TakenOut(g.pairing_id, g.round, g.first, g.second, g.winner if g.done else None, g.scores, g.finished_at)
        for g in taken_out
        if not g.done or g.winner is not None
    ]
    back = draw.draw_redraw(tournament, outs).back
    given: dict[int, int] = {}
    for game in taken_out:
        if game.pairing_id not in back:
            continue
        pairing, played = back[game.pairing_id]
        if game.done and played:
            _give_result(tournament, pairing, game)
            given[game.pairing_id] = pairing.pk
        elif not game.done:
            _give_table(pairing, game)
            given[game.pairing_id] = pairing.pk
        else:
            continue
        for bout in game.bouts:  # a team game's own games come back with it
            bout.given_to(pairing, same_sides=pairing.first_id == game.first)
    draw.draw_searched_now(tournament)  # the results given back are the ones it searched after
    return given


def _give_table(pairing: TournamentPairing, game: GameKept) -> None:
    """A game not yet played, drawn again, goes back to its table if nothing else plays there now."""
    if game.table is None:
        return
    busy = TournamentPairing.objects.filter(
        tournament_id=pairing.tournament_id, status=TournamentPairing.Status.PLAYING, table=game.table
    ).exists()
    if not busy:
        pairing.table, pairing.table_at = game.table, game.table_at
        pairing.save(update_fields=["table", "table_at"])


def _give_result(tournament: Tournament, pairing: TournamentPairing, game: GameKept) -> None:
    same_sides = pairing.first_id == game.first
    pairing.status = TournamentPairing.Status.DONE
    pairing.winner_id = game.winner
    pairing.how = game.how
    pairing.result_code = game.result_code
    pairing.first_score, pairing.second_score = game.scores if same_sides else game.scores[::-1]
    pairing.first_points, pairing.second_points = pairing_points(tournament, pairing, game.winner)
    pairing.table, pairing.table_at, pairing.finished_at = game.table, game.table_at, game.finished_at
    pairing.no_show_deadline = None
    pairing.save()
    for fix in game.fixes:
        kept = TournamentResultFix.objects.create(
            pairing=pairing, fixed_by_id=fix.fixed_by_id, reason=fix.reason, before=fix.before, after=fix.after
        )
        TournamentResultFix.objects.filter(pk=kept.pk).update(created_at=fix.created_at)  # the log's own time
