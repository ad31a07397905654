"""The result of a finished match as players and spectators read it: the `result` object.

Built once, in the transaction that finishes the match, and sent in the `finished` event; the snapshot
carries the stored copy of it (so a reload after the finish shows the same card). The words live
here, the codes (`how`, the unrated reason) come from the services and `rating_eligibility`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils import translation

from game.engine.rules import words
from game.matches.hooks import HOOKS
from game.matches.selectors.match_state import engine_names
from game.models import Match, MatchEvent, RatingChange, TeamSeat

HOW_CODES: tuple[str, ...] = ("target", "resign", "shot_clock", "abandoned", "time_limit", "shootout", "aborted")
#: KaisaKaavio's mark of the winner's score (`45v`), written where a game was decided in the shoot-out.
WINNER_MARK = "v"
#: The mark of a win on time (K-11.1) beside the winner's score where only a mark fits (the wall chart,
#: the bracket, the TV's draw): a clock face, the same in every language, with a legend in words beside
#: it. The program has no mark for it; a page with room says "on time" in words.
TIME_MARK = "◷"


def score_line(*, scores: Sequence[int], winner_seat: int | None, how: str) -> str:
    """Both scores in seat order as KaisaKaavio writes a result: in a game decided in the shoot-out the
    winner's score carries a `v` (`45v – 52`: the winner may have fewer points, K-11.4); any other game
    is `60 – 41`. A negative score (K-11.3 penalties) has a true minus sign, as the end card prints it."""
    marks = ["", ""]
    if how == "shootout" and winner_seat is not None:
        marks[winner_seat] = WINNER_MARK
    shown = [f"−{abs(int(s))}" if int(s) < 0 else str(int(s)) for s in scores]
    return f"{shown[0]}{marks[0]} – {shown[1]}{marks[1]}"


def rating_change_dict(*, player: str, before: float, after: float) -> dict:
    """The shape the online layer sends in `finished.rating_changes`: whole points, as players read them."""
    return {"player": player, "before": round(before), "after": round(after), "delta": round(after) - round(before)}


def recorded_rating_changes(*, match: Match) -> list[dict]:
    """The rating changes stored for a match (seat order), in the shape of `finished.rating_changes`."""
    changes = RatingChange.objects.filter(match=match).select_related("user__profile")
    by_user = {change.user_id: change for change in changes}
    seats: list[int | None] = [match.player1_id, match.player2_id]
    if match.team_size:  # every member, team 0 first, each team in its rotation order
        seats = list(TeamSeat.objects.filter(match=match).order_by("team", "order").values_list("user_id", flat=True))
    ordered = [by_user[pid] for pid in seats if pid in by_user]
    return [
        rating_change_dict(player=c.user.profile.display_name, before=c.rating_before, after=c.rating_after)
        for c in ordered
    ]


def result_text(
    *,
    how: str,
    winner: str | None,
    loser: str | None,
    scores: list[int],
    reason: str,
    target: int,
    language: str = "en",
) -> str:
    """The card's sentence: "alice won: reached 60", "Aborted by bob before the break"; the templates
    are the rules' catalogues (words.text "result_won" / "result_aborted"), per language. The sentence
    names no score: every page prints the score between the two names in seat order ("bob 30 – 12
    alice", the `score_line`), the one order that reads right when the winner has fewer points."""
    if how == "aborted" or winner is None or loser is None:
        return words.text("result_aborted", {"reason": reason}, language)
    params = {"how": how, "winner": winner, "loser": loser, "scores": scores, "target": target}
    return words.text("result_won", params, language)


def result_words(
    *, how: str, winner: str | None, loser: str | None, scores: list[int], reason: str, target: int
) -> dict[str, str]:
    """The card's sentence in every language (the result's `words`: each reader picks theirs)."""
    return words.in_every_language(
        lambda language: result_text(
            how=how, winner=winner, loser=loser, scores=scores, reason=reason, target=target, language=language
        )
    )


def match_result(
    *,
    match: Match,
    snapshot: dict[str, Any],
    names: list[str | None],
    rating_changes: list[dict[str, Any]],
    unrated: str | None,
) -> dict[str, Any]:
    """The `result` object (docs/protocol.md) of a match the services just closed."""
    players = snapshot.get("players") or []
    scores = [int(p.get("score", 0)) for p in players] if len(players) == 2 else [0, 0]
    how = match.result_code or "aborted"
    winner = snapshot.get("winner") if how != "aborted" else None
    loser = None
    if winner is not None and winner in names:
        loser = names[1 - names.index(winner)]
    target = int((snapshot.get("ruleset") or {}).get("target_score", 60))
    said = result_words(
        how=how,
        winner=winner,
        loser=loser,
        scores=scores,
        reason=match.result_reason,
        target=target,
    )
    reason_words = None
    unrated_words = None
    if match.rated and not rating_changes:
        code = unrated or "aborted"
        reason_words = HOOKS.unrated_reason_text(code)
        unrated_words = unrated_reason_words(code)
    winner_seat = names.index(winner) if winner is not None and winner in names else None
    return {
        "winner": winner,
        "loser": loser,
        "scores": scores,
        "score_line": score_line(scores=scores, winner_seat=winner_seat, how=how),
        "how": how,
        "text": said["en"],
        "words": said,
        "rated": bool(rating_changes),
        "unrated_reason": reason_words,
        "unrated_words": unrated_words,
        "rating_changes": rating_changes,
    }


def unrated_reason_words(code: str) -> dict[str, str]:
    """Why a result was not rated, in every language players read (the result's `unrated_words`: each
    reader's card picks theirs, as with `words`)."""

    def in_language(language: str) -> str:
        with translation.override(language):
            return HOOKS.unrated_reason_text(code)

    return words.in_every_language(in_language)


def match_stored_result(*, match: Match) -> dict[str, Any] | None:
    """The result the `finished` event carried (the snapshot's `result`), None while the match is live."""
    if match.status not in (Match.Status.FINISHED, Match.Status.ABORTED):
        return None
    stored = (
        MatchEvent.objects.filter(match=match, type="finished")
        .order_by("-version")
        .values_list("data__result", flat=True)
        .first()
    )
    if isinstance(stored, dict):
        return worded_now(stored, match=match)
    if match.status == Match.Status.FINISHED and match.snapshot:
        # Finished before results were stored with the `finished` event: made from the row.
        if not match.result_code:
            match.result_code = _legacy_how(match.result_reason)
        return match_result(
            match=match,
            snapshot=match.snapshot,
            names=engine_names(match),
            rating_changes=recorded_rating_changes(match=match),
            unrated=None,
        )
    return {
        "winner": None,
        "loser": None,
        "scores": [0, 0],
        "how": match.result_code or "aborted",
        "text": result_text(
            how="aborted", winner=None, loser=None, scores=[0, 0], reason=match.result_reason, target=60
        ),
        "words": result_words(
            how="aborted", winner=None, loser=None, scores=[0, 0], reason=match.result_reason, target=60
        ),
        "rated": False,
        "unrated_reason": None,
        "rating_changes": [],
    }


def with_words(result: dict[str, Any]) -> dict[str, Any]:
    """A stored result as every reader reads it: one stored before results had `words` gets them,
    made from its codes (`how`, the names and scores) at read time."""
    if isinstance(result.get("words"), dict):
        return result
    scores = [int(s) for s in result.get("scores") or [0, 0]]
    winner, loser = result.get("winner"), result.get("loser")
    said = result_words(
        how=str(result.get("how") or "aborted"),
        winner=winner,
        loser=loser,
        scores=scores,
        reason="",
        target=60,
    )
    said["en"] = str(result.get("text") or said["en"])  # the stored English is what was shown
    return {**result, "words": said}


def worded_now(result: dict[str, Any], *, match: Match) -> dict[str, Any]:
    """A stored result with its sentence made again from its codes in today's words (a result stored
    when the sentence still carried a score, "bob won 0–6", reads like every other page)."""
    winner, loser, how = result.get("winner"), result.get("loser"), str(result.get("how") or "aborted")
    if how == "aborted" or not isinstance(winner, str) or not isinstance(loser, str):
        return with_words(result)
    target = int((match.ruleset or (match.snapshot or {}).get("ruleset") or {}).get("target_score", 60))
    said = result_words(how=how, winner=winner, loser=loser, scores=[0, 0], reason=match.result_reason, target=target)
    return {**result, "text": said["en"], "words": said}


def result_in(result: dict[str, Any] | None, language: str) -> dict[str, Any] | None:
    """The result with its `text` in the reader's language (pages rendered on the server)."""
    if result is None:
        return None
    said = with_words(result)
    return {**said, "text": said["words"].get(language) or said.get("text")}


def _legacy_how(reason: str) -> str:
    """The `how` of a match finished before `result_code` existed, read from its reason's words."""
    for phrase, how in (
        ("resigned", "resign"),
        ("left", "abandoned"),
        ("shot clock", "shot_clock"),
        ("K-11", "shootout"),
        ("shoot-out", "shootout"),
    ):
        if phrase in reason:
            return how
    return "target"
