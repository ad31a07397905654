"""The shot list a match page shows: one entry per versioned event that a player would want to read.

One home for the words: :func:`history_entry` turns a versioned event into its entry when the event is
stored (the services call it from `_store_event`), the entry travels inside the live event
(`d.entry`) and stays in the stored event's data. The snapshot's `history` reads those stored entries
back, newest first and bounded, so a reload, a reconnect or a late spectator get exactly the entries,
with exactly the words, that the live list showed.
"""

from __future__ import annotations

from typing import Any

from game.engine.rules import words
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


def _choice_text(data: dict[str, Any], reason: str, language: str = "en") -> str:
    """Say who chose what (the computer's choice is otherwise invisible), then what follows."""
    state = raw_state if isinstance(raw_state := data.get("state"), dict) else {}
    params = {"player": data.get("player"), "take": data.get("take"), "shootout": state.get("phase") == "shootout"}
    who = words.text("choice", params, language)
    return f"{who}: {reason}" if reason else who


def verdict_words(verdict: dict[str, Any], language: str) -> str | None:
    """A verdict's sentence in ``language``, made from its `code` and `params` (None: no code, as in
    events stored before verdicts had one)."""
    code, params = verdict.get("code"), verdict.get("params")
    if not isinstance(code, str) or not isinstance(params, dict) or code not in words.CATALOGUES["en"].verdicts:
        return None
    return words.say(code, params, language)


def _entry_text(t: str, data: dict[str, Any], verdict: dict[str, Any], language: str) -> str | None:
    """The entry's sentence in one language (None: the event does not say it in words we can make)."""
    said = verdict_words(verdict, language)
    if t == "choice":
        return _choice_text(data, said or "", language) if said or not verdict else None
    if t == "notice":
        kind, params = data.get("kind"), data.get("params")
        if isinstance(kind, str) and isinstance(params, dict) and kind in words.CATALOGUES["en"].texts:
            return words.text(kind, params, language)
        return None
    if t == "finished":
        result = data.get("result")
        said_by = result.get("words") if isinstance(result, dict) else None
        base = language.split("@")[0]  # the result names no pocket: one sentence in either orientation
        return str(said_by[base]) if isinstance(said_by, dict) and said_by.get(base) else None
    return said


#: Event types whose entry says the verdict's own sentence (`_entry_text` returns it unchanged).
VERDICT_SENTENCE_TYPES = frozenset({"shot", "placed", "timeout"})


def entry_words(t: str, data: dict[str, Any], verdict: dict[str, Any], english: str) -> dict[str, str]:
    """The entry's `words`: its sentence in every language (`text` stays the English one), made once
    when the event is stored; each reader's client and page picks its own language.

    A shot's, a placement's or a timeout's entry says the verdict's sentence: where the verdict already
    carries it in every language (`worded_event_data` words it first), those words are taken, not made
    a second time (the sentences of six readings were ~6% of an input's CPU)."""
    said = verdict.get("words")
    if t in VERDICT_SENTENCE_TYPES and isinstance(said, dict) and said.get(words.DEFAULT_LANGUAGE):
        return {language: str(text) or english for language, text in said.items()}
    return words.in_every_language(lambda language: _entry_text(t, data, verdict, language) or english, portrait=True)


def entry_in(entry: dict[str, Any], language: str) -> dict[str, Any]:
    """An entry with its `text` in ``language`` (for pages rendered on the server)."""
    said = entry.get("words")
    if isinstance(said, dict) and said.get(language):
        return {**entry, "text": said[language]}
    return entry


def worded_event_data(t: str, v: int, data: dict[str, Any]) -> dict[str, Any]:
    """An event's data as every reader gets it: the verdict with its sentence in every language (made
    once, docs/i18n.md "Verdicts in the reader's language": each client reads `words[its language]`) and
    the shot list's `entry` (`history_entry`). The event store adds them to what it stores and sends
    (game.matches.services.base.store_event); anything else that shows events (the page tests' harness)
    takes them from here, so no copy of the shape drifts."""
    verdict = data.get("verdict")
    if isinstance(verdict, dict) and verdict_words(verdict, "en") is not None:
        said = words.in_every_language(lambda language: verdict_words(verdict, language) or "", portrait=True)
        data = {**data, "verdict": {**verdict, "words": said}}
    entry = history_entry(t, v, data)
    return data if entry is None else {**data, "entry": entry}


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
    _by_type(entry, t, data, reason)
    entry["words"] = entry_words(t, data, verdict, entry["text"])
    return entry


def _by_type(entry: dict[str, Any], t: str, data: dict[str, Any], reason: str) -> None:
    """What an event of type `t` changes in its entry: a lag's kind, a choice's words, a notice's
    text (no player's), a finish's (or an abort's) winner and reason."""
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


def notice_params(before: dict[str, Any], after: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The K-11 moments a change brought about, as (kind, params): the `notice` events that follow it,
    their words made from kind and params by the rules' catalogues (words.text), in every language.

    Compared on the snapshots before and after, so a clock tick of the server and a shot that crossed
    the same line announce it the same way, once."""
    if not before or not after or after.get("phase") == "finished":
        return []
    rules = after.get("ruleset") or {}
    extra_each = int(rules.get("extra_visits_each", 2))
    shootout_visits = int(rules.get("shootout_visits", 10))
    return [
        *_clock_notices(before.get("clock") or {}, after.get("clock") or {}, extra_each=extra_each),
        *_phase_change_notices(before, after, extra_each=extra_each, shootout_visits=shootout_visits),
    ]


def _clock_notices(was: dict[str, Any], now: dict[str, Any], *, extra_each: int) -> list[tuple[str, dict[str, Any]]]:
    """K-11.1: the players warned before the time limit, then the time up."""
    notices: list[tuple[str, dict[str, Any]]] = []
    limit, warning = now.get("limit"), now.get("warning")
    if now.get("warned") and not was.get("warned") and limit is not None and warning is not None:
        notices.append(("time_warning", {"seconds": float(limit) - float(warning)}))
    if now.get("expired") and not was.get("expired"):
        notices.append(("time_up", {"extra_each": extra_each}))
    return notices


def _phase_change_notices(
    before: dict[str, Any], after: dict[str, Any], *, extra_each: int, shootout_visits: int
) -> list[tuple[str, dict[str, Any]]]:
    """The two more visits each begin (K-11.1), the shoot-out (K-11.2), its sudden death (K-11.4)."""
    notices: list[tuple[str, dict[str, Any]]] = []
    phase_was, phase = before.get("phase"), after.get("phase")
    if phase == "extra_visits" and phase_was != "extra_visits":
        last = next((p.get("name") for p in after.get("players") or [] if p.get("cue_ball") == "white2"), None)
        notices.append(("extra_visits", {"extra_each": extra_each, "last": last}))
    if phase == "shootout" and phase_was != "shootout":
        notices.append(("shootout", {"visits": shootout_visits}))
    was_sudden = bool((before.get("shootout") or {}).get("sudden_death"))
    if phase == "shootout" and (after.get("shootout") or {}).get("sudden_death") and not was_sudden:
        notices.append(("sudden_death", {"visits": shootout_visits}))
    return notices


def phase_notices(before: dict[str, Any], after: dict[str, Any]) -> list[tuple[str, str]]:
    """The K-11 notices of a change as (kind, English words)."""
    return [(kind, words.text(kind, params)) for kind, params in notice_params(before, after)]
