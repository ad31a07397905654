"""A stored match's shots as the shot analysis reads them: the replay record run through the
engine gives each `shoot` the position before it, and the analysis takes that plain data."""

from __future__ import annotations

import pytest

from game.engine.analysis import analyse_played, played_shots
from game.engine.rules import Match as EngineMatch
from game.matches.selectors.replays import match_replay_record, replay_shots
from game.models import Shot
from tests.support.community_factories import make_player, play_engine_match


@pytest.mark.django_db
@pytest.mark.parametrize("time_limit", [None, 3900])
def test_replay_shots_give_each_stored_shot_the_position_before_it(time_limit: int | None) -> None:
    match = play_engine_match(make_player("Alice"), make_player("Bob"), inputs=12, time_limit=time_limit)
    stored = list(Shot.objects.filter(match=match, kind="shoot").order_by("seq"))
    shots = replay_shots(record=match_replay_record(match=match))
    assert len(shots) == len(stored) >= 2
    for shot, row in zip(shots, stored, strict=True):
        assert shot["player"] == row.player_name
        assert (shot["call"], shot["strike"]) == (row.input["call"], row.input["strike"])
        # Played again from its position with its `now`, the stored input gives the stored verdict.
        verdict = (
            EngineMatch.from_snapshot(shot["snapshot"])
            .shoot(shot["player"], call=shot["call"], strike=shot["strike"], now=row.input["now"])
            .verdict
        )
        assert verdict == row.verdict
    first = played_shots(shots)[0]
    assert analyse_played(first, samples=2).played.samples == 2
