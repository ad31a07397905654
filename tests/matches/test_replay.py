"""Replays: the downloadable JSON record re-runs through the engine to the stored final snapshot, byte for
byte, and the replay page carries every step with its segments and verdict."""

from __future__ import annotations

import json

import pytest

from game.engine import ENGINE_VERSION
from game.engine.rules import RuleError
from game.matches.selectors.replays import REPLAY_FORMAT, replay_run
from game.models import Match
from tests.support import inputs
from tests.support.community_factories import establish, make_match, make_player, play_engine_match


def canonical(data: object) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":")).encode()


@pytest.mark.django_db
@pytest.mark.services
@pytest.mark.parametrize("time_limit", [None, 3900])
def test_replay_json_reproduces_the_final_snapshot(client, time_limit: int | None) -> None:
    match = play_engine_match(make_player("Alice"), make_player("Bob"), inputs=10, time_limit=time_limit)
    stored = Match.objects.get(pk=match.pk).snapshot
    assert stored["phase"] == "finished"

    response = client.get(f"/m/{match.pk}/replay.json")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert f'filename="kaiza-{match.pk}.json"' in response["Content-Disposition"]
    record = json.loads(response.content)
    assert record["format"] == REPLAY_FORMAT
    assert record["new"]["players"] == ["Alice", "Bob"]
    kinds = [entry["kind"] for entry in record["inputs"]]
    assert kinds[:3] == ["lag", "lag", "choose_break"] and kinds[-1] == "resign" and "shoot" in kinds
    assert canonical(record["final_snapshot"]) == canonical(stored)
    assert canonical(replay_run(record=record)) == canonical(stored)


@pytest.mark.django_db
def test_replay_records_engine_version(client) -> None:
    """Every replay record names the engine (physics and rules) that judged it (ARCHITECTURE 3)."""
    match = play_engine_match(make_player("Alice"), make_player("Bob"), inputs=6)
    record = json.loads(client.get(f"/m/{match.pk}/replay.json").content)
    assert record["engine_version"] == ENGINE_VERSION
    assert ENGINE_VERSION.startswith("kaiza-physics-") and "+kaiza-rules-" in ENGINE_VERSION


@pytest.mark.django_db
def test_a_tampered_record_does_not_reproduce_the_match(client) -> None:
    match = play_engine_match(make_player("Alice"), make_player("Bob"), inputs=9)
    record = json.loads(client.get(f"/m/{match.pk}/replay.json").content)
    shot = next(entry for entry in record["inputs"] if entry["kind"] == "shoot")
    shot["input"]["strike"]["angle"] += 0.05
    try:
        replayed = replay_run(record=record)
    except RuleError:  # an altered input may even be refused by the rules: also not a reproduction
        return
    assert canonical(replayed) != canonical(record["final_snapshot"])


@pytest.mark.django_db
@pytest.mark.services
def test_replay_page_lists_every_step_with_segments_and_verdicts(client) -> None:
    match = play_engine_match(make_player("Alice"), make_player("Bob"), inputs=10)
    response = client.get(f"/m/{match.pk}/replay/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="replay-data"' in html and 'id="table-data"' in html and "game/js/pages/replay.js" in html
    replay = response.context["replay"]
    shots = list(match.shots.order_by("seq"))
    assert len(replay["steps"]) == len(shots)
    for step, shot in zip(replay["steps"], shots, strict=True):
        assert step["verdict"] == shot.verdict and step["segments"] == shot.segments
        assert step["verdict"]["reason"] in html
    assert replay["steps"][-1]["scores"] == [p["score"] for p in match.snapshot["players"]]
    assert replay["winner"] == "Bob"
    assert f"/m/{match.pk}/replay.json" in html
    # Players read words, not the stored input kinds ("choose_break" in the replay).
    assert "· choose_break" not in html and "· break choice" in html


@pytest.mark.django_db
def test_no_replay_while_a_match_is_live_or_unknown(client) -> None:
    live = make_match(make_player("Alice"), make_player("Bob"), status=Match.Status.ACTIVE)
    assert client.get(f"/m/{live.pk}/replay/").status_code == 404
    assert client.get(f"/m/{live.pk}/replay.json").status_code == 404
    assert client.get("/m/nosuchid/replay/").status_code == 404


@pytest.mark.django_db
@pytest.mark.services
def test_a_match_played_through_the_online_services_replays_and_is_rated(client) -> None:
    """The whole path: the online layer stores the inputs and calls results_record when the match ends;
    the record downloaded afterwards reproduces the stored snapshot."""
    from game.engine import bot
    from game.matches import services as online

    alice, bob = make_player("Alice"), make_player("Bob")
    establish(alice, bob)  # accounts whose rated results count (game/ratings/rules.py)
    users = {"Alice": alice, "Bob": bob}
    match, _ = online.match_create(user=alice, rated=True, time_limit=3900, shot_clock=None)
    online.match_join(match_id=match.pk, user=bob)
    from game.models import Shot

    def shots_of(user) -> int:
        return Shot.objects.filter(match=match, player=user, kind="shoot").count()

    # Until both have played the 2 shots of their own a rated result needs (rating_eligibility).
    for i in range(80):
        if i >= 9 and shots_of(alice) >= 2 and shots_of(bob) >= 2:
            break
        if Match.objects.get(pk=match.pk).status != Match.Status.ACTIVE:
            break
        move = bot.choose_move(Match.objects.get(pk=match.pk).snapshot, 2, seed=i, simulations=64)
        user = users[move["player"]]
        online.match_input(match_id=match.pk, user=user, message=inputs.bot_move(move))
    assert shots_of(alice) >= 2 and shots_of(bob) >= 2
    online.match_resign(match_id=match.pk, user=alice)

    stored = Match.objects.get(pk=match.pk)
    assert stored.status == Match.Status.FINISHED and stored.winner == bob
    assert stored.rating_changes.count() == 2
    record = json.loads(client.get(f"/m/{match.pk}/replay.json").content)
    assert canonical(replay_run(record=record)) == canonical(stored.snapshot)
