"""An event on real tables: walk-ins joined to accounts later, games given to the
free tables as the draw gives them, results entered by hand and validated, corrections that draw the
later games again after a warning. Real services and rows; the draw is checked against the rows."""

from __future__ import annotations

from typing import Any

import pytest
from django.db.models import Q
from django.utils import timezone

from game.models import Profile
from game.models.tournaments import Tournament, TournamentEntry, TournamentPairing
from game.tournaments.pairing.double_loss import DrawState, records
from game.tournaments.selectors.draw import draw_state
from game.tournaments.selectors.tournaments import entry_of_user
from game.tournaments.services import (
    TournamentError,
    tournament_close_entries,
    tournament_create,
    tournament_walk_in_enter,
    tournament_walk_in_link,
)
from game.tournaments.services.club import (
    AT_TARGET,
    ON_TIME,
    SHOOTOUT,
    BoardResult,
    tournament_result_correct,
    tournament_result_enter,
)
from tests.support.community_factories import make_club, make_player

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

NAMES = ("Aino", "Bertta", "Celia", "Dora", "Eeva", "Fanny", "Greta", "Hilla")
WIN_FIRST = BoardResult(60, 31, AT_TARGET)


def club_event(size: int, tables: int, *, tag: str = "", **extra: Any) -> tuple[Tournament, Any]:
    owner = make_player(f"Director{tag}{size}{tables}")
    club = make_club(f"Club {tag}{size} {tables}", owner)
    tournament = tournament_create(
        user=owner,
        club=club,
        name="Friday at the club",
        format=Tournament.Format.DOUBLE_LOSS,
        starts_at=timezone.now(),
        tables=tables,
        **extra,
    )
    for name in NAMES[:size]:
        tournament_walk_in_enter(user=owner, tournament_id=tournament.pk, name=name)
    return tournament, owner


def on_tables(tournament: Tournament) -> dict[int, TournamentPairing]:
    playing = TournamentPairing.objects.filter(
        tournament=tournament, status=TournamentPairing.Status.PLAYING, table__isnull=False
    )
    return {p.table: p for p in playing}  # type: ignore[misc]


def waiting(tournament: Tournament) -> list[TournamentPairing]:
    return list(
        TournamentPairing.objects.filter(
            tournament=tournament, status=TournamentPairing.Status.PLAYING, table__isnull=True
        ).order_by("index")
    )


def test_next_game_goes_to_the_free_table() -> None:
    tournament, owner = club_event(6, 2)
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    tables = on_tables(tournament)
    assert sorted(tables) == [1, 2]
    queue = waiting(tournament)
    # the opening of six: round 1's third game waits for a table, round 2's three for their players
    assert [p.round.number for p in queue] == [1, 2, 2, 2]
    assert all(p.match_id is None for p in TournamentPairing.objects.filter(tournament=tournament))
    assert queue[0].index > max(p.index for p in tables.values())  # tables go in the draw's order

    tournament_result_enter(user=owner, pairing_id=tables[2].pk, result=WIN_FIRST)
    now = on_tables(tournament)
    assert now[2].pk == queue[0].pk  # the waiting game went to the table that became free
    assert now[1].pk == tables[1].pk
    finished = TournamentPairing.objects.get(pk=tables[2].pk)
    assert finished.status == TournamentPairing.Status.DONE and finished.table == 2
    assert (finished.first_score, finished.second_score, finished.result_code) == (60, 31, "target")

    # a game is entered once; a waiting game takes no result
    with pytest.raises(TournamentError) as refused:
        tournament_result_enter(user=owner, pairing_id=tables[2].pk, result=WIN_FIRST)
    assert refused.value.code == "already_entered"
    for game in waiting(tournament):
        with pytest.raises(TournamentError) as refused:
            tournament_result_enter(user=owner, pairing_id=game.pk, result=WIN_FIRST)
        assert refused.value.code == "no_table"


