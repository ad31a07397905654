"""The loadtest command against real daphne servers: a short smoke run must finish with zero errors.

The real measurements are benchmark runs (docs/benchmarks.md); these runs only prove the tool and the server path
it drives: guest sessions over HTTP, seats, players playing legal moves, spectators, the figures.
"""

from __future__ import annotations

import os
import platform
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from bench.loadtest.config import LoadConfig, crowd_share, socket_urls
from bench.loadtest.procstat import cpu_seconds
from bench.loadtest.runner import LoadRunner, run_load
from bench.loadtest.stats import LoadStats
from bench.management.commands.loadtest import Command as Loadtest
from tests.support.daphne import DaphneServer

ROOT = Path(__file__).resolve().parents[2]


def smoke(urls: list[str], matches: int = 2) -> LoadStats:
    config = LoadConfig(
        urls=urls, matches=matches, spectators=2, duration=5.0, think=0.4, aim_rate=10.0, ping_probes=2, drain=1.5
    )
    return LoadStats.merge([run_load(config)])


def loadtest(**options: object) -> tuple[str, int]:
    """`manage.py loadtest` with `options`: its report and exit code. Bars generous enough for a busy
    test machine unless given: judged, and held (the real bars are benchmarks)."""
    out = StringIO()
    options = {"max_shot_p99": 5000, "max_aim_p99": 5000, "max_storm_seconds": 120, **options}
    try:
        call_command(Loadtest(), stdout=out, **options)
    except SystemExit as exited:  # a missed bar: the report says why
        return out.getvalue(), int(exited.code or 0)
    return out.getvalue(), 0


@pytest.mark.slow(15)
def test_loadtest_smoke_run_has_no_errors_and_prints_the_table(daphne_factory: Callable[..., DaphneServer]) -> None:
    server = daphne_factory(KAIZA_BOT_PACE="0")
    stats = smoke([server.url])
    assert dict(stats.errors) == {}
    assert stats.missed == 0
    assert stats.sockets == 2 * 4
    assert stats.shots >= 2, "the players made no shot"
    assert stats.shot_shooter and stats.shot_opponent and stats.shot_spectator
    assert stats.aim_opponent and stats.aim_spectator, "no aim was relayed to the opponent and the spectators"
    assert stats.ping
    # The client's own CPU over the window, read in its process (it shares the machine with the server).
    assert len(stats.client_cpu) == 1 and 0 < next(iter(stats.client_cpu.values())) < 200, stats.client_cpu

    assert server.process is not None
    text, code = loadtest(
        url=[server.url],
        matches=1,
        spectators=1,
        duration=4.0,
        think=0.3,
        timeline=True,
        server_pid=[server.process.pid],
    )
    assert code == 0, text
    # The server's own account: its memory, and the CPU it used over the window (it served the play).
    used = re.search(
        rf"^server pid {server.process.pid}: RSS \d+ MB, peak RSS \d+ MB, CPU ([0-9.]+)% of a core", text, re.M
    )
    assert used is not None and 0 < float(used.group(1)) < 200, text
    # And the client's own (one process here): it shares the machine, so its cost is printed beside.
    client = re.search(r"^client process\(es\): CPU ([0-9.]+)% of a core in the window$", text, re.M)
    assert client is not None and 0 <= float(client.group(1)) < 200, text
    for label in (
        "shot round trip: shooter",
        "shot round trip: spectators",
        "aim relay: opponent",
        "aim relay: spectators",
        "versions missed: 0",
        "result: OK",
        "timeline: second 0 began at",
    ):
        assert label in text, text
    # --timeline: one row per second of the window, seconds 0..3 at least, and the aims counted in
    # them add up to the aim samples of the table.
    rows = re.findall(r"^\s+(\d+)\s+(\d+)\s+(\S+)\s+(\d+)\s+(\S+)$", text, re.M)
    seconds = [int(r[0]) for r in rows]
    assert seconds[:4] == [0, 1, 2, 3], text
    aim_rows = re.findall(r"^aim relay: \w+\s+(\d+)", text, re.M)
    assert len(aim_rows) == 2 and sum(int(r[3]) for r in rows) == sum(int(n) for n in aim_rows), text


