"""What a player may do now (ARCHITECTURE 3, ``Match.constraints``): the client draws legality from
this and never re-implements a rule.

Everything here is *read off* the rules' own checks, never restated: the calls come from
:func:`~game.engine.rules.legality.validate_call` tried over every option, the placement region from the
constants the placement checks use. ``tests/rules/test_constraints.py`` proves the two agree: every call
and placement allowed here is accepted by the match, every one forbidden is refused.

``calls``: for each object ball the player may call, ``via`` (the balls it may be called off or with)
and for each pocket ``ways`` and ``why``. A way is a list of options ("object_cushions": one or more
object-ball cushions called; "cue_cushions": one or more cue-ball cushions called; "via:<ball>": that
kiss or combination ball); a call is allowed exactly when its options include every option of at least
one way (``[[]]``: the plain call is allowed; ``[]``: never). ``why`` says why the plain call (no
cushions, no via) is refused, or is null. Balls that can never be called are in ``not_callable`` with
the reason.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from typing import Any

from game.engine.balls import BALL_IDS
from game.engine.rules import words
from game.engine.rules.calls import Call
from game.engine.rules.errors import RuleError
from game.engine.rules.lag import LAG_BALLS
from game.engine.rules.lag_advice import lag_coin, suggested_lag_speeds
from game.engine.rules.legality import validate_call
from game.engine.rules.placement import TOUCH_TOLERANCE, mouth_centre
from game.engine.rules.state import SHOOTING_PHASES, MatchState, Phase, ShootoutStage, table_of
from game.engine.rules.strike import strike_limits
from game.engine.table import POCKET_IDS

OPTIONS: tuple[str, ...] = ("object_cushions", "cue_cushions")


def pending(state: MatchState) -> list[tuple[str, str]]:
    """Who may act now and how: (player, action), action in lag/choose_break/place/shoot. In a team
    match the player is the member whose visit it is (``MatchState.actor``)."""
    names = (state.actor(0), state.actor(1))
    stage = state.stage
    if state.phase == Phase.FINISHED:
        return []
    if state.phase == Phase.LAG or stage == ShootoutStage.LAG:
        return [(names[i], "lag") for i in (0, 1) if state.lag.results[i] is None]
    if state.phase == Phase.CHOOSE_BREAK or stage == ShootoutStage.CHOOSE:
        return [(names[state.turn], "choose_break")]
    if state.phase == Phase.OPENING_PLACEMENT:
        return [(names[state.turn], "place")]
    cue = state.shooter.cue_ball
    if cue is None or state.balls.get(cue) is None:
        return [(names[state.turn], "place")]
    return [(names[state.turn], "shoot")]


def actions(state: MatchState, player: str) -> list[str]:
    """The input kinds ``player`` may send now (a placed ball in hand may still be moved)."""
    out = [action for name, action in pending(state) if name == player]
    if out == ["shoot"] and state.visit.from_hand and state.phase in SHOOTING_PHASES:
        out = ["place", "shoot"]
    if state.phase != Phase.FINISHED and (player in state.names or state.team_of(player) is not None):
        out.append("resign")
    return out


def _plain(ball: str, pocket: str) -> dict[str, Any]:
    return {"ball": ball, "pocket": pocket, "object_cushions": 0, "cue_cushions": 0, "via": None}


def _refusal(state: MatchState, call: dict[str, Any], said: dict[str, RuleError] | None = None) -> str | None:
    """Why ``call`` is refused (None: allowed); the error is kept in ``said`` by its words, so the words
    a player reads can be made again in other languages (:func:`why_words`).

    It is kept without its traceback: the traceback holds this frame and, through it, every caller's frame
    up to the input path's, with their locals (the engine, the snapshot, the event being built), and the
    caller's ``said`` holds the error back, a cycle only the cyclic GC frees. One such cycle per input,
    about 190 objects, was most of the server's cyclic garbage under load, and its collections were the
    event loop's longest stops (docs/decisions/no-cyclic-garbage.md)."""
    try:
        validate_call(state, Call(**call))
    except RuleError as exc:
        if said is not None:
            said.setdefault(exc.message, exc.with_traceback(None))
        return exc.message
    return None