def test_results_are_validated_and_players_may_enter_when_allowed() -> None:
    tournament, owner = club_event(4, 2, tag="v", players_enter_results=True)
    aino = make_player("AinoAccount")
    tournament_walk_in_link(user=owner, entry_id=TournamentEntry.objects.get(name="Aino").pk, account=aino)
    stranger = make_player("Stranger")
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    game = next(p for p in on_tables(tournament).values() if "Aino" in (p.first.name, p.second.name))
    bad = [
        BoardResult(60, 60, AT_TARGET),  # two at the target
        BoardResult(50, 40, AT_TARGET),  # nobody at the target
        BoardResult(61, 40, ON_TIME),  # a target reached is not on time
        BoardResult(40, 40, ON_TIME),  # level on time goes to the shoot-out
        BoardResult(40, 52, SHOOTOUT, None),  # a shoot-out needs its winner
        BoardResult(60, 40, SHOOTOUT, game.second_id),  # the one at 60 won it
        BoardResult(200, 10, AT_TARGET),  # beyond any last shot
        BoardResult(10, 10, "resigned"),
    ]
    for result in bad:
        with pytest.raises(TournamentError):
            tournament_result_enter(user=owner, pairing_id=game.pk, result=result)
    assert TournamentPairing.objects.get(pk=game.pk).status == TournamentPairing.Status.PLAYING
    with pytest.raises(TournamentError) as refused:
        tournament_result_enter(user=stranger, pairing_id=game.pk, result=WIN_FIRST)
    assert refused.value.forbidden
    # Aino plays in it and the director allows the players: a shoot-out won with fewer points
    tournament_result_enter(
        user=aino, pairing_id=game.pk, result=BoardResult(45, 52, SHOOTOUT, shootout_winner=game.first_id)
    )
    decided = TournamentPairing.objects.get(pk=game.pk)
    assert decided.winner_id == decided.first_id and decided.result_code == "shootout"
    assert (decided.first_score, decided.second_score) == (45, 52)


def test_walk_in_joins_an_account_later() -> None:
    tournament, owner = club_event(4, 2, tag="w")
    player = make_player("Dora Account", rating=1720.0)
    other = make_player("Someone")
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    for game in on_tables(tournament).values():
        tournament_result_enter(user=owner, pairing_id=game.pk, result=BoardResult(61, 30, AT_TARGET))
    dora = TournamentEntry.objects.get(tournament=tournament, name="Dora")
    assert entry_of_user(tournament=tournament, user=player) is None

    tournament_walk_in_link(user=owner, entry_id=dora.pk, account=player)
    assert entry_of_user(tournament=tournament, user=player) == dora
    assert TournamentEntry.objects.get(pk=dora.pk).name == "Dora"  # the name it played under
    assert Profile.objects.get(user=player).rating == 1720.0  # over the board rates nothing
    assert not tournament.rated and not Tournament.objects.get(pk=tournament.pk).rated

    with pytest.raises(TournamentError) as refused:  # the account has an entry in this event now
        tournament_walk_in_link(
            user=owner, entry_id=TournamentEntry.objects.get(tournament=tournament, name="Aino").pk, account=player
        )
    assert refused.value.code == "already_entered"
    with pytest.raises(TournamentError) as refused:  # the entry is no walk-in any more
        tournament_walk_in_link(user=owner, entry_id=dora.pk, account=other)
    assert refused.value.code == "not_walk_in"
    with pytest.raises(TournamentError) as refused:  # only the director links
        tournament_walk_in_link(
            user=other, entry_id=TournamentEntry.objects.get(tournament=tournament, name="Aino").pk, account=other
        )
    assert refused.value.forbidden
    with pytest.raises(TournamentError):  # walk-ins only before the entries close
        tournament_walk_in_enter(user=owner, tournament_id=tournament.pk, name="Late")