def test_loadtest_exits_non_zero_when_the_server_is_gone() -> None:
    out = StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command(Loadtest(), url=["http://127.0.0.1:9"], matches=1, spectators=0, duration=0.5, stdout=out)
    assert exited.value.code == 1
    assert "setup:" in out.getvalue()


@pytest.mark.slow(10)
def test_loadtest_across_two_processes_with_redis_and_postgres(
    daphne_factory: Callable[..., DaphneServer], postgres_database_url: str, redis_url: str
) -> None:
    """Players and spectators of one match spread over two daphne processes: fan-out crosses Redis."""
    env = {"DATABASE_URL": postgres_database_url, "REDIS_URL": redis_url}
    servers = [daphne_factory(**env), daphne_factory(**env)]
    stats = smoke([s.url for s in servers], matches=2)
    assert dict(stats.errors) == {}
    assert stats.missed == 0
    assert stats.shots >= 2 and stats.shot_spectator and stats.aim_spectator


def test_loadtest_fails_with_the_reason_when_a_bar_is_missed(daphne_factory: Callable[..., DaphneServer]) -> None:
    """A run with no error still fails when a latency bar is missed, saying which; a ws:// URL is
    taken as the same server (it once gave unexplained URLErrors)."""
    server = daphne_factory(KAIZA_BOT_PACE="0")
    text, code = loadtest(
        url=["ws" + server.url[len("http") :]],
        matches=1,
        spectators=1,
        duration=3.0,
        think=0.3,
        max_shot_p99=0,
        max_aim_p99=0.001,
    )
    assert code == 1, text
    assert "errors: 0;" in text and "versions missed: 0" in text, text
    # Both aim rows judged, each named.
    assert re.search(
        r"^result: FAILED: aim relay p99 \(opponent\) [0-9.]+ ms > 0.001 ms; "
        r"aim relay p99 \(spectators\) [0-9.]+ ms > 0.001 ms$",
        text,
        re.M,
    ), text
    assert "shot round trip p99" not in text.split("result:")[1], "a bar of 0 is not judged"


def test_loadtest_refuses_a_url_it_cannot_use() -> None:
    with pytest.raises(CommandError, match="--url takes http://host:port"):
        call_command(Loadtest(), url=["ftp://127.0.0.1:1"], matches=1, duration=1.0, stdout=StringIO())


def test_a_match_cut_short_fails_the_run_with_how_it_ended() -> None:
    """Every player stays online through a run, so an abandoned or aborted match means the server lost
    track of a live socket: the run fails and says how many ended which way (the count merged over the
    client processes); a match won in play is no reason."""
    from bench.management.commands.loadtest import missed_bars

    parts = [
        {"shots": 3, "finishes": {"abandoned": 1, "target": 1}},
        {"shots": 2, "finishes": {"abandoned": 1, "aborted": 1}},
    ]
    stats = LoadStats.merge(parts)
    assert dict(stats.finishes) == {"abandoned": 2, "target": 1, "aborted": 1}
    options = {"max_shot_p99": 0, "max_aim_p99": 0, "max_rss": 0}
    assert missed_bars(stats, options, {}) == ["3 match(es) cut short (abandoned 2, aborted 1)"]
    won = LoadStats.merge([{"shots": 3, "finishes": {"target": 2}}])
    assert missed_bars(won, options, {}) == []


