"""The import graph of `game/` as a guard of the design: a domain reacts to another through
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
    taken from its package (`from game.matches.services import deadlines`)."""
    known = modules()
    source = tmp_path / "probe.py"
    source.write_text(
        "from game.matches.services import deadlines\n\n\n"
        "def late():\n    from game.realtime.hub import Hub\n    return Hub\n"
    )
    found = {target for target, _names, _line in imports_of(source, known)}
    assert found == {"game.matches.services.deadlines", "game.realtime.hub"}
    edges = graph()
    assert "game.tournaments.services.play" in edges["game.apps"]  # wired in ready()


def test_no_module_imports_a_private_name() -> None:
    """A module's `_names` are its own: what another module needs is public (no private-name imports)."""
    known = modules()
    private = [
        f"{name}:{line} takes {taken} from {target}"
        for name, path in known.items()
        for target, names, line in imports_of(path, known)
        if (taken := [n for n in names if n.startswith("_") and not n.startswith("__")])
    ]
    assert private == []


#: What game/realtime may import: itself, the shared helpers, the engine and the server's adaptation of
#: Channels' consumer (never a domain).
REALTIME_MAY_IMPORT = ("game.realtime", "game.common", "game.engine", "kaiza_site.server.channels_dispatch")


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
    """Beside the packages, game/ holds only the app's wiring modules (signals.py is
    ARCHITECTURE.md's place for the signals)."""
    flat = sorted(m for m in modules() if m.count(".") == 1 and not (GAME / m.split(".")[1]).is_dir())
    assert flat == ["game.admin", "game.apps", "game.routing", "game.signals", "game.urls"]


#: The modules of game/ that wire the domains together (Django's own entry points): they may import
#: any module of any domain, since that is their job.
WIRING = (
    "game.apps",
    "game.urls",
    "game.routing",
    "game.admin",
    "game.templatetags",
    "game.management",
)
#: Shared by every domain, imported freely: the models, the helpers, the engine, the socket layer, the signals.
SHARED = ("game.models", "game.common", "game.engine", "game.realtime", "game.signals")
#: Besides a domain's `services` (its package, whose __init__ names what others may call) and its
#: reads (`selectors` and every module under it), the modules another domain may import, each with
#: why it is public.
PUBLIC_MODULES = {
    "game.accounts.views": "player_user: the guest seat every play form gives a visitor",
    "game.accounts.language": "the languages the site speaks, which a page's catalogue checks its own against",
    "game.matches.forms": "the words of a refused match action and the event clock form other forms share",
    "game.matches.clock_presets": "an event's clock and target: the presets and ranges every form and service checks",
    "game.ratings.rules": "the rules that make an account's rated results count",
    "game.chat.phrases": "the chat's fixed phrases",
    "game.tournaments.visibility": "who may see an event: every page and socket showing one of its games checks it",
    "game.realgames.stats": "real play's statistics, read by the profiles and the club's records pages",
}


def domain_of(module: str) -> str:
    return ".".join(module.split(".")[:2])


def is_public(target: str) -> bool:
    """May a module of another domain import `target`?"""
    parts = target.split(".")
    if len(parts) < 3:
        return True  # a domain package itself (its __init__)
    kind = parts[2]
    if kind == "services":
        return len(parts) == 3  # the package, not its submodules: game.<domain>.services names the calls
    if kind == "selectors":
        return True  # reads, one module per area
    return target in PUBLIC_MODULES or any(target.startswith(m + ".") for m in PUBLIC_MODULES)


def test_domains_import_only_public_modules() -> None:
    """A domain takes another's writes from its `services` package and its reads from its selectors,
    never from the modules inside (`lock`, `start`, `store_event` were taken from three
    private corners of the matches services); the wiring modules are exempt."""
    known = modules()
    offenders = sorted(
        f"{name}:{line} imports {target}"
        for name, path in known.items()
        if not name.startswith(WIRING) and not name.startswith(SHARED)
        for target, _names, line in imports_of(path, known)
        if target.count(".") >= 1
        and not target.startswith(SHARED)
        and domain_of(target) != domain_of(name)
        and not is_public(target)
    )
    assert offenders == []


def test_the_public_module_rule_could_fail() -> None:
    assert not is_public("game.matches.services.base")
    assert is_public("game.matches.services")
    assert is_public("game.matches.selectors.match_state")
    assert not is_public("game.lobby.seek_clock")
    assert is_public("game.matches.forms")
    assert not is_public("game.teams.results")


def test_every_unversioned_message_is_built_by_its_builder() -> None:
    """Outbound messages are typed like inbound ones: every `{t, d}` a socket sends is made
    by a typed message of game.realtime.outbound (Paired, Seeking, SeekEnded, Matches, Tournament, …),
    not by `protocol.message("…", {…})` at the call site."""
    import ast

    builders = {"game/realtime/outbound.py"}
    ad_hoc = []
    for name, path in modules().items():
        rel = str(path.relative_to(GAME.parent))
        if rel in builders:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "message"
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id.endswith("protocol")
            ):
                ad_hoc.append(f"{name}:{node.lineno}")
    assert ad_hoc == []


def test_tournaments_never_import_clubs() -> None:
    """The clubs build on tournaments (a ranking series scores their placings): they hear a
    tournament's end through `game.signals.tournament_finished`, wired in game.apps. So no
    tournaments module imports the clubs (a tournament page reads its club's row, a model)."""
    edges = graph()
    upward = sorted(
        f"{module} imports {target}"
        for module, targets in edges.items()
        if module.startswith("game.tournaments")
        for target in targets
        if target.startswith("game.clubs")
    )
    assert upward == []
    assert "game.clubs.receivers" in edges["game.apps"]