def test_walk_in_names_are_checked_and_online_events_take_none() -> None:
    tournament, owner = club_event(4, 2, tag="n")
    for name in ("", "aino", "x" * 81):
        with pytest.raises(TournamentError):
            tournament_walk_in_enter(user=owner, tournament_id=tournament.pk, name=name)
    online = tournament_create(
        user=owner, club=tournament.club, name="Online", format=Tournament.Format.DOUBLE_LOSS, starts_at=timezone.now()
    )
    with pytest.raises(TournamentError) as refused:
        tournament_walk_in_enter(user=owner, tournament_id=online.pk, name="Walker")
    assert refused.value.code == "not_at_club"
    for tables, fmt in ((0, Tournament.Format.DOUBLE_LOSS), (33, Tournament.Format.DOUBLE_LOSS), (4, "swiss")):
        with pytest.raises(TournamentError):
            tournament_create(
                user=owner, club=tournament.club, name="Bad", format=fmt, starts_at=timezone.now(), tables=tables
            )


def _play_until(tournament: Tournament, owner: Any, done: Any) -> None:
    """Enter results (the first named wins at the target) until `done()` or nothing is on a table."""
    while not done():
        tables = on_tables(tournament)
        if not tables:
            return
        tournament_result_enter(user=owner, pairing_id=tables[min(tables)].pk, result=WIN_FIRST)


def test_corrected_result_redraws_later_games() -> None:
    """A player goes out; once the search has drawn round 3 without him, his first loss is corrected
    to a win. The event is drawn again with it, as the program would have drawn it: round 3 now has
    him, so the round-3 games it no longer has are listed in the warning, then removed; the games
    that come back keep their rows and results."""
    tournament, owner = club_event(8, 3, tag="c")
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    ids = list(TournamentEntry.objects.filter(tournament=tournament).values_list("pk", flat=True))

    def out_and_round_three() -> bool:
        table = records(draw_state(tournament=tournament))
        round_three = TournamentPairing.objects.filter(tournament=tournament, round__number=3).count()
        return any(table[e].out for e in ids) and round_three >= 2

    _play_until(tournament, owner, out_and_round_three)
    table = records(draw_state(tournament=tournament))
    out = next(e for e in ids if table[e].out)
    done = TournamentPairing.objects.filter(tournament=tournament, status=TournamentPairing.Status.DONE)
    first_loss = done.filter(Q(first_id=out) | Q(second_id=out)).exclude(winner_id=out).order_by("index").first()
    assert first_loss is not None
    before = list(TournamentPairing.objects.filter(tournament=tournament).values_list("pk", "index"))
    reversed_result = BoardResult(60, 20, AT_TARGET) if first_loss.first_id == out else BoardResult(20, 60, AT_TARGET)

    with pytest.raises(TournamentError) as warned:  # the warning step: nothing changes yet
        tournament_result_correct(user=owner, pairing_id=first_loss.pk, result=reversed_result, confirm=False)
    assert warned.value.code == "confirm_redraw"
    assert list(TournamentPairing.objects.filter(tournament=tournament).values_list("pk", "index")) == before

    redrawn = tournament_result_correct(
        user=owner, pairing_id=first_loss.pk, result=reversed_result, confirm=True, reason="scores swapped"
    )
    assert redrawn and all(f"{r.first} – {r.second} (round {r.round})" in warned.value.message for r in redrawn)
    assert {r.round for r in redrawn} >= {3}  # round 3 was drawn without him
    gone = [r.pairing_id for r in redrawn if not r.had_result or r.round >= 3]
    kept_results = done.exclude(pk__in=[r.pairing_id for r in redrawn]).filter(round__number__lte=2)
    assert kept_results.count() >= 8 - len([r for r in redrawn if r.round <= 2])  # the opening's results stay
    corrected = TournamentPairing.objects.get(pk=first_loss.pk)
    assert corrected.winner_id == out and corrected.fixes.get().reason == "scores swapped"
    state = draw_state(tournament=tournament)  # the rows are a draw again, with no gap in the order
    indices = list(TournamentPairing.objects.filter(tournament=tournament).values_list("index", flat=True))
    assert sorted(indices) == list(range(len(indices)))
    assert not TournamentPairing.objects.filter(pk__in=gone, status=TournamentPairing.Status.DONE).exists()
    assert not records(state)[out].out  # back in: he won the corrected game
    assert len(on_tables(tournament)) <= 3

    # the same winner with other scores draws nothing again, and needs no confirmation
    same = BoardResult(60, 25, AT_TARGET) if corrected.first_id == out else BoardResult(25, 60, AT_TARGET)
    assert tournament_result_correct(user=owner, pairing_id=corrected.pk, result=same, confirm=False) == []
    _play_until(tournament, owner, lambda: False)
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED
    # and the draw gave him his games again: he played on in round 3 or later
    assert (
        TournamentPairing.objects.filter(tournament=tournament, round__number__gte=3)
        .filter(Q(first_id=out) | Q(second_id=out))
        .exists()
    )


