"""The import graph of `game/`, read from the source (top-level and in-function imports alike)."""

from __future__ import annotations

import ast
from pathlib import Path

GAME = Path(__file__).resolve().parents[2] / "game"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(GAME.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    """Every module of game/ (migrations and management commands left out: nothing imports them)."""
    found = {}
    for path in sorted(GAME.rglob("*.py")):
        rel = path.relative_to(GAME).parts
        if rel[0] in {"migrations"} or "management" in rel:
            continue
        found[module_name(path)] = path
    return found


def imports_of(path: Path, known: dict[str, Path]) -> list[tuple[str, list[str], int]]:
    """(module imported, names taken from it, line) for each import of a game module in `path`.
    `from game.x import y` where game.x.y is a module counts as importing game.x.y."""
    tree = ast.parse(path.read_text(), filename=str(path))
    this = module_name(path) if path.is_relative_to(GAME.parent) else path.stem
    package = this if path.name == "__init__.py" else this.rpartition(".")[0]
    found: list[tuple[str, list[str], int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "game" or alias.name.startswith("game."):
                    found.append((alias.name, [], node.lineno))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")
                parent = parent[: len(parent) - (node.level - 1)]
                base = ".".join([*parent, base] if base else parent)
            if not (base == "game" or base.startswith("game.")):
                continue
            plain: list[str] = []
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in known:
                    found.append((sub, [], node.lineno))
                else:
                    plain.append(alias.name)
            if plain:
                found.append((base, plain, node.lineno))
    return found


def graph() -> dict[str, set[str]]:
    known = modules()
    edges: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        own = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)}
        for target, _names, _line in imports_of(path, known):
            # Importing a.b.c runs a/__init__ and a/b/__init__ first: those are imported too, unless
            # they are packages of this module's own (which Python has imported before it).
            parts = target.split(".")
            for i in range(2, len(parts) + 1):
                step = ".".join(parts[:i])
                if step in known and step != name and step not in own:
                    edges[name].add(step)
    return edges


def package_of(module: str) -> str:
    """The top-level package of game/ a module belongs to (`game.matches.services.inputs` ->
    `game.matches`); a flat module of game/ (`game.apps`) is its own."""
    return ".".join(module.split(".")[:2])


def package_graph(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    """The module graph folded onto game/'s top-level packages: an edge from one package to another
    wherever any module of the first imports any module of the second (a package's own imports left out)."""
    packages: dict[str, set[str]] = {}
    for module, targets in edges.items():
        source = package_of(module)
        packages.setdefault(source, set()).update(package_of(t) for t in targets if package_of(t) != source)
    return packages


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found
