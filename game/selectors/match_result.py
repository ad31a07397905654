"""The result of a finished match as players and spectators read it: the `result` object.

Built once, in the transaction that finishes the match, and sent in the `finished` event; the snapshot
carries the stored copy of it (so a reload after the finish shows the same card). The words live
here, the codes (`how`, the unrated reason) come from the services and `rating_eligibility`.
"""

from __future__ import annotations

from typing import Any

from game.models import Match, MatchEvent, RatingChange, TeamSeat
from game.selectors.match_state import engine_names
from game.selectors.rating_eligibility import reason_text

HOW_CODES: tuple[str, ...] = ("target", "resign", "shot_clock", "abandoned", "time_limit", "shootout", "aborted")


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


def _how_words(how: str, winner: str, loser: str, target: int) -> str:
    return {
        "target": f"reached {target}",
        "resign": f"{loser} resigned",
        "shot_clock": f"{loser} ran out of the shot clock 3 times in a row",
        "abandoned": f"{loser} left the match",
        "time_limit": "after the time limit",
        "shootout": "in the shoot-out",
    }.get(how, how.replace("_", " "))


def result_text(*, how: str, winner: str | None, loser: str | None, scores: list[int], reason: str, target: int) -> str:
    """The card's sentence: "alice won 60–41: reached 60", "Aborted by bob before the break".

    `scores` are the winner's first (a resignation can be won from behind: "alice won 12–30")."""
    if how == "aborted" or winner is None or loser is None:
        words = reason or "the match was aborted"
        if words.startswith("aborted"):
            return "Aborted" + words[len("aborted") :]
        return f"Aborted: {words}"
    words = _how_words(how, winner, loser, target)
    joiner = " " if how in ("time_limit", "shootout") else ": "
    dash = " to " if min(scores) < 0 else "–"  # "0 to −6" reads better than "0–−6" (K-11.3 penalties)
    return f"{winner} won {_score(scores[0])}{dash}{_score(scores[1])}{joiner}{words}"


def _score(points: int) -> str:
    """A score as printed: a negative one with a real minus sign (U+2212)."""
    return f"−{-points}" if points < 0 else str(points)


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
    text = result_text(
        how=how,
        winner=winner,
        loser=loser,
        scores=_ordered(scores, names, winner),
        reason=match.result_reason,
        target=target,
    )
    reason_words = None
    if match.rated and not rating_changes:
        code = unrated or "aborted"
        reason_words = reason_text(code)
    return {
        "winner": winner,
        "loser": loser,
        "scores": scores,
        "how": how,
        "text": text,
        "rated": bool(rating_changes),
        "unrated_reason": reason_words,
        "rating_changes": rating_changes,
    }


def _ordered(scores: list[int], names: list[str | None], winner: str | None) -> list[int]:
    """Winner's score first (the text reads "won 60–41")."""
    if winner is not None and winner in names and names.index(winner) == 1:
        return [scores[1], scores[0]]
    return scores


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
        return stored
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
        "rated": False,
        "unrated_reason": None,
        "rating_changes": [],
    }


def _legacy_how(reason: str) -> str:
    """The `how` of a match finished before `result_code` existed, read from its reason's words."""
    for words, how in (
        ("resigned", "resign"),
        ("left", "abandoned"),
        ("shot clock", "shot_clock"),
        ("K-11", "shootout"),
        ("shoot-out", "shootout"),
    ):
        if words in reason:
            return how
    return "target"
