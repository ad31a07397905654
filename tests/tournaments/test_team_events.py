"""Team events at the club, KaisaKaavio's `Joukkuekilpailu`: teams of 3 or 4 of the club's register
players, drawn as the program draws its teams (the double-loss draw, the teams its participants), each
team game three games between their players drawn from the event's draw number, its result the games
won once all three are played; corrections as any correction at the club."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from game.models import ClubPlayer
from game.models.tournaments import (
    Tournament,
    TournamentBout,
    TournamentEntry,
    TournamentPairing,
    TournamentResultFix,
    TournamentTeamPlayer,
)
from game.tournaments.pairing.team_games import bouts_draw, bouts_seed
from game.tournaments.services import TournamentError, tournament_close_entries, tournament_create
from game.tournaments.services.club import AT_TARGET, BoardResult, tournament_result_enter
from game.tournaments.services.team_games import (
    tournament_bout_correct,
    tournament_bout_enter,
    tournament_bouts_draw_again,
)
from game.tournaments.services.walk_ins import tournament_walk_in_enter
from tests.support.community_factories import make_club, make_player

pytestmark = [pytest.mark.django_db(transaction=True)]

TEAMS = {
    "Kotka": ("Aapo Aalto", "Bertta Berg", "Cecilia Cedar"),
    "Lahti": ("Daniel Dahl", "Eero Eskola", "Fanny Fors", "Greta Grahn"),
    "Oulu": ("Hilla Heino", "Iida Ilves", "Jaana Jokela"),
    "Turku": ("Kalle Koski", "Lotta Laine", "Mikko Mets"),
}


def team_event(tag: str, *, tables: int = 4) -> tuple[Tournament, Any]:
    """A team event of the four teams above at a new club, its entries closed and started."""
    director = make_player(f"Team Director {tag}")
    club = make_club(f"Team Club {tag}", director)
    tournament = tournament_create(
        user=director,
        club=club,
        name="Joukkue SM",
        format=Tournament.Format.DOUBLE_LOSS,
        starts_at=timezone.now(),
        tables=tables,
        kind=Tournament.Kind.CLUB_TEAMS,
    )
    for team, players in TEAMS.items():
        tournament_walk_in_enter(user=director, tournament_id=tournament.pk, name=f"{team}: {', '.join(players)}")
    tournament_close_entries(user=director, tournament_id=tournament.pk)
    return Tournament.objects.get(pk=tournament.pk), director


def _names(bout: TournamentBout) -> tuple[str, str]:
    return bout.first_player.name, bout.second_player.name


def test_team_event_draws_pairings() -> None:
    """The draw is of teams (each entry a team of register players); each team game gets three
    games, one per player of each team, drawn from the event's draw number as the pure draw gives."""
    tournament, _ = team_event("draw")
    entries = TournamentEntry.objects.filter(tournament=tournament)
    assert sorted(e.name for e in entries) == sorted(TEAMS)
    for entry in entries:
        roster = TournamentTeamPlayer.objects.filter(entry=entry).order_by("position").select_related("player")
        assert tuple(r.player.name for r in roster) == TEAMS[entry.name]
    pairings = list(
        TournamentPairing.objects.filter(tournament=tournament, second__isnull=False)
        .order_by("index")
        .select_related("round")
    )
    assert pairings, "the draw gives the teams' first games"
    for pairing in pairings:
        bouts = list(TournamentBout.objects.filter(pairing=pairing).order_by("index"))
        assert len(bouts) == 3
        assert pairing.second_id is not None
        rosters = [
            list(
                TournamentTeamPlayer.objects.filter(entry_id=e).order_by("position").values_list("player_id", flat=True)
            )
            for e in (pairing.first_id, pairing.second_id)
        ]
        seed = bouts_seed(
            draw_seed=tournament.draw_seed,
            round=pairing.round.number,
            first=pairing.first_id,
            second=pairing.second_id,
            again=0,
        )
        assert [(b.first_player_id, b.second_player_id) for b in bouts] == list(
            bouts_draw(rosters[0], rosters[1], seed)
        )