def test_the_crowd_and_the_storm_have_bars_of_their_own() -> None:
    """The featured crowd's shots are judged by `--max-crowd-shot-p99`, not the players' bar, and its
    thinned aims not at all; a storm fails when a socket did not come back or came back too late."""
    from bench.management.commands.loadtest import missed_bars

    options = {"max_shot_p99": 150, "max_aim_p99": 50, "max_rss": 0, "max_crowd_shot_p99": 500}
    crowd = LoadStats(shots=1, shot_featured=[0.3] * 100, aim_featured=[0.2] * 100)
    assert missed_bars(crowd, options, {}) == [], "a crowd at 300 ms is within its 500 ms bar"
    crowd.shot_featured = [0.6] * 100
    assert missed_bars(crowd, options, {}) == ["shot round trip p99 (featured crowd) 600.0 ms > 500 ms"]
    # The featured match's own players are judged apart by the players' bars (a crowd must not slow
    # them), though their samples are in the usual rows too, where other matches' would hide them.
    slowed = LoadStats(
        shots=1,
        shot_shooter=[0.01] * 1000,
        aim_opponent=[0.01] * 1000,
        shot_featured_players=[0.2] * 6,
        aim_featured_players=[0.06] * 100,
    )
    assert missed_bars(slowed, options, {}) == [
        "shot round trip p99 (featured players) 200.0 ms > 150 ms",
        "aim relay p99 (featured players) 60.0 ms > 50 ms",
    ]

    storm = {**options, "reconnect_storm": True, "max_storm_seconds": 10}
    back = LoadStats(shots=1, storm_sockets=700, storm_back=700, storm_after_restart=4.0)
    assert missed_bars(back, storm, {}) == []
    late = LoadStats(shots=1, storm_sockets=700, storm_back=700, storm_after_restart=12.2)
    assert missed_bars(late, storm, {}) == ["reconnect storm: the last socket back 12.2 s after the restart > 10 s"]
    lost = LoadStats(shots=1, storm_sockets=700, storm_back=699, storm_after_restart=4.0)
    assert missed_bars(lost, storm, {}) == ["reconnect storm: 699 of 700 sockets came back"]


def test_cpu_seconds_reads_a_process_own_cpu_time() -> None:
    """`/proc/<pid>/stat`'s user and system time, in seconds: it grows with work done, and a process
    that is not there reads as None (its figure is left out, not made up)."""
    before = cpu_seconds(os.getpid())
    assert before is not None
    deadline = time.process_time() + 0.3
    while time.process_time() < deadline:  # 0.3 s of this process's CPU
        sum(i * i for i in range(1000))
    after = cpu_seconds(os.getpid())
    assert after is not None and 0.2 <= after - before <= 1.0, (before, after)
    assert cpu_seconds(2**22 + 12345) is None


def test_spread_puts_a_matchs_sockets_round_robin_or_all_on_one_server() -> None:
    """`--spread socket` spreads each match over the servers (its fan-out crosses the channel layer);
    `--spread match` puts all of a match's sockets on one server, the next match on the next."""
    urls = ["http://a", "http://b"]
    a, b = urls
    assert socket_urls(urls, 0, 5, "socket") == [a, b, a, b, a, b, a]  # the players, then the spectators
    assert socket_urls(urls, 1, 5, "socket") == [b, a, b, a, b, a, b]
    assert socket_urls(urls, 0, 5, "match") == [a] * 7
    assert socket_urls(urls, 1, 5, "match") == [b] * 7
    assert socket_urls(["http://a"], 3, 2, "socket") == ["http://a"] * 4


async def test_the_bare_relay_relays_aims_and_turns_shots() -> None:
    """The yardstick is honest only if it carries the same traffic: a player's aim reaches every other
    socket of its match (not the sender, not another match's), a shot goes to all with the next
    version and passes the turn, the other seat's shot out of turn is dropped, a ping is answered,
    and a frame that is not JSON changes nothing."""
    from channels.testing import WebsocketCommunicator

    from bench.loadtest.bare_relay import application

    a = WebsocketCommunicator(application, "/ws/match/one/?seat=0")
    b = WebsocketCommunicator(application, "/ws/match/one/?seat=1")
    watcher = WebsocketCommunicator(application, "/ws/match/one/")
    elsewhere = WebsocketCommunicator(application, "/ws/match/two/")
    sockets = (a, b, watcher, elsewhere)
    for socket in sockets:
        assert (await socket.connect())[0]
    snapshots = [await s.receive_json_from() for s in sockets]
    assert [s["d"]["you"]["name"] for s in snapshots] == ["A", "B", "", ""]
    assert snapshots[0]["d"]["state"]["pending"] == [["A", "shoot"]] and snapshots[0]["v"] == 1

    await a.send_to(text_data="not json")
    await a.send_json_to({"t": "aim", "d": {"angle": 1.5, "speed": 2.0}})
    for socket in (b, watcher):
        assert await socket.receive_json_from() == {"t": "aim", "d": {"angle": 1.5, "speed": 2.0}}
    await b.send_json_to({"t": "shoot", "ack": 1})  # not B's turn
    await a.send_json_to({"t": "shoot", "ack": 7})
    for socket in (a, b, watcher):
        shot = await socket.receive_json_from()
        assert shot["t"] == "shot" and shot["v"] == 2 and shot["d"]["player"] == "A" and shot["d"]["ack"] == 7
        assert shot["d"]["state"]["pending"] == [["B", "shoot"]]
    await watcher.send_json_to({"t": "ping"})
    assert await watcher.receive_json_from() == {"t": "pong"}
    assert await a.receive_nothing() and await elsewhere.receive_nothing()
    for socket in sockets:
        await socket.disconnect()


