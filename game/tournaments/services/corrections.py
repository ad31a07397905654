"""A correction at the club changes only what it must (game/tournaments/services/club.py
`tournament_result_correct`): the later games it draws again are taken out and the draw draws on
from the corrected result, and a game the draw gives again between the same two players is the game
that was there: it keeps its result, its table and its times (given its table, finished), and the
fixes logged on it. So a correction of round 1 that gives round 2 the same pairings loses no result
entered since; only a game between other players is new, and only a result of a game no longer
drawn is lost.

Results are given back one at a time, in the order they were entered (the earliest finished
first), each as soon as its game is drawn again, and the draw draws on after each: the order the
draw saw them in the first place.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_noop

from game.models.tournaments import Tournament, TournamentPairing, TournamentResultFix
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
class GameKept:
    """A game about to be taken out by a correction, as it was: enough to give it back."""

    pairing_id: int
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

    @classmethod
    def of(cls, pairing: TournamentPairing) -> GameKept:
        assert pairing.second_id is not None  # the draw never gives a bye
        return cls(
            pairing_id=pairing.pk,
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
    """Draw on after a correction took `taken_out` out, giving each of them back to the game the draw
    gives again between the same two players (see the module's docstring). Returns, for each game
    given back, its old pairing id -> the pairing that is it now. The caller then advances the draw
    as after any result (play.draw_advance: tables, rounds, the end)."""
    begun = tournament.starts_at.timestamp() <= now
    waiting = sorted(
        taken_out,
        key=lambda g: (not g.done, g.finished_at or datetime.datetime.max.replace(tzinfo=datetime.UTC), g.pairing_id),
    )
    before = set(TournamentPairing.objects.filter(tournament=tournament).values_list("pk", flat=True))
    given: dict[int, int] = {}
    while waiting:
        draw.draw_store_next(tournament, begun=begun)
        fresh = list(
            TournamentPairing.objects.filter(tournament=tournament, status=TournamentPairing.Status.PLAYING)
            .exclude(pk__in=before)
            .exclude(pk__in=given.values())
            .order_by("index", "pk")
        )
        for game in [g for g in waiting if not g.done]:  # nothing to feed the draw: all at once
            match = next((p for p in fresh if game.same_players(p)), None)
            if match is not None:
                _give_table(match, game)
                given[game.pairing_id] = match.pk
                fresh.remove(match)
                waiting.remove(game)
        played = next(((g, p) for g in waiting if g.done for p in fresh if g.same_players(p)), None)
        if played is None:
            break
        game, match = played
        _give_result(tournament, match, game)
        given[game.pairing_id] = match.pk
        waiting.remove(game)
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