def test_team_game_decided_by_its_three_games() -> None:
    """Two games won is not the end (the program plays all three); the third decides the team game,
    2-1, and the draw draws on; the team game's result cannot be typed as a single game's."""
    tournament, director = team_event("decide")
    pairing = TournamentPairing.objects.filter(tournament=tournament, table__isnull=False).order_by("index").first()
    assert pairing is not None
    bouts = list(TournamentBout.objects.filter(pairing=pairing).order_by("index"))
    with pytest.raises(TournamentError) as refused:
        tournament_result_enter(user=director, pairing_id=pairing.pk, result=BoardResult(60, 10, AT_TARGET))
    assert refused.value.code == "team_game"
    games_before = TournamentPairing.objects.filter(tournament=tournament).count()
    tournament_bout_enter(user=director, bout_id=bouts[0].pk, result=BoardResult(60, 20, AT_TARGET))
    tournament_bout_enter(user=director, bout_id=bouts[1].pk, result=BoardResult(60, 30, AT_TARGET))
    pairing.refresh_from_db()
    assert pairing.status == TournamentPairing.Status.PLAYING
    with pytest.raises(TournamentError):  # a bad score stores nothing
        tournament_bout_enter(user=director, bout_id=bouts[2].pk, result=BoardResult(60, 60, AT_TARGET))
    assert TournamentBout.objects.get(pk=bouts[2].pk).winner_side is None
    with pytest.raises(TournamentError):  # a game is entered once
        tournament_bout_enter(user=director, bout_id=bouts[0].pk, result=BoardResult(60, 20, AT_TARGET))
    tournament_bout_enter(user=director, bout_id=bouts[2].pk, result=BoardResult(45, 60, AT_TARGET))
    pairing.refresh_from_db()
    assert pairing.status == TournamentPairing.Status.DONE
    assert pairing.winner_id == pairing.first_id
    assert (pairing.first_score, pairing.second_score) == (2, 1)
    assert TournamentPairing.objects.filter(tournament=tournament).count() >= games_before


def test_team_game_pairings_drawn_again_until_played() -> None:
    tournament, director = team_event("again")
    pairing = TournamentPairing.objects.filter(tournament=tournament, table__isnull=False).order_by("index").first()
    assert pairing is not None
    first = [(b.first_player_id, b.second_player_id) for b in TournamentBout.objects.filter(pairing=pairing)]
    seen = {tuple(first)}
    for _ in range(5):
        again = tournament_bouts_draw_again(user=director, pairing_id=pairing.pk)
        assert {b.drawn_again for b in again} == {len(seen)}
        seen.add(tuple((b.first_player_id, b.second_player_id) for b in again))
    assert len(seen) > 1, "drawing again gives other pairings"
    bout = TournamentBout.objects.filter(pairing=pairing).order_by("index").first()
    assert bout is not None
    tournament_bout_enter(user=director, bout_id=bout.pk, result=BoardResult(60, 20, AT_TARGET))
    kept = list(TournamentBout.objects.filter(pairing=pairing).values_list("pk", flat=True))
    with pytest.raises(TournamentError):
        tournament_bouts_draw_again(user=director, pairing_id=pairing.pk)
    assert list(TournamentBout.objects.filter(pairing=pairing).values_list("pk", flat=True)) == kept


def test_team_entries_refused_with_reason_nothing_stored() -> None:
    director = make_player("Team Refusals")
    club = make_club("Team Refusal Club", director)
    tournament = tournament_create(
        user=director,
        club=club,
        name="Joukkue",
        format=Tournament.Format.DOUBLE_LOSS,
        starts_at=timezone.now(),
        tables=2,
        kind=Tournament.Kind.CLUB_TEAMS,
    )
    tournament_walk_in_enter(user=director, tournament_id=tournament.pk, name="Kotka: Anna, Ben, Cai")
    players = ClubPlayer.objects.filter(club=club).count()
    for bad in (
        "Anna, Ben, Cai",  # no team name
        "Lahti: Dora, Eino",  # two players
        "Lahti: Dora, Eino, Fia, Gus, Hai",  # five
        "Lahti: Dora, Dora, Eino",  # a player twice
        "Lahti: Dora, Eino, anna",  # Anna plays for Kotka
        "kotka: Dora, Eino, Fia",  # the team's name is taken
    ):
        with pytest.raises(TournamentError):
            tournament_walk_in_enter(user=director, tournament_id=tournament.pk, name=bad)
    assert TournamentEntry.objects.filter(tournament=tournament).count() == 1
    assert TournamentTeamPlayer.objects.filter(tournament=tournament).count() == 3
    assert ClubPlayer.objects.filter(club=club).count() <= players + 3  # only names of refused teams
    for kind, tables in ((Tournament.Kind.CLUB_TEAMS, None),):
        with pytest.raises(TournamentError):
            tournament_create(
                user=director,
                club=club,
                name="Online teams of the register",
                format=Tournament.Format.DOUBLE_LOSS,
                starts_at=timezone.now(),
                tables=tables,
                kind=kind,
            )
    for team in ("Lahti: Dora, Eino, Fia", "Oulu: Gus, Hai, Ilse"):
        tournament_walk_in_enter(user=director, tournament_id=tournament.pk, name=team)
    with pytest.raises(TournamentError) as few:
        tournament_close_entries(user=director, tournament_id=tournament.pk)
    assert few.value.code == "too_few_entries"  # the program draws 4 teams or more


