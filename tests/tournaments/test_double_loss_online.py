"""The double-loss draw as a tournament format, played online: every game the draw gives becomes a
pairing, and a real match as soon as both its players are free of earlier games; results come from
finishing those matches (the second player joins, the loser resigns, K-9.3), and the stored pairings
are checked game by game against the pure draw (game/tournaments/pairing/double_loss.py) fed the same
results, kept here as an independent mirror."""

from __future__ import annotations

import datetime
import random
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from game.matches.services import match_join, match_resign
from game.matches.services.deadlines import deadlines_fire_due
from game.models import Match, Membership
from game.models.tournaments import Tournament, TournamentEntry, TournamentPairing, TournamentResultFix
from game.tournaments.pairing.double_loss import (
    DrawState,
    Event,
    Format,
    Game,
    games_to_add,
    is_finished,
    placings,
    record_result,
)
from game.tournaments.pairing.draw_seeding import seeded_draw_list, shuffled
from game.tournaments.selectors.draw import draw_state
from game.tournaments.selectors.tournaments import draw_view, standings
from game.tournaments.services import (
    TournamentError,
    tournament_close_entries,
    tournament_create,
    tournament_enter,
    tournament_pairing_swap,
    tournament_result_fix,
)
from game.tournaments.values import SCORE_MARGIN
from tests.support.community_factories import make_club, make_player

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

NAMES = ("Aino", "Bertta", "Celia", "Dora", "Eeva", "Fanny", "Greta")


def _tournament(fmt: str, size: int, *, starts_at: Any = None, **extra: Any) -> tuple[Tournament, Any]:
    owner = make_player(f"Owner{fmt[:12]}{size}")
    players = [make_player(name, rating=1900 - 50 * i) for i, name in enumerate(NAMES[:size])]
    club = make_club(f"Club {fmt[:12]} {size}", owner, members=tuple(players))
    tournament = tournament_create(
        user=owner,
        club=club,
        name="Kaisa double",
        format=fmt,
        starts_at=starts_at or timezone.now(),
        rated=False,
        **extra,
    )
    for player in players:
        tournament_enter(user=player, tournament_id=tournament.pk)
    return tournament, owner


def _mirror(tournament: Tournament) -> DrawState:
    """The draw the test expects, from the seeds and the event's draw number alone: online the top 8
    at the handbook's places (a small field's free places drawn), the others in the number's order; a
    cup's lots from it."""
    tournament.refresh_from_db()
    assert tournament.draw_seed is not None
    ids = list(TournamentEntry.objects.filter(tournament=tournament).order_by("seed").values_list("pk", flat=True))
    assert ids and all(e.seed for e in TournamentEntry.objects.filter(tournament=tournament))
    knockout = tournament.knockout_from if tournament.format == Format.DOUBLE_LOSS_THEN_KNOCKOUT else None
    listing = seeded_draw_list(ids[:8], shuffled(ids[8:], tournament.draw_seed, "list"), tournament.draw_seed)
    cup = tournament.format == Format.TWO_ROUNDS_THEN_CUP
    lots = tuple(shuffled(listing, tournament.draw_seed, "lots")) if cup else ()
    return DrawState(Event(Format(tournament.format), listing, knockout, lots, 60, SCORE_MARGIN))


def _draw_all(state: DrawState) -> DrawState:
    """What the draw adds now: the opening, or the search's games after the latest result."""
    for pairing in games_to_add(state):
        state = state.with_game(Game.drawn(pairing))
    return state


def _stored(tournament: Tournament) -> list[tuple[int, int | None, int]]:
    pairings = TournamentPairing.objects.filter(tournament=tournament).select_related("round").order_by("index")
    return [(p.first_id, p.second_id, p.round.number) for p in pairings]


def _games(state: DrawState) -> list[tuple[int, int | None, int]]:
    return [(g.first, g.second, g.round) for g in state.games]


