"""The physics reproduces the recorded golden shots bit for bit (``golden_cases.py`` says what and how).

A refactor of the event loop must not move a single bit of any event, segment or final position; a
physics change that is meant to change results regenerates the fixture and names the shots it changed.
"""

from __future__ import annotations

import json
import subprocess
import sys

from game.engine.physics import simulate
from tests.engine.golden_cases import FIXTURE, TABLE, all_cases, digest, record


def _stored() -> dict:
    return json.loads(FIXTURE.read_text())


def test_golden_shots_are_reproduced_bit_for_bit() -> None:
    stored = _stored()
    assert len(stored["hashes"]) > 1000
    changed = []
    seen = 0
    for name, layout, strike in all_cases():
        rec = record(simulate(TABLE, layout, strike))
        seen += 1
        if name in stored["full"]:
            assert rec == stored["full"][name], name
        if digest(rec) != stored["hashes"].get(name):
            changed.append(name)
    assert seen == len(stored["hashes"])
    assert changed == []


def test_golden_hashes_agree_in_a_fresh_process() -> None:
    """Determinism across processes: a new interpreter (another hash seed) gives the same digests."""
    code = "import json; from tests.engine.golden_cases import compute; print(json.dumps(compute()['hashes']))"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "12345", "PATH": ""},
    )
    assert json.loads(out.stdout) == _stored()["hashes"]
