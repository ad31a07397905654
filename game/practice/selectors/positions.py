"""The practice table (`/practice/`): any position, any call, the server's engine, nothing stored.

The position lives in the page and in its link, never in the database: every request carries it as a
*position code* (:func:`position_code`), the server decodes and validates it (:func:`read_position`), acts
on it and answers the next position's code with the match-socket event to draw. So a shared link, an undo
(the page keeps the codes it was given) and a replay's "Practise this shot" link are all the same thing.

The code is compact and checkable: URL-safe base64 of one version byte, one byte of flags (bit 0: the
shooter plays ``white2``; bits 1 to 5: which of ``BALL_IDS`` are on the table; bit 6: the shooter's white
was placed by hand this visit, so the next shot is from hand, K-7.2) and, per ball on the table,
x and y in micrometres (the engine's own resolution, ``r6``) plus half a metre as 3-byte unsigned integers:
43 characters for five balls. The half metre (version 2) lets a ball hanging in a pocket's jaws, its centre
a few millimetres outside the cushions' rectangle, keep its place; version 1's codes (no margin, so such a
ball was moved onto the cushion line) are still read. A malformed code is refused with ``bad_position``; a
well-formed one whose balls could not rest there (off the cloth, overlapping) with the engine's own refusal
(:func:`layout_error`).

Shots are judged exactly as in a match (:mod:`game.practice.selectors.free_table`): the practising player shoots
with one white in the ``play`` phase; a white off the table is in hand and placed in the home (K-7.1), so
the verdict from hand is a match's (K-7.2). A placement answers the position with the white placed (bit 6),
so the link, an undo, a reload and "Ask the engine" all see the white where it was put.
"""

from __future__ import annotations

import base64
import binascii
import math
from dataclasses import dataclass
from typing import Any

from game.engine.balls import BALL_IDS, CUE_BALL_IDS
from game.engine.rules import Match, RuleError
from game.engine.rules.placement import home_placement_error, layout_error
from game.engine.rules.simulator import physics_simulator
from game.engine.rules.spotting import spot_position
from game.engine.table import kaisa_table
from game.matches.selectors.match_state import state_of
from game.practice.selectors.free_table import (
    PLAYER,
    TableAnswer,
    frame,
    placed_event,
    position_snapshot,
    read_body,
    refused,
    refused_by_rules,
    shot_event,
    verdict_words,
)
from game.realtime import outbound, protocol

CODE_VERSION = 2
#: Metres added to each coordinate in a version-2 code (the module docstring): a ball in a pocket's jaws
#: rests a little outside the cushions' rectangle, a coordinate below zero.
_MARGIN = 0.5
_MARGINS = {1: 0.0, CODE_VERSION: _MARGIN}
#: The longest code: 2 header bytes and 6 bytes for each of the five balls, in base64.
MAX_CODE_LENGTH = 44
_MICRO = 1_000_000
_COORD_MAX = (1 << 24) - 1
#: What a request may carry besides its ``position``: at most one action.
ACTIONS = ("move", "restore", "cue", "shoot")

Layout = dict[str, tuple[float, float] | None]


@dataclass(frozen=True)
class Position:
    """A practice position: where each ball lies (None: off the table) and the white the player shoots."""

    balls: Layout
    cue: str = "white1"
    #: The white was placed by hand this visit (K-7.1): the next shot is judged from hand (K-7.2).
    from_hand: bool = False

    @property
    def code(self) -> str:
        return position_code(self.balls, self.cue, from_hand=self.from_hand)

    def snapshot(self) -> dict[str, Any]:
        snapshot = position_snapshot(self.balls, self.cue)
        if self.from_hand:
            snapshot["visit"] = {"from_hand": True}
        return snapshot


def start_position() -> Position:
    """The balls on their spots (K-2.4) and the practising player's white in the home."""
    table = kaisa_table()
    return Position(
        balls={
            "white1": (round(table.home_line_x / 2, 6), round(table.width / 2, 6)),
            "white2": None,
            "red1": table.spots["front"],
            "red2": table.spots["rear"],
            "kaisa": table.spots["center"],
        }
    )


#: Bit 6 of the flags byte: the white was placed by hand this visit.
_FROM_HAND = 1 << (len(BALL_IDS) + 1)