def _finish(pairing: TournamentPairing, winner: int) -> None:
    """Play the pairing's real match: the second player takes the reserved seat, the loser resigns."""
    match = pairing.match
    assert match is not None and match.status == Match.Status.OPEN
    second = TournamentEntry.objects.get(pk=pairing.second_id).members.get().user
    match_join(match_id=match.pk, user=second)
    match.refresh_from_db()
    loser = match.player2 if winner == pairing.first_id else match.player1
    match_resign(match_id=match.pk, user=loser)


def _play_to_the_end(tournament: Tournament, seed: int, mirror: DrawState | None = None) -> DrawState:
    """Finish the games in progress one by one (a seeded choice of which ends first and who wins,
    the higher seed more often), checking after each that the stored games are the mirror's (given
    when some results are in already)."""
    rng = random.Random(seed)
    seeds = dict(TournamentEntry.objects.filter(tournament=tournament).values_list("pk", "seed"))
    mirror = _draw_all(_mirror(tournament)) if mirror is None else mirror
    assert _stored(tournament) == _games(mirror)
    for _ in range(200):
        tournament.refresh_from_db()
        if tournament.status == Tournament.Status.FINISHED:
            break
        playing = list(
            TournamentPairing.objects.filter(tournament=tournament, status=TournamentPairing.Status.PLAYING)
            .select_related("match")
            .order_by("index")
        )
        assert playing, "the draw stopped with nothing in progress before its end"
        # a game has its real match once both players are free of earlier games, its first entry's
        # player in seat 0; a game waiting for a player's earlier game has none yet
        busy: set[int | None] = set()
        for pairing in sorted(playing, key=lambda p: (p.round.number, p.index)):
            ready = not {pairing.first_id, pairing.second_id} & busy
            busy |= {pairing.first_id, pairing.second_id}
            assert (pairing.match is not None) == ready
            if ready:
                assert pairing.match is not None and pairing.no_show_deadline is not None
                first_user = TournamentEntry.objects.get(pk=pairing.first_id).members.get().user
                assert pairing.match.player1_id == first_user.pk
        pairing = rng.choice([p for p in playing if p.match is not None])
        assert pairing.second_id is not None
        better, worse = sorted((pairing.first_id, pairing.second_id), key=lambda e: seeds[e])
        winner = better if rng.random() < 0.7 else worse
        _finish(pairing, winner)
        pairing.refresh_from_db()
        assert (pairing.status, pairing.how, pairing.winner_id) == ("done", "played", winner)
        mirror = record_result(mirror, pairing.index, winner=winner, points=(pairing.first_score, pairing.second_score))
        mirror = _draw_all(mirror)
        assert _stored(tournament) == _games(mirror), "a stored game is not the one the draw gives"
    assert is_finished(mirror)
    return mirror


def _losses_before_each_game(tournament: Tournament) -> list[tuple[TournamentPairing, int, int]]:
    """Each stored game with its players' losses before it (a player's games are drawn in his order
    and played in it)."""
    losses: dict[int, int] = {}
    rows = []
    pairings = TournamentPairing.objects.filter(tournament=tournament).select_related("round").order_by("index")
    for pairing in pairings:
        assert pairing.second_id is not None
        rows.append((pairing, losses.get(pairing.first_id, 0), losses.get(pairing.second_id, 0)))
        loser = pairing.second_id if pairing.winner_id == pairing.first_id else pairing.first_id
        losses[loser] = losses.get(loser, 0) + 1
    return rows


def _placings_stored(tournament: Tournament, mirror: DrawState) -> None:
    tournament.refresh_from_db()
    expected = placings(mirror)
    assert tournament.status == Tournament.Status.FINISHED and tournament.finished_at is not None
    assert tournament.winner_id == expected[0].entrant and expected[0].place == 1
    stored = dict(TournamentEntry.objects.filter(tournament=tournament).values_list("pk", "place"))
    assert stored == {p.entrant: p.place for p in expected}
    assert [row["entry_id"] for row in standings(tournament=tournament)] == [p.entrant for p in expected]
    assert not TournamentPairing.objects.filter(tournament=tournament, status="playing").exists()
    assert not tournament.rounds.exclude(status="done").exists()