def test_a_walk_in_joined_after_the_event_counts_in_the_series_under_the_account() -> None:
    """A club's ranking series scores a walk-in under the name it played as;
    joined to an account after the event, the event's placing is filed under the account."""
    from game.clubs.selectors import series_table
    from game.clubs.services import series_create

    tournament, owner = club_event(4, 2, tag="s")
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    _play_until(tournament, owner, lambda: Tournament.objects.get(pk=tournament.pk).status == "finished")
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED
    series = series_create(
        club=tournament.club, user=owner, name="Fridays", points=[10, 6, 4, 2], tournament_ids=[tournament.pk]
    )
    before = {row["name"]: (row["points"], row["user"]) for row in series_table(series=series)["rows"]}
    assert set(before) == set(NAMES[:4]) and not any(user for _points, user in before.values())

    account = make_player("Dora Account")
    dora = TournamentEntry.objects.get(tournament=tournament, name="Dora")
    tournament_walk_in_link(user=owner, entry_id=dora.pk, account=account)
    after = {row["name"]: (row["points"], row["user"]) for row in series_table(series=series)["rows"]}
    assert after["Dora Account"] == (before["Dora"][0], True) and "Dora" not in after
    assert {k: v for k, v in after.items() if k != "Dora Account"} == {k: v for k, v in before.items() if k != "Dora"}


def test_a_shootout_needs_its_winner_and_other_ends_ignore_one() -> None:
    """K-11.4: a shoot-out's winner may have fewer points, so it must be named; the other ends take
    their winner from the scores (K-9.1 at the target, K-11.1 ahead when the time is up) and a shoot-out winner sent
    with them is ignored (services.club.result_winner says why), whichever side it names."""
    tournament, owner = club_event(4, 2, tag="o")
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    games = sorted(on_tables(tournament).values(), key=lambda p: p.table or 0)
    with pytest.raises(TournamentError) as refused:
        tournament_result_enter(user=owner, pairing_id=games[0].pk, result=BoardResult(40, 52, SHOOTOUT, None))
    assert "winner of the shoot-out" in refused.value.message
    assert TournamentPairing.objects.get(pk=games[0].pk).status == TournamentPairing.Status.PLAYING

    at_target = BoardResult(60, 31, AT_TARGET, shootout_winner=games[0].second_id)
    tournament_result_enter(user=owner, pairing_id=games[0].pk, result=at_target)
    on_time = BoardResult(40, 35, ON_TIME, shootout_winner=games[1].second_id)
    tournament_result_enter(user=owner, pairing_id=games[1].pk, result=on_time)
    for game, code in ((games[0], "target"), (games[1], "time_limit")):
        stored = TournamentPairing.objects.get(pk=game.pk)
        assert (stored.winner_id, stored.result_code) == (game.first_id, code)


