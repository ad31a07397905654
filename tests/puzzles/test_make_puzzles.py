"""`python manage.py make_puzzles`: the last finished rated matches analysed (few samples) and their puzzles
stored through the same service the stored analysis calls; a second run adds nothing."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from game.models import Puzzle
from tests.support.community_factories import make_player, play_engine_match

pytestmark = pytest.mark.django_db


def test_make_puzzles_analyses_rated_matches_once() -> None:
    alice, bob = make_player("Alice"), make_player("Bob")
    rated = play_engine_match(alice, bob, inputs=6, rated=True)
    play_engine_match(alice, bob, inputs=6, rated=False)
    out = StringIO()
    call_command("make_puzzles", matches=5, samples=2, min_success=0.0, min_gain=0.0, stdout=out)
    lines = out.getvalue().splitlines()
    assert [line.split(":")[0] for line in lines[:-1]] == [f"match {rated.pk}"]  # the casual one is not read
    made = Puzzle.objects.count()
    assert lines[-1] == f"puzzles made: {made}"
    assert set(Puzzle.objects.values_list("match_id", flat=True)) <= {rated.pk}
    again = StringIO()
    call_command("make_puzzles", matches=5, samples=2, stdout=again)
    assert Puzzle.objects.count() == made
    assert again.getvalue().splitlines()[-1] == "puzzles made: 0"


def test_make_puzzles_refuses_bad_options() -> None:
    with pytest.raises(CommandError, match="at least 1"):
        call_command("make_puzzles", matches=0)
    with pytest.raises(CommandError, match="from 0 to 1"):
        call_command("make_puzzles", min_success=2.0)