def _allowed(state: MatchState, call: dict[str, Any]) -> bool:
    """Whether ``call`` is allowed, without the words of a refusal (nobody reads them here)."""
    try:
        validate_call(state, Call(**call))
    except RuleError:
        return False
    return True


@functools.lru_cache(maxsize=64)
def _option_sets(vias: tuple[str, ...]) -> tuple[tuple[frozenset[str], dict[str, Any]], ...]:
    """The option sets `_ways` tries, smallest first (one to three of the cushion options and at most one
    kiss or combination ball of `vias`), each with the call's options it stands for. The same few lists
    serve every position (the vias are the other balls on the table), so they are made once."""
    atoms = [*OPTIONS, *(f"via:{v}" for v in vias)]
    out = []
    for size in (1, 2, 3):
        for combo in itertools.combinations(atoms, size):
            chosen = frozenset(combo)
            named = [a[4:] for a in combo if a.startswith("via:")]
            if len(named) > 1:
                continue
            options = {
                "object_cushions": int("object_cushions" in chosen),
                "cue_cushions": int("cue_cushions" in chosen),
                "via": named[0] if named else None,
            }
            out.append((chosen, options))
    return tuple(out)


def _ways(
    state: MatchState, ball: str, pocket: str, vias: list[str], said: dict[str, RuleError] | None = None
) -> tuple[list[list[str]], str | None]:
    """The minimal option sets that make a call of ``ball`` into ``pocket`` legal, and why the plain call
    is refused (None if it is not). Legality is monotone (adding an option to an allowed call never makes
    it illegal), so the minimal sets describe every allowed call, and two quick cases need no search:
    the plain call allowed (``[[]]``), or not even every option at once (``[]``)."""
    why = _refusal(state, _plain(ball, pocket), said)
    if why is None:
        return [[]], None
    every = {**_plain(ball, pocket), "object_cushions": 1, "cue_cushions": 1}
    if not any(_allowed(state, {**every, "via": via}) for via in [None, *vias]):
        return [], why
    # Smallest option sets first; a superset of a set already allowed is not minimal (monotone).
    minimal: list[frozenset[str]] = []
    for chosen, options in _option_sets(tuple(vias)):
        if any(m <= chosen for m in minimal):
            continue
        if _allowed(state, {"ball": ball, "pocket": pocket, **options}):
            minimal.append(chosen)
    unique = sorted({tuple(sorted(m)) for m in minimal}, key=lambda t: (len(t), t))
    return [list(t) for t in unique], why


def _shooting_state(state: MatchState, player: str) -> MatchState | None:
    """The state the player's next shot is judged in (his ball in hand counts as placed), or None."""
    acts = actions(state, player)
    if "shoot" in acts:
        return state
    if "place" in acts and state.phase in SHOOTING_PHASES:
        return state.evolve(visit=dataclasses.replace(state.visit, from_hand=True))
    return None


def calls(
    state: MatchState, player: str, said: dict[str, RuleError] | None = None
) -> tuple[dict[str, Any], dict[str, str]]:
    shooting = _shooting_state(state, player)
    if shooting is None:
        return {}, {}
    cue = shooting.shooter.cue_ball
    out: dict[str, Any] = {}
    refused: dict[str, str] = {}
    for ball in BALL_IDS:
        if ball == cue:
            continue
        vias = [b for b in BALL_IDS if b not in (ball, cue) and shooting.balls.get(b) is not None]
        pockets = {}
        for pocket in POCKET_IDS:
            ways, why = _ways(shooting, ball, pocket, vias, said)
            pockets[pocket] = {"ways": ways, "why": why}
        if any(p["ways"] for p in pockets.values()):
            out[ball] = {"via": vias, "pockets": pockets}
        else:
            refused[ball] = str(_refusal(shooting, _plain(ball, POCKET_IDS[0]), said))
    return out, refused


