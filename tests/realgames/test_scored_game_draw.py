"""A club event's game scored at its table: its end enters the result in the draw (through the
tournaments' own result service) and the draw's next game comes to the same table."""

from __future__ import annotations

import pytest
from django.utils import timezone

from game.models.realgames import RealGame
from game.models.tournaments import Tournament, TournamentEntry, TournamentPairing
from game.realgames.selectors import real_game_view
from game.realgames.services import apply_tap, game_for_table, scoring_table_add, undo_last
from game.tournaments.services import tournament_close_entries, tournament_create, tournament_walk_in_enter
from tests.support.community_factories import make_club, make_player

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

NAMES = ("Aino", "Bertta", "Celia", "Dora", "Eeva", "Fanny")
#: Kaisa with a carom on the white and both reds: 17 (K-5.3); three of them and a red with a kaisa
#: carom (9) make 60.
BIG = {"kind": "pot", "ball": "kaisa", "pocket": "foot_left", "caroms": ["white", "red", "red"]}
NINE = {"kind": "pot", "ball": "red", "pocket": "foot_right", "caroms": ["kaisa"]}


def test_scored_game_enters_the_draw() -> None:
    owner = make_player("DirectorReal")
    club = make_club("Real tables club", owner)
    tournament = tournament_create(
        user=owner,
        club=club,
        name="Friday at the tables",
        format=Tournament.Format.DOUBLE_LOSS,
        starts_at=timezone.now(),
        tables=2,
    )
    for name in NAMES:
        tournament_walk_in_enter(user=owner, tournament_id=tournament.pk, name=name)
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    table = scoring_table_add(club_id=club.pk, number=1, name="Table 1")
    on_table = TournamentPairing.objects.get(tournament=tournament, table=1, status=TournamentPairing.Status.PLAYING)
    TournamentEntry.objects.filter(pk=on_table.second_id).update(handicap=10)  # the program's Tasoitus

    game = game_for_table(table)
    assert game is not None and game.pairing is not None
    pairing = game.pairing
    assert pairing.table == 1 and (game.first_name, game.second_name) == (pairing.first.name, pairing.second.name)
    assert (game.first_handicap, game.second_handicap) == (0, 10)
    view = real_game_view(game)
    assert [p["score"] for p in view["players"]] == [0, 10]
    assert view["event"] == {"id": tournament.pk, "name": "Friday at the tables", "round": 1}
    assert view["table"]["number"] == 1

    for i, tap in enumerate([BIG, BIG, BIG]):
        assert apply_tap(game.pk, f"t{i}", tap).accepted
    last = apply_tap(game.pk, "t-last", NINE)
    assert last.finished and last.verdict is not None and "K-9.1" in last.verdict["rules"]

    pairing.refresh_from_db()
    assert pairing.status == TournamentPairing.Status.DONE
    assert pairing.winner_id == pairing.first_id
    assert (pairing.first_score, pairing.second_score, pairing.result_code) == (60, 10, "target")
    # One visit of 60: the first player's longest run, no second; the other had none.
    assert (pairing.first_longest_run, pairing.first_second_run) == (60, None)
    assert (pairing.second_longest_run, pairing.second_second_run) == (None, None)
    # The result is in the draw: the scorer cannot take the winning tap back any more.
    assert not undo_last(game.pk, "u-after").accepted

    # The draw's waiting game came to the freed table: the scorer's table opens it next.
    following = game_for_table(table)
    assert following is not None and following.pk != game.pk
    assert following.pairing is not None and following.pairing.table == 1
    assert following.status == RealGame.Status.WAITING
    assert {following.first_name, following.second_name}.isdisjoint({game.first_name, game.second_name})
