"""The stored shot analysis of a finished match: asked for once however many ask, refused
for an unfinished match and over the per-user limit, run in the computer player's pool shot by shot
(the event loop answers meanwhile), every stored best shot worth at least the played one."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from game.engine.analysis import STROKE_NOISE, expected_points
from game.matches import analysis_runner
from game.matches.selectors.replays import match_replay_record, replay_shots
from game.matches.services import MatchError, analysis_request
from game.models import Match, MatchAnalysis
from game.routing import websocket_urlpatterns
from tests.support.community_factories import make_player, play_engine_match
from tests.support.play_support import connect_communicator, fast_password_hasher, fresh_channel_layer_and_connections

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
__all__ = ["fast_password_hasher", "fresh_channel_layer_and_connections"]  # autouse fixtures, imported to apply


@pytest.fixture(autouse=True)
def quick_analysis(settings: Any) -> None:
    """A few simulations and samples a shot: the product's figures are the engine's (24 samples, a
    240-shot search), which make a test of a dozen shots take many seconds."""
    settings.KAIZA_ANALYSIS_SAMPLES = 3
    settings.KAIZA_ANALYSIS_SIMULATIONS = 20
    settings.KAIZA_BOT_WORKERS = 1


def _suffix() -> str:
    return str(time.monotonic_ns())[-6:]


@database_sync_to_async
def finished_match(inputs: int = 10) -> tuple[Match, Any, Any]:
    """A real match the bot played against itself, stored as the online layer stores it, finished."""
    suffix = _suffix()
    alice, bob = make_player(f"Alice{suffix}"), make_player(f"Bob{suffix}")
    return play_engine_match(alice, bob, inputs=inputs), alice, bob


@database_sync_to_async
def unfinished_match() -> tuple[Match, Any]:
    suffix = _suffix()
    alice, bob = make_player(f"Ann{suffix}"), make_player(f"Ben{suffix}")
    return play_engine_match(alice, bob, inputs=4, resign=False), alice


@database_sync_to_async
def stored(match: Match) -> MatchAnalysis | None:
    return MatchAnalysis.objects.filter(match=match).first()


async def test_analysis_is_stored_once() -> None:
    """Two users ask at once: one row, one run, both see the same report."""
    match, alice, bob = await finished_match()
    first, second = await asyncio.gather(
        database_sync_to_async(analysis_request)(match_id=match.pk, user=alice),
        database_sync_to_async(analysis_request)(match_id=match.pk, user=bob),
    )
    assert first.analysis.pk == second.analysis.pk
    assert sorted([first.queued, second.queued]) == [False, True]
    assert await database_sync_to_async(MatchAnalysis.objects.filter(match=match).count)() == 1
    ran = await asyncio.gather(analysis_runner.run_one(first.analysis.pk), analysis_runner.run_one(first.analysis.pk))
    assert sorted(ran, key=str) == sorted([first.analysis.pk, None], key=str)  # the second found it taken
    again = await database_sync_to_async(analysis_request)(match_id=match.pk, user=bob)
    assert again.analysis.pk == first.analysis.pk and not again.queued
    analysis = await stored(match)
    assert analysis is not None and analysis.status == MatchAnalysis.Status.DONE
    assert analysis.done_shots == analysis.total_shots == len(analysis.report["shots"]) >= 2
    assert [p["player"] for p in analysis.report["players"]] == [
        alice.profile.display_name,
        bob.profile.display_name,
    ]


async def test_analysis_values_the_best_shot_at_least_as_high_as_the_played_one() -> None:
    """Over every stored shot of a played match: the best is worth at least the played shot, the points
    lost are their difference, and the stored best is a real shot of that position (valued again there
    under the stated noise, it is worth what was stored)."""
    match, alice, _bob = await finished_match(inputs=12)
    requested = await database_sync_to_async(analysis_request)(match_id=match.pk, user=alice)
    await analysis_runner.run_one(requested.analysis.pk)
    analysis = await stored(match)
    assert analysis is not None and analysis.status == MatchAnalysis.Status.DONE, analysis and analysis.failure
    record = await database_sync_to_async(match_replay_record)(match=match)
    positions = replay_shots(record=record)
    shots = analysis.report["shots"]
    assert len(shots) == len(positions) >= 3
    samples = analysis.report["samples"]
    for shot, position in zip(shots, positions, strict=True):
        best, played = shot["best"]["expected_points"], shot["played"]["expected_points"]
        assert best >= played
        assert shot["points_lost"] == pytest.approx(best - played, abs=1e-3)
        assert shot["player"] == position["player"]
        again = expected_points(position["snapshot"], shot["best"], STROKE_NOISE, samples)
        assert again.expected_points == pytest.approx(best, abs=1e-3)
    for player in analysis.report["players"]:
        assert 0.0 <= player["accuracy"] <= 1.0 and player["points_lost"] >= 0.0


async def test_analysis_runs_off_the_event_loop() -> None:
    """While an analysis runs, a socket is answered within 50 ms, and the match's socket hears the
    progress shot by shot.

    Each shot is 0.1-0.7 s of CPU: run on the loop it would hold every ping of its shot for that long.
    One ping in twenty may wait longer (never 250 ms): on this 2-core machine shared by the other
    test worker and the pool's own process, the scheduler alone held single pings 70 ms (alone, the
    slowest of 50 was 19 ms). Measured (the kernel's schedstat of the loop's thread per
    ping, load average 7 beside another suite): of every ping late by 50 ms or more, all but a few
    milliseconds was the loop's thread runnable and waiting for a CPU; the loop's own work is about
    1.5 ms a shot (the progress stored in the database pool, published), the other threads of the
    process took at most 4 ms of CPU during any late ping, and the results unpickled are 1 to 3 KiB.
    The one cause in the code, the worker process started on the loop's thread (29 to 52 ms, the
    first ping), is gone: game.common.engine_pool hands jobs to the pool from a thread
    (tests/common/test_engine_pool.py). Idle pings on that host were late as often (1 to 3 of 60)."""
    match, alice, _bob = await finished_match(inputs=8)
    requested = await database_sync_to_async(analysis_request)(match_id=match.pk, user=alice)
    watcher = await connect_communicator("watcher", match.pk, None)
    pinger = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/ping/")
    assert (await pinger.connect(timeout=10))[0]
    running = asyncio.create_task(analysis_runner.run_one(requested.analysis.pk))
    waits: list[float] = []
    pings = 0
    while not running.done():
        started = time.monotonic()
        await pinger.send_json_to({"t": "ping", "d": pings})
        assert await pinger.receive_json_from(timeout=5) == {"t": "pong", "d": pings}
        waits.append(time.monotonic() - started)
        pings += 1
        await asyncio.sleep(0.01)
    await pinger.disconnect()
    assert await running == requested.analysis.pk
    assert pings >= 5, "the analysis ended before the loop was measured"
    late = [round(w * 1000) for w in waits if w >= 0.05]
    assert len(late) <= max(1, len(waits) // 20), f"{len(late)} of {len(waits)} pings waited 50 ms or more: {late}"
    assert max(waits) < 0.25, f"a ping waited {max(waits) * 1000:.0f} ms during the analysis"
    await watcher.until(lambda m: m["t"] == "analysis" and m["d"]["status"] == "done")
    progress = [m["d"] for m in watcher.inbox if m.get("t") == "analysis"]
    total = progress[-1]["total"]
    assert progress[-1] == {"status": "done", "done": total, "total": total}
    assert [p["done"] for p in progress if p["status"] == "running"] == list(range(total + 1))
    await watcher.close()


async def test_an_unfinished_match_is_not_analysed() -> None:
    match, alice = await unfinished_match()
    with pytest.raises(MatchError) as refused:
        await database_sync_to_async(analysis_request)(match_id=match.pk, user=alice)
    assert refused.value.code == "not_finished"
    assert "finished match" in refused.value.message
    assert await stored(match) is None


async def test_a_user_over_the_limit_is_refused(settings: Any) -> None:
    settings.KAIZA_ANALYSIS_USER_LIMIT = 2
    matches = [await finished_match(inputs=3) for _ in range(3)]
    user = matches[0][1]
    for match, _a, _b in matches[:2]:
        assert (await database_sync_to_async(analysis_request)(match_id=match.pk, user=user)).queued
    with pytest.raises(MatchError) as refused:
        await database_sync_to_async(analysis_request)(match_id=matches[2][0].pk, user=user)
    assert refused.value.code == "analysis_limit"
    assert refused.value.message == "You already have 2 analyses waiting: wait until one is done."
    assert await stored(matches[2][0]) is None


async def test_a_failed_analysis_says_why_and_can_be_asked_again() -> None:
    match, alice, bob = await finished_match(inputs=6)
    requested = await database_sync_to_async(analysis_request)(match_id=match.pk, user=alice)

    @database_sync_to_async
    def break_the_record() -> None:
        shot = match.shots.filter(kind="shoot").order_by("seq").first()
        assert shot is not None
        shot.input = {**shot.input, "strike": {"angle": 0.0, "speed": 99.0}}  # outside the strike limits
        shot.save(update_fields=["input"])

    await break_the_record()
    await analysis_runner.run_one(requested.analysis.pk)
    failed = await stored(match)
    assert failed is not None and failed.status == MatchAnalysis.Status.FAILED and failed.failure
    again = await database_sync_to_async(analysis_request)(match_id=match.pk, user=bob)
    assert again.queued and again.analysis.pk == failed.pk
    requeued = await stored(match)
    assert requeued is not None and requeued.status == MatchAnalysis.Status.QUEUED and not requeued.failure


async def test_the_clock_poll_starts_a_waiting_analysis_and_takes_back_a_lost_one() -> None:
    """Each process's poll starts what waits; a run whose process died (no progress for STALE_AFTER)
    is taken again and finished."""
    from game.matches.services import analysis_claim, analysis_waiting
    from game.matches.services.analysis import STALE_AFTER

    match, alice, _bob = await finished_match(inputs=6)
    requested = await database_sync_to_async(analysis_request)(match_id=match.pk, user=alice)
    assert await database_sync_to_async(analysis_claim)(analysis_id=requested.analysis.pk) is not None
    assert not await database_sync_to_async(analysis_waiting)()  # running, and alive

    @database_sync_to_async
    def lose_its_process() -> None:
        MatchAnalysis.objects.filter(pk=requested.analysis.pk).update(updated_at=timezone.now() - 2 * STALE_AFTER)

    await lose_its_process()
    assert await database_sync_to_async(analysis_waiting)()
    await analysis_runner.start_waiting()
    for _ in range(600):  # bounded: a few seconds at the tests' figures
        analysis = await stored(match)
        if analysis is not None and analysis.status == MatchAnalysis.Status.DONE:
            break
        await asyncio.sleep(0.02)
    assert analysis is not None and analysis.status == MatchAnalysis.Status.DONE
    assert not await database_sync_to_async(analysis_waiting)()
