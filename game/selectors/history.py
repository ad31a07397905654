"""The shot list a match page shows: one entry per versioned event that a player would want to read.

One home for the words: :func:`history_entry` turns a versioned event into its entry when the event is
stored (the services call it from `_store_event`), the entry travels inside the live event
(`d.entry`) and stays in the stored event's data. The snapshot's `history` reads those stored entries
back, newest first and bounded, so a reload, a reconnect or a late spectator get exactly the entries,
with exactly the words, that the live list showed.
"""

from __future__ import annotations

from typing import Any

from game.models import Match, MatchEvent

#: Event types that make an entry (`started` does not: nothing was played).
ENTRY_TYPES: tuple[str, ...] = ("shot", "placed", "choice", "timeout", "notice", "finished")
#: The snapshot carries at most this many entries (the newest); `total` counts them all. A long
#: match has a few hundred events, so a snapshot stays small (an entry is about 200 bytes).
HISTORY_LIMIT = 200


def _scores(data: dict[str, Any]) -> list[int]:
    state = data.get("state")
    players = state.get("players") if isinstance(state, dict) else None
    if isinstance(players, list) and len(players) == 2:
        return [int(p.get("score", 0)) for p in players]
    result = data.get("result")
    if isinstance(result, dict) and isinstance(result.get("scores"), list):
        return [int(s) for s in result["scores"]]
    return [0, 0]


def _choice_text(data: dict[str, Any], reason: str) -> str:
    """Say who chose what (the computer's choice is otherwise invisible), then what follows."""
    player = data.get("player")
    state = raw_state if isinstance(raw_state := data.get("state"), dict) else {}
    if state.get("phase") == "shootout":
        verb = "chooses to start the shoot-out" if data.get("take") else "lets the opponent start the shoot-out"
    else:
        verb = "takes the break" if data.get("take") else "passes the break"
    return f"{player} {verb}: {reason}" if reason else f"{player} {verb}"


def history_entry(t: str, v: int, data: dict[str, Any]) -> dict[str, Any] | None:
    """The shot-list entry of one versioned event (None for events that make none)."""
    if t not in ENTRY_TYPES:
        return None
    verdict = raw_verdict if isinstance(raw_verdict := data.get("verdict"), dict) else {}
    reason = str(verdict.get("reason") or "")
    entry: dict[str, Any] = {
        "v": v,
        "player": data.get("player"),
        "kind": t,
        "text": reason,
        "points": int(verdict.get("points") or 0),
        "penalty": int(verdict.get("penalty") or 0),
        "foul": verdict.get("foul"),
        "scores": _scores(data),
        "call": data.get("call"),
        # The rule ids that decided it: the shot list links each to its anchor on /rules/.
        "rules": [rule for rule in verdict.get("rules") or [] if isinstance(rule, str)],
    }
    if t == "shot":
        entry["kind"] = "lag" if data.get("kind") == "lag" else "shot"
    elif t == "placed":
        entry["kind"] = "place"
    elif t == "choice":
        entry["text"] = _choice_text(data, reason)
    elif t == "notice":
        entry["player"] = None
        entry["text"] = str(data.get("text") or "")
    elif t == "finished":
        result = raw_result if isinstance(raw_result := data.get("result"), dict) else {}
        aborted = result.get("how") == "aborted" or (not result and data.get("winner") is None)
        entry["kind"] = "abort" if aborted else "finish"
        entry["player"] = result.get("winner", data.get("winner"))
        entry["text"] = str(result.get("text") or data.get("reason") or "")
        entry["points"], entry["penalty"], entry["foul"], entry["call"] = 0, 0, None, None
    return entry


def match_history(*, match: Match, limit: int = HISTORY_LIMIT) -> dict[str, Any]:
    """The snapshot's `history`: the newest `limit` entries, oldest first, and how many there are.

    Reads only the events' stored `entry` column, never their data (a shot's segments are tens of KB)."""
    rows = list(
        MatchEvent.objects.filter(match=match, type__in=ENTRY_TYPES)
        .order_by("-version")
        .values_list("version", "type", "entry")[:limit]
    )
    missing = [version for version, _, entry in rows if not isinstance(entry, dict)]
    if missing:
        # Events stored before entries existed: made from their data, with the same function.
        made = {
            row.version: history_entry(row.type, row.version, row.data)
            for row in MatchEvent.objects.filter(match=match, version__in=missing)
        }
        rows = [(version, t, entry if isinstance(entry, dict) else made.get(version)) for version, t, entry in rows]
    total = len(rows)
    if total == limit:
        total = MatchEvent.objects.filter(match=match, type__in=ENTRY_TYPES).count()
    entries = [entry for _, _, entry in reversed(rows) if entry is not None]
    return {"entries": entries, "total": total}


def phase_notices(before: dict[str, Any], after: dict[str, Any]) -> list[tuple[str, str]]:
    """The K-11 moments a change brought about, as (kind, words): the `notice` events that follow it.

    Compared on the snapshots before and after, so a clock tick of the server and a shot that crossed
    the same line announce it the same way, once."""
    if not before or not after or after.get("phase") == "finished":
        return []
    notices: list[tuple[str, str]] = []
    rules = after.get("ruleset") or {}
    extra_each = int(rules.get("extra_visits_each", 2))
    shootout_visits = int(rules.get("shootout_visits", 10))
    was, now = before.get("clock") or {}, after.get("clock") or {}
    limit, warning = now.get("limit"), now.get("warning")
    if now.get("warned") and not was.get("warned") and limit is not None and warning is not None:
        notices.append(("time_warning", f"Time limit: the last {_duration(float(limit) - float(warning))}"))
    if now.get("expired") and not was.get("expired"):
        notices.append(
            (
                "time_up",
                f"Time is up: this round is finished, then each player gets {extra_each} more "
                f"visit{'s' if extra_each != 1 else ''} (K-11.1)",
            )
        )
    phase_was, phase = before.get("phase"), after.get("phase")
    if phase == "extra_visits" and phase_was != "extra_visits":
        last = next((p.get("name") for p in after.get("players") or [] if p.get("cue_ball") == "white2"), None)
        notices.append(("extra_visits", f"Extra visits: {_visits(extra_each)} each, {last} takes the last (K-11.1)"))
    if phase == "shootout" and phase_was != "shootout":
        notices.append(
            (
                "shootout",
                f"Shoot-out: only the kaisa stays; a new lag decides who starts; up to {_visits(shootout_visits)} "
                "each (K-11.2)",
            )
        )
    was_sudden = bool((before.get("shootout") or {}).get("sudden_death"))
    if phase == "shootout" and (after.get("shootout") or {}).get("sudden_death") and not was_sudden:
        notices.append(
            (
                "sudden_death",
                f"Sudden death: level after {_visits(shootout_visits)} each; the first penalty loses (K-11.4)",
            )
        )
    return notices


def _duration(seconds: float) -> str:
    """ "5 minutes", "1 minute", "5 seconds" (tests use limits of a minute)."""
    if seconds >= 60:
        minutes = round(seconds / 60)
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    whole = max(1, round(seconds))
    return f"{whole} second{'s' if whole != 1 else ''}"


def _visits(count: int) -> str:
    return f"{count} visit{'s' if count != 1 else ''}"
