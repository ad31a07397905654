"""Statistics from real play: a club event's game scored at its table leaves each player's line (highest
run, points per visit, fouls, length), which the players' profiles (the account's and the register
player's page) and the club's records of the season read, on the club's calendar; the game's runs go on
its pairing, so the KaisaKaavio export carries them."""

from __future__ import annotations

import datetime
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from game.models import ClubPlayer, RealGameLine
from game.models.realgames import RealGame
from game.models.tournaments import Tournament, TournamentPairing
from game.realgames.services import apply_tap, game_for_table, scoring_table_add, undo_last
from game.realgames.stats import season_of
from game.tournaments.kaisakaavio import parse
from game.tournaments.services import tournament_close_entries, tournament_create, tournament_walk_in_enter
from tests.support.community_factories import make_club, make_player

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

#: K-5.3: the kaisa with caroms on the white and both reds 17, with both reds 15; a red with a kaisa carom 9.
BIG = {"kind": "pot", "ball": "kaisa", "pocket": "foot_left", "caroms": ["white", "red", "red"]}
FIFTEEN = {"kind": "pot", "ball": "kaisa", "pocket": "foot_left", "caroms": ["red", "red"]}
NINE = {"kind": "pot", "ball": "red", "pocket": "foot_right", "caroms": ["kaisa"]}
MISS = {"kind": "miss", "ball": "red"}
#: The first player: 32 (then a miss), the second 9 (then a miss), the first 17 + 17 to 66 (K-9.1).
TAPS = [BIG, FIFTEEN, MISS, NINE, MISS, BIG, BIG]


def _scored_game() -> tuple[Any, RealGame, Tournament]:
    owner = make_player("Records director")
    club = make_club("Records club", owner)
    club.time_zone = "Europe/Helsinki"
    club.save()
    tournament = tournament_create(
        user=owner,
        club=club,
        name="Tuesday at the tables",
        format=Tournament.Format.DOUBLE_LOSS,
        starts_at=timezone.now(),
        tables=2,
    )
    for name in ("Aino Aalto", "Bertta Berg", "Celia Cajander", "Dora Dahl"):
        tournament_walk_in_enter(user=owner, tournament_id=tournament.pk, name=name)
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    game = game_for_table(scoring_table_add(club_id=club.pk, number=1))
    assert game is not None and game.first_player_id is not None and game.second_player_id is not None
    for number, tap in enumerate(TAPS):
        assert apply_tap(game.pk, f"tap-{number}", tap).accepted
    game.refresh_from_db()
    assert game.status == RealGame.Status.FINISHED and game.winner == 0
    return owner, game, tournament


def test_highest_run_reaches_the_profile_and_the_club_records(client: Any, tmp_path: Path) -> None:
    _owner, game, tournament = _scored_game()
    club = tournament.club
    first, second = (RealGameLine.objects.get(game=game, seat=seat) for seat in (0, 1))
    assert (first.highest_run, first.second_run, first.points, first.visits, first.won) == (34, 32, 66, 2, True)
    assert (second.highest_run, second.second_run, second.points, second.fouls) == (9, None, 9, 0)

    # The game ended at 21:30 UTC on 2 July of the season now: already the 3rd at the club (Helsinki,
    # UTC+3 in summer), the day its pages show.
    season = season_of(timezone.now(), club.zone)
    late = datetime.datetime(season.first_year, 7, 2, 21, 30, tzinfo=datetime.UTC)
    club_day, utc_day = f"3.7.{season.first_year}", f"2.7.{season.first_year}"
    game.started_at, game.finished_at = late - datetime.timedelta(minutes=42), late
    game.save()
    first.refresh_from_db()
    assert first.finished_at == late and first.seconds == 42 * 60

    # The account joined to the first player sees the run on its profile.
    aino = make_player("Aino")
    ClubPlayer.objects.filter(pk=game.first_player_id).update(user=aino)
    profile = client.get("/players/Aino/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "Oikeilla pöydillä" in profile and "data-real-highest-run>34<" in profile
    assert club_day in profile and utc_day not in profile

    # The register player's page (no account) has his own figures.
    page = client.get(f"/clubs/{club.slug}/players/{game.second_player_id}/").content.decode()
    assert "data-real-highest-run>9<" in page and game.first_name in page

    # The club's records of the season: the highest run first, on the club's calendar; none the season before.
    records = client.get(f"/clubs/{club.slug}/records/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert f"kausi {season.label}" in records and records.index('data-run="34"') < records.index('data-run="9"')
    assert club_day in records and utc_day not in records
    before = client.get(f"/clubs/{club.slug}/records/?season={season.first_year - 1}").content.decode()
    assert "data-run=" not in before
    box = client.get(f"/clubs/{club.slug}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"Highest run: 34, {game.first_name}" in box

    # The runs are the pairing's: the score sheet's and the KaisaKaavio export's.
    pairing = TournamentPairing.objects.get(pk=game.pairing_id)
    assert (pairing.first_longest_run, pairing.first_second_run, pairing.second_longest_run) == (34, 32, 9)
    written = tmp_path / "out.xml"
    call_command("kaisakaavio", "export", str(tournament.pk), str(written), stdout=StringIO())
    kaavio = parse(written.read_bytes())
    names = {p.id: p.name for p in kaavio.participants}
    scored = next(g for g in kaavio.games if g.played)
    runs = {names[scored.first_id]: scored.first_runs, names[scored.second_id]: scored.second_runs}
    assert runs == {game.first_name: (34, 32), game.second_name: (9, None)}


def test_a_game_taken_back_from_its_end_leaves_no_line() -> None:
    """A free game (no draw to hold its result) whose winning tap is undone is no finished game."""
    owner = make_player("Undo director")
    club = make_club("Undo club", owner)
    table = scoring_table_add(club_id=club.pk, number=1)
    game = RealGame.objects.create(table=table, first_name="Eeva", second_name="Fanny")
    for number, tap in enumerate([BIG, BIG, BIG, NINE]):
        assert apply_tap(game.pk, f"t{number}", tap).accepted
    assert RealGameLine.objects.filter(game=game).count() == 2
    assert RealGameLine.objects.get(game=game, seat=0).club_id == club.pk
    assert undo_last(game.pk, "u1").accepted
    assert not RealGameLine.objects.filter(game=game).exists()