def test_double_loss_tournament_played_online() -> None:
    tournament, owner = _tournament(Tournament.Format.DOUBLE_LOSS, 6)
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    # The opening of six: round 1 (the list in twos) with its open matches, and round 2 drawn with it,
    # waiting for its players' first games.
    first = TournamentPairing.objects.filter(tournament=tournament, round__number=1).select_related("match")
    assert first.count() == 3 and all(p.match and p.match.status == Match.Status.OPEN for p in first)
    second = TournamentPairing.objects.filter(tournament=tournament, round__number=2)
    assert second.count() == 3 and not second.filter(match__isnull=False).exists()
    mirror = _play_to_the_end(tournament, seed=7)
    rows = _losses_before_each_game(tournament)
    assert len(rows) == 2 * 6 - 2 or len(rows) == 2 * 6 - 1  # every loss but the champion's puts one out
    for pairing, first_losses, second_losses in rows:
        assert first_losses < 2 and second_losses < 2, f"game {pairing.index + 1} drew a player out"
    view = draw_view(tournament=tournament)
    assert view is not None and view["finished"] and view["in_progress"] == []
    outs = [row for row in view["list"] if row["out_round"] is not None]
    assert len(outs) == 5 and all(row["losses"] == 2 for row in outs)
    assert [row["place"] for row in view["list"] if row["out_round"] is None] == [1]
    _placings_stored(tournament, mirror)


def test_double_loss_then_knockout_online() -> None:
    tournament, owner = _tournament(Tournament.Format.DOUBLE_LOSS_THEN_KNOCKOUT, 7, knockout_from=3)
    assert tournament.knockout_from == 3
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    mirror = _play_to_the_end(tournament, seed=3)
    single_outs = 0
    last_game: dict[int, int] = {}
    for pairing, first_losses, second_losses in _losses_before_each_game(tournament):
        assert first_losses < 2 and second_losses < 2
        last_game[pairing.first_id] = last_game[pairing.second_id] = pairing.index
    for pairing, first_losses, second_losses in _losses_before_each_game(tournament):
        if pairing.round.number >= 3:
            loser = pairing.second_id if pairing.winner_id == pairing.first_id else pairing.first_id
            assert loser is not None
            assert last_game[loser] == pairing.index, f"{loser} played on after a loss in round {pairing.round.number}"
            losses = first_losses if loser == pairing.first_id else second_losses
            single_outs += losses == 0
    assert single_outs >= 1, "nobody went out on a first loss: the knockout was never tested"
    _placings_stored(tournament, mirror)


def test_double_loss_state_rebuilt_from_the_database() -> None:
    """The cup variant, with the entries closed before the start time: the draw rebuilt from the rows
    at every step equals the live one (the mirror), and the rows' next game is the mirror's."""
    later = timezone.now() + datetime.timedelta(hours=1)
    tournament, owner = _tournament(Tournament.Format.TWO_ROUNDS_THEN_CUP, 7, starts_at=later)
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    mirror = _draw_all(_mirror(tournament))
    assert draw_state(tournament=tournament) == mirror
    # Drawn but not started (the opening of seven: 3 games of round 1, 4 of round 2): no matches
    # until the start-time clock begins them.
    assert TournamentPairing.objects.filter(tournament=tournament).count() == 7
    assert not TournamentPairing.objects.filter(tournament=tournament, match__isnull=False).exists()
    # An admin swaps two entries before the start: their seeds, so their places in the list, swap,
    # and the stored games are still the draw of the new list.
    head, third = mirror.event.entrants[0], mirror.event.entrants[2]
    tournament_pairing_swap(user=owner, tournament_id=tournament.pk, entry_a=head, entry_b=third)
    mirror = _draw_all(_mirror(tournament))
    assert mirror.event.entrants[0] == third and mirror.event.entrants[2] == head
    assert draw_state(tournament=tournament) == mirror and _stored(tournament) == _games(mirror)
    deadlines_fire_due(now=later.timestamp() + 1)
    begun = TournamentPairing.objects.filter(tournament=tournament, match__isnull=False)
    assert {p.round.number for p in begun} == {1} and begun.count() == 3  # round 2 waits for round 1
    tournament.starts_at = timezone.now()  # the rest of the test runs on the real clock
    tournament.save(update_fields=["starts_at"])
    rng = random.Random(5)
    for _ in range(100):
        tournament.refresh_from_db()
        if tournament.status == Tournament.Status.FINISHED:
            break
        pairing = rng.choice(
            list(
                TournamentPairing.objects.filter(
                    tournament=tournament, status="playing", match__isnull=False
                ).select_related("match")
            )
        )
        assert pairing.second_id is not None
        winner = rng.choice((pairing.first_id, pairing.second_id))
        _finish(pairing, winner)
        pairing.refresh_from_db()
        mirror = _draw_all(record_result(mirror, pairing.index, winner=winner))
        rebuilt = draw_state(tournament=tournament)
        assert rebuilt == mirror
    assert is_finished(mirror) and max(g.round for g in mirror.games) >= 4  # the cup was played
    _placings_stored(tournament, mirror)


