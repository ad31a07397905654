"""`python manage.py loadtest`: real websocket clients against a running server; prints the figures.

It starts no server: point it at one or more running daphne processes (``--url``, repeatable: the
matches' sockets are spread round-robin over them, or with ``--spread match`` each match's on one).
M matches (``--matches``), each with two bot-driven players and S spectators (``--spectators``), play
for ``--duration`` seconds; then the table of latencies (p50/p95/p99/max), messages per second, errors
and versions missed is printed.
The run is judged against the bars: any error or missed version, a shot round trip p99 over
``--max-shot-p99`` (ms, every row: shooter, opponent, spectators), an aim relay p99 over
``--max-aim-p99`` (ms, both rows: the opponent's and the spectators') or a server's peak RSS over
``--max-rss`` (MB, of each ``--server-pid``) prints ``result: FAILED`` with each reason and exits 1; a
bar of 0 is not judged. ``--procs`` splits the clients over several processes (whole matches per
process) so the client is never the bottleneck; every process of a run of several waits at one
barrier after its set-up, so all measure the same seconds. ``--server-pid`` reads
the peak RSS (VmHWM) of server processes on this machine and the CPU each used over the window.
``--stagger SECONDS`` starts the matches spread evenly over that many seconds of the window (their
breaks in different seconds, as on a real site) instead of all at its start. ``--featured N`` puts
N more spectators on match 0 (a club final, the home page's match): their shot round trip is its own
row and bar (``--max-crowd-shot-p99``), and that match's players get rows of their own too, judged by
the players' bars (they are also in the shooter and opponent rows). ``--crowd-procs C`` puts that
crowd in C client processes of its own, apart from match 0's players (one client loop holding a crowd
of 2,000 sockets would be the limit, not the server): the command seats match 0 before any process
starts, the players start once the crowd is connected, and the crowd's latencies join the receipt
times of the crowd processes with the send times of match 0's process after the run.
Those times come from different processes: it needs ``time.perf_counter()`` to be one clock for the
machine, Linux's CLOCK_MONOTONIC, and refuses to run elsewhere. The client loop lag has its own row
for the crowd processes. ``--reconnect-storm`` kills the
first ``--server-pid`` with SIGKILL after the window, starts it again as it was (bench.loadtest.storm),
and times how long until every socket it held has its snapshot again (``--max-storm-seconds``); a
snapshot older than a version the socket had seen counts as versions missed.
"""

from __future__ import annotations

import datetime
import multiprocessing
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bench.loadtest.config import SPREADS, LoadConfig, shared_clock_problem
from bench.loadtest.procstat import rss_of
from bench.loadtest.runner import run_load
from bench.loadtest.seats import SeatedMatch, seat_match
from bench.loadtest.stats import LoadStats


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[rank]