def test_team_game_correction_follows_the_games() -> None:
    """A game corrected while its team game is played changes that game only (logged); once the team
    game is decided, a correction that turns it warns of the later games drawn again, then does it."""
    tournament, director = team_event("correct")
    pairing = TournamentPairing.objects.filter(tournament=tournament, table__isnull=False).order_by("index").first()
    assert pairing is not None
    bouts = list(TournamentBout.objects.filter(pairing=pairing).order_by("index"))
    tournament_bout_enter(user=director, bout_id=bouts[0].pk, result=BoardResult(60, 20, AT_TARGET))
    tournament_bout_correct(
        user=director, bout_id=bouts[0].pk, result=BoardResult(20, 60, AT_TARGET), confirm=False, reason="typo"
    )
    assert TournamentBout.objects.get(pk=bouts[0].pk).winner_side == 1
    assert TournamentResultFix.objects.filter(pairing=pairing).count() == 1
    tournament_bout_enter(user=director, bout_id=bouts[1].pk, result=BoardResult(60, 20, AT_TARGET))
    tournament_bout_enter(user=director, bout_id=bouts[2].pk, result=BoardResult(60, 20, AT_TARGET))
    pairing.refresh_from_db()
    assert pairing.winner_id == pairing.first_id and (pairing.first_score, pairing.second_score) == (2, 1)
    later = TournamentPairing.objects.filter(tournament=tournament, index__gt=pairing.index)
    names_later = later.filter(first_id__in=(pairing.first_id, pairing.second_id)) | later.filter(
        second_id__in=(pairing.first_id, pairing.second_id)
    )
    turn = BoardResult(20, 60, AT_TARGET)
    if names_later.exists():
        with pytest.raises(TournamentError) as warned:
            tournament_bout_correct(user=director, bout_id=bouts[2].pk, result=turn, confirm=False, reason="swap")
        assert warned.value.code == "confirm_redraw"
        assert TournamentBout.objects.get(pk=bouts[2].pk).winner_side == 0  # nothing changed yet
    tournament_bout_correct(user=director, bout_id=bouts[2].pk, result=turn, confirm=True, reason="swap")
    pairing.refresh_from_db()
    assert pairing.winner_id == pairing.second_id and (pairing.first_score, pairing.second_score) == (1, 2)


def test_team_event_pages_say_the_pairings(client: Client) -> None:
    """The event page, the tables page and the score sheets name each team game's three games in
    words (the players, never ids), and the tables page takes each game's result."""
    tournament, director = team_event("pages")
    pairing = TournamentPairing.objects.filter(tournament=tournament, table__isnull=False).order_by("index").first()
    assert pairing is not None
    bout = (
        TournamentBout.objects.filter(pairing=pairing)
        .order_by("index")
        .select_related("first_player", "second_player")[0]
    )
    client.force_login(director)
    for page in ("", "tables/", "sheets/"):
        text = client.get(f"/tournaments/{tournament.pk}/{page}").content.decode()
        assert f"{bout.first_player.name} – {bout.second_player.name}" in text, page
    response = client.post(
        f"/tournaments/{tournament.pk}/bouts/{bout.pk}/result/",
        {"first_score": "60", "second_score": "31", "ended": AT_TARGET},
    )
    assert response.status_code in (200, 302)
    bout.refresh_from_db()
    assert bout.winner_side == 0 and (bout.first_score, bout.second_score) == (60, 31)
    kept = list(TournamentBout.objects.filter(pairing=pairing).values_list("pk", flat=True))
    response = client.post(f"/tournaments/{tournament.pk}/pairings/{pairing.pk}/draw-again/", HTTP_ACCEPT_LANGUAGE="fi")
    assert response.status_code == 302  # refused: a game is played, its pairings stay
    assert list(TournamentBout.objects.filter(pairing=pairing).values_list("pk", flat=True)) == kept
    refused = client.get(f"/tournaments/{tournament.pk}/tables/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "sen pelipareja ei voi enää arpoa" in refused
    assert "Peliparit arvottu kilpailun arvontanumerosta" in refused
    page = client.get(f"/tournaments/{tournament.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert ", ".join(TEAMS["Lahti"]) in page  # each team with its players
    assert "Пары определены жребием" in page