def position_code(balls: Layout, cue: str = "white1", *, from_hand: bool = False) -> str:
    """The code of a layout (see the module docstring); positions are rounded to micrometres."""
    flags = (1 if cue == "white2" else 0) | (_FROM_HAND if from_hand else 0)
    body = bytearray()
    for index, ball in enumerate(BALL_IDS):
        at = balls.get(ball)
        if at is None:
            continue
        flags |= 1 << (index + 1)
        for value in at:
            body += min(max(round((value + _MARGIN) * _MICRO), 0), _COORD_MAX).to_bytes(3, "big")
    raw = bytes([CODE_VERSION, flags]) + bytes(body)
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_position(code: object) -> Position | RuleError:
    """The position a code holds, or ``bad_position`` when it is not one (any string, never raises);
    the layout is not checked here (:func:`read_position` does)."""
    bad = RuleError("bad_position", "the link does not hold a practice position")
    if not isinstance(code, str) or not 0 < len(code) <= MAX_CODE_LENGTH or not code.isascii():
        return bad
    try:
        raw = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
    except (binascii.Error, ValueError):
        return bad
    if len(raw) < 2 or raw[0] not in _MARGINS or raw[1] >> (len(BALL_IDS) + 2):
        return bad
    margin = _MARGINS[raw[0]]
    flags = raw[1]
    if flags & _FROM_HAND and raw[0] != CODE_VERSION:
        return bad
    present = [ball for index, ball in enumerate(BALL_IDS) if flags & (1 << (index + 1))]
    if len(raw) != 2 + 6 * len(present):
        return bad
    balls: Layout = dict.fromkeys(BALL_IDS)
    for n, ball in enumerate(present):
        chunk = raw[2 + 6 * n : 8 + 6 * n]
        x, y = (int.from_bytes(part, "big") / _MICRO - margin for part in (chunk[:3], chunk[3:]))
        balls[ball] = (round(x, 6), round(y, 6))
    return Position(balls=balls, cue="white2" if flags & 1 else "white1", from_hand=bool(flags & _FROM_HAND))


def read_position(code: object) -> Position | RuleError:
    """The position of a code whose balls could rest where it says, or why not; a white placed by hand
    must lie in the home, as K-7.1 placed it."""
    position = decode_position(code)
    if isinstance(position, RuleError):
        return position
    table = kaisa_table()
    error = layout_error(position.balls, table, position.cue)
    if error is not None:
        return error
    if position.from_hand:
        white = position.balls[position.cue]
        if white is None or home_placement_error(white, position.balls, table, position.cue) is not None:
            return RuleError("bad_position", "the link does not hold a practice position")
    return position


def position_from_segments(segments: object, cue: object) -> Position | None:
    """Where the balls stood when a stored shot began (each ball's first motion segment, ARCHITECTURE
    section 4: the segments cover every ball of the shot), for the replay's "Practise this shot"; None
    when the stored segments do not say it or the layout is not one (an old record)."""
    if not isinstance(segments, dict):
        return None
    balls: Layout = dict.fromkeys(BALL_IDS)
    for ball in BALL_IDS:
        track = segments.get(ball)
        if track is None:
            continue
        first = track[0] if isinstance(track, list) and track else None
        if not isinstance(first, list) or len(first) < 3 or not all(isinstance(v, int | float) for v in first[1:3]):
            return None
        balls[ball] = (round(float(first[1]), 6), round(float(first[2]), 6))
    position = read_position(position_code(balls, cue if isinstance(cue, str) and cue in CUE_BALL_IDS else "white1"))
    return position if isinstance(position, Position) else None


def shot_practice_code(segments: object, cue: object) -> str | None:
    """The code of the position a stored shot began from (the replay's "Practise this shot" link),
    or None: game.matches' `practice_code` hook."""
    position = position_from_segments(segments, cue)
    return position.code if position is not None else None


def practice_state(position: Position) -> dict[str, Any]:
    """What the page draws for a position: the match socket's ``state`` and the position's code."""
    return {"position": position.code, "state": state_of(position.snapshot())}


def _answer(position: Position, event: dict[str, Any] | None = None, words: str | None = None) -> TableAnswer:
    """The answer: ``event`` to draw (a ``snapshot`` of the position when None), the next position's code
    and its ``state`` with the practising player to shoot (after a missed call the engine's own state
    gives the turn away; the practice table keeps it)."""
    state = state_of(position.snapshot())
    return TableAnswer(
        event=event or outbound.page_event("snapshot", {"state": state}),
        words=words,
        extra={"position": position.code, "state": state},
    )


def practice_play(*, body: str | bytes, language: str | None = "en") -> TableAnswer:
    """One request of the practice table: JSON ``{"position": code, and at most one of "move": {ball, x,
    y}, "restore": ball, "cue": white, "shoot": {call, strike} (with "place": {ball, x, y} first when the
    white is in hand)}``. Answers the event to draw (``snapshot`` for a changed or just checked position,
    ``placed``, ``shot`` with the verdict and its words) and the next position's code. Refusals:
    ``too_large``, ``bad_json``, ``bad_shape``, ``bad_position``, ``off_table``, ``overlapping``, the
    socket's codes and the engine's. Never raises; nothing is stored."""
    raw = read_body(body, frozenset({"position", "place", *ACTIONS}))
    if isinstance(raw, TableAnswer):
        return raw
    if sum(key in raw for key in ACTIONS) > 1 or ("place" in raw and set(raw) - {"position", "place", "shoot"}):
        return refused("bad_shape", "one action at a time: move, restore, cue or shoot (with place)")
    position = read_position(raw.get("position"))
    if isinstance(position, RuleError):
        return refused_by_rules(position, language)
    try:
        return _act(position, raw, language)
    except RuleError as refusal:
        return refused_by_rules(refusal, language)