@pytest.fixture
def bare_daphne(tmp_path: Path) -> Iterator[tuple[str, int]]:
    """Real daphne serving the bare relay (bench.loadtest.bare_relay): its URL and pid. Its log is read
    for tracebacks when the test is done."""
    import subprocess
    import sys
    import urllib.request

    from tests.support.daphne import free_port, log_tracebacks

    port, log = free_port(), tmp_path / "bare-daphne.log"
    cmd = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "bench.loadtest.bare_relay:application"]
    # The log to a file, not a pipe: a pipe nobody reads during the run could fill and stall the server.
    with log.open("wb") as sink:
        server = subprocess.Popen(cmd, cwd=ROOT, stdout=sink, stderr=subprocess.STDOUT)
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1)
            except urllib.error.HTTPError as answer:
                assert answer.code == 404
                break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail(f"the bare relay never answered on port {port}: {log.read_text(errors='replace')}")
        yield f"http://127.0.0.1:{port}", server.pid
    finally:
        server.terminate()
        server.wait(timeout=20)
    assert log_tracebacks(log) == []


def test_loadtest_runs_against_bare_daphne(bare_daphne: tuple[str, int]) -> None:
    """`loadtest --bare` against real daphne serving the bare relay: the same figures, no errors."""
    url, pid = bare_daphne
    text, code = loadtest(url=[url], bare=True, matches=2, spectators=2, duration=2.0, think=0.3, server_pid=[pid])
    assert code == 0, text
    assert "; bare relay" in text and "errors: 0; versions missed: 0" in text and "result: OK" in text, text
    shots = re.search(r"^shot round trip: spectators\s+(\d+)", text, re.M)
    aims = re.search(r"^aim relay: spectators\s+(\d+)", text, re.M)
    assert shots and int(shots.group(1)) >= 4 and aims and int(aims.group(1)) >= 8, text


async def test_a_featured_crowd_is_measured_apart_and_staggered_matches_start_later(
    bare_daphne: tuple[str, int],
) -> None:
    """`featured` puts its crowd on match 0 only, whose figures are kept
    apart from the other spectators'; with `stagger_step` a match's players wait for its turn (match 2
    starts 2 s after match 0; match 1 at 1 s, inside a window of 1.6 s)."""
    url, _ = bare_daphne
    config = LoadConfig(
        urls=[url],
        matches=3,
        spectators=1,
        duration=1.6,
        think=0.2,
        ping_probes=0,
        drain=0.5,
        bare=True,
        stagger_step=1.0,
        featured=6,
    )
    runner = LoadRunner(config)
    stats = await runner.run()
    assert dict(stats.errors) == {} and stats.missed == 0
    assert stats.sockets == 3 * 3 + 6
    crowd = [len([s for s in run.sockets if s.featured]) for run in runner.runs]
    assert crowd == [6, 0, 0]
    assert stats.shot_featured and stats.aim_featured, "the crowd saw the shots and the aims"
    # The featured match's players: in their own rows and in the usual ones.
    assert stats.shot_featured_players and set(stats.shot_featured_players) <= {
        *stats.shot_shooter,
        *stats.shot_opponent,
    }
    assert stats.aim_featured_players and set(stats.aim_featured_players) <= set(stats.aim_opponent)
    started = [run.started for run in runner.runs]
    assert started == [True, True, False], started
    assert runner.runs[0].shots, "match 0 played from the window's start"
    assert runner.runs[2].shots == {}, "match 2's turn (2 s) came after the window"


