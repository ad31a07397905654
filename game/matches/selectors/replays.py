"""Reads for replays: the downloadable input record of a match and the shot-by-shot steps the replay
page animates.

The record is *inputs*, not pictures: the players, the ruleset and time limit that `Match.new` was given,
and every stored input in order. Running those inputs through the engine reproduces the final snapshot
exactly (tests/matches/test_replay.py does this), so a record can be checked, re-judged after a rules fix,
or studied. The steps, on the other hand, are what was *shown*: the stored motion segments and verdicts,
so the page replays exactly what players saw without simulating anything.
"""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

from game.common.names import profile_name
from game.engine import ENGINE_VERSION
from game.engine.replay import record_shots, replayed
from game.matches.hooks import HOOKS
from game.matches.selectors.history import verdict_words
from game.matches.selectors.match_result import match_stored_result, result_in, score_line
from game.matches.selectors.match_state import match_scores
from game.models import Match, MatchEvent, Shot

REPLAY_FORMAT = "kaiza-replay/1"
REPLAYABLE = (Match.Status.FINISHED, Match.Status.ABORTED)


def match_player_names(*, match: Match) -> list[str]:
    """Seat order names as the engine knows them: from the snapshot when it has them (the engine's own
    names), else from the profiles."""
    players = (match.snapshot or {}).get("players") or []
    names = [name for p in players if isinstance(p, dict) and isinstance(name := p.get("name"), str) and name]
    if len(names) == 2:
        return names
    return [profile_name(user=match.player1), profile_name(user=match.player2)]


def match_replay_record(*, match: Match) -> dict[str, Any]:
    """The full input record of a match (JSON-ready); see the module docstring."""
    shots = Shot.objects.filter(match=match).order_by("seq")
    players = match_player_names(match=match)
    ruleset = match.ruleset or (match.snapshot or {}).get("ruleset") or None
    return {
        "format": REPLAY_FORMAT,
        "match": {
            "id": match.pk,
            "status": match.status,
            "rated": match.rated,
            "club": match.club.slug if match.club is not None else None,
            "winner": profile_name(user=match.winner) if match.winner_id else None,
            "result_reason": match.result_reason,
            "started_at": match.started_at.isoformat() if match.started_at else None,
            "finished_at": match.finished_at.isoformat() if match.finished_at else None,
        },
        "engine_version": ENGINE_VERSION,
        "new": {
            "players": players,
            "ruleset": ruleset,
            "time_limit": match.time_limit,
            "now": _start_time(match),
            **({"teams": (match.snapshot or {}).get("teams")} if match.team_size else {}),
        },
        "inputs": [
            {
                "seq": shot.seq,
                "version": shot.version,
                "kind": shot.kind,
                "player": shot.player_name,
                "input": shot.input,
                "snapshot_hash": shot.snapshot_hash,
            }
            for shot in shots
        ],
        "presence": _presence(match),
        "final_snapshot": match.snapshot,
    }


#: The stored input kinds (Shot.kind) as the replay's list says them: players read words, not ids.
INPUT_WORDS: dict[str, Promise] = {
    "lag": pgettext_lazy("a replay's input", "lag"),
    "choose_break": pgettext_lazy("a replay's input", "break choice"),
    "place": pgettext_lazy("a replay's input", "places the cue ball"),
    "shoot": pgettext_lazy("a replay's input", "shot"),
    "resign": pgettext_lazy("a replay's input", "resigns"),
    "forfeit": pgettext_lazy("a replay's input", "forfeit"),
    "abort": pgettext_lazy("a replay's input", "aborts"),
    "timeout": pgettext_lazy("a replay's input", "shot clock ran out"),
    "abandon": pgettext_lazy("a replay's input", "left the match"),
    "touch_foul": pgettext_lazy("a replay's input", "touch foul"),
}
OTHER_INPUT = pgettext_lazy("a replay's input", "move")


def _start_time(match: Match) -> float | None:
    """The `now` the online layer gave Match.new: a clocked match keeps it as clock.started."""
    clock = (match.snapshot or {}).get("clock")
    started = clock.get("started") if isinstance(clock, dict) else None
    return started if isinstance(started, int | float) else None


def _presence(match: Match) -> dict[str, bool]:
    """Who was connected at the end. Presence is not a game input but the snapshot records it
    (Match.set_connected), so the record carries it for the replay to set last."""
    players = (match.snapshot or {}).get("players") or []
    return {
        p["name"]: p["connected"]
        for p in players
        if isinstance(p, dict) and isinstance(p.get("name"), str) and isinstance(p.get("connected"), bool)
    }