def _act(position: Position, raw: dict[str, Any], language: str | None) -> TableAnswer:
    if "move" in raw:
        move = raw["move"]
        if not isinstance(move, dict) or set(move) != {"ball", "x", "y"}:
            return refused("bad_shape", "a move is an object with ball, x and y")
        if move["ball"] not in BALL_IDS:
            return refused("unknown_ball", "there is no such ball")
        xy = (move["x"], move["y"])
        if not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in xy):
            return refused("bad_value", "x and y are numbers in metres")
        at = (round(float(xy[0]), 6), round(float(xy[1]), 6))
        return _arranged(position, {**position.balls, move["ball"]: at}, position.cue)
    if "restore" in raw:
        ball = raw["restore"]
        if ball not in BALL_IDS:
            return refused("unknown_ball", "there is no such ball")
        if position.balls[ball] is not None:
            return refused("on_the_table", "that ball is on the table")
        at, _spot = spot_position(ball, position.balls, kaisa_table())
        return _arranged(position, {**position.balls, ball: at}, position.cue)
    if "cue" in raw:
        if raw["cue"] not in CUE_BALL_IDS:
            return refused("unknown_ball", "the cue ball is white1 or white2")
        return _arranged(position, position.balls, raw["cue"])
    if "shoot" not in raw and "place" not in raw:
        return _answer(position)
    engine = Match.from_snapshot(position.snapshot())
    if "place" in raw:
        place = frame("place", raw["place"])
        if isinstance(place, protocol.Invalid):
            return refused(place.code, place.message)
        assert isinstance(place, protocol.Place)
        if place.ball != position.cue:
            return refused("not_your_ball", "place the white you play with")
        engine.place(PLAYER, place.ball, (place.x, place.y))
        if "shoot" not in raw:
            return _answer(_after(engine, position.cue, from_hand=True), placed_event(engine, place.ball))
    if isinstance(raw["shoot"], dict) and "call" in raw["shoot"] and raw["shoot"]["call"] is None:
        return _uncalled(engine, position, raw["shoot"])
    shoot = frame("shoot", raw["shoot"])
    if isinstance(shoot, protocol.Invalid):
        return refused(shoot.code, shoot.message)
    assert isinstance(shoot, protocol.Shoot)
    event, verdict = shot_event(engine, shoot)
    return _answer(_after(engine, position.cue), event, verdict_words(verdict, language))


#: Any call, to read an uncalled shot's strike with the socket's own parser (the call is then dropped).
_ANY_CALL = {"ball": "kaisa", "pocket": "foot_left"}


def _uncalled(engine: Match, position: Position, data: dict[str, Any]) -> TableAnswer:
    """A shot played with no call (``"call": null``): in a match every shot is called (K-4.1) and this one
    would be refused, so nothing is judged; the rules' own door to the physics (``physics_simulator``,
    the real ``simulate``) plays it and the balls end where they stop (a dropped ball is off the table).
    The answer's verdict says so in structure (``code`` ``uncalled``, rule K-4.1); the page has the words."""
    shoot = frame("shoot", {**data, "call": _ANY_CALL})
    if isinstance(shoot, protocol.Invalid):
        return refused(shoot.code, shoot.message)
    assert isinstance(shoot, protocol.Shoot)
    balls = engine.snapshot()["balls"]
    cue = position.cue
    if balls.get(cue) is None:
        raise RuleError("cue_ball_in_hand", "place your cue ball in the home first", "cue_ball_in_hand", {})
    resting = {ball: (at[0], at[1]) for ball, at in balls.items() if at is not None}
    strike = shoot.strike.as_dict()
    shot = physics_simulator(kaisa_table(), resting, shoot.strike, cue)
    after: Layout = dict.fromkeys(BALL_IDS)
    for ball, state in shot.final.items():
        if ball not in shot.pocketed:
            after[ball] = (round(state.position[0], 6), round(state.position[1], 6))
    layout = Position(balls=after, cue=cue)
    verdict: dict[str, Any] = {
        "scored": False,
        "points": 0,
        "penalty": 0,
        "foul": None,
        "caroms": [],
        "turn_passes": False,
        "rules": ["K-4.1"],
        "code": "uncalled",
        "params": {},
        "pocketed": [[ball, pocket] for ball, pocket in shot.pocketed.items()],
    }
    data_out = {
        "kind": "shot",
        "player": PLAYER,
        "call": None,
        "strike": strike,
        "verdict": verdict,
        "segments": shot.segments,
        "state": state_of(layout.snapshot()),
    }
    return _answer(layout, outbound.page_event("shot", data_out))


def _arranged(position: Position, balls: Layout, cue: str) -> TableAnswer:
    """A changed layout, if the balls could rest there (the engine's refusal otherwise)."""
    error = layout_error(balls, kaisa_table(), cue)
    if error is not None:
        raise error
    changed = Position(balls=balls, cue=cue)
    return _answer(changed)


def _after(engine: Match, cue: str, *, from_hand: bool = False) -> Position:
    """The position an engine's match reached: the practising player keeps his white (``from_hand``:
    just placed by hand, the shot to come is from hand)."""
    balls = engine.snapshot()["balls"]
    return Position(
        balls={ball: (tuple(at) if at is not None else None) for ball, at in balls.items()},
        cue=cue,
        from_hand=from_hand,
    )
