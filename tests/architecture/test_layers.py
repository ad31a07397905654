"""The Django layers go one way (STYLE.md, the HackSoft styleguide): selectors read,
services write and call selectors, never the reverse; no `except ImportError` around what is installed;
and every play message reaches the one service entry (game.matches.services.match_input). A function's
size is kept by the complexity budget (test_complexity.py), not a cap on a module's lines.

Static scans of the source, like tests/engine/test_purity.py: they need no database.
"""

from __future__ import annotations

import ast
import typing
from pathlib import Path

GAME = Path(__file__).resolve().parents[2] / "game"


def _game_modules() -> list[Path]:
    return sorted(path for path in GAME.rglob("*.py") if "migrations" not in path.relative_to(GAME).parts)


def imported_modules(path: Path, root: Path = GAME.parent) -> list[tuple[int, str]]:
    """Every module a file imports, at the top or inside a function, as absolute dotted names
    (`from game.matches import services` gives `game.matches.services`; relative imports are resolved
    against the file's package, named from `root`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = ".".join(path.relative_to(root).with_suffix("").parts[:-1])
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*parent, base] if base else parent)
            found.append((node.lineno, base))
            found.extend((node.lineno, f"{base}.{alias.name}") for alias in node.names)
    return found


def _is_service(module: str) -> bool:
    """A domain's writes: `game.<domain>.services` and what is under it (the domain packages)."""
    parts = module.split(".")
    return parts[0] == "game" and "services" in parts[2:3]


def _selector_files() -> list[Path]:
    """Every domain's reads: its `selectors.py`, or the modules of its `selectors/` package."""
    return sorted(
        path for path in GAME.rglob("*.py") if path.relative_to(GAME).parts[1:2] in (("selectors",), ("selectors.py",))
    )


def test_selectors_import_nothing_from_services() -> None:
    files = _selector_files()
    assert len(files) > 10, "the scan found too few selector modules in game/"
    offenders = [
        f"{path.relative_to(GAME.parent)}:{line} imports {module}"
        for path in files
        for line, module in imported_modules(path)
        if _is_service(module)
    ]
    assert offenders == []


def test_scanner_catches_a_service_import(tmp_path: Path) -> None:
    """The scan sees imports inside functions and relative ones, the two ways one would slip in."""
    package = tmp_path / "game" / "matches" / "selectors"
    package.mkdir(parents=True)
    sample = package / "bad.py"
    sample.write_text(
        "from game.models import Match\n"
        "def f():\n"
        "    from game.matches.services import match_join\n"
        "from ..services import results\n"
        "import game.lobby.services.seeks\n"
        "from game.clubs import services\n"
        "from game.matches.selectors import history\n"
    )
    caught = sorted({module for _, module in imported_modules(sample, root=tmp_path) if _is_service(module)})
    assert caught == [
        "game.clubs.services",
        "game.lobby.services.seeks",
        "game.matches.services",
        "game.matches.services.match_join",
        "game.matches.services.results",
    ]


def _import_error_handlers(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    lines: list[int] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ExceptHandler) and node.type is not None:
            names = node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]
            if any(isinstance(n, ast.Name) and n.id in ("ImportError", "ModuleNotFoundError") for n in names):
                lines.append(node.lineno)
    return lines


def test_no_except_import_error_in_game() -> None:
    """Import what is installed: a missing dependency should fail at start, not degrade quietly."""
    assert len(_game_modules()) > 20, "the scan found too few modules in game/"
    offenders = [
        f"{path.relative_to(GAME.parent)}:{line}" for path in _game_modules() for line in _import_error_handlers(path)
    ]
    assert offenders == []


def test_import_error_scan_catches_a_fallback(tmp_path: Path) -> None:
    sample = tmp_path / "fallback.py"
    sample.write_text("try:\n    import x\nexcept (OSError, ModuleNotFoundError):\n    x = None\n")
    assert _import_error_handlers(sample) == [3]


def test_every_play_message_has_the_one_service_entry() -> None:
    """Every play message but `rematch` (its own handler) is a `MatchInput`, what the one service entry
    (game.matches.services.match_input) takes; a claimed timeout fires the deadlines, the others are
    applied by `inputs.play`, whose `assert_never` has mypy check that none is left out."""
    from game.matches.services import inputs
    from game.realtime import protocol

    play_types = set(typing.get_args(protocol.PlayMessage)) - {protocol.RematchRequest}
    assert set(typing.get_args(protocol.MatchInput)) == play_types
    assert set(typing.get_args(inputs.PlayerInput)) == play_types - {protocol.ClaimTimeout}
