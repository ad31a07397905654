"""The one snapshot of a real game every page and socket sends (`real_state`'s `game`): the scorer's
page, the live page, the event's pages and the stream overlay all read this and nothing else."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from game.common.clock import game_now
from game.engine.rules import words
from game.engine.rules.real_table import PLAY, SHOOTOUT, SHOOTOUT_LAG, RealState, new_real_state, verdict_words
from game.engine.rules.ruleset import Ruleset
from game.models.realgames import RealGame, ScoringTable
from game.models.tournaments import Tournament, TournamentPairing


def ruleset_of(game: RealGame) -> Ruleset:
    """The game's rules: the engine's defaults with the event's target and clock."""
    return dataclasses.replace(
        Ruleset(),
        target_score=int(game.target),
        extra_visits_each=int(game.extra_visits),
        shootout_visits=int(game.shootout_visits),
    )


def state_of(game: RealGame) -> RealState:
    if game.state:
        return RealState.from_dict(game.state)
    return new_real_state((game.first_name, game.second_name), (game.first_handicap, game.second_handicap))


def verdict_wire(verdict: Mapping[str, Any]) -> dict[str, Any]:
    """A stored verdict with its words in every language (the scorer and the live pages read these)."""
    said = words.in_every_language(lambda lang: verdict_words(verdict, lang))
    return {**verdict, "words": said}


def clock_due(game: RealGame, state: RealState, now: float) -> bool:
    """K-11.1: the event's limit is past (counted from the first tap) and not yet acted on."""
    if game.time_limit is None or game.started_at is None or state.time_up or state.phase != PLAY:
        return False
    return now - game.started_at.timestamp() >= game.time_limit


def running_pairing(table: ScoringTable) -> TournamentPairing | None:
    """The club event's game now on this table (the draw gave it the table's number)."""
    return (
        TournamentPairing.objects.filter(
            tournament__club_id=table.club_id,
            tournament__status=Tournament.Status.RUNNING,
            tournament__tables__isnull=False,
            table=table.number,
            status=TournamentPairing.Status.PLAYING,
            second__isnull=False,
        )
        .select_related("tournament", "first", "second")
        .order_by("table_at", "pk")
        .first()
    )


def next_pairing(table: ScoringTable, game: RealGame | None) -> TournamentPairing | None:
    """The event's game waiting for this table after ``game`` (the draw's next on it), if any."""
    pairing = running_pairing(table)
    if pairing is None or (game is not None and game.pairing_id == pairing.pk):
        return None
    return pairing


#: How many of the last shots the snapshot carries (newest first).
LAST_SHOTS = 8


def _table(table: ScoringTable | None) -> dict[str, Any] | None:
    if table is None:
        return None
    return {
        "number": table.number,
        "name": table.name,
        "stream_url": table.stream_url,
        "scoreboard_url": table.scoreboard_url,
    }


def _event(pairing: TournamentPairing | None) -> dict[str, Any] | None:
    if pairing is None:
        return None
    tournament = pairing.tournament
    return {"id": tournament.pk, "name": tournament.name, "round": pairing.round.number}


def clock_view(game: RealGame, now: float | None = None) -> dict[str, Any]:
    """K-11 as the pages show it: seconds elapsed and left of the event's limit (None: no limit), the
    warning, and where the game is (play, extra visits, shoot-out)."""
    state = state_of(game)
    now = game_now() if now is None else now
    started = game.started_at.timestamp() if game.started_at is not None else None
    until = game.finished_at.timestamp() if game.finished_at else now
    elapsed = None if started is None else max(0.0, until - started)
    limit, warning = game.time_limit, game.time_warning
    return {
        "limit": limit,
        "warning_at": warning,
        "started_at": started,
        "elapsed": elapsed,
        "remaining": None if limit is None or elapsed is None else max(0.0, limit - elapsed),
        "warning": bool(limit and warning and elapsed is not None and elapsed >= warning),
        "time_up": state.time_up or clock_due(game, state, now),
        "phase": state.phase,
        "extra_visits_left": len(state.extra_visits),
        "shootout": state.phase in (SHOOTOUT, SHOOTOUT_LAG),
        "shootout_visits": list(state.shootout_visits),
        "sudden_death": state.sudden_death,
        "now": now,
    }


def _last_shots(state_shots: Any) -> list[dict[str, Any]]:
    out = []
    for entry in list(state_shots)[-LAST_SHOTS:][::-1]:
        verdict = entry["verdict"]
        out.append(
            {
                "player": verdict["player"],
                "words": verdict_wire(verdict)["words"],
                "points": verdict["points"] - verdict["penalty"],
                "rules": list(verdict["rules"]),
                "code": verdict["code"],
            }
        )
    return out


def real_game_view(game: RealGame, *, spectators: int = 0) -> dict[str, Any]:
    """The game as every page shows it (docs/protocol.md, "Real game socket")."""
    state = state_of(game)
    pairing = game.pairing
    players = [
        {
            "name": p.name,
            "score": p.score,
            "handicap": p.handicap,
            "run": p.run,
            "visits": p.visits,
            "highest_run": p.highest_run,
            "fouls": p.fouls,
        }
        for p in state.players
    ]
    upcoming = next_pairing(game.table, game) if game.table is not None else None
    return {
        "id": game.pk,
        "version": game.version,
        "table": _table(game.table),
        "event": _event(pairing),
        "players": players,
        "turn": state.turn,
        "status": game.status,
        "winner": state.winner,
        "finish": state.finish,
        "target": game.target,
        "clock": clock_view(game),
        "last_shots": _last_shots(state.shots),
        "can_undo": bool(state.shots) and not (pairing is not None and pairing.status == "done"),
        "next_game": None
        if upcoming is None or upcoming.second is None
        else {"first": upcoming.first.name, "second": upcoming.second.name},
        "spectators": spectators,
    }