def think_range(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-")
    try:
        pair = (float(low), float(high or low))
    except ValueError:
        raise ValueError(f"--think takes seconds or a range like 3-8, not {text!r}") from None
    if pair[0] < 0 or pair[1] < pair[0]:
        raise ValueError(f"--think range {text!r} is empty or negative")
    return pair


def http_base(url: str) -> str:
    """The server's base URL for HTTP: a ``ws://`` or ``wss://`` URL is taken as the same server
    (the sockets' URLs are made from it again), anything else but http(s) is refused."""
    url = url.rstrip("/")
    scheme, sep, rest = url.partition("://")
    mapped = {"http": "http", "https": "https", "ws": "http", "wss": "https"}.get(scheme.lower())
    if not sep or mapped is None or not rest:
        raise CommandError(f"--url takes http://host:port (or ws://host:port), not {url!r}")
    return f"{mapped}://{rest}"


#: How a match may end that no play decided (`result.how`): the players are online throughout a run, so
#: such an end means the server lost track of them (presence behind under load).
CUT_SHORT = frozenset({"abandoned", "aborted", "unknown"})


def missed_bars(stats: LoadStats, options: dict[str, Any], peaks: dict[int, int | None]) -> list[str]:
    """Why the run misses the bars, one reason each (empty: it holds them). ``peaks``: peak RSS in kB
    per server pid (None when it could not be read, which fails a judged RSS bar)."""
    reasons = []
    errors = sum(stats.errors.values())
    if errors:
        reasons.append(f"{errors} error(s)")
    if stats.missed:
        reasons.append(f"{stats.missed} version(s) missed")
    if stats.shots == 0:
        reasons.append("no shot was played")
    cut_short = {how: n for how, n in sorted(stats.finishes.items()) if how in CUT_SHORT}
    if cut_short:
        detail = ", ".join(f"{how} {n}" for how, n in cut_short.items())
        reasons.append(f"{sum(cut_short.values())} match(es) cut short ({detail})")
    shot_bar, aim_bar, rss_bar = options["max_shot_p99"], options["max_aim_p99"], options["max_rss"]
    if shot_bar > 0:
        for label, values in (
            ("shooter", stats.shot_shooter),
            ("opponent", stats.shot_opponent),
            ("spectators", stats.shot_spectator),
            # The featured match's own players apart too (a crowd must not slow its players):
            # in the shooter and opponent rows their few samples are lost among every other match's.
            ("featured players", stats.shot_featured_players),
        ):
            p99 = 1000 * percentile(values, 99)
            if values and p99 > shot_bar:
                reasons.append(f"shot round trip p99 ({label}) {p99:.1f} ms > {shot_bar:g} ms")
    crowd_bar = options.get("max_crowd_shot_p99", 0)
    if crowd_bar > 0 and stats.shot_featured:
        p99 = 1000 * percentile(stats.shot_featured, 99)
        if p99 > crowd_bar:
            reasons.append(f"shot round trip p99 (featured crowd) {p99:.1f} ms > {crowd_bar:g} ms")
    if aim_bar > 0:
        for label, values in (
            ("opponent", stats.aim_opponent),
            ("spectators", stats.aim_spectator),
            ("featured players", stats.aim_featured_players),
        ):
            p99 = 1000 * percentile(values, 99)
            if values and p99 > aim_bar:
                reasons.append(f"aim relay p99 ({label}) {p99:.1f} ms > {aim_bar:g} ms")
    storm_bar = options.get("max_storm_seconds", 0)
    if options.get("reconnect_storm"):
        if stats.storm_back < stats.storm_sockets or not stats.storm_sockets:
            reasons.append(f"reconnect storm: {stats.storm_back} of {stats.storm_sockets} sockets came back")
        elif storm_bar > 0 and stats.storm_after_restart > storm_bar:
            reasons.append(
                f"reconnect storm: the last socket back {stats.storm_after_restart:.1f} s after the restart "
                f"> {storm_bar:g} s"
            )
    if rss_bar > 0:
        for pid, peak in peaks.items():
            if peak is None:
                reasons.append(f"server pid {pid}: peak RSS not readable")
            elif peak / 1024 > rss_bar:
                reasons.append(f"server pid {pid}: peak RSS {peak / 1024:.0f} MB > {rss_bar:g} MB")
    return reasons


def think_text(think: tuple[float, float]) -> str:
    return f"{think[0]:g}" if think[0] == think[1] else f"{think[0]:g}-{think[1]:g}"


class Command(BaseCommand):
    help = "Drive M matches (2 bot players + S spectators each) against running servers and print latencies."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--url",
            action="append",
            default=None,
            help="server base URL (repeat for round-robin); default http://127.0.0.1:8000",
        )
        parser.add_argument("--matches", type=int, default=10)
        parser.add_argument("--spectators", type=int, default=5)
        parser.add_argument("--duration", type=float, default=30.0, help="seconds of play measured")
        parser.add_argument(
            "--think",
            type=think_range,
            default=(2.0, 2.0),
            help="seconds a player aims before a shot: a number, or a range like 3-8 (drawn uniformly per shot)",
        )
        parser.add_argument("--aim-rate", type=float, default=10.0, help="aim messages per second while aiming")
        parser.add_argument("--procs", type=int, default=1, help="client processes")
        parser.add_argument(
            "--spread",
            choices=SPREADS,
            default="socket",
            help="with several --url: each match's sockets round-robin over them (socket), or all on one (match)",
        )
        parser.add_argument("--setup-concurrency", type=int, default=16)
        parser.add_argument(
            "--server-pid",
            type=int,
            action="append",
            default=[],
            help="a local server process whose peak RSS, and CPU over the window, to report (repeatable)",
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--max-shot-p99", type=float, default=150.0, help="bar: shot round trip p99 in ms (0: not judged)"
        )
        parser.add_argument("--max-aim-p99", type=float, default=50.0, help="bar: aim relay p99 in ms (0: not judged)")
        parser.add_argument(
            "--max-rss", type=float, default=400.0, help="bar: peak RSS of each --server-pid in MB (0: not judged)"
        )
        parser.add_argument(
            "--bare",
            action="store_true",
            help="the servers are the bare relay (bench.loadtest.bare_relay): no HTTP seats, the same traffic",
        )
        parser.add_argument(
            "--stagger",
            type=float,
            default=0.0,
            help="seconds over which the matches start, evenly spread (0: all at the window's start)",
        )
        parser.add_argument(
            "--featured",
            type=int,
            default=0,
            help="extra spectators on one match (match 0): a crowded final beside the even spread",
        )
        parser.add_argument(
            "--max-crowd-shot-p99",
            type=float,
            default=500.0,
            help="bar: the featured crowd's shot round trip p99 in ms (0: not judged; its thinned aims are not)",
        )
        parser.add_argument(
            "--crowd-procs",
            type=int,
            default=0,
            help="client processes of their own for the --featured crowd, apart from its match's players "
            "(0: in match 0's process); its latencies are joined across processes by CLOCK_MONOTONIC (Linux)",
        )
        parser.add_argument(
            "--reconnect-storm",
            action="store_true",
            help="after the window, SIGKILL the first --server-pid (serving the first --url), start it again, "
            "and time its sockets' return",
        )
        parser.add_argument(
            "--max-storm-seconds",
            type=float,
            default=10.0,
            help="bar: the storm's last socket back within this many seconds of the restart (0: not judged)",
        )
        parser.add_argument(
            "--timeline",
            action="store_true",
            help="also print each second's sample counts and p99 (bursts versus steady load)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        urls = [http_base(u) for u in (options["url"] or ["http://127.0.0.1:8000"])]
        matches, procs = options["matches"], max(1, options["procs"])
        think = options["think"]
        options["think"] = think_range(str(think)) if isinstance(think, (int, float, str)) else tuple(think)
        if matches < 1 or options["spectators"] < 0 or options["duration"] <= 0:
            raise CommandError("need at least one match, no negative spectators, a positive duration")
        stagger, featured = options.get("stagger") or 0.0, options.get("featured") or 0
        if stagger < 0 or featured < 0:
            raise CommandError("--stagger and --featured take 0 or more")
        crowd_procs = options.get("crowd_procs") or 0
        if options.get("reconnect_storm") and (not options["server_pid"] or procs != 1 or crowd_procs):
            raise CommandError(
                "--reconnect-storm needs --server-pid (of the first --url's server) and one client process"
            )
        if crowd_procs < 0 or crowd_procs > featured:
            raise CommandError(f"--crowd-procs {crowd_procs} needs 0 to --featured ({featured}) processes")
        if crowd_procs and (problem := shared_clock_problem()):
            raise CommandError(f"--crowd-procs measures the crowd across processes, and {problem}")
        if stagger >= options["duration"]:
            raise CommandError(f"--stagger {stagger:g} s must be shorter than --duration {options['duration']:g} s")
        base = LoadConfig(
            urls=urls,
            matches=matches,
            spectators=options["spectators"],
            duration=options["duration"],
            seed=options["seed"],
            think=options["think"][0],
            think_max=options["think"][1],
            aim_rate=options["aim_rate"],
            setup_concurrency=options["setup_concurrency"],
            spread=options["spread"],
            server_pids=list(options["server_pid"]),
            bare=bool(options.get("bare")),
            stagger_step=stagger / matches,
            featured=featured,
            reconnect_storm=bool(options.get("reconnect_storm")),
            crowd_procs=crowd_procs,
            seated=self.seat_featured_match(urls, bool(options.get("bare"))) if crowd_procs else None,
        )
        share, extra = divmod(matches, procs)
        configs, first = [], 0
        for index in range(procs):
            count = share + (1 if index < extra else 0)
            if count:
                configs.append(
                    replace(
                        base,
                        matches=count,
                        first_match=first,
                        setup_concurrency=max(1, base.setup_concurrency // procs),
                    )
                )
            first += count
        concurrency = max(1, base.setup_concurrency // max(1, crowd_procs))
        for index in range(crowd_procs):
            configs.append(replace(base, matches=0, crowd_index=index, setup_concurrency=concurrency))
        if len(configs) == 1:
            parts = [run_load(configs[0])]
        else:
            context = multiprocessing.get_context("spawn")
            with context.Manager() as manager:
                barrier = manager.Barrier(len(configs))
                configs = [replace(config, start_barrier=barrier) for config in configs]
                with ProcessPoolExecutor(max_workers=len(configs), mp_context=context) as pool:
                    parts = list(pool.map(run_load, configs))
        stats = LoadStats.merge(parts)
        ok = self.report(stats, options, urls)
        if not ok:
            sys.exit(1)

    def seat_featured_match(self, urls: list[str], bare: bool) -> SeatedMatch:
        """Match 0 seated before the client processes start: the crowd processes connect to it while
        the players' process sets up, and none of them could seat it for the others."""
        try:
            return seat_match(urls, 0, bare)
        except Exception as exc:
            raise CommandError(f"seating match 0 on {urls[0]} failed: {type(exc).__name__}: {exc}") from exc

    def report(self, stats: LoadStats, options: dict[str, Any], urls: list[str]) -> bool:
        out = self.stdout.write
        out(
            f"loadtest: {options['matches']} matches x (2 players + {options['spectators']} spectators) = "
            f"{stats.sockets} sockets on {', '.join(urls)}; {stats.window:.0f} s measured after "
            f"{stats.setup_seconds:.0f} s of setup; think {think_text(options['think'])} s, "
            f"aim {options['aim_rate']}/s, "
            f"{options['procs']} client process(es), seed {options['seed']}"
            + ("; bare relay" if options.get("bare") else "")
            + (f"; starts spread over {options['stagger']:g} s" if options.get("stagger") else "")
            + (f"; {options['featured']} more spectators on match 0" if options.get("featured") else "")
            + (f" in {options['crowd_procs']} crowd process(es)" if options.get("crowd_procs") else "")
            + (f", sockets spread by {options.get('spread', 'socket')}" if len(urls) > 1 else "")
        )
        out(f"{'latency (ms)':<34}{'n':>8}{'p50':>9}{'p95':>9}{'p99':>9}{'max':>9}")
        rows = [
            ("shot round trip: shooter", stats.shot_shooter),
            ("shot round trip: opponent", stats.shot_opponent),
            ("shot round trip: spectators", stats.shot_spectator),
            ("aim relay: opponent", stats.aim_opponent),
            ("aim relay: spectators", stats.aim_spectator),
            *(
                [
                    ("shot round trip: featured crowd", stats.shot_featured),
                    ("aim relay: featured crowd", stats.aim_featured),
                    ("shot round trip: featured players", stats.shot_featured_players),
                    ("aim relay: featured players", stats.aim_featured_players),
                ]
                if options.get("featured")
                else []
            ),
            ("ping round trip (server loop)", stats.ping),
            ("client loop lag", stats.loop_lag),
            *([("client loop lag: crowd processes", stats.crowd_loop_lag)] if options.get("crowd_procs") else []),
        ]
        for label, values in rows:
            out(
                f"{label:<34}{len(values):>8}"
                + "".join(f"{1000 * percentile(values, q):>9.1f}" for q in (50, 95, 99, 100))
            )
        window = stats.window or 1.0
        out(
            f"messages/s: in {stats.messages_in / window:.0f}, out {stats.messages_out / window:.0f}; "
            f"shots {stats.shots} ({stats.shots / window:.1f}/s), aims sent {stats.aims}, "
            f"matches finished {stats.finished}"
            + (f" ({', '.join(f'{k} {v}' for k, v in sorted(stats.finishes.items()))})" if stats.finishes else "")
        )
        errors = sum(stats.errors.values())
        detail = ", ".join(f"{k} {v}" for k, v in sorted(stats.errors.items()))
        out(f"errors: {errors}{' (' + detail + ')' if detail else ''}; versions missed: {stats.missed}")
        if options.get("timeline"):
            self.timeline(stats)
        if options.get("reconnect_storm"):
            out(
                f"reconnect storm: server pid {options['server_pid'][0]} killed (dead after {stats.storm_dead:.2f} s), "
                f"started again as pid {stats.storm_pid} "
                f"(answering /healthz {stats.storm_restart:.1f} s after its start); "
                f"{stats.storm_back} of {stats.storm_sockets} sockets "
                f"back at the database's version {stats.storm_after_restart:.1f} s after the restart "
                f"({stats.storm_after_kill:.1f} s after the kill)"
            )
            tried = ", ".join(f"{reason} {n}" for reason, n in stats.retries.most_common())
            out(f"reconnect storm: failed attempts: {tried or 'none'}")
        peaks: dict[int, int | None] = {}
        for pid in options["server_pid"]:
            rss, peaks[pid] = rss_of(pid)
            if options.get("reconnect_storm") and pid == options["server_pid"][0] and stats.storm_peak:
                rss, peaks[pid] = stats.storm_rss, stats.storm_peak  # read before the storm's kill
            if rss is None or peaks[pid] is None:
                out(f"server pid {pid}: not readable")
            else:
                cpu = stats.server_cpu.get(str(pid))
                used = f", CPU {cpu:.1f}% of a core in the window" if cpu is not None else ""
                out(f"server pid {pid}: RSS {rss / 1024:.0f} MB, peak RSS {(peaks[pid] or 0) / 1024:.0f} MB{used}")
        if stats.client_cpu:
            shares = " + ".join(f"{share:.1f}%" for _, share in sorted(stats.client_cpu.items()))
            out(f"client process(es): CPU {shares} of a core in the window")
        reasons = missed_bars(stats, options, peaks)
        out("result: " + ("FAILED: " + "; ".join(reasons) if reasons else "OK"))
        return not reasons

    def timeline(self, stats: LoadStats) -> None:
        """Per second of the window: shot and aim samples and their p99 (ms). A merged run's processes
        each count from their own window start; they began together, at the barrier after every
        process's set-up (LoadConfig.start_barrier)."""
        out = self.stdout.write
        began = datetime.datetime.fromtimestamp(stats.window_began).strftime("%H:%M:%S")
        out(f"timeline: second 0 began at {began} (local time)")
        out(f"{'second':>6}{'shots':>7}{'shot p99':>10}{'aims':>7}{'aim p99':>9}")
        last = int(max((t for t, _ in stats.shot_timeline + stats.aim_timeline), default=-1))
        for second in range(last + 1):
            shots = [v for t, v in stats.shot_timeline if int(t) == second]
            aims = [v for t, v in stats.aim_timeline if int(t) == second]
            out(
                f"{second:>6}{len(shots):>7}{1000 * percentile(shots, 99):>10.1f}"
                f"{len(aims):>7}{1000 * percentile(aims, 99):>9.1f}"
            )
