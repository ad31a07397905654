"""The event's clock runs on the server (K-11): counted from the game's first tap on the game clock,
past the limit the game gets its `time_up` before the next tap, and the round, the extra visits and
the shoot-out follow the rules whoever taps; the snapshot's clock says how long is left."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from game.common import clock
from game.models.realgames import RealGame
from game.realgames.selectors import clock_view
from game.realgames.services import apply_tap, free_game

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

MISS = {"kind": "miss", "ball": "red"}


@pytest.fixture(autouse=True)
def wall_clock() -> Iterator[None]:
    yield
    clock.reset()


def test_scorer_clock_runs_on_the_server() -> None:
    game = free_game(table=None, names=("Aino", "Bertta"))
    RealGame.objects.filter(pk=game.pk).update(time_limit=2400, time_warning=2100, extra_visits=0, shootout_visits=3)
    assert apply_tap(game.pk, "a1", MISS).accepted  # the break: the clock starts
    view = clock_view(RealGame.objects.get(pk=game.pk))
    assert view["limit"] == 2400 and 2390 < view["remaining"] <= 2400 and not view["warning"]

    clock.advance(2200)
    view = clock_view(RealGame.objects.get(pk=game.pk))
    assert view["warning"] and not view["time_up"]

    clock.advance(300)  # past 40 minutes, in Bertta's visit
    assert clock_view(RealGame.objects.get(pk=game.pk))["time_up"]
    outcome = apply_tap(game.pk, "b1", {"kind": "pot", "ball": "red", "pocket": "foot_left"})
    assert outcome.accepted and outcome.version == 3  # the clock's time_up, then the tap
    state = RealGame.objects.get(pk=game.pk).state
    assert state["time_up"] and state["phase"] == "play"
    assert apply_tap(game.pk, "b2", MISS).accepted  # white2's visit ends the round: no extra visits here
    game.refresh_from_db()
    assert game.state["phase"] == "shootout_lag"
    kinds = [t.tap["kind"] for t in game.taps.order_by("seq")]
    assert kinds == ["miss", "time_up", "pot", "miss"]
    # The K-11.2 shoot-out's starter is tapped; a red is refused there (K-11.2: only the kaisa).
    assert apply_tap(game.pk, "s0", {"kind": "shootout_starter", "starter": 0}).accepted
    refused = apply_tap(game.pk, "s1", {"kind": "pot", "ball": "red", "pocket": "foot_left"})
    assert not refused.accepted and refused.code == "shootout_call" and refused.words and refused.words["fi"]
