"""A player's input leaves no cyclic garbage behind (docs/decisions/no-cyclic-garbage.md).

What reference counting cannot free waits for the cyclic GC, and its collections stop the server's event
loop: under the load benchmark one cycle per input (a refused call's RuleError kept with its traceback,
which held every frame of the input path and their locals, ~190 objects) made most of the server's
garbage, and its collections were the loop's longest stops. Each input below, of every kind the opening
and the play have (lag, break choice, placement, shot), is followed by a collection that must find
nothing. A `services` test: `make test` runs it on SQLite and again on PostgreSQL.
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any

import pytest

from bench.management.commands.bench_inputs import service_call
from game.accounts.services import guest_create
from game.engine.bot import apply_move, quick_move
from game.engine.rules import Match as EngineMatch
from game.engine.rules import constraints
from game.matches.selectors.match_state import engine_names, state_of
from game.matches.services import match_create, match_join
from game.models import Match
from tests.support.garbage import garbage_of

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_inputs_of_every_kind_leave_no_cycles() -> None:
    first, second = guest_create(), guest_create()
    match, _ = match_create(user=first, rated=False, time_limit=None, shot_clock=None)
    match_join(match_id=match.pk, user=second)
    match.refresh_from_db()
    users = dict(zip(engine_names(match), (first, second), strict=True))
    played: Counter[str] = Counter()
    for ack in range(1, 13):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        move = quick_move(match.snapshot, seed=ack)
        version = match.version
        found = garbage_of(functools.partial(service_call, move, match.pk, users[move["player"]], ack, version))
        assert not found, f"{move['action']} left cyclic garbage: {found.most_common(8)}"
        played[move["action"]] += 1
    assert {"lag", "choose_break", "place", "shoot"} <= set(played), played


def test_constraints_with_refused_calls_leave_no_cycles() -> None:
    """The engine alone: the opening break with the cue ball in hand, where calls are refused with words
    (the refusals the client shows beside each call), which the constraints keep to say in every language."""
    engine = EngineMatch.new(players=("alice", "bob"), ruleset=None, time_limit=None, now=0.0)
    for seed in range(20):
        said: dict[str, Any] = {}
        constraints.calls(engine.state, engine.pending()[0][0], said)
        if said:
            break
        apply_move(engine, quick_move(engine.snapshot(), seed=seed))
    assert said, "no position of the opening refused a call with words"
    snapshot = engine.snapshot()
    assert not garbage_of(lambda: state_of(snapshot, EngineMatch.from_snapshot(snapshot)))
