"""The packages of game/ form a one-way graph: a domain builds on the ones below it and never imports
one above, so each can be read, tested and changed knowing only what it stands on.

At the bottom are the engine (no Django), `common` (shared helpers), the models and the signals; then
`realtime` (the sockets, no domain); then `matches`, which depends on those alone. The domains built
on a match (ratings, teams, tournaments, chat, the lobby, clubs, puzzles, accounts) import it; it
hears nothing of them but through what they register: typed hook slots (game/matches/hooks.py,
game/realtime/hooks.py, each a `typing.Protocol` or a precise `Callable`) filled in game.apps, the
one wiring point, and the Django signals of game/signals.py it sends. Pages that compose several
domains around a match (the lobby and match pages, watch, replays, the computer opponent) belong to
`site`, the presentation package at the top, not to `matches`. The wiring modules (game.apps, urls,
routing, admin, the template tags) sit above everything and nothing imports them.

The graph is read from the source like the module graph (tests/architecture/imports.py), in-function
imports included, so a cycle cannot hide inside a function.
"""

from __future__ import annotations

from tests.architecture.imports import cycles, graph, package_graph

#: What the match code may import besides itself: the engine, the shared helpers, the socket layer, the
#: models and the signal definitions. Everything else reaches it through hooks and signals.
MATCHES_MAY_IMPORT = frozenset({"game.engine", "game.common", "game.realtime", "game.models", "game.signals"})


def upward_from_matches(packages: dict[str, set[str]]) -> list[str]:
    """The packages `matches` imports that it may not (sorted; none is right)."""
    return sorted(packages.get("game.matches", set()) - MATCHES_MAY_IMPORT)


def test_packages_form_a_one_way_graph() -> None:
    """No cycle among game/'s top-level packages, counting in-function imports; and `matches` imports
    only the engine, common, realtime, the models and the signals."""
    packages = package_graph(graph())
    assert cycles(packages) == []
    assert upward_from_matches(packages) == []


def test_the_package_checker_could_fail() -> None:
    """Two modules of different packages importing each other's package make a package cycle even
    when the modules form none, and a match module importing a domain is caught."""
    edges = {
        "game.matches.services.results": {"game.teams.results"},
        "game.teams.results": {"game.models"},
        "game.teams.services": {"game.matches.services"},
        "game.matches.services": set(),
        "game.models": set(),
    }
    assert cycles(edges) == []  # no module cycle...
    packages = package_graph(edges)
    assert packages["game.matches"] == {"game.teams"}
    assert cycles(packages) == [["game.matches", "game.teams"]]  # ...but a package one
    assert upward_from_matches(packages) == ["game.teams"]
    assert upward_from_matches(package_graph({"game.matches.consumer": {"game.realtime.hub"}})) == []


def test_every_match_hook_is_registered() -> None:
    """game.apps hands the match code every function it calls; one it forgot would fail on first use
    (a fresh registry, filled by nobody, shows the check sees them all)."""
    from game.matches.hooks import HOOKS, MatchHooks

    assert HOOKS.missing() == []
    assert "pair_result" in MatchHooks().missing()


def test_every_tournament_hook_is_registered() -> None:
    """game.apps hands the event pages what the packages built on the tournaments provide (the games
    scored at the tables); one forgotten would fail on the first page of an event at the club."""
    from game.tournaments.hooks import HOOKS, TournamentHooks

    assert HOOKS.missing() == []
    assert TournamentHooks().missing() == ["real_games"]
