"""Writes of a real game: each tap (and each undo) in one transaction that locks the game row, stored
once per client key, the version counted up by one; a refused tap is answered in words and changes
nothing. The server's clock (K-11.1) is applied before a tap: past the event's limit the game first
gets its `time_up`, so the extra visits and the shoot-out follow the rules whoever taps.

A game with a pairing of a club event enters its result in the draw when it ends, through the
tournaments' own result service (`game.tournaments.services.club.tournament_result_from_table`);
the draw then gives the freed table its next game, which :func:`game_for_table` opens."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db import transaction

from game.common.clock import game_now
from game.engine.rules import words
from game.engine.rules.errors import RuleError
from game.engine.rules.real_table import (
    FINISHED,
    RealShot,
    RealState,
    apply_real_shot,
    parse_real_shot,
    undo,
    visit_runs,
)
from game.engine.rules.ruleset import Ruleset
from game.models.realgames import RealGame, RealGameTap, ScoringTable
from game.models.tournaments import Tournament, TournamentPairing
from game.realgames.selectors import clock_due, ruleset_of, running_pairing, state_of, verdict_wire

#: A tap's key as a scorer's page makes it: the page's id and a counter, URL-safe.
CLIENT_KEY = re.compile(r"[A-Za-z0-9_.:-]{1,64}")
#: Keys the server makes for its own clock's inputs.
CLOCK_KEY = "clock:{version}"

#: The engine's finish keys as the draw's ends (game/tournaments/services/club.py ENDS).
_ENDS = {"target_reached": "target", "shootout_higher": "shootout", "sudden_death": "shootout"}
_ENDS["sudden_death_penalty"] = "shootout"


@dataclass(frozen=True)
class TapOutcome:
    """What a tap or an undo did. ``accepted`` false: refused, with ``code`` and ``words`` (every
    language); nothing was stored. ``duplicate``: the key was applied before, answered as it was."""

    game_id: int
    key: str
    accepted: bool
    version: int
    verdict: Mapping[str, Any] | None = None
    code: str | None = None
    words: Mapping[str, str] | None = None
    duplicate: bool = False
    finished: bool = False


def _refused(game_id: int, key: str, version: int, error: RuleError) -> TapOutcome:
    if error.key is not None:
        key_, params = error.key, error.params or {}
        said = words.in_every_language(lambda lang: words.refusal(key_, params, lang))
    else:
        said = {lang: _refusal_words(error.code, lang) or error.message for lang in words.LANGUAGES}
    return TapOutcome(game_id, key, False, version, code=error.code, words=said)


#: Refusals the engine's catalogues do not have (a malformed tap is a page's bug; undo with nothing).
_REFUSALS: dict[str, dict[str, str]] = {
    "nothing_to_undo": {"en": "There is nothing to undo", "fi": "Ei peruttavaa", "ru": "Нечего отменять"},
    "bad_key": {"en": "The tap has no valid key", "fi": "Napautuksen avain puuttuu", "ru": "У нажатия нет ключа"},
    "result_entered": {
        "en": "The result is in the draw already: the director corrects it",
        "fi": "Tulos on jo kaaviossa: kilpailunjohtaja korjaa sen",
        "ru": "Результат уже в сетке: его исправляет судья",
    },
}


def _refusal_words(code: str, language: str) -> str | None:
    return _REFUSALS.get(code, {}).get(language)


def _locked(game_id: int) -> RealGame:
    return RealGame.objects.select_for_update().get(pk=game_id)


def _now_dt() -> datetime:
    return datetime.fromtimestamp(game_now(), UTC)


def _store(game: RealGame, key: str, shot: RealShot, state: RealState, verdict: Mapping[str, Any]) -> RealGameTap:
    game.version += 1
    game.state = state.as_dict()
    _write_result(game, state)
    game.save()
    return RealGameTap.objects.create(game=game, seq=game.version, client_key=key, tap=shot.as_dict(), verdict=verdict)


def _write_result(game: RealGame, state: RealState) -> None:
    game.first_score, game.second_score = state.players[0].score, state.players[1].score
    if game.started_at is None:
        game.started_at = _now_dt()
    if state.phase == FINISHED:
        game.status = RealGame.Status.FINISHED
        game.winner = state.winner
        game.result_code = state.finish or ""
        game.finished_at = game.finished_at or _now_dt()
    else:
        game.status = RealGame.Status.PLAYING
        game.winner, game.result_code, game.finished_at = None, "", None


def _apply_clock(game: RealGame, state: RealState, ruleset: Ruleset) -> RealState:
    if not clock_due(game, state, game_now()):
        return state
    shot = RealShot("time_up")
    state, verdict = apply_real_shot(state, shot, ruleset)
    _store(game, CLOCK_KEY.format(version=game.version + 1), shot, state, verdict.as_dict())
    return state


def _seen(game: RealGame, key: str) -> TapOutcome | None:
    tap = RealGameTap.objects.filter(game=game, client_key=key).first()
    if tap is None:
        return None
    verdict = verdict_wire(tap.verdict) if tap.verdict.get("code") else None
    return TapOutcome(game.pk, key, True, game.version, verdict, duplicate=True, finished=_finished(game))


def _finished(game: RealGame) -> bool:
    return game.status == RealGame.Status.FINISHED


def apply_tap(game_id: int, client_key: str, tap: object) -> TapOutcome:
    """One scorer's tap: applied once per ``client_key`` (the same key again is answered as before),
    the version counted up; a refused tap (malformed, the game over, K-6.4) changes nothing."""
    with transaction.atomic():
        game = _locked(game_id)
        if not isinstance(client_key, str) or not CLIENT_KEY.fullmatch(client_key):
            return _refused(game_id, str(client_key)[:64], game.version, RuleError("bad_key"))
        seen = _seen(game, client_key)
        if seen is not None:
            return seen
        try:
            shot = parse_real_shot(tap)
            ruleset = ruleset_of(game)
            state = _apply_clock(game, state_of(game), ruleset)
            state, verdict = apply_real_shot(state, shot, ruleset)
        except RuleError as error:
            return _refused(game_id, client_key, game.version, error)
        stored = _store(game, client_key, shot, state, verdict.as_dict())
        verdict_said = verdict_wire(stored.verdict)
        outcome = TapOutcome(game.pk, client_key, True, game.version, verdict_said, finished=_finished(game))
        if outcome.finished and game.pairing_id is not None:
            _enter_result(game)
    return outcome


def undo_last(game_id: int, client_key: str) -> TapOutcome:
    """Take back the game's last tap (once per ``client_key``): the state is the other taps replayed;
    the undone tap is kept, marked. A game whose result is in the draw is corrected by the director."""
    with transaction.atomic():
        game = _locked(game_id)
        if not isinstance(client_key, str) or not CLIENT_KEY.fullmatch(client_key):
            return _refused(game_id, str(client_key)[:64], game.version, RuleError("bad_key"))
        seen = _seen(game, client_key)
        if seen is not None:
            return seen
        pairing = game.pairing
        if pairing is not None and pairing.status == TournamentPairing.Status.DONE:
            return _refused(game_id, client_key, game.version, RuleError("result_entered"))
        try:
            state = undo(state_of(game), ruleset_of(game))
        except RuleError as error:
            return _refused(game_id, client_key, game.version, error)
        last = game.taps.filter(undone=False).exclude(tap__kind="undo").order_by("-seq").first()
        if last is not None:
            last.undone = True
            last.save(update_fields=["undone"])
        _store(game, client_key, RealShot("undo"), state, {})
        return TapOutcome(game.pk, client_key, True, game.version, None, finished=_finished(game))


def _enter_result(game: RealGame) -> None:
    """The game is over: its result goes into the draw (the tournaments' own result service)."""
    from game.tournaments.services import BoardResult, tournament_result_from_table

    pairing = game.pairing
    if pairing is None or pairing.status == TournamentPairing.Status.DONE:
        return
    ended = _ENDS.get(game.result_code, "target")
    # The draw keeps end scores from 0 (a foul may leave a score below it, K-8.1).
    scores = (max(0, game.first_score), max(0, game.second_score))
    sides = (pairing.first_id, pairing.second_id)
    winner = sides[game.winner or 0] if ended == "shootout" else None
    result = BoardResult(scores[0], scores[1], ended, shootout_winner=winner)
    key = f"realgame-{game.pk:06d}-{game.version:06d}"
    tournament_result_from_table(pairing_id=pairing.pk, result=result, key=key, runs=visit_runs(state_of(game)))


# --- games on a table -----------------------------------------------------------------------------------


def _clock_of(tournament: Tournament) -> dict[str, Any]:
    rules = Ruleset.from_dict(tournament.ruleset or {}) if tournament.ruleset else Ruleset()
    limit = tournament.ruleset.get("time_limit") if tournament.ruleset else tournament.time_limit
    return {
        "target": rules.target_score,
        "time_limit": int(limit) if limit else None,
        "time_warning": int(rules.time_warning) if limit else None,
        "extra_visits": rules.extra_visits_each,
        "shootout_visits": rules.shootout_visits,
    }


def _handicaps(pairing: TournamentPairing) -> tuple[int, int]:
    values = []
    for entry in (pairing.first, pairing.second):
        # The event's start score of each entrant (K-9.1's target stays the game's), when it has one.
        values.append(int(getattr(entry, "handicap", None) or getattr(entry, "start_score", None) or 0))
    return values[0], values[1]


def game_for_table(table: ScoringTable) -> RealGame | None:
    """The game to score on ``table``: the one being played; else the club event's game the draw gave
    this table (made now, its players, start scores and clock the event's); else the last one played
    (finished, until a new one comes). None: the table has had no game."""
    current = RealGame.objects.filter(table=table).exclude(status=RealGame.Status.FINISHED).order_by("-pk").first()
    if current is not None:
        return current
    pairing = running_pairing(table)
    if pairing is not None and not RealGame.objects.filter(pairing=pairing).exists():
        return _game_of_pairing(table, pairing)
    return RealGame.objects.filter(table=table).order_by("-pk").first()


def _game_of_pairing(table: ScoringTable, pairing: TournamentPairing) -> RealGame:
    assert pairing.second is not None
    first_handicap, second_handicap = _handicaps(pairing)
    with transaction.atomic():
        game, _made = RealGame.objects.get_or_create(
            pairing=pairing,
            defaults={
                "table": table,
                "first_name": pairing.first.name,
                "second_name": pairing.second.name,
                "first_player_id": getattr(pairing.first, "player_id", None),
                "second_player_id": getattr(pairing.second, "player_id", None),
                "first_handicap": first_handicap,
                "second_handicap": second_handicap,
                **_clock_of(pairing.tournament),
            },
        )
    return game


def free_game(
    *, table: ScoringTable | None, names: tuple[str, str], target: int = 60, handicaps: tuple[int, int] = (0, 0)
) -> RealGame:
    """A game outside any event (a friendly on a club table): its players named by the scorer."""
    return RealGame.objects.create(
        table=table,
        first_name=names[0],
        second_name=names[1],
        target=target,
        first_handicap=handicaps[0],
        second_handicap=handicaps[1],
        time_limit=None,
    )


def scoring_table_add(*, club_id: int, number: int, name: str = "") -> ScoringTable:
    table, _made = ScoringTable.objects.get_or_create(club_id=club_id, number=number, defaults={"name": name})
    return table
