"""One configuration: kaiza_site/config.py is the product's only reader of the environment, and
docs/configuration.md is the one it generates.

Static scans of the source, like tests/architecture/test_layers.py: they need no database. The tools
(scripts/, bench/, tests/) may read and set variables for the processes they start; the product reads
them through the configuration, so that every variable is typed, checked at start and documented.
"""

from __future__ import annotations

import ast
from pathlib import Path

from kaiza_site.config import markdown, variables

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("game", "kaiza_site")
THE_READER = ROOT / "kaiza_site" / "config.py"
DOC = ROOT / "docs" / "configuration.md"
#: What reads, writes or hands out the process environment in the os module.
ENVIRONMENT = frozenset({"environ", "environb", "getenv", "getenvb", "putenv", "unsetenv"})


def environment_reads(path: Path) -> list[int]:
    """The lines of `path` that touch the environment: `os.environ`, `os.getenv(...)` (with os under any
    name), and the same names imported from os."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    os_names = {"os"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            os_names.update(alias.asname or alias.name for alias in node.names if alias.name == "os")
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "os":
            if any(alias.name in ENVIRONMENT for alias in node.names):
                lines.add(node.lineno)
        elif isinstance(node, ast.Attribute) and node.attr in ENVIRONMENT:
            if isinstance(node.value, ast.Name) and node.value.id in os_names:
                lines.add(node.lineno)
    return sorted(lines)


def _product_modules() -> list[Path]:
    return sorted(path for package in PRODUCT for path in (ROOT / package).rglob("*.py"))


def test_environment_is_read_in_one_place() -> None:
    modules = _product_modules()
    assert len(modules) > 100, "the scan found too few modules in game/ and kaiza_site/"
    assert environment_reads(THE_READER), "the scan no longer sees the configuration's own reads"
    offenders = [
        f"{path.relative_to(ROOT)}:{line}" for path in modules if path != THE_READER for line in environment_reads(path)
    ]
    assert offenders == [], "read the environment in kaiza_site/config.py, the rest reads django.conf.settings"


def test_the_scan_sees_each_way_to_the_environment(tmp_path: Path) -> None:
    sample = tmp_path / "reader.py"
    sample.write_text(
        "import os\n"
        "import os as system\n"
        "from os import getenv\n"
        "a = os.environ['A']\n"
        "def f():\n"
        "    return system.getenv('B')\n"
        "os.environ.setdefault('C', '1')\n"
        "environ = {}\n"
        "b = environ.get('not the environment')\n"
        "c = open('/proc/1/environ')\n"
        "d = os.getpid()\n"
    )
    assert environment_reads(sample) == [3, 4, 6, 7]


def test_configuration_doc_is_current() -> None:
    assert DOC.read_text(encoding="utf-8") == markdown(), (
        "docs/configuration.md is stale: python -m kaiza_site.config --markdown > docs/configuration.md"
    )


def test_every_variable_is_named_once_and_documented() -> None:
    names = [variable.env for variable in variables()]
    assert len(names) > 40
    assert len(names) == len(set(names))
    undocumented = [variable.env for variable in variables() if not (variable.doc and variable.accepts)]
    assert undocumented == []
    assert all(f"| `{name}` |" in markdown() for name in names)