def _state_scores(state: Any) -> list[int] | None:
    if not isinstance(state, dict):
        return None
    players = state.get("players")
    if not isinstance(players, list) or len(players) < 2:
        return None
    scores = [p.get("score") if isinstance(p, dict) else None for p in players[:2]]
    numbers = [s for s in scores if isinstance(s, int | float)]
    return [int(s) for s in numbers] if len(numbers) == len(scores) else None


def match_replay_steps(*, match: Match, language: str = "en") -> dict[str, Any]:
    """What the replay page animates: one step per stored input with its segments and verdict and the
    score after it. Scores come from the broadcast event's state when it was kept; otherwise they are
    summed from the verdicts (points to the shooter, penalties off the shooter, K-8.1), and the last
    step is pinned to the final snapshot, which is the authority. Each verdict's `reason` is said in the
    reader's ``language``, made from its stored code and params at read time (game.engine.rules.words)."""
    players = match_player_names(match=match)
    seat = {name: i for i, name in enumerate(players)}
    teams = (match.snapshot or {}).get("teams") or []
    seat.update({member: i for i, members in enumerate(teams) for member in members})  # a team's member
    states = {
        event.version: event.data.get("state")
        for event in MatchEvent.objects.filter(match=match).only("version", "data")
        if isinstance(event.data, dict)
    }
    scores = [0, 0]
    steps = []
    # A K-11 clock tick is a stored input (the record replays it) but nothing to show.
    for shot in Shot.objects.filter(match=match).exclude(kind="tick").order_by("seq"):
        verdict = shot.verdict if isinstance(shot.verdict, dict) else None
        if verdict is not None and language != "en":
            said = verdict_words(verdict, language)
            verdict = {**verdict, "reason": said} if said else verdict
        state = states.get(shot.version)
        from_state = _state_scores(state)
        if from_state is not None:
            scores = from_state
        elif verdict is not None and shot.player_name in seat:
            i = seat[shot.player_name]
            scores[i] += int(verdict.get("points") or 0) - int(verdict.get("penalty") or 0)
        steps.append(
            {
                "seq": shot.seq,
                "kind": shot.kind,
                "action": _in(language, INPUT_WORDS.get(shot.kind, OTHER_INPUT)),
                "player": shot.player_name,
                "input": shot.input,
                "call": shot.call,
                "verdict": verdict,
                "segments": shot.segments,
                "balls": state.get("balls") if isinstance(state, dict) else None,
                "scores": list(scores),
                "practice": _practice_code(shot),
            }
        )
    final_scores = list(match_scores(match=match))
    if steps:
        steps[-1]["scores"] = final_scores
    winner_name = (match.snapshot or {}).get("winner")
    winner_seat = players.index(winner_name) if winner_name in players else None
    result = result_in(match_stored_result(match=match), language)
    return {
        "score_line": score_line(scores=final_scores, winner_seat=winner_seat, how=match.result_code),
        # How it ended in the reader's words ("Bot-L5 won: reached 60"), no score of its own.
        "result": result["text"] if result else "",
        "players": players,
        **({"teams": teams} if teams else {}),
        "steps": steps,
        "final": {"balls": (match.snapshot or {}).get("balls"), "scores": final_scores},
        "winner": profile_name(user=match.winner) if match.winner_id else None,
    }


def _in(language: str, words: Promise) -> str:
    with translation.override(language):
        return str(words)


def _practice_code(shot: Shot) -> str | None:
    """The practice table's code of the position before a stored shot ("Practise this shot"), with the
    shooter's white (the verdict names it); None for other inputs or a record that does not say it."""
    if shot.kind != "shoot":
        return None
    params = (shot.verdict or {}).get("params") if isinstance(shot.verdict, dict) else None
    cue = params.get("cue") if isinstance(params, dict) else None
    return HOOKS.practice_code(shot.segments, cue)


def replay_run(*, record: dict[str, Any]) -> dict[str, Any]:
    """Re-plays a replay record (match_replay_record) through the engine and returns the final snapshot.

    CPU-bound (every shot is simulated again): call it off the event loop, never inside a request of a
    busy server. Tests and tools use it to check that a record reproduces its match.
    """
    return replayed(record).snapshot()


def replay_shots(*, record: dict[str, Any]) -> list[dict[str, Any]]:
    """The shots of a replay record as the shot analysis reads them: ``{"snapshot", "player", "call",
    "strike"}`` per stored `shoot`, the position just before it (game.engine.replay.record_shots, which
    the analysis runs in the computer player's pool); CPU-bound like replay_run."""
    return record_shots(record)
