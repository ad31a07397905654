"""A fixed match to analyse without a database: bot against bot from a seed, every search bounded by
its counts (budget ``math.inf``), so the same seed gives the same shots on any machine. The benchmark
(``bench_analysis``) and the tests use it: :func:`sample_match` as the analysed shots,
:func:`sample_record` as a stored match's input record (what the server's analysis starts from)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from game.engine.analysis.report import PlayedShot
from game.engine.bot.play import play_match

#: The benchmark's match: its seed, its levels and its length (the issue's 40-shot match).
SAMPLE_SEED = 29
SAMPLE_LEVELS = (2, 3)
SAMPLE_SHOTS = 40
#: Moves a sample match may take before its shots are counted out (lag, placements, shots).
SAMPLE_MAX_MOVES = 400


def sample_match(
    seed: int = SAMPLE_SEED, shots: int = SAMPLE_SHOTS, levels: tuple[int, int] = SAMPLE_LEVELS, target: int = 60
) -> list[PlayedShot]:
    """The first ``shots`` shots (fewer if the match ends first) of a bot match between ``levels``
    (first-seated first) to ``target`` points, each with the snapshot before it."""
    seats = ("north", "south")
    played: list[PlayedShot] = []

    def keep(snapshot: Mapping[str, Any], player: str, move: Mapping[str, Any], _outcome: Any) -> None:
        played.append(PlayedShot(snapshot, player, dict(move["call"]), dict(move["strike"])))

    play_match(
        dict(zip(seats, levels, strict=True)),
        seats,
        target=target,
        max_moves=SAMPLE_MAX_MOVES,
        seed=seed,
        budget=math.inf,
        on_shot=keep,
        max_shots=shots,
    )
    return played


def sample_record(
    seed: int = SAMPLE_SEED, shots: int = SAMPLE_SHOTS, levels: tuple[int, int] = SAMPLE_LEVELS, target: int = 60
) -> dict[str, Any]:
    """The same match as :func:`sample_match` as a stored match's input record (the shape of
    ``game.matches.selectors.replays.match_replay_record`` that :func:`game.engine.replay.record_shots`
    reads: ``new`` and every input, lags and placements included, in order): the benchmark analyses it
    the way the server analyses a stored match, positions replayed from the record first."""
    seats = ("north", "south")
    inputs: list[dict[str, Any]] = []
    first: list[Mapping[str, Any]] = []

    def keep(snapshot: Mapping[str, Any], player: str, move: Mapping[str, Any], _outcome: Any) -> None:
        if not first:
            first.append(snapshot)
        data = {key: value for key, value in move.items() if key not in ("action", "player")}
        inputs.append({"seq": len(inputs) + 1, "kind": move["action"], "player": player, "input": data})

    play_match(
        dict(zip(seats, levels, strict=True)),
        seats,
        target=target,
        max_moves=SAMPLE_MAX_MOVES,
        seed=seed,
        budget=math.inf,
        on_move=keep,
        max_shots=shots,
    )
    ruleset = first[0].get("ruleset") if first else None
    return {"new": {"players": list(seats), "ruleset": ruleset, "time_limit": None}, "inputs": inputs}
