"""Team events at the club, KaisaKaavio's `Joukkuekilpailu`: teams of 3 or 4 of the club's register
players, drawn as the program draws its teams (the double-loss draw, the teams its participants), each
team game three games between their players drawn from the event's draw number, its result the games
won once all three are played; corrections as any correction at the club."""

from __future__ import annotations

from pathlib import Path
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
from game.tournaments.kaisakaavio import KaavioFile, parse
from game.tournaments.pairing.team_games import bouts_draw, bouts_seed
from game.tournaments.services import TournamentError, tournament_close_entries, tournament_create
from game.tournaments.services.club import AT_TARGET, BoardResult, tournament_result_enter
from game.tournaments.services.kaavio import kaavio_import
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
    for times in range(1, 6):
        again = tournament_bouts_draw_again(user=director, pairing_id=pairing.pk)
        assert {b.drawn_again for b in again} == {times}
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
    for format, tables, category in (
        (Tournament.Format.DOUBLE_LOSS, None, Tournament.Category.GENERAL),  # online
        (Tournament.Format.RANKING_EVENT, 2, Tournament.Category.GENERAL),  # the program draws teams unseeded
        (Tournament.Format.DOUBLE_LOSS, 2, Tournament.Category.WOMEN),
    ):
        with pytest.raises(TournamentError):
            tournament_create(
                user=director,
                club=club,
                name="Refused team event",
                format=format,
                starts_at=timezone.now(),
                tables=tables,
                kind=Tournament.Kind.CLUB_TEAMS,
                category=category,
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
    kept_results = {
        (b.pairing.first_id, b.pairing.second_id, b.index): (b.first_player_id, b.winner_side)
        for b in TournamentBout.objects.filter(pairing__tournament=tournament, winner_side__isnull=False)
        .exclude(pairing=pairing)
        .select_related("pairing")
    }
    tournament_bout_correct(user=director, bout_id=bouts[2].pk, result=turn, confirm=True, reason="swap")
    pairing.refresh_from_db()
    assert pairing.winner_id == pairing.second_id and (pairing.first_score, pairing.second_score) == (1, 2)
    for game in TournamentPairing.objects.filter(tournament=tournament, second__isnull=False):
        assert TournamentBout.objects.filter(pairing=game).count() == 3  # every team game has its games
    after = {
        (b.pairing.first_id, b.pairing.second_id, b.index): (b.first_player_id, b.winner_side)
        for b in TournamentBout.objects.filter(pairing__tournament=tournament).select_related("pairing")
    }
    assert all(after.get(key) == value for key, value in kept_results.items())  # a team game kept keeps its games


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


#: A team event as the program saves it: the program's own draw of 9 participants (tupla-9-t3.xml,
#: made by the oracle) with each participant a team of 3 players (Oulu of 4), each game three games
#: between their players whose winners agree with the team game's, the last team game being played
#: (one of its games played, two running).
TEAMS_FILE = Path(__file__).parent / "fixtures" / "kaisakaavio-teams" / "teams-9-t3.xml"


def _players(kaavio: KaavioFile) -> list[tuple[int, str, str, str]]:
    return [(p.id, p.name, dict(p.extra)["Joukkue"], dict(p.extra)["JoukkueId"]) for p in kaavio.participants]


def _games(kaavio: KaavioFile) -> list[tuple[Any, ...]]:
    return [
        (
            g.round,
            g.first_round,
            g.second_round,
            g.first_id,
            g.second_id,
            g.first_points,
            g.second_points,
            g.winner,
            g.state,
            dict(g.extra).get("Poyta"),
            dict(g.extra).get("JoukkueParitArvottu"),
        )
        for g in kaavio.games
    ]


def test_team_event_file_round_trip(client: Client) -> None:
    """A KaisaKaavio team file imports as a team event (teams of register players, each team game
    with its three games and results, the played team games decided by games won) and exports the
    same: the players with their teams and the teams' ids, every game with its players, points,
    winner, state and table."""
    director = make_player("Team File Director")
    club = make_club("Team File Club", director)
    data = TEAMS_FILE.read_bytes()
    tournament = kaavio_import(user=director, club=club, data=data, tables=3).tournament
    assert tournament.kind == Tournament.Kind.CLUB_TEAMS
    original = parse(data, teams=True)
    entries = {e.name: e for e in TournamentEntry.objects.filter(tournament=tournament)}
    assert len(entries) == 9
    oulu = TournamentTeamPlayer.objects.filter(entry=entries["Oulu"]).order_by("position").select_related("player")
    assert [r.player.name for r in oulu] == ["Aapo Oulu", "Bertta Oulu", "Cecilia Oulu", "Daniel Oulu"]
    assert oulu[0].player.home_club == "Oulun BS"
    pairings = list(TournamentPairing.objects.filter(tournament=tournament).order_by("index"))
    assert len(pairings) == 17
    assert all(TournamentBout.objects.filter(pairing=p).count() == 3 for p in pairings)
    first = pairings[0]  # Kotka – Lahti, won by Lahti: its games 1-2 for Lahti
    assert first.second is not None
    assert (first.first.name, first.second.name, first.winner_id) == ("Kotka", "Lahti", entries["Lahti"].pk)
    assert (first.first_score, first.second_score) == (1, 2)
    last = pairings[-1]
    assert last.status == TournamentPairing.Status.PLAYING
    assert TournamentBout.objects.filter(pairing=last, winner_side__isnull=False).count() == 1
    client.force_login(director)
    written = client.get(f"/tournaments/{tournament.pk}/kaisakaavio.xml").content
    again = parse(written, teams=True)
    assert dict(again.other_fields)["KilpaSarja"] == "Joukkuekilpailu"
    assert _players(again) == _players(original)
    assert _games(again) == _games(original)


def _team_variant(old: str, new: str) -> bytes:
    text = TEAMS_FILE.read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new, 1).encode()


