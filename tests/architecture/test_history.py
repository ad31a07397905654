"""No history in the product: the code, the tests and the docs say why, not which ticket or benchmark
session asked for it. A reader who joins has no tracker to look numbers up in; a reason in words (with the
one figure that matters, or a record in docs/decisions/) stays true where a number points at nothing.

Banned everywhere below: a tracker reference ("issue" and a number) and any mention of the retired
benchmark notebook. A benchmark's "round" and a number is banned too, but tournaments have rounds: in the
tournament files below such a line is fine unless it also speaks of benchmarks. Upstream citations are
URLs (https://github.com/owner/repo/issues/N), which the pattern does not match. Migrations are history
by nature and are never edited, so they are not scanned.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: What is scanned: the product, its tests and tools, and what is written for its readers.
SCOPE = ("game", "kaiza_site", "static", "tests", "scripts", "bench", "docs", "README.md")
#: Never scanned: migrations (never edited once on main) and what is not text a person wrote.
SKIPPED_PARTS = frozenset({"migrations", "__pycache__", "node_modules"})
TEXT_SUFFIXES = frozenset({".py", ".js", ".mjs", ".ts", ".css", ".html", ".md", ".po", ".sh", ".txt", ".toml"})

#: The retired notebook's name, built so that this line is not a hit.
NOTEBOOK_NAME = "performance" + "-load.md"
#: Files still to be rewritten by topic; they leave this list as the docs land, and it only shrinks.
PENDING: frozenset[str] = frozenset()

ISSUE = re.compile(r"\bissues? #?\d+", re.IGNORECASE)
NOTEBOOK = re.compile(re.escape(NOTEBOOK_NAME))
ROUND = re.compile(r"\brounds? \d+", re.IGNORECASE)
#: A line about benchmarks: a "round" on it is a benchmark session's, even in a tournament file.
BENCHMARK_WORDS = re.compile(r"perf|bench|timeit|loadtest|load benchmark|p99", re.IGNORECASE)
#: Where a round and its number are a tournament's (product words); .po files hold the tournament pages' msgids.
TOURNAMENT_PATHS = (
    "game/tournaments/",
    "game/templates/game/tournaments/",
    "game/models/tournaments.py",
    "tests/tournaments/",
    "tests/e2e/test_club_event.py",
    "tests/e2e/test_tournament_live.py",
    "tests/site/test_i18n_site.py",
    "docs/double-loss-draw.md",
    "docs/clubs-and-events.md",
)


def _is_tournament_file(rel: str) -> bool:
    return rel.endswith(".po") or rel.startswith(TOURNAMENT_PATHS)


def _files(root: Path) -> Iterator[tuple[str, Path]]:
    for top in SCOPE:
        base = root / top
        paths = [base] if base.is_file() else sorted(base.rglob("*")) if base.is_dir() else []
        for path in paths:
            rel = path.relative_to(root).as_posix()
            if path.is_file() and path.suffix in TEXT_SUFFIXES and not SKIPPED_PARTS & set(path.parts):
                yield rel, path


def history_hits(root: Path, pending: frozenset[str] = frozenset()) -> list[str]:
    """Every line under `root`'s scope that cites a tracker number, the notebook or a benchmark round."""
    hits = []
    for rel, path in _files(root):
        if rel in pending:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if rel.endswith(".po") and not line.startswith("#"):
                continue  # msgids and translations: the tournament pages' words
            found = ISSUE.search(line) or NOTEBOOK.search(line)
            if not found and ROUND.search(line):
                found = not _is_tournament_file(rel) or BENCHMARK_WORDS.search(line)
            if found:
                hits.append(f"{rel}:{number}: {line.strip()[:120]}")
    return hits


def test_no_issue_or_round_numbers_in_the_product() -> None:
    hits = history_hits(ROOT, PENDING)
    assert not hits, (
        "Say why in words (at most one figure), or point at a record in docs/decisions/; "
        "cite upstream issues by URL:\n" + "\n".join(hits)
    )
    missing = sorted(rel for rel in PENDING if not (ROOT / rel).exists())
    assert not missing, f"gone, so no longer pending: {missing}"


def test_the_history_scan_finds_what_it_bans(tmp_path: Path) -> None:
    """The scan is not vacuous: planted hits are found, product words and URLs are not. The samples are
    built here, at run time, so this file passes its own scan."""
    ticket = "Iss" + "ue " + str(12)
    session = "ro" + "und " + str(7)
    planted = {
        "game/matches/a.py": f"# kept per version ({ticket})\n",
        "kaiza_site/b.py": f'"""Two threads ({session} of the load benchmark)."""\n',
        "static/game/js/c.js": "// see docs/" + NOTEBOOK_NAME + "\n",
        "game/tournaments/d.py": f"# {session} of the benchmark: 40 ms\n",
        "docs/e.md": f"Quick pairing ({ticket.lower()}).\n",
        "game/locale/fi/LC_MESSAGES/django.po": f'# {ticket}: the pull-back\nmsgid "{session}"\n',
    }
    clean = {
        "game/tournaments/f.py": f"# {session} pairs the list in twos\n",
        "game/engine/g.py": "# https://github.com/ekiefl/pooltool/iss" + "ues/217, colour #222\n",
        "game/migrations/0001_x.py": f"# {ticket}\n",
        "tests/h.py": "# an issue with the cue, 3 rounds\n",
    }
    for rel, text in {**planted, **clean}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    found = {hit.split(":", 1)[0] for hit in history_hits(tmp_path)}
    assert found == set(planted)
    assert history_hits(tmp_path, frozenset(planted)) == []
