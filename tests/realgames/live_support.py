"""What the real-game page tests share: a club event on scoring tables made on a server's database,
and a table's scorer socket (the phone at the table, as its page speaks to the server)."""

from __future__ import annotations

import json
import uuid
from typing import Any

from tests.support.daphne import DaphneServer

#: A club event of six walk-ins on two scoring tables, its entries closed (the first round on both tables); each
#: table's game made as its scorer's page opens it (`game_for_table`). Result: the event, the tables'
#: ids and tokens, the games' ids.
CLUB_EVENT = """
from game.models.realgames import ScoringTable
from game.realgames import services
from game.tournaments.services import tournament_close_entries
from tests.tournaments.test_club_event import club_event
t, owner = club_event(6, 2, tag="{tag}")
club = t.club
club.language = "{language}"
club.save(update_fields=["language"])
tournament_close_entries(user=owner, tournament_id=t.pk)
tables = [ScoringTable.objects.create(club=club, number=n, name="{table_word} %d" % n) for n in (1, 2)]
games = [services.game_for_table(table) for table in tables]
result = {{"tournament": t.pk, "club": club.slug, "tables": [table.pk for table in tables],
          "tokens": [table.token for table in tables],
          "games": [game.pk for game in games], "players": [[game.first_name, game.second_name] for game in games]}}
"""


def club_event_on_tables(server: DaphneServer, *, tag: str, language: str = "en", table_word: str = "Table") -> Any:
    from tests.e2e import pages

    return pages.django_run(server.env, CLUB_EVENT.format(tag=tag, language=language, table_word=table_word))


class Scorer:
    """A table's scorer socket: sends taps, waits for their acks (`real_ack`)."""

    def __init__(self, server: DaphneServer, token: str) -> None:
        from websockets.sync.client import connect
        from websockets.typing import Origin

        self.socket = connect(
            f"{server.ws_url}/ws/tables/{token}/", origin=Origin(server.url), max_queue=None, open_timeout=30
        )

    def tap(self, tap: dict[str, Any]) -> dict[str, Any]:
        """One tap; returns its ack's `d` (the version it made and the rules' verdict)."""
        key = uuid.uuid4().hex[:16]
        self.socket.send(json.dumps({"t": "tap", "d": {"key": key, "tap": tap}}))
        for _ in range(50):
            message = json.loads(self.socket.recv(timeout=30))
            if message["t"] in ("real_ack", "real_refused") and message["d"]["key"] == key:
                assert message["t"] == "real_ack", message
                return dict(message["d"])
        raise AssertionError("no ack for the tap")

    def close(self) -> None:
        self.socket.close()