BAD_TEAM_FILES = {
    "a player without a team": (
        'Nimi="Aapo Kotka" Seura="Kotkan BS" Joukkue="Kotka"',
        'Nimi="Aapo Kotka" Seura="Kotkan BS"',
        "player 'Aapo Kotka' has no team (Joukkue)",
    ),
    "a team not drawn": ('Joukkue="Kotka" JoukkueId="1" Id="1"', 'Joukkue="Kotka" Id="1"', "has no id in the draw"),
    "a team of five": (
        '<Pelaaja Nimi="Aapo Lahti"',
        '<Pelaaja Nimi="Eeva Oulu" Joukkue="Oulu" JoukkueId="3" Id="99" /><Pelaaja Nimi="Aapo Lahti"',
        "team 'Oulu' has 5 players: a team has 3 to 4",
    ),
    "a team game of two games": (
        'PelaajaId1="1" PelaajaId2="5" Pisteet1="10"',
        'PelaajaId1="1" PelaajaId2="7" Pisteet1="10"',
        "games: a team game is 3",
    ),
    "a player twice in a team game": ('PelaajaId1="2" PelaajaId2="6"', 'PelaajaId1="1" PelaajaId2="6"', "plays twice"),
}


@pytest.mark.parametrize(("old", "new", "reason"), BAD_TEAM_FILES.values(), ids=BAD_TEAM_FILES.keys())
def test_team_event_bad_file_stores_nothing(old: str, new: str, reason: str) -> None:
    director = make_player("Team Bad File")
    club = make_club("Team Bad File Club", director)
    with pytest.raises(TournamentError) as refused:
        kaavio_import(user=director, club=club, data=_team_variant(old, new), tables=3)
    assert refused.value.code == "bad_file" and reason in refused.value.message, refused.value.message
    assert not Tournament.objects.exists() and not TournamentEntry.objects.exists()
    assert not TournamentTeamPlayer.objects.exists() and not ClubPlayer.objects.filter(club=club).exists()