def test_double_loss_settings_refused_and_nothing_stored() -> None:
    owner = make_player("Organiser")
    club = make_club("Bad input club", owner)
    for fmt, knockout_from in (
        ("double_loss_twice", None),
        ("double_loss_then_knockout", None),
        ("double_loss_then_knockout", 1),
        ("double_loss_then_knockout", 7),
        ("double_loss_then_knockout", "3"),
    ):
        with pytest.raises(TournamentError) as refused:
            tournament_create(
                user=owner,
                club=club,
                name="Cup",
                format=fmt,
                starts_at=timezone.now(),
                knockout_from=knockout_from,  # type: ignore[arg-type]
            )
        assert refused.value.code == "bad_value"
        expected = "choose a format" if fmt == "double_loss_twice" else "from a round from 2 to 6"
        assert expected in refused.value.message
    assert Tournament.objects.count() == 0
    # The other formats have no knockout round: a value sent with them is not kept.
    other = tournament_create(
        user=owner, club=club, name="Plain", format="double_loss", starts_at=timezone.now(), knockout_from=4
    )
    assert other.knockout_from is None
    other.delete()
    # The form: N out of range is refused in words, with a 400 and nothing stored.
    client = Client()
    client.force_login(owner)
    form = {
        "name": "Spring double",
        "format": "double_loss_then_knockout",
        "kind": "singles",
        "max_entries": "16",
        "time_limit": "65",
        "starts_at": (timezone.localtime(timezone=club.zone) + datetime.timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M"),
    }
    for value in ("9", ""):
        response = client.post(f"/clubs/{club.slug}/tournaments/new/", {**form, "knockout_from": value})
        assert response.status_code == 400
        assert "the knockout starts from a round from 2 to 6" in response.content.decode()
    response = client.post(f"/clubs/{club.slug}/tournaments/new/", {**form, "format": "nope"})
    assert response.status_code == 400 and Tournament.objects.count() == 0
    response = client.post(f"/clubs/{club.slug}/tournaments/new/", {**form, "knockout_from": "4"})
    assert response.status_code == 302
    made = Tournament.objects.get()
    assert (made.format, made.knockout_from) == ("double_loss_then_knockout", 4)
    page = client.get(f"/tournaments/{made.pk}/").content.decode()
    assert "Double-loss draw, then knockout from round 4" in page
    # Too few for a draw: closing with three entries is refused, nothing drawn.
    for name in ("Hilla", "Iida", "Jenni"):
        player = make_player(name)
        Membership.objects.create(club=club, user=player, role=Membership.Role.MEMBER)
        tournament_enter(user=player, tournament_id=made.pk)
    with pytest.raises(TournamentError) as refused:
        tournament_close_entries(user=owner, tournament_id=made.pk)
    assert refused.value.code == "too_few_entries" and not TournamentPairing.objects.exists()


def test_double_loss_fixed_result_feeds_the_draw() -> None:
    tournament, owner = _tournament(Tournament.Format.DOUBLE_LOSS, 5)
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    first_game = TournamentPairing.objects.filter(tournament=tournament).order_by("index").select_related("match")[0]
    assert first_game.second_id is not None
    _finish(first_game, first_game.first_id)
    mirror = _draw_all(record_result(_draw_all(_mirror(tournament)), first_game.index, winner=first_game.first_id))
    # Its players are drawn on at once (round 2 opens with the rester against the head of the list),
    # so its result can no longer change: refused in words, nothing kept.
    later = TournamentPairing.objects.filter(tournament=tournament, index__gt=first_game.index)
    assert (
        later.filter(first_id__in=(first_game.first_id, first_game.second_id)).exists()
        or later.filter(second_id__in=(first_game.first_id, first_game.second_id)).exists()
    )
    with pytest.raises(TournamentError) as refused:
        tournament_result_fix(
            user=owner, pairing_id=first_game.pk, winner_entry_id=first_game.second_id, reason="wrong score sheet"
        )
    assert refused.value.code == "drawn_on" and "cannot change" in refused.value.message
    assert TournamentResultFix.objects.count() == 0
    with pytest.raises(TournamentError) as refused:
        tournament_result_fix(user=owner, pairing_id=first_game.pk, winner_entry_id=None, reason="a draw")
    assert refused.value.code == "bad_value"
    # Play on to the end; the last game's result can change: the placings follow the fixed draw.
    mirror = _play_to_the_end(tournament, seed=3, mirror=mirror)
    last = TournamentPairing.objects.filter(tournament=tournament).order_by("-index")[0]
    assert last.second_id is not None
    new_winner = last.second_id if last.winner_id == last.first_id else last.first_id
    tournament_result_fix(user=owner, pairing_id=last.pk, winner_entry_id=new_winner, reason="the sheet was swapped")
    fixed = _draw_all(record_result(mirror, last.index, winner=new_winner))
    assert draw_state(tournament=tournament) == fixed
    tournament.refresh_from_db()
    # Here the old winner had no loss: it is his first, the new winner's second loss is undone, and
    # the finished draw is open again with the game it now gives (a rematch of the two), played at once.
    assert not is_finished(fixed) and len(fixed.games) == len(mirror.games) + 1
    assert tournament.status == Tournament.Status.RUNNING and tournament.winner_id is None
    assert not TournamentEntry.objects.filter(tournament=tournament, place__isnull=False).exists()
    playing = TournamentPairing.objects.filter(tournament=tournament, status="playing", match__isnull=False)
    assert playing.count() == 1
    fix = TournamentResultFix.objects.get()
    assert (fix.before["winner"], fix.after["winner"]) == (last.winner_id, new_winner)
    _placings_stored(tournament, _play_to_the_end(tournament, seed=12, mirror=fixed))


def test_double_loss_no_show_is_a_loss_in_the_draw() -> None:
    tournament, owner = _tournament(Tournament.Format.DOUBLE_LOSS, 4)
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    pairing = TournamentPairing.objects.filter(tournament=tournament).order_by("index")[0]
    assert pairing.no_show_deadline is not None
    # Nobody comes to either match: each is a double forfeit, counted by the draw as won by its first
    # entry (the draw has no game both lose), and the draw goes on with round 2 at once.
    deadlines_fire_due(now=pairing.no_show_deadline + 1)
    pairing.refresh_from_db()
    assert (pairing.how, pairing.winner_id) == ("double_forfeit", None)
    state = draw_state(tournament=tournament)
    assert [g.winner for g in state.games[:2]] == [g.first for g in state.games[:2]]
    assert len(state.games) == 4 and all(not g.played for g in state.games[2:])
    assert _games(state) == _games(_draw_all(_mirror_with_first_winning(tournament, 2)))
    assert not TournamentPairing.objects.filter(tournament=tournament, match__isnull=True).exists()


def _mirror_with_first_winning(tournament: Tournament, games: int) -> DrawState:
    state = _draw_all(_mirror(tournament))
    for index in range(games):
        state = record_result(state, index, winner=state.games[index].first)
    return state
