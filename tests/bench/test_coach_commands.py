"""The coach's benchmarks print what they promise: ``bot_ladder``'s contract lines and
``bench_analysis``'s last line. Cut to their smallest runs (the figures are not what is tested)."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from bench.management.commands.bench_analysis import Command as BenchAnalysis
from bench.management.commands.bot_ladder import Command as BotLadder
from bench.management.commands.bot_ladder import ladder_line

LADDER_LINE = re.compile(r"^level (\d) over level (\d): (\d+)% of (\d+) matches$")
MATCH_LINE = re.compile(r"^level(\d) - level(\d) match \d+: (-?\d+) - (-?\d+)")


def test_ladder_line_has_the_contract_format() -> None:
    assert ladder_line(3, 2, 13, 20) == "level 3 over level 2: 65% of 20 matches"
    assert ladder_line(5, 4, 0, 1) == "level 5 over level 4: 0% of 1 matches"


def test_bot_ladder_ends_with_one_contract_line_per_pair_of_levels() -> None:
    """Three levels, one short match a pair: the last two lines are the pairs, in order, and each
    percentage is what the printed match says (the higher level won it or not)."""
    out = StringIO()
    call_command(BotLadder(), matches=1, levels=[1, 2, 3], target=6, max_moves=80, budget=0.05, seed=1, stdout=out)
    lines = out.getvalue().strip().splitlines()
    last = [LADDER_LINE.match(line) for line in lines[-2:]]
    assert all(last), lines[-2:]
    assert [(m.group(1), m.group(2), m.group(4)) for m in last if m] == [("2", "1", "1"), ("3", "2", "1")]
    results = {
        (m.group(1), m.group(2)): int(m.group(3)) > int(m.group(4)) for line in lines if (m := MATCH_LINE.match(line))
    }
    for match in last:
        assert match is not None
        won = results[(match.group(1), match.group(2))]
        assert match.group(3) == ("100" if won else "0")
    assert not any(LADDER_LINE.match(line) for line in lines[:-2])
    assert any(line.split()[:2] == ["2", "2"] for line in lines)  # level 2 played two matches


def test_bot_ladder_needs_two_levels() -> None:
    with pytest.raises(CommandError):
        call_command(BotLadder(), matches=1, levels=[3], stdout=StringIO())


def test_bench_analysis_prints_its_last_line() -> None:
    """The server's path (the record replayed, one pool job a shot, one worker, each best shot's motion),
    cut to two shots and a small search: the last line is the contract, the host's speed beside it."""
    out = StringIO()
    call_command(BenchAnalysis(), shots=2, samples=4, simulations=20, stdout=out)
    lines = out.getvalue().strip().splitlines()
    assert re.fullmatch(r"analysis: 2 shots in \d+\.\d s", lines[-1]), lines[-1]
    host = r"timeit sum\(i\*i for i in range\(10\*\*6\)\): \d+ ms \(best of 5\)"
    assert re.fullmatch(r"host: " + host, lines[0]), lines[0]
    assert re.fullmatch(r"host after: " + host, lines[-2]), lines[-2]
    assert "pool: 1 worker, started in" in out.getvalue()
    assert "motions: 2 of 2 best shots played exactly" in lines
    assert sum(line.startswith(("north:", "south:")) for line in lines) == 2


def test_bench_analysis_refuses_a_search_of_nothing() -> None:
    with pytest.raises(CommandError):
        call_command(BenchAnalysis(), shots=2, simulations=0, stdout=StringIO())