def test_loadtest_refuses_a_stagger_as_long_as_the_window() -> None:
    with pytest.raises(CommandError, match="--stagger 5 s must be shorter than --duration 5 s"):
        call_command(Loadtest(), url=["http://127.0.0.1:9"], matches=2, duration=5.0, stagger=5.0, stdout=StringIO())
    with pytest.raises(CommandError, match="take 0 or more"):
        call_command(Loadtest(), url=["http://127.0.0.1:9"], matches=2, featured=-1, stdout=StringIO())


def test_stable_seed_is_the_same_in_another_process() -> None:
    """The players' moves are seeded alike in every run (`hash()` of a string is salted per process)."""
    import subprocess
    import sys

    from bench.loadtest.config import stable_seed

    here = stable_seed(1, "abc", 3, "Guest-1")
    code = "from bench.loadtest.config import stable_seed; print(stable_seed(1, 'abc', 3, 'Guest-1'))"
    there = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert int(there) == here and 0 <= here < 2**32
    assert stable_seed(1, "abc", 4, "Guest-1") != here


@pytest.mark.slow(21)
def test_a_reconnect_storm_brings_every_socket_back(daphne_factory: Callable[..., DaphneServer]) -> None:
    """`--reconnect-storm`: the server is killed with SIGKILL after the window and
    started again as it was; every socket it held comes back with a snapshot at the database's version,
    none behind, and the restarted process is the same server (same port, same log)."""
    import signal

    from bench.loadtest.storm import is_alive

    server = daphne_factory(KAIZA_BOT_PACE="0")
    assert server.process is not None and server.log_path is not None
    restarted = None
    try:
        text, exit_code = loadtest(
            url=[server.url],
            matches=2,
            spectators=2,
            duration=2.0,
            think=0.3,
            reconnect_storm=True,
            server_pid=[server.process.pid],
        )
        found = re.search(
            r"^reconnect storm: server pid (\d+) killed \(dead after [\d.]+ s\), started again as pid (\d+)", text, re.M
        )
        assert found and int(found.group(1)) == server.process.pid, text
        restarted = int(found.group(2))
        assert "8 of 8 sockets back at the database's version" in text, text
        # While the process boots its sockets' attempts are refused, and the report counts them so.
        assert re.search(r"^reconnect storm: failed attempts: (none|refused \d+)", text, re.M), text
        assert "errors: 0; versions missed: 0" in text and "result: OK" in text and exit_code == 0, text
        assert not is_alive(server.process.pid), "the fixture's process was the one killed"
        assert f"-p\0{server.port}\0".encode() in Path(f"/proc/{restarted}/cmdline").read_bytes()
    finally:
        if restarted is not None:
            os.kill(restarted, signal.SIGTERM)
            for _ in range(100):
                if not Path(f"/proc/{restarted}").exists():
                    break
                time.sleep(0.1)
    log = server.log_path.read_text(errors="replace")
    assert log.count("Listening on TCP address") == 2, "the second start wrote to the same log"


def test_loadtest_refuses_a_storm_without_its_server() -> None:
    with pytest.raises(CommandError, match="--reconnect-storm needs --server-pid"):
        call_command(Loadtest(), url=["http://127.0.0.1:9"], matches=1, reconnect_storm=True, stdout=StringIO())


def test_the_storm_does_not_wait_for_a_zombie_it_cannot_reap() -> None:
    """A server that is another process's child (bench/scripts/scaleout.py starts them, the loadtest kills
    one) stays a zombie until that parent reaps it: the kill counts it dead at once, where waiting for
    its /proc entry to go held the restart back by the whole 10 s bound."""
    import subprocess
    import sys

    from bench.loadtest.storm import ServerProcess, is_alive

    # A parent that starts a child and never reaps it, as scaleout.py does while the loadtest runs.
    # (SIGCHLD back to its default: an ignored SIGCHLD, inherited across exec, would reap it at once.)
    code = (
        "import signal, subprocess, time; signal.signal(signal.SIGCHLD, signal.SIG_DFL); "
        "p = subprocess.Popen(['sleep', '60']); print(p.pid, flush=True); time.sleep(60)"
    )
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        assert is_alive(child)
        server = ServerProcess.read(child)
        began = time.monotonic()
        server.kill()
        took = time.monotonic() - began
        assert not is_alive(child)
        assert Path(f"/proc/{child}").exists(), "still a zombie: only its parent can reap it"
        assert took < 5, f"the kill waited {took:.1f} s for a zombie"
    finally:
        parent.kill()
        parent.wait()
    assert not is_alive(os.getpid() + 10**7)  # no such process


