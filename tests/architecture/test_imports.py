"""The import graph of `game/` as a guard of the design (issue 27): a domain reacts to another through
signals or registered hooks (game.apps wires them), never by importing upward, so no cycle is left to
hold together with in-function imports."""

from __future__ import annotations

from pathlib import Path

from tests.architecture.imports import GAME, cycles, graph, imports_of, modules


def test_no_import_cycles() -> None:
    """No cycle among the modules of game/, counting in-function imports and the package __init__s an
    import runs."""
    assert cycles(graph()) == []


def test_the_cycle_finder_finds_cycles() -> None:
    """The guard could fail: a cycle, a longer one and a package's own import are told apart."""
    edges = {"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"e"}, "e": {"c"}, "f": {"a"}}
    assert cycles(edges) == [["a", "b"], ["c", "d", "e"]]
    assert cycles({"x": {"y"}, "y": set()}) == []


def test_the_graph_reads_in_function_imports(tmp_path: Path) -> None:
    """The reader sees an import inside a function (where the old cycles hid) and resolves a module
    taken from its package (`from game.services import deadlines`)."""
    known = modules()
    source = tmp_path / "probe.py"
    source.write_text(
        "from game.services import deadlines\n\n\ndef late():\n    from game.realtime.hub import Hub\n    return Hub\n"
    )
    found = {target for target, _names, _line in imports_of(source, known)}
    assert found == {"game.services.deadlines", "game.realtime.hub"}
    edges = graph()
    assert "game.services.tournaments.play" in edges["game.apps"]  # wired in ready()


def test_no_module_imports_a_private_name() -> None:
    """A module's `_names` are its own: what another module needs is public (issue 27's bar)."""
    known = modules()
    private = [
        f"{name}:{line} takes {taken} from {target}"
        for name, path in known.items()
        for target, names, line in imports_of(path, known)
        if (taken := [n for n in names if n.startswith("_") and not n.startswith("__")])
    ]
    assert private == []


#: What game/realtime may import: itself, the shared helpers and the engine (never a domain).
REALTIME_MAY_IMPORT = ("game.realtime", "game.common", "game.engine")


def test_realtime_imports_no_domain() -> None:
    """The socket layer knows matches only as ids and versions: what it needs of a domain is a hook
    the domain registers (game.realtime.hooks), not an import."""
    edges = graph()
    upward = {
        module: sorted(t for t in targets if not t.startswith(REALTIME_MAY_IMPORT))
        for module, targets in edges.items()
        if module.startswith("game.realtime")
    }
    assert {m: t for m, t in upward.items() if t} == {}


def test_every_realtime_hook_is_registered() -> None:
    """game.apps hands realtime every function it calls; one it forgot would fail on first use."""
    from game.realtime.hooks import HOOKS

    assert HOOKS.missing() == []


def test_only_the_wiring_is_left_flat() -> None:
    """Beside the packages, game/ holds only the app's wiring modules (issue 27's bar; signals.py is
    ARCHITECTURE.md's place for the signals)."""
    flat = sorted(m for m in modules() if m.count(".") == 1 and not (GAME / m.split(".")[1]).is_dir())
    assert flat == ["game.admin", "game.apps", "game.routing", "game.signals", "game.urls"]
