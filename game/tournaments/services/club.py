"""An event played at the club on real tables: the director's (or the players')
results entered by hand, and corrections that draw the later games again (its walk-ins:
walk_ins.py).

The games of such an event have no online match: the draw gives each a free table
(draw.draw_tables_give, called from play.draw_advance) and its result is typed in here as the
players report it: each score and how the game ended (at the target, on time, or in the shoot-out
with its winner, K-9.1 and K-11). Nothing over the board moves a rating: the ratings follow online
rated games only, and this event has none.

Every refusal is a TournamentError raised before anything is written or inside the transaction
that it rolls back, so a refused request changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_noop

from game.common.clock import game_now
from game.models.tournaments import (
    Tournament,
    TournamentEntry,
    TournamentEntryMember,
    TournamentPairing,
    TournamentResultFix,
    TournamentResultKey,
    TournamentRound,
)
from game.tournaments.selectors.draw import draw_state, drawn_pairings
from game.tournaments.selectors.tournaments import pairing_score_line
from game.tournaments.services import draw
from game.tournaments.services.base import TournamentError, is_manager, lock_tournament, require_manager
from game.tournaments.services.corrections import GameKept, Redrawn, outcome_of, outcome_words, redraw_keeping
from game.tournaments.services.play import draw_advance, pairing_decide, pairing_points, tournament_finish
from game.tournaments.values import Words, score, score_range

#: How a game over the board ended: the codes a match's `result_code` uses for the same ends, so the
#: pages and KaisaKaavio's `45v` mark read both alike (matches.selectors.match_result.score_line).
AT_TARGET, ON_TIME, SHOOTOUT = "target", "time_limit", "shootout"
ENDS = (AT_TARGET, ON_TIME, SHOOTOUT)


@dataclass(frozen=True)
class BoardResult:
    """A result as the director types it: each side's score, how it ended, and for a shoot-out the
    winner's entry id (a shoot-out winner may have fewer points, K-11.4; otherwise the scores say).
    A score None is one the form left blank: refused with the reason like any other."""

    first_score: int | None
    second_score: int | None
    ended: str
    shootout_winner: int | None = None


def target_of(tournament: Tournament) -> int:
    return int((tournament.ruleset or {}).get("target_score", 60))


def _require_club_event(tournament: Tournament) -> None:
    if not tournament.tables:
        raise TournamentError("not_at_club", gettext_noop("this tournament is played online, not at the club"))


# --- results entered by hand -------------------------------------------------------------------------


def may_enter_result(*, tournament: Tournament, pairing: TournamentPairing, user: Any) -> bool:
    """The director (the club's owner or an admin) always; the game's two players if the director
    allows it (`Tournament.players_enter_results`)."""
    if is_manager(club_id=tournament.club_id, user=user):
        return True
    if not tournament.players_enter_results or not getattr(user, "is_authenticated", False):
        return False
    return TournamentEntryMember.objects.filter(
        entry_id__in=(pairing.first_id, pairing.second_id), user_id=user.pk
    ).exists()


def result_winner(*, pairing: TournamentPairing, result: BoardResult, target: int) -> int:
    """The winning entry of `result` for `pairing` (:func:`board_winner`), each score named by its
    player as the form shows them."""
    rows = TournamentEntry.objects.filter(pk__in=(pairing.first_id, pairing.second_id)).values_list(
        "pk", "name", "handicap"
    )
    names = {pk: name for pk, name, _ in rows}
    handicaps = {pk: handicap for pk, _, handicap in rows}
    sides = (pairing.first_id, pairing.second_id or 0)
    fields = tuple(Words(gettext_noop("the score of %(name)s"), {"name": names.get(side, "?")}) for side in sides)
    floors = (handicaps.get(sides[0], 0), handicaps.get(sides[1], 0))
    return board_winner(sides=sides, fields=fields, result=result, target=target, floors=floors)


def board_winner(
    *,
    sides: tuple[int, int],
    fields: tuple[object, ...],
    result: BoardResult,
    target: int,
    floors: tuple[int, int] = (0, 0),
) -> int:
    """The winning side of `result` if it is one a game can end with; a refusal in words otherwise.
    The phone's form and a KaisaKaavio file's games are both checked here (`fields` name the two
    scores as each shows them), so a result one refuses the other refuses too.

    A shoot-out needs its winner (K-11.4: he may have fewer points, so the scores cannot say). With
    any other end the shoot-out winner is ignored, not refused: the scores name the winner (the one
    at the target, K-9.1; the one ahead when the time is up, K-11.1), so a tick cannot change what is stored,
    and a form without its script shows the radios with every end, where a director who ticked one
    and then chose "on time" meant the end he chose. Refusing would stop him for a field that says
    nothing. (With the script the radios are hidden and disabled for those ends, so none is sent.)
    `floors`: the scores the two players started at (their handicaps); a score below is refused."""
    scores = (result.first_score, result.second_score)
    if result.ended not in ENDS:
        raise TournamentError("bad_value", gettext_noop("choose how the game ended"))
    if any(isinstance(s, bool) or not isinstance(s, int) for s in scores):
        raise TournamentError("bad_value", gettext_noop("a score is a whole number"))
    values = (int(scores[0] or 0), int(scores[1] or 0))
    for value, field, floor in zip(values, fields, floors, strict=True):
        score(value, field=field, target=target, least=floor)
    reached = [s >= target for s in values]
    if result.ended == AT_TARGET:
        return _winner_at_target(sides, reached, target)
    if result.ended == ON_TIME:
        return _winner_on_time(sides, values, reached, target)
    return _winner_of_the_shootout(sides, reached, result.shootout_winner)


def _winner_at_target(sides: tuple[int, int], reached: list[bool], target: int) -> int:
    """K-9.1: the one player at the target."""
    if reached.count(True) != 1:
        raise TournamentError(
            "bad_value",
            gettext_noop("a game finished at the target has one player at %(target)s or more"),
            {"target": target},
        )
    return sides[reached.index(True)]


def _winner_on_time(sides: tuple[int, int], values: tuple[int, int], reached: list[bool], target: int) -> int:
    """K-11.1: the one ahead when the time is up, neither at the target."""
    if any(reached):
        raise TournamentError(
            "bad_value",
            gettext_noop("a player at %(target)s won at the target, not on time"),
            {"target": target},
        )
    if values[0] == values[1]:
        raise TournamentError("bad_value", gettext_noop("level on time is not an end: the game went to the shoot-out"))
    return sides[0 if values[0] > values[1] else 1]


def _winner_of_the_shootout(sides: tuple[int, int], reached: list[bool], winner: int | None) -> int:
    """K-11.4: the shoot-out's winner, named; one who reached the target must be him."""
    if winner not in sides:
        raise TournamentError("bad_value", gettext_noop("choose the winner of the shoot-out"))
    if all(reached):
        raise TournamentError("bad_value", gettext_noop("only one player can reach the target"))
    if any(reached) and sides[reached.index(True)] != winner:
        raise TournamentError("bad_value", gettext_noop("the player who reached the target won the shoot-out"))
    return int(winner)


def locked_pairing(pairing_id: int) -> tuple[TournamentPairing, Tournament]:
    pairing = TournamentPairing.objects.select_for_update().filter(pk=pairing_id).select_related("round").first()
    if pairing is None:
        raise TournamentError("not_found", gettext_noop("there is no such game"))
    tournament = lock_tournament(pairing.tournament_id)
    _require_club_event(tournament)
    return pairing, tournament


def _decide(tournament: Tournament, pairing: TournamentPairing, result: BoardResult) -> None:
    if tournament.kind == Tournament.Kind.CLUB_TEAMS:
        raise TournamentError("team_game", gettext_noop("a team game is decided by its three games: enter each game"))
    winner = result_winner(pairing=pairing, result=result, target=target_of(tournament))
    pairing_decide(
        pairing,
        winner=winner,
        how=TournamentPairing.How.PLAYED,
        points=pairing_points(tournament, pairing, winner),
        scores=(int(result.first_score or 0), int(result.second_score or 0)),
        result_code=result.ended,
    )


#: A result form's key (game/tournaments/club_views.py makes one for each form it shows).
ENTRY_KEY = re.compile(r"[A-Za-z0-9_-]{16,64}")


def result_key_seen(*, key: str, pairing_id: int) -> bool:
    """Whether the result a form carried under `key` is stored already: sent again (a phone that kept
    it while the connection was down, or lost the answer), it is answered as stored and changes
    nothing. No key (a form without one): never seen. A key that is not a form's, or that stored
    another game's result, is refused."""
    if not key:
        return False
    if not ENTRY_KEY.fullmatch(key):
        raise TournamentError("bad_value", gettext_noop("this form is out of date: open the tables page again"))
    kept = TournamentResultKey.objects.filter(key=key).values_list("pairing_id", flat=True).first()
    if kept is not None and kept != pairing_id:
        raise TournamentError("bad_value", gettext_noop("this form is out of date: open the tables page again"))
    return kept is not None


def _keep_key(key: str, pairing: TournamentPairing) -> None:
    if key:
        TournamentResultKey.objects.create(key=key, pairing=pairing)


@transaction.atomic
def tournament_result_enter(*, user: Any, pairing_id: int, result: BoardResult, key: str = "") -> TournamentPairing:
    """A game on a table has ended: its result is stored, the table is free, the draw draws on and
    the next drawn game goes to the free table (play.draw_advance). Only a game being played on a
    table takes a result; an entered one is corrected (:func:`tournament_result_correct`). A form's
    `key` stores its result once (:func:`result_key_seen`)."""
    pairing, tournament = locked_pairing(pairing_id)
    if result_key_seen(key=key, pairing_id=pairing.pk):
        return pairing
    if not may_enter_result(tournament=tournament, pairing=pairing, user=user):
        raise TournamentError(
            "not_allowed", gettext_noop("only the director enters this game's result"), forbidden=True
        )
    if pairing.status == TournamentPairing.Status.DONE:
        raise TournamentError("already_entered", gettext_noop("this game's result is in: correct it instead"))
    if pairing.table is None:
        raise TournamentError("no_table", gettext_noop("this game is waiting for a table"))
    _decide(tournament, pairing, result)  # it keeps its table, which is free once nothing plays on it
    _keep_key(key, pairing)
    draw_advance(tournament, game_now())
    return pairing


@transaction.atomic
def tournament_result_from_table(
    *, pairing_id: int, result: BoardResult, key: str, runs: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
) -> TournamentPairing:
    """A game scored at its table has ended: the same as :func:`tournament_result_enter`, the table's
    scorer standing for the director (the scorer's private link is the table's), with each player's
    two longest runs as the scorer counted them (`runs`: each player's, longest first). Once per `key`."""
    pairing, tournament = locked_pairing(pairing_id)
    if result_key_seen(key=key, pairing_id=pairing.pk) or pairing.status == TournamentPairing.Status.DONE:
        return pairing
    if tournament.kind == Tournament.Kind.CLUB_TEAMS:
        return pairing  # a team game is its three games': the director enters each (team_games.py)
    if pairing.table is None:
        raise TournamentError("no_table", gettext_noop("this game is waiting for a table"))
    _keep_runs(pairing, runs, target_of(tournament))
    _decide(tournament, pairing, result)
    _keep_key(key, pairing)
    draw_advance(tournament, game_now())
    return pairing


def _keep_runs(pairing: TournamentPairing, runs: tuple[tuple[int, ...], tuple[int, ...]], target: int) -> None:
    """The two longest runs of each side (KaisaKaavio's "pisimmät sarjat"), kept in the draw's bounds."""
    high = score_range(target)[1]
    longest = [[min(r, high) for r in side if r > 0][:2] for side in runs]
    pairing.first_longest_run, pairing.first_second_run = (longest[0] + [None, None])[:2]
    pairing.second_longest_run, pairing.second_second_run = (longest[1] + [None, None])[:2]


def correction_redraws(
    *, tournament: Tournament, pairing: TournamentPairing, new_winner: int, new_scores: tuple[int, int] | None = None
) -> list[Redrawn]:
    """The games a correction of `pairing` to `new_winner` (and `new_scores`) draws again. A new
    winner changes both players' losses (and whether each is still in), so every later game naming
    one of them was drawn from the wrong record; a game redrawn frees its players' later games too,
    so the rule follows on through them. And whatever else the draw, made again from the start with
    the corrected result (draw.draw_again), no longer has as it stands: a game between other players
    the search drew otherwise, or in `two_rounds_then_cup` a cup game whose seats the opening's
    corrected points move. The same result draws nothing again. A cup walk-over is no one's result:
    the draw gives it again or not."""
    names = dict(TournamentEntry.objects.filter(tournament=tournament).values_list("pk", "name"))
    touched = {pairing.first_id, pairing.second_id} if new_winner != pairing.winner_id else set()
    pairings = drawn_pairings(tournament=tournament)
    state = draw_state(tournament=tournament, pairings=pairings)
    position = next(i for i, p in enumerate(pairings) if p.pk == pairing.pk)
    scores = new_scores if new_scores is not None else (pairing.first_score, pairing.second_score)
    games = list(state.games)  # the corrected result; the later games as they were, a draw or not
    games[position] = replace(games[position], winner=new_winner, first_points=scores[0], second_points=scores[1])
    again = draw.draw_again(state.event, games, pairings)
    changed = {p.pk for p in (*again.lost, *again.unplayed)}
    redrawn: list[Redrawn] = []
    for game in sorted(pairings, key=lambda p: p.index):
        if game.second_id is None or game.pk == pairing.pk:
            continue
        later = game.index > pairing.index
        if game.pk in changed or (later and (game.first_id in touched or game.second_id in touched)):
            touched.update((game.first_id, game.second_id))
            done = game.status == TournamentPairing.Status.DONE
            redrawn.append(
                Redrawn(
                    pairing_id=game.pk,
                    first=names.get(game.first_id, "?"),
                    second=names.get(game.second_id or 0, "?"),
                    round=game.round.number,
                    table=game.table,
                    had_result=done,
                    score_line=pairing_score_line(game) if done else "",
                )
            )
    return redrawn


class _Rehearsed(Exception):
    """Rolls a rehearsed correction back, carrying what it gave back."""

    def __init__(self, given: dict[int, int]) -> None:
        super().__init__("rehearsed")
        self.given = given


@transaction.atomic
def tournament_result_correct(
    *, user: Any, pairing_id: int, result: BoardResult, confirm: bool, reason: str = "", key: str = ""
) -> list[Redrawn]:
    """The director corrects an entered result. If the winner changes (or, in a cup event, the
    seeding moves), the later games drawn from it (:func:`correction_redraws`) are taken out and the
    draw draws again from the corrected result; a game it gives again between the same two players
    keeps its result, its table and its times (corrections.py), the others' results are lost.
    Without `confirm` a correction that redraws anything is refused with each of those games, its
    result and whether the result is kept or lost (the form's warning step): the correction is
    rehearsed and rolled back, so the warning says what confirming does. The result before is kept
    (TournamentResultFix). Returns the games drawn again, each with its outcome. A form's `key`
    corrects once (:func:`result_key_seen`)."""
    pairing, tournament = locked_pairing(pairing_id)
    if result_key_seen(key=key, pairing_id=pairing.pk):
        return []
    require_manager(club_id=tournament.club_id, user=user)
    if pairing.status != TournamentPairing.Status.DONE:
        raise TournamentError("not_finished", gettext_noop("this game has no result yet: enter it instead"))
    winner = result_winner(pairing=pairing, result=result, target=target_of(tournament))
    scores = (int(result.first_score or 0), int(result.second_score or 0))

    def decide() -> dict[str, Any]:
        _decide(tournament, pairing, result)
        return _record(pairing)

    told = correction_make(
        Correction(user, tournament, pairing, winner, scores, decide, _record(pairing), reason), confirm=confirm
    )
    _keep_key(key, pairing)
    return told


def correction_reason(reason: str) -> str:
    reason = " ".join((reason or "").split())
    if len(reason) > 300:
        raise TournamentError("bad_value", gettext_noop("the reason is at most 300 characters"))
    return reason


@dataclass(frozen=True)
class Correction:
    """A correction of a decided game to `winner` with `scores`: `decide` stores it (the game's own
    result, or a team game's from its games) and returns the record kept after it; `before` is the
    record kept of it before."""

    user: Any
    tournament: Tournament
    pairing: TournamentPairing
    winner: int
    scores: tuple[int, int]
    decide: Callable[[], dict[str, Any]]
    before: dict[str, Any]
    reason: str


def correction_make(correction: Correction, *, confirm: bool) -> list[Redrawn]:
    """Make `correction` (see :func:`tournament_result_correct`): refused with the games it draws
    again, rehearsed and rolled back, unless `confirm`; the games drawn again, each with its outcome."""
    correction = replace(correction, reason=correction_reason(correction.reason))
    redrawn = correction_redraws(
        tournament=correction.tournament,
        pairing=correction.pairing,
        new_winner=correction.winner,
        new_scores=correction.scores,
    )
    if redrawn and not confirm:
        try:
            with transaction.atomic():
                raise _Rehearsed(_correct(correction, redrawn))
        except _Rehearsed as rehearsed:
            given = rehearsed.given
        told = [replace(r, outcome=outcome_of(r, given)) for r in redrawn]
        raise TournamentError(
            "confirm_redraw",
            gettext_noop("these games are drawn again; confirm the correction to go on"),
            more=[outcome_words(r) for r in told],
        )
    given = _correct(correction, redrawn)
    return [replace(r, outcome=outcome_of(r, given)) for r in redrawn]


def _correct(correction: Correction, redrawn: list[Redrawn]) -> dict[int, int]:
    """The correction itself (see :func:`tournament_result_correct`); returns the games given back."""
    tournament, pairing = correction.tournament, correction.pairing
    ended = pairing.finished_at
    after = correction.decide()
    if ended is not None:  # a correction changes the result, not when the game ended (the draw's order)
        pairing.finished_at = ended
        pairing.save(update_fields=["finished_at"])
    TournamentResultFix.objects.create(
        pairing=pairing, fixed_by=correction.user, reason=correction.reason, before=correction.before, after=after
    )
    given: dict[int, int] = {}
    now = game_now()
    if redrawn:
        out = TournamentPairing.objects.filter(pk__in=[r.pairing_id for r in redrawn]).order_by("index")
        taken_out = [GameKept.of(game) for game in out]
        out.delete()
        _renumber(tournament)
        given = redraw_keeping(tournament, taken_out, now)
    if tournament.status == Tournament.Status.FINISHED:
        if draw.draw_is_over(tournament):
            tournament_finish(tournament)  # the placings may have changed with the result
        else:
            draw.draw_reopen(tournament)  # a player back in: the draw goes on
    draw_advance(tournament, now)
    return given


def _renumber(tournament: Tournament) -> None:
    """The draw order without gaps, so the next drawn game's index (the number of games) is free."""
    for index, game in enumerate(TournamentPairing.objects.filter(tournament=tournament).order_by("index", "pk")):
        if game.index != index:
            game.index = index
            game.save(update_fields=["index"])
    TournamentRound.objects.filter(tournament=tournament, pairings__isnull=True).delete()


def _record(pairing: TournamentPairing) -> dict[str, Any]:
    return {
        "winner": pairing.winner_id,
        "how": pairing.result_code,
        "scores": [pairing.first_score, pairing.second_score],
    }