def test_points_only_correction_reseeds_the_cup() -> None:
    """`two_rounds_then_cup` seeds its cup by the opening's wins, then Kaisa points, then the lot
    (pairing/double_loss_cup.py): a correction that keeps an opening game's winner but changes his
    points, and so his seed, draws again the cup games the new seeding moves, after the same warning
    step as a changed winner; a points change that moves no seed draws nothing again."""
    from game.tournaments.pairing.double_loss_cup import cup_rows

    owner = make_player("CupDirector")
    tournament = tournament_create(
        user=owner,
        club=make_club("Cup club", owner),
        name="Cup at the club",
        format=Tournament.Format.TWO_ROUNDS_THEN_CUP,
        starts_at=timezone.now(),
        tables=4,
    )
    for name in NAMES:
        tournament_walk_in_enter(user=owner, tournament_id=tournament.pk, name=name)
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    tournament.refresh_from_db()

    def cup_games() -> list[TournamentPairing]:
        return list(TournamentPairing.objects.filter(tournament=tournament, round__number__gte=3).order_by("index"))

    opening = TournamentPairing.objects.filter(tournament=tournament, round__number__lte=2)
    _play_until(tournament, owner, lambda: not opening.filter(status="playing").exists())  # each won 60-31
    tournament.refresh_from_db()  # its draw number, drawn when the entries closed

    def seeded_pairs() -> set[frozenset[int | None]]:
        state = draw_state(tournament=tournament)
        opening = [g for g in state.games if g.round <= 2]
        rows = cup_rows(opening, [], state.event.cup_lots, state.event.target)
        return {frozenset((r.first, r.second)) for r in rows if r.round == 3}

    before = cup_games()
    # eight in a cup of eight: the six with a win and, as the program seats them, the two without
    assert len(before) == 4 and {frozenset((g.first_id, g.second_id)) for g in before} == seeded_pairs()
    state = draw_state(tournament=tournament)
    table = records(DrawState(state.event, tuple(g for g in state.games if g.round <= 2)))
    one_win = [e for e in state.event.cup_lots if table[e].wins == 1][-1]  # the worst lot of the one-win players
    won = TournamentPairing.objects.get(tournament=tournament, round__number__lte=2, winner_id=one_win)
    more = BoardResult(90, 31, AT_TARGET) if won.first_id == one_win else BoardResult(31, 90, AT_TARGET)
    rows = list(TournamentPairing.objects.filter(tournament=tournament).values_list("pk", "index", "first_score"))

    with pytest.raises(TournamentError) as warned:  # the winner stays, the seeding does not
        tournament_result_correct(user=owner, pairing_id=won.pk, result=more, confirm=False)
    assert warned.value.code == "confirm_redraw"
    assert "not played yet: no longer drawn" in warned.value.message  # the cup games the new seeds move
    assert (
        list(TournamentPairing.objects.filter(tournament=tournament).values_list("pk", "index", "first_score")) == rows
    )

    redrawn = tournament_result_correct(user=owner, pairing_id=won.pk, result=more, confirm=True)
    assert redrawn and {r.pairing_id for r in redrawn} <= {g.pk for g in before}
    assert TournamentPairing.objects.get(pk=won.pk).winner_id == one_win
    after = cup_games()
    assert {frozenset((g.first_id, g.second_id)) for g in after} == seeded_pairs()
    # one win and 121 points: first of the one-win players (91 points each), seed 3 after the two with
    # two wins, so first in the cup's first game (seeds 3 v 6)
    top = next(g for g in after if one_win in (g.first_id, g.second_id))
    assert (top.slot, top.first_id) == ("0", one_win)
    assert all(g.table is not None for g in after)

    # the last seed's points fall in a game he lost: he stays last, nothing is drawn again
    state = draw_state(tournament=tournament)
    last_seed = next(g for g in cup_games() if g.slot == "3")
    last = last_seed.second_id
    lost = TournamentPairing.objects.filter(tournament=tournament, round__number__lte=2).exclude(winner_id=last)
    game = next(g for g in lost if last in (g.first_id, g.second_id))
    won = game.first_score if game.winner_id == game.first_id else game.second_score  # the winner's stay
    fewer = BoardResult(won, 12, AT_TARGET) if game.winner_id == game.first_id else BoardResult(12, won, AT_TARGET)
    kept = [g.pk for g in cup_games()]
    assert tournament_result_correct(user=owner, pairing_id=game.pk, result=fewer, confirm=False) == []
    assert [g.pk for g in cup_games()] == kept
