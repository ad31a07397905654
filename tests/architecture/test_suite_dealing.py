"""How tests/conftest.py deals the suite to pytest-xdist's workers (`_dealt`): each worker's first share
holds its plain tests, then its turn of the slow browser tests, then other browser tests; the first
half of the shares begin with their turn of the slow browser tests instead (beside the others' plain tests,
which leave the cores idle a fifth of the time); the shares have the sizes worksteal sends, and the
slow tests' seconds are balanced between the shares."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.conftest import _dealt


@dataclass(eq=False)
class Marker:
    args: tuple[Any, ...]


@dataclass(eq=False)
class Item:
    """What `_dealt` reads of a pytest item: its fixture names and its `slow` marker."""

    name: str
    browser: bool = False
    seconds: float | None = None
    fixturenames: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.browser:
            self.fixturenames = ["chromium"]

    def get_closest_marker(self, name: str) -> Marker | None:
        return Marker((self.seconds,)) if name == "slow" and self.seconds is not None else None


def _suite() -> list[Item]:
    plain = [Item(f"unit{i}") for i in range(40)]
    slow = [Item(f"slow{s}", browser=True, seconds=s) for s in (290, 50, 220, 150, 85, 105)]
    quick = [Item(f"page{i}", browser=True) for i in range(12)]
    return [*plain[:20], *slow[:3], *quick[:6], *plain[20:], *slow[3:], *quick[6:]]


def _shares(dealt: list[Any], workers: int) -> list[list[Any]]:
    """Split as worksteal's first schedule does: len // workers left, one worker after another."""
    shares, rest = [], list(dealt)
    for share in range(workers):
        size = len(rest) // (workers - share)
        shares.append(rest[:size])
        rest = rest[size:]
    return shares


def _leading_slow_pages(share: list[Any]) -> list[Any]:
    """The slow browser tests a share begins with."""
    lead = []
    for item in share:
        if not (item.fixturenames and item.seconds is not None):
            break
        lead.append(item)
    return lead


@pytest.mark.parametrize("workers", [1, 2, 3, 4])
def test_every_test_dealt_once_and_browser_tests_last_in_each_share_but_the_first_half(workers: int) -> None:
    """Plain tests first, then browser tests, in every share but the first half of them (one of two or
    three, two of four): those begin with their slow page tests, beside the others' plain tests (which
    leave cores idle)."""
    items = _suite()
    dealt = _dealt(items, workers)
    assert sorted(i.name for i in dealt) == sorted(i.name for i in items)
    for index, share in enumerate(_shares(dealt, workers)):
        lead = _leading_slow_pages(share)
        if workers > 1 and index < max(1, workers // 2):
            assert lead, [i.name for i in share]  # the first half of the shares lead with slow page tests
        else:
            assert lead == [], [i.name for i in share]
        kinds = [bool(i.fixturenames) for i in share[len(lead) :]]
        assert kinds == sorted(kinds), [i.name for i in share]  # then plain, then browser


def test_slow_tests_lead_each_share_balanced_by_their_seconds() -> None:
    dealt = _dealt(_suite(), 2)
    loads = []
    for share in _shares(dealt, 2):
        browser = [i for i in share if i.fixturenames]
        slow = [i for i in browser if i.seconds is not None]
        assert browser[: len(slow)] == slow, [i.name for i in browser]  # the slow ones come first
        assert [i.seconds for i in slow] == sorted((i.seconds for i in slow), reverse=True)
        loads.append(sum(i.seconds for i in slow))
    # 290 + 105 + 50 against 220 + 150 + 85: the two longest never in one share (510 s alone).
    assert sorted(loads) == [445, 455], loads


def test_slow_tests_without_a_browser_lead_the_shares_that_begin_plain() -> None:
    """A load run or a two-server test (`slow`, no browser) begins first in a share of the second half,
    longest first to the lightest: behind a first-half share's slow page tests it began late, and one
    begun last kept its worker busy alone after the others were done."""
    heavy = [Item(f"plain-slow{s}", seconds=s) for s in (28, 22, 21, 15)]
    items = [*_suite()[:10], heavy[2], *_suite()[10:30], heavy[0], heavy[3], *_suite()[30:], heavy[1]]
    for workers, expected in ((2, [[], [28, 22, 21, 15]]), (4, [[], [], [28, 15], [22, 21]])):
        dealt = _dealt(items, workers)
        assert sorted(i.name for i in dealt) == sorted(i.name for i in items)
        heads = []
        for share in _shares(dealt, workers):
            rest = share[len(_leading_slow_pages(share)) :]  # a first-half share's slow page tests come first
            head = [i for i in rest if not i.fixturenames and i.seconds is not None]
            assert rest[: len(head)] == head, [i.name for i in share]  # they lead the rest of the share
            kinds = [bool(i.fixturenames) for i in rest]
            assert kinds == sorted(kinds)  # and no browser test comes between the plain ones
            heads.append([i.seconds for i in head])
        assert heads == expected, (workers, heads)


def test_a_runs_templates_are_dropped_by_whoever_named_it() -> None:
    """`make test` names one run for both steps and drops what it shared at its end
    (tests.support.services.drop_run_templates): the PostgreSQL template its marker names, and the
    run's directory."""
    import uuid

    from tests.support import services

    services.require(services.postgres_available(), f"PostgreSQL is not reachable at {services.postgres_admin_url()}")
    run = f"probe{uuid.uuid4().hex[:8]}"
    shared = services.run_dir(run)
    shared.mkdir()
    url = services.postgres_create_database(name=f"kaiza_tpl_{run}")
    (shared / services.POSTGRES_TEMPLATE_MARKER).write_text(url)
    try:
        services.drop_run_templates(run)
        import psycopg

        with psycopg.connect(services.postgres_admin_url(), autocommit=True) as conn:
            left = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [f"kaiza_tpl_{run}"]).fetchall()
        assert left == [], "the run's PostgreSQL template is left"
        assert not shared.exists(), "the run's directory is left"
    finally:
        services.postgres_drop_database(url)


def test_without_page_tests_every_share_leads_with_its_slow_tests() -> None:
    """The services step has no page tests: no share waits for page tests of its own, so the slow tests
    are balanced over all of them."""
    heavy = [Item(f"plain-slow{s}", seconds=s) for s in (28, 22, 21, 15)]
    items = [*[Item(f"unit{i}") for i in range(40)], *heavy]
    heads = [[i.seconds for i in share if i.seconds is not None] for share in _shares(_dealt(items, 4), 4)]
    assert heads == [[28], [22], [21], [15]], heads
    for share in _shares(_dealt(items, 4), 4):
        assert share[0].seconds is not None, [i.name for i in share]
