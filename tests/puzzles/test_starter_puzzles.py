"""A fresh install offers puzzles: the starter puzzles shipped with the site (made from seeded computer
matches by `manage.py starter_puzzles`) are loaded by a server's first poll on a site with none, so the
daily puzzle, the streak and the home page have one at once; each is solved by its own best shot with
today's engine; and a site with no puzzles at all never says its viewer solved them all."""

from __future__ import annotations

import pytest
from django.test import Client

from game.engine.analysis.puzzles import exact_verdict, solves
from game.matches.clock_runner import EACH_POLL
from game.models import Puzzle
from game.puzzles.receivers import starter_puzzles_at_start
from game.puzzles.services import puzzles_starter_ensure, starter_puzzles

pytestmark = pytest.mark.django_db

SOLVED_ALL = "You have solved every puzzle there is for now"
NONE_YET = "There are no puzzles yet"


def test_fresh_install_has_puzzles(client: Client) -> None:
    # Before any puzzle exists, the streak says there are none, not that they were all solved.
    streak = client.get("/puzzles/streak/").content.decode()
    assert NONE_YET in streak and SOLVED_ALL not in streak

    # A server's first poll loads the shipped set (settings.KAIZA_SHOWCASE, on by default).
    assert starter_puzzles_at_start in EACH_POLL
    shipped = starter_puzzles()
    assert 5 <= len(shipped) <= 20
    assert puzzles_starter_ensure() == len(shipped)
    assert puzzles_starter_ensure() == 0  # loaded once, however many processes start
    assert Puzzle.objects.count() == len(shipped) and not Puzzle.objects.filter(match__isnull=False).exists()

    daily = client.get("/puzzles/")
    assert daily.status_code == 200 and daily.context["puzzle"] is not None
    assert daily.context["start"]["target"] >= 1
    streak_page = client.get("/puzzles/streak/")
    assert streak_page.context["puzzle"] is not None and SOLVED_ALL not in streak_page.content.decode()
    assert client.get("/").context["daily_puzzle"] is not None

    # Every shipped puzzle is a real one with today's engine: its best shot, played exactly, solves it.
    for puzzle in Puzzle.objects.all():
        verdict = exact_verdict(puzzle.snapshot, puzzle.call, puzzle.strike)
        assert solves(verdict, puzzle.target), (puzzle.starter, verdict.get("reason"))
