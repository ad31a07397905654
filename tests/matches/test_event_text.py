"""An input's event is encoded once (game.matches.services.base.store_event, game.common.json_text): the
text every socket is sent is the event exactly, and the MatchEvent row holds it as a JSON object (not a
JSON string of it), on SQLite and on PostgreSQL (a `services` test: `make test` runs it on both), with
the Shot row and the Match row's snapshot readable by the ORM and by the next input's locked read."""

from __future__ import annotations

import json

import pytest

from game.accounts.services import guest_create
from game.matches.selectors.match_state import engine_names
from game.matches.services import match_create, match_input, match_join
from game.models import Match, MatchEvent, Shot
from game.realtime import outbound
from tests.support import inputs
from tests.support.play_support import LAG_LOSING, LAG_WINNING

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_the_broadcast_text_is_the_stored_event_and_the_rows_hold_objects() -> None:
    first, second = guest_create(), guest_create()
    match, _ = match_create(user=first, rated=False, time_limit=None, shot_clock=None)
    match_join(match_id=match.pk, user=second)
    match.refresh_from_db()
    seat_of = dict(zip(engine_names(match), (first, second), strict=True))
    names = list(seat_of)
    lags = [
        match_input(match_id=match.pk, user=seat_of[names[0]], message=inputs.lag(LAG_WINNING, ack=1, v=1)),
        match_input(match_id=match.pk, user=seat_of[names[1]], message=inputs.lag(LAG_LOSING, ack=1, v=1)),
    ]
    events = [event for applied in lags for event in applied.events]
    assert [event["t"] for event in events] == ["shot", "shot"]
    for event in events:
        text = outbound.dumps(event)
        assert json.loads(text) == {"t": event["t"], "v": event["v"], "d": event["d"]}
        row = MatchEvent.objects.get(match_id=match.pk, version=event["v"])
        assert row.data == event["d"] and row.entry == event["d"]["entry"]
        # A key lookup in the database finds it: the column holds an object, not a string of one.
        assert MatchEvent.objects.filter(pk=row.pk, data__kind="lag", data__player=event["d"]["player"]).exists()
        # Every language, and an upright table's sentence where it reads otherwise (the deciding lag's).
        assert {language.split("@")[0] for language in row.data["verdict"]["words"]} == {"en", "fi", "ru"}
    shots = list(Shot.objects.filter(match_id=match.pk).order_by("seq"))
    assert [shot.kind for shot in shots] == ["lag", "lag"]
    assert shots[1].segments == events[1]["d"]["segments"] and shots[1].input["strike"] == LAG_LOSING
    assert Shot.objects.filter(match_id=match.pk, input__strike__speed=LAG_LOSING["speed"]).count() == 1
    match.refresh_from_db()
    assert match.version == events[-1]["v"] and match.snapshot["lag"] == events[-1]["d"]["state"]["lag"]
    assert Match.objects.filter(pk=match.pk, snapshot__phase=match.snapshot["phase"]).exists()
