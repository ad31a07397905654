"""The import graph of `game/` as a guard of the design (issue 27): a domain reacts to another through
signals or registered hooks (game.apps wires them), never by importing upward, so no cycle is left to
hold together with in-function imports."""

from __future__ import annotations

from tests.architecture.imports import cycles, graph, imports_of, modules


def test_no_import_cycles() -> None:
    """No cycle among the modules of game/, counting in-function imports and the package __init__s an
    import runs."""
    assert cycles(graph()) == []


def test_the_cycle_finder_finds_cycles() -> None:
    """The guard could fail: a cycle, a longer one and a package's own import are told apart."""
    edges = {"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"e"}, "e": {"c"}, "f": {"a"}}
    assert cycles(edges) == [["a", "b"], ["c", "d", "e"]]
    assert cycles({"x": {"y"}, "y": set()}) == []


def test_the_graph_reads_in_function_imports() -> None:
    """The reader sees an import inside a function (where the old cycles hid) and resolves a module
    taken from its package (`from game.services import deadlines`)."""
    known = modules()
    found = {target for target, _names, _line in imports_of(known["game.deadline_runner"], known)}
    assert "game.consumers" in found  # imported inside fire_due
    assert "game.services.deadlines" in found
    edges = graph()
    assert "game.services.tournaments.play" in edges["game.apps"]  # wired in ready()
