"""How Kaiza's double-loss draw agrees with KaisaKaavio's on event files, and what it costs.

A measuring tool, not a test: for each file it replays the event (`kaisakaavio.replay`: Kaiza draws
it with the file's results, taken by the file's clock or in its order) and prints the games at the
same place of the program's list, the CPU seconds of the replay, then the totals per format (events
in full, games at the same place; a seeded event under its seeding, `Sijoittaminen`) with the host's
speed. The files are the program's own (its test data, events its draw made headless with the
oracle's `montecarlo`, its seeded events with `--seeds 8|24`, events at several places with a local
build that sets up places, see /work/shared/tools/kaisakaavio-oracle) or an event Kaiza exported;
events at several places are totalled apart.

    .venv/bin/python bench/scripts/bench_kaisakaavio.py FILE.xml... [--order times|file]
"""

from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--order", choices=("times", "file"), default="times")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kaiza_site.settings")
    import django

    django.setup()
    from game.tournaments.kaisakaavio import parse, replay
    from game.tournaments.pairing.double_loss import DrawError
    from game.tournaments.refusal import TournamentError

    totals: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0, 0])
    for path in args.files:
        try:
            kaavio = parse(path.read_bytes())
        except TournamentError as error:
            print(f"{path.name}: refused: {error.message}")
            continue
        try:
            kaavio.event()
        except DrawError as error:  # a place too small, say: the program's draw window refuses it too
            print(f"{path.name}: refused by the draw: {error.reason}")
            continue
        started = time.process_time()
        lines = replay(kaavio, args.order)
        seconds = time.process_time() - started
        same = sum(line.same for line in lines)
        first = next((line.number for line in lines if not line.same), None)
        verdict = "in full" if first is None else f"first difference at place {first}"
        print(f"{path.name}: {same}/{len(lines)} games, {verdict}, {seconds:.2f} s CPU")
        seeding = dict(kaavio.other_fields).get("Sijoittaminen", "EiSijoittamista")
        name = kaavio.format if seeding == "EiSijoittamista" else f"{kaavio.format} {seeding}"
        total = totals[f"{name} at several places" if kaavio.venues else name]
        total[0] += first is None
        total[1] += 1
        total[2] += same
        total[3] += len(lines)
    every = [0, 0, 0, 0]
    for name, (full, events, same, games) in sorted(totals.items()):
        print(f"{name}: events in full {full}/{events}, games {same}/{games}")
        every = [a + b for a, b in zip(every, (full, events, same, games), strict=True)]
    print(f"all: events in full {every[0]}/{every[1]}, games {every[2]}/{every[3]}")
    speed = subprocess.run(
        [sys.executable, "-m", "timeit", "sum(i*i for i in range(10**6))"], capture_output=True, text=True, check=True
    )
    print(f'python -m timeit "sum(i*i for i in range(10**6))": {speed.stdout.strip()}')


if __name__ == "__main__":
    main()
