"""A match's input record run through the engine: pure, no Django, so the computer player's process pool
can run it (the replay selectors and the shot analysis both do).

A record (``game.matches.selectors.replays.match_replay_record``) is the ``new`` arguments of
``Match.new`` and every stored input in order; running it reproduces the final snapshot exactly. It is
CPU-bound (every shot is simulated again): never run it on the event loop.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from game.engine.rules import Match

Before = Callable[[Match, dict[str, Any], dict[str, Any]], None]


def replay_apply(engine_match: Any, *, kind: str, player: str, data: dict[str, Any]) -> Any:
    """Applies one stored input to an engine Match (game.engine.rules.Match); returns its Outcome.

    Inputs are stored as the online layer received them (protocol.py): `shoot {call, strike}`,
    `lag {strike}`, `choose_break {take}`, `place {ball, x, y}` (or `position`), `resign`,
    `forfeit {reason}` (the named player loses), `touch_foul`, and the server-made `abort`, `timeout`
    (the shot clock of `player` ran out), `abandon {absent}` and `tick` (a K-11 clock moment). A
    recorded `now` is passed through so a clocked match replays its clock too.
    """
    now = data.get("now")
    timing = {"now": now} if isinstance(now, int | float) else {}
    if kind == "shoot":
        return engine_match.shoot(player, call=data.get("call"), strike=data["strike"], **timing)
    if kind == "lag":
        return engine_match.lag(player, data["strike"], **timing)
    if kind == "choose_break":
        return engine_match.choose_break(player, bool(data["take"]), **timing)
    if kind == "place":
        position = data.get("position") or (data["x"], data["y"])
        return engine_match.place(player, data["ball"], (float(position[0]), float(position[1])), **timing)
    if kind == "resign":
        return engine_match.resign(player, **timing)
    if kind == "forfeit":
        loser = data.get("loser", player)
        return engine_match.forfeit(loser, data.get("reason", "forfeit"), **timing)
    if kind == "touch_foul":
        return engine_match.touch_foul(player, **timing)
    # Made by the server's clocks and the abort input (game/matches/services/deadlines.py, matches.match_abort).
    if kind == "abort":
        return engine_match.abort(player, **timing)
    if kind == "timeout":
        return engine_match.expire_shot_clock(player, **timing)
    if kind == "abandon":
        return engine_match.abandon(list(data.get("absent") or [player]), **timing)
    if kind == "tick":
        return engine_match.tick(now)
    raise ValueError(f"unknown input kind {kind!r}")


def replayed(record: Mapping[str, Any], before: Before | None = None) -> Match:
    """The engine match after every input of ``record``; ``before`` sees each input before it is applied."""
    setup = record["new"]
    engine_match = Match.new(
        players=tuple(setup["players"]),
        ruleset=setup.get("ruleset"),
        time_limit=setup.get("time_limit"),
        now=setup.get("now"),
        teams=setup.get("teams"),
    )
    final = record.get("final_snapshot") or {}
    players = list(setup["players"])
    for entry in record["inputs"]:
        data = dict(entry.get("input") or {})
        if entry["kind"] == "forfeit" and "loser" not in data:
            # A claimed timeout is stored as the claimant's input; the loser is the other player and the
            # reason is the one the match finished with.
            data["loser"] = players[1 - players.index(entry["player"])]
            data.setdefault("reason", final.get("finish_reason") or "forfeit")
        if before is not None:
            before(engine_match, entry, data)
        replay_apply(engine_match, kind=entry["kind"], player=entry["player"], data=data)
    for name, connected in (record.get("presence") or {}).items():
        engine_match.set_connected(name, connected)
    return engine_match


def record_shots(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The shots of a record as the shot analysis reads them (game.engine.analysis.played_shots):
    ``{"snapshot", "player", "call", "strike"}`` per stored `shoot`, the snapshot the position just
    before it (a match stores its inputs, not a position per shot)."""
    shots: list[dict[str, Any]] = []

    def before(engine_match: Match, entry: dict[str, Any], data: dict[str, Any]) -> None:
        if entry["kind"] == "shoot":
            shots.append(
                {
                    "snapshot": engine_match.snapshot(),
                    "player": entry["player"],
                    "call": data.get("call"),
                    "strike": data["strike"],
                }
            )

    replayed(record, before=before)
    return shots