def test_a_failed_reconnect_attempt_is_named_by_what_failed_it() -> None:
    """The storm's `failed attempts` line counts by these words: a refused connection while the process
    boots, a socket closed with its code (4429: the server refused it), a timeout, else the class."""
    import websockets
    from websockets.frames import Close

    from bench.loadtest.storm import retry_reason

    assert retry_reason(ConnectionRefusedError()) == "refused"
    assert retry_reason(websockets.ConnectionClosed(Close(4429, "too many"), None)) == "closed 4429"
    assert retry_reason(websockets.ConnectionClosed(None, None)) == "closed"
    assert retry_reason(TimeoutError()) == "timeout"
    assert retry_reason(ConnectionResetError()) == "ConnectionResetError"


def test_the_featured_crowd_in_processes_of_its_own_is_measured_across_them(
    daphne_factory: Callable[..., DaphneServer],
) -> None:
    """`--crowd-procs 2` puts the featured crowd in two client processes of its own,
    apart from match 0's players (the command seats match 0 for all of them). Its latencies join the
    crowd processes' receipt times with the send times of the players' process: every featured row has
    samples, positive and plausible; every shot reached all six crowd sockets (three times the
    players' own two receipts per shot: none lost or joined twice), and no version was missed."""
    server = daphne_factory(KAIZA_BOT_PACE="0")
    text, code = loadtest(
        url=[server.url], matches=1, spectators=1, featured=6, crowd_procs=2, duration=2.0, think=0.3, timeline=True
    )
    assert code == 0, text
    assert "= 9 sockets" in text and "6 more spectators on match 0 in 2 crowd process(es)" in text, text
    assert "errors: 0; versions missed: 0" in text and "result: OK" in text, text
    rows = {
        label: (int(n), [float(v) for v in figures.split()])
        for label, n, figures in re.findall(r"^(\S.*?)\s{2,}(\d+)((?:\s+\S+){4})$", text, re.M)
    }
    for label in ("shot round trip: featured crowd", "aim relay: featured crowd"):
        n, (p50, _p95, _p99, worst) = rows[label]
        assert n > 0 and 0 < p50 <= worst < 10_000, (label, text)
    crowd_shots = rows["shot round trip: featured crowd"][0]
    players_shots = rows["shot round trip: featured players"][0]
    assert players_shots >= 2 and crowd_shots == 3 * players_shots, text
    assert rows["aim relay: featured players"][0] > 0 and rows["client loop lag: crowd processes"][0] > 0, text
    # The crowd's samples are in the timeline too, counted from match 0's window.
    seconds = re.findall(r"^\s+(\d+)\s+(\d+)\s+\S+\s+(\d+)\s+\S+$", text, re.M)
    shots = sum(rows[f"shot round trip: {who}"][0] for who in ("shooter", "opponent", "spectators", "featured crowd"))
    assert sum(int(row[1]) for row in seconds) == shots, text


