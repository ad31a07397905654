"""The docs a newcomer reads first stay short and whole: the README fits on a few screens and opens
with the two commands that set everything up, and no link in it or in docs/ points at a file that
is not there (a moved or renamed page leaves no dead link behind)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: The README's budget: what a reader takes in before deciding to go on (lila's is 5.6 KB).
README_MAX_BYTES = 8 * 1024
#: The set-up commands must be seen without scrolling.
README_HEAD_LINES = 6

FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"`[^`\n]*`")
#: `[text](target)` and `![alt](target)`, the target up to a space (a title) or the closing bracket.
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", re.IGNORECASE)
#: A page of docs/ named in the code, the tests or the docs themselves (always from the repository's root).
DOC_MENTION = re.compile(r"\bdocs/[\w./-]+?\.md\b")
#: Where such mentions are looked for: the product, its tests and tools, and what is written for readers.
MENTION_SCOPE = (
    "game",
    "kaiza_site",
    "static",
    "tests",
    "scripts",
    "bench",
    "docs",
    "README.md",
    "Makefile",
    "pyproject.toml",
)
MENTION_SUFFIXES = frozenset({".py", ".js", ".mjs", ".ts", ".css", ".html", ".md", ".po", ".sh", ".txt", ".toml", ""})
#: These plant dead names on purpose (in a temporary folder) to show their checks work; and the retired
#: benchmark notebook is test_history.py's to ban.
MENTION_SKIPPED = frozenset({"tests/architecture/test_docs.py", "tests/architecture/test_history.py"})
SKIPPED_PARTS = frozenset({"migrations", "__pycache__", "node_modules"})
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)


def readme_problems(root: Path) -> list[str]:
    readme = root / "README.md"
    problems = []
    size = len(readme.read_bytes())
    if size > README_MAX_BYTES:
        problems.append(f"README.md is {size} bytes, over {README_MAX_BYTES}: move the detail to docs/")
    head = "\n".join(readme.read_text(encoding="utf-8").splitlines()[:README_HEAD_LINES])
    for command in ("make run", "make test"):
        if command not in head:
            problems.append(f"README.md's first {README_HEAD_LINES} lines do not name `{command}`")
    return problems


def _documents(root: Path) -> Iterator[Path]:
    yield root / "README.md"
    yield from sorted((root / "docs").rglob("*.md"))


def relative_links(text: str) -> Iterator[str]:
    """The relative link targets of a Markdown text, code blocks and code spans left out."""
    prose = CODE_SPAN.sub("", FENCE.sub("", text))
    for match in LINK.finditer(prose):
        target = match.group(1)
        if not EXTERNAL.match(target) and not target.startswith("#"):
            yield target


def anchors(text: str) -> set[str]:
    """The anchors GitHub gives a Markdown text's headings: lower case, punctuation dropped, spaces as
    hyphens (a repeated heading's "-1" suffix aside)."""
    return {
        re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in HEADING.findall(FENCE.sub("", text))
    }


def dead_links(root: Path) -> list[str]:
    """Every relative link of README.md and docs/ whose file, or whose heading in a Markdown file, is not there."""
    dead = []
    for document in _documents(root):
        for target in relative_links(document.read_text(encoding="utf-8")):
            path, _, anchor = target.split("?", 1)[0].partition("#")
            linked = document.parent / path
            if not linked.exists():
                dead.append(f"{document.relative_to(root).as_posix()}: {target}")
            elif anchor and linked.suffix == ".md" and anchor not in anchors(linked.read_text(encoding="utf-8")):
                dead.append(f"{document.relative_to(root).as_posix()}: {target} (no such heading)")
    return dead


def dead_mentions(root: Path) -> list[str]:
    """Every `docs/….md` named in a file of MENTION_SCOPE that does not exist: a comment or a docstring that
    sends its reader to a page that was renamed."""
    dead = []
    for top in MENTION_SCOPE:
        base = root / top
        paths = [base] if base.is_file() else sorted(base.rglob("*")) if base.is_dir() else []
        for path in paths:
            rel = path.relative_to(root).as_posix()
            if not path.is_file() or path.suffix not in MENTION_SUFFIXES or rel in MENTION_SKIPPED:
                continue
            if SKIPPED_PARTS & set(path.parts) or "performance" + "-load" in rel:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            for name in sorted(set(DOC_MENTION.findall(text))):
                if not (root / name).exists():
                    dead.append(f"{rel}: {name}")
    return dead


def test_readme_is_short() -> None:
    problems = readme_problems(ROOT)
    assert not problems, "\n".join(problems)


def test_every_relative_link_in_the_docs_resolves() -> None:
    dead = dead_links(ROOT)
    assert not dead, "links to files that are not there:\n" + "\n".join(dead)


def test_every_docs_page_named_in_the_code_exists() -> None:
    dead = dead_mentions(ROOT)
    assert not dead, "pages of docs/ named but not there (renamed? say where it went):\n" + "\n".join(dead)


def test_the_doc_checks_catch_what_they_ban(tmp_path: Path) -> None:
    """Neither check is vacuous: a long README, one without the commands up top, and dead links in the
    README and in a nested doc, and a link to a heading that is not there, are all found; code, external
    links and links within the page are not checked."""
    (tmp_path / "docs" / "decisions").mkdir(parents=True)
    (tmp_path / "docs" / "here.md").write_text("# Here\n\n## The `top`, at last\n", encoding="utf-8")
    (tmp_path / "README.md").write_text(
        "# X\n\nIntro.\n\n" + "words\n" * 1500 + "`make run` and `make test`\n"
        "[ok](docs/here.md#the-top-at-last) [gone](docs/gone.md) ![img](docs/img/none.png)\n"
        "[no heading](docs/here.md#bottom)\n"
        "[web](https://example.com/x.md) [anchor](#top) `[code](nowhere.md)`\n"
        "```\n[fenced](nowhere-either.md)\n```\n",
        encoding="utf-8",
    )
    (tmp_path / "docs" / "decisions" / "d.md").write_text(
        "[up](../here.md) [dead](../../missing.md) [mail](mailto:a@b.c)\n", encoding="utf-8"
    )
    problems = readme_problems(tmp_path)
    assert len(problems) == 3  # too long, and neither command in the first lines
    assert sorted(dead_links(tmp_path)) == [
        "README.md: docs/gone.md",
        "README.md: docs/here.md#bottom (no such heading)",
        "README.md: docs/img/none.png",
        "docs/decisions/d.md: ../../missing.md",
    ]
    (tmp_path / "README.md").write_text("# X\n```sh\nmake run\nmake test\n```\n", encoding="utf-8")
    assert readme_problems(tmp_path) == []
    gone = "docs/" + "old-name.md"
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "a.py").write_text(f"# routed as {gone} says; docs/here.md too\n", encoding="utf-8")
    (tmp_path / "Makefile").write_text(f"# see {gone}\n", encoding="utf-8")
    assert dead_mentions(tmp_path) == [f"game/a.py: {gone}", f"Makefile: {gone}"]