def placement(state: MatchState, player: str) -> dict[str, Any] | None:
    """Where ``player`` may put his ball now: the ball, the region and the touch tolerance, or None.

    ``region.kind`` "home" (K-7.1: centre x <= ``x_max``) or "opening" (K-3.3: centre x > ``x_min``,
    and no closer than ``half_width`` to either ``corridors`` segment); always within ``cloth`` (the
    rectangle of centres wholly on the cloth) and, for every ball in ``avoid``, at least
    ``2 * ball_radius + touch_tolerance`` from its centre.
    """
    if "place" not in actions(state, player):
        return None
    table = table_of(state)
    ball = state.shooter.cue_ball
    assert ball is not None
    R = table.ball_radius
    region: dict[str, Any] = {"cloth": [R, table.length - R, R, table.width - R]}
    if state.phase == Phase.OPENING_PLACEMENT:
        centre = table.spots["center"]
        region.update(
            kind="opening",
            x_min=table.length / 2,
            half_width=state.ruleset.corridor_width * R,
            corridors=[
                {"pocket": p, "from": list(centre), "to": list(mouth_centre(table, p))}
                for p in ("foot_right", "foot_left")
            ],
        )
    else:
        region.update(kind="home", x_max=table.home_line_x)
    avoid = {b: list(p) for b, p in state.balls.items() if b != ball and p is not None}
    return {
        "ball": ball,
        "region": region,
        "avoid": avoid,
        "ball_radius": R,
        "touch_tolerance": TOUCH_TOLERANCE,
    }


def lag(state: MatchState, player: str) -> dict[str, Any] | None:
    """While ``player`` owes a lag (K-3.1, K-11.2): ``{"speed"}``, a straight speed that stops just short
    of the home cushion with the colours where they lie, each player his own so that two lags at the
    offered speeds never tie (game.engine.rules.lag_advice); else None."""
    if "lag" not in actions(state, player):
        return None
    side = state.index_of(player)
    colours = tuple((b, p[0], p[1]) for b, p in sorted(state.balls.items()) if p is not None and b not in LAG_BALLS)
    coin = lag_coin(state.names, state.lag.round)
    return {"speed": round(suggested_lag_speeds(state.ruleset.ball_diameter, colours, coin)[side], 3)}


def why_words(allowed: dict[str, Any], refused: dict[str, str], said: dict[str, RuleError]) -> dict[str, Any]:
    """Each refusal the constraints show (a `why`), in the other languages: ``{english: {lang: words}}``.
    Only the distinct sentences that appear, so a state grows by a few sentences, not by a copy of every
    pocket's entry; the client looks its `why` up here (static/game/js/legality.js)."""
    shown = set(refused.values())
    shown.update(p["why"] for entry in allowed.values() for p in entry["pockets"].values() if p["why"])
    out: dict[str, Any] = {}
    for why in sorted(shown):
        exc = said.get(why)
        if exc is None or exc.key is None:
            continue
        key, params = exc.key, exc.params

        def refusal(lang: str, key: str = key, params: Any = params) -> str:
            return words.refusal(key, params, lang)

        said_in = words.in_every_language(refusal, portrait=True)
        out[why] = {lang: text for lang, text in said_in.items() if lang != words.DEFAULT_LANGUAGE}
    return out


def constraints(state: MatchState, player: str) -> dict[str, Any]:
    """``{"actions", "calls", "not_callable", "why_words", "placement", "strike_limits", "lag"}`` for ``player``,
    JSON-ready."""
    state.index_of(player)
    said: dict[str, RuleError] = {}
    allowed, refused = calls(state, player, said)
    return {
        "actions": actions(state, player),
        "calls": allowed,
        "not_callable": refused,
        "why_words": why_words(allowed, refused, said),
        "placement": placement(state, player),
        "strike_limits": strike_limits(),
        "lag": lag(state, player),
    }