def test_the_crowd_processes_receipts_join_the_players_send_times() -> None:
    """The join of `--crowd-procs` (LoadStats.join_crowd): each receipt of a crowd process minus the
    send time of the same shot (player, ack) or aim (angle, speed) in match 0's process; a receipt of
    a key never sent is left out; a crowd socket that ended short of the match's last version counts
    the versions it missed. The parts cross process boundaries pickled, in any order."""
    import pickle

    players = LoadStats(
        shot_featured_players=[0.04, 0.05],
        featured_shot_sent={("A", 1): 10.0, ("B", 1): 12.0},
        featured_aim_sent={(1.5, 2.0): 9.0},
        featured_max_v=7,
        featured_window_start=8.0,
    )
    first_crowd = LoadStats(
        crowd_shot_receipts={("A", 1): [10.05, 10.07], ("Z", 9): [11.0]},
        crowd_aim_receipts={(1.5, 2.0): [9.02], (3.0, 2.0): [9.5]},
        crowd_last_versions=Counter({7: 2}),
    )
    second_crowd = LoadStats(
        crowd_shot_receipts={("A", 1): [10.1], ("B", 1): [12.2]},
        crowd_last_versions=Counter({7: 1, 5: 1}),
    )
    parts = [pickle.loads(pickle.dumps(part.as_dict())) for part in (players, first_crowd, second_crowd)]
    for order in (parts, parts[::-1]):
        stats = LoadStats.merge(order)
        assert sorted(stats.shot_featured) == pytest.approx([0.05, 0.07, 0.1, 0.2])
        assert stats.aim_featured == pytest.approx([0.02]), "the aim (3.0, 2.0) was never sent"
        timeline = [value for sample in sorted(stats.shot_timeline) for value in sample]
        assert timeline == pytest.approx([2.05, 0.05, 2.07, 0.07, 2.1, 0.1, 4.2, 0.2]), "seconds from match 0's window"
        assert stats.missed == 2, "one crowd socket ended at version 5 of 7"
        assert stats.shot_featured_players == [0.04, 0.05] and stats.sockets == 0
    # A crowd socket ahead of the players' process's last read: the others are short of its version.
    ahead = LoadStats.merge([players.as_dict(), LoadStats(crowd_last_versions=Counter({8: 1, 7: 3})).as_dict()])
    assert ahead.missed == 3


def test_the_crowd_is_shared_out_whole_and_refused_where_clocks_differ(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each crowd socket in exactly one crowd process, as evenly as can be; `--crowd-procs` refused
    without a crowd to share, and where perf_counter is not one clock for every process."""
    import types

    from bench.loadtest import config

    shares = [list(crowd_share(7, 3, index)) for index in range(3)]
    assert shares == [[0, 1, 2], [3, 4], [5, 6]]
    assert [len(crowd_share(2000, 2, index)) for index in range(2)] == [1000, 1000]
    with pytest.raises(CommandError, match="--crowd-procs 3 needs 0 to --featured \\(2\\) processes"):
        call_command(Loadtest(), url=["http://127.0.0.1:9"], featured=2, crowd_procs=3, stdout=StringIO())
    with pytest.raises(CommandError, match="--reconnect-storm needs"):
        call_command(
            Loadtest(), url=["http://127.0.0.1:9"], featured=2, crowd_procs=1, reconnect_storm=True, server_pid=[1]
        )
    assert config.shared_clock_problem() is None, "this suite runs on Linux"
    monkeypatch.setattr(config, "sys", types.SimpleNamespace(platform="darwin"))
    assert "not Linux's CLOCK_MONOTONIC" in (config.shared_clock_problem() or "")
    with pytest.raises(CommandError, match=r"measures the crowd across processes, and time\.perf_counter\(\) here is"):
        call_command(Loadtest(), url=["http://127.0.0.1:9"], featured=2, crowd_procs=1, stdout=StringIO())
    # Without --crowd-procs the crowd is measured in one process: no shared clock needed.
    with pytest.raises(CommandError, match="--stagger 5 s must be shorter"):
        call_command(Loadtest(), url=["http://127.0.0.1:9"], featured=2, duration=5.0, stagger=5.0, stdout=StringIO())


#: One client process's socket reads, as asyncio makes them (a 256 KiB buffer shrunk to what came), counted
#: in the page faults they cost; argv[1] == "tuned": after the load client's allocator settings.
READS_CHILD = """
import resource, socket, sys
if sys.argv[1] == "tuned":
    from bench.loadtest.allocator import keep_read_buffers_on_heap
    assert keep_read_buffers_on_heap()
a, b = socket.socketpair()
def reads(n):
    for _ in range(n):
        a.send(b"x" * 100)
        b.recv(256 * 1024)
reads(50)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
reads(2000)
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's malloc thresholds: Linux with glibc only")
def test_the_load_clients_socket_reads_take_no_fresh_pages() -> None:
    """Each read of the load client had its own mapping (mmap, mremap, munmap and a
    page fault or two), the client's extra CPU against Kaiza. Untuned, a fresh process shows it; tuned,
    2,000 reads fault no new page."""

    def faults(mode: str) -> int:
        done = subprocess.run(
            [sys.executable, "-c", READS_CHILD, mode], cwd=ROOT, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stderr
        return int(done.stdout.strip())

    assert faults("untuned") >= 2000
    assert faults("tuned") < 50
