"""A club's player register: a walk-in is the club's player, found by the name the director types
(case, accents and look-alike letters aside), the same person every week; the series, the placings
and the register's figures count that player; joined to an account later, the player's history is
the account's. A KaisaKaavio file already imported (the same file, or the same name on the same day)
is refused with the way to the event. Through the pages in Finnish where the director reads them."""

from __future__ import annotations

import datetime
import re
from io import StringIO
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.utils import timezone

from game.clubs.selectors import club_register, series_table
from game.clubs.services import series_create
from game.models import ClubPlayer, Membership, SeriesPlacing
from game.models.tournaments import Tournament, TournamentEntry, TournamentEntryMember
from game.tournaments.selectors.tournaments import entry_of_user
from game.tournaments.services import (
    TournamentError,
    club_player_link,
    tournament_close_entries,
    tournament_create,
    tournament_enter,
    tournament_walk_in_enter,
)
from game.tournaments.services.kaavio import kaavio_export, kaavio_import
from tests.support.community_factories import make_club, make_player
from tests.tournaments.test_club_event import _play_until
from tests.tournaments.test_kaisakaavio_files import FIXTURE

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

FI = {"HTTP_ACCEPT_LANGUAGE": "fi"}
CYRILLIC_O = "\u041e"


def _weekly(club: Any, director: Any, week: int, names: tuple[str, ...], client: Client | None = None) -> Tournament:
    """A weekly event of the club on two tables, its walk-ins typed as given (through the page when
    a signed-in `client` is given)."""
    tournament = tournament_create(
        user=director,
        club=club,
        name=f"Viikkokisa {week}",
        format=Tournament.Format.DOUBLE_LOSS,
        starts_at=timezone.now() + datetime.timedelta(days=week),
        tables=2,
    )
    for name in names:
        if client is None:
            tournament_walk_in_enter(user=director, tournament_id=tournament.pk, name=name)
        else:
            client.post(f"/tournaments/{tournament.pk}/walk-in/", {"name": name}, **FI)
    return tournament


def _finish(tournament: Tournament, director: Any) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now())
    tournament_close_entries(user=director, tournament_id=tournament.pk)
    _play_until(tournament, director, lambda: Tournament.objects.get(pk=tournament.pk).status == "finished")
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED


def test_walk_in_is_the_same_player_next_week(client: Client) -> None:
    director = make_player("Kisavetäjä")
    club = make_club("Kaisaklubi", director)
    client.force_login(director)
    weeks = [
        _weekly(club, director, 1, ("Olli Tuominen", "Jari Lehto", "Sari Mäkelä", "Pekka Laine"), client),
        _weekly(club, director, 2, ("olli tuominen", "JARI LEHTO", "sari makela", "Pekka  Laine"), client),
        _weekly(club, director, 3, (f"{CYRILLIC_O}lli Tuominen", "Jari Lehto", "Sari Mäkelä", "Aino Uusi"), client),
    ]
    olli = ClubPlayer.objects.get(club=club, name="Olli Tuominen")
    for week in weeks:
        entry = TournamentEntry.objects.get(tournament=week, player=olli)
        assert entry.name == "Olli Tuominen"  # the register's spelling, whatever was typed
    assert sorted(ClubPlayer.objects.filter(club=club).values_list("name", flat=True)) == [
        "Aino Uusi",
        "Jari Lehto",
        "Olli Tuominen",
        "Pekka Laine",
        "Sari Mäkelä",
    ]
    # One name once per event, on the register's terms: refused beside nothing changed.
    refused = client.post(f"/tournaments/{weeks[2].pk}/walk-in/", {"name": "OLLI tuominen"}, follow=True, **FI)
    assert "Olli Tuominen on jo ilmoittautunut" in refused.content.decode()
    assert TournamentEntry.objects.filter(tournament=weeks[2]).count() == 4

    # The field's suggestions as the director types: no case or accent surprises.
    def offered(typed: str) -> list[str]:
        answer = client.get(f"/clubs/{club.slug}/players/search/", {"q": typed})
        assert answer.status_code == 200
        return [p["name"] for p in answer.json()["players"]]

    assert offered("olli") == ["Olli Tuominen"]
    assert offered("MAKELA") == ["Sari Mäkelä"]
    assert set(offered("la")) == {"Pekka Laine", "Sari Mäkelä"}
    page = client.get(f"/tournaments/{weeks[2].pk}/", **FI).content.decode()
    assert "data-player-search" in page and "/static/game/js/pages/player_names.js" in page
    stranger = Client()
    stranger.force_login(make_player("Utelias"))
    assert stranger.get(f"/clubs/{club.slug}/players/search/", {"q": "olli"}).status_code == 403

    # The register page: the same person, three events; no rating for a walk-in (none is 1500).
    register = client.get(f"/clubs/{club.slug}/players/", **FI).content.decode()
    row = re.search(r'<tr data-player="Olli Tuominen">(.*?)</tr>', register, re.S)
    assert row and re.findall(r'<td class="num">(\d+|–)</td>', row.group(1))[0] == "3"
    assert "1500" not in client.get(f"/tournaments/{weeks[0].pk}/", **FI).content.decode()

    # Joined to his account later, with his history: every week is the account's ...
    account = make_player("OlliT", rating=1640.0)
    joined = client.post(f"/clubs/{club.slug}/players/{olli.pk}/join/", {"account": "ollit"}, follow=True, **FI)
    assert joined.status_code == 200
    for week in weeks:
        assert entry_of_user(tournament=week, user=account) is not None
    # ... and next week "olli tuominen" typed is the account's entry at once, with its rating.
    week4 = _weekly(club, director, 4, ("olli tuominen",), client)
    entry = TournamentEntry.objects.get(tournament=week4)
    assert entry.player_id == olli.pk and entry.members.get().user == account and entry.rating == 1640.0
    assert "1640" in client.get(f"/tournaments/{week4.pk}/", **FI).content.decode()
    # A player is joined once; an account is one player of a club.
    with pytest.raises(TournamentError):
        club_player_link(
            user=director, player_id=ClubPlayer.objects.get(club=club, name="Jari Lehto").pk, account=account
        )
    assert ClubPlayer.objects.get(club=club, name="Jari Lehto").user_id is None


def test_series_counts_register_players(client: Client) -> None:
    director = make_player("Sarjanvetäjä")
    club = make_club("Sarjaklubi", director)
    typings = [
        ("Olli Tuominen", "Jari Lehto", "Sari Mäkelä", "Pekka Laine"),
        ("olli tuominen", "jari lehto", "SARI MAKELA", "pekka laine"),
        ("OLLI TUOMINEN", "Jari  Lehto", "Sari Mäkelä", "Pekka Laine"),
    ]
    weeks = [_weekly(club, director, n + 1, names) for n, names in enumerate(typings)]
    for week in weeks:
        _finish(week, director)
    series = series_create(
        club=club, user=director, name="Viikkokisat syksy 2026", points=[25, 20, 16, 13], tournament_ids=[]
    )
    series.starts_on, series.ends_on = datetime.date(2000, 1, 1), datetime.date(2100, 1, 1)
    series.save()
    placings = {
        name: [TournamentEntry.objects.get(tournament=w, player__name=name).place for w in weeks]
        for name in ("Olli Tuominen", "Jari Lehto", "Sari Mäkelä", "Pekka Laine")
    }
    points = {name: sum([25, 20, 16, 13][p - 1] for p in places) for name, places in placings.items()}
    table = {row["name"]: (row["events"], row["points"]) for row in series_table(series=series)["rows"]}
    assert table == {name: (3, points[name]) for name in points}  # one row each, not three
    page = client.get(f"/clubs/{club.slug}/", **FI).content.decode()
    assert page.count(">Olli Tuominen<") == 1

    # The register's figures count the same player's three events and every game of them.
    figures = {row["name"]: row for row in club_register(club=club)}
    games = sum(
        1 for w in weeks for p in w.pairings.all() if p.status == "done" and "Olli" in (p.first.name + p.second.name)
    )
    assert figures["Olli Tuominen"]["events"] == 3 and figures["Olli Tuominen"]["games"] == games
    assert figures["Olli Tuominen"]["best"] == min(placings["Olli Tuominen"])

    # Joined to an account, the row is the account's, with the same events; the account's own entry
    # in a later event adds to it.
    account = make_player("Olli T", rating=1700.0)
    club_player_link(
        user=director, player_id=ClubPlayer.objects.get(club=club, name="Olli Tuominen").pk, account=account
    )
    table = {row["name"]: (row["events"], row["points"], row["user"]) for row in series_table(series=series)["rows"]}
    assert table["Olli T"] == (3, points["Olli Tuominen"], True) and "Olli Tuominen" not in table
    Membership.objects.create(club=club, user=account)
    week4 = _weekly(club, director, 4, ("Jari Lehto", "Sari Mäkelä", "Pekka Laine"))
    tournament_enter(user=account, tournament_id=week4.pk)
    _finish(week4, director)
    rows = {row["name"]: row for row in series_table(series=series)["rows"]}
    assert rows["Olli T"]["events"] == 4 and len(rows) == 4
    assert {p.player_key for p in SeriesPlacing.objects.filter(tournament=week4, name="Olli T")} == {
        f"user:{account.pk}"
    }


def test_same_event_imported_twice_is_refused(client: Client, tmp_path: Any) -> None:
    director = make_player("Tuoja")
    club = make_club("Tuontiklubi", director)
    data = FIXTURE.read_bytes()
    first = kaavio_import(user=director, club=club, data=data).tournament
    rows = (Tournament.objects.count(), TournamentEntry.objects.count(), ClubPlayer.objects.count())

    # The same file again: refused, nothing stored, the way to the event given.
    with pytest.raises(TournamentError) as refused:
        kaavio_import(user=director, club=club, data=data)
    assert refused.value.code == "already_imported" and first.name in refused.value.message
    client.force_login(director)
    page = client.post(
        f"/clubs/{club.slug}/kaisakaavio/",
        {"file": SimpleUploadedFile("kisa.xml", data), "tables": "4"},
        follow=True,
        **FI,
    ).content.decode()
    assert "tapahtuma on jo täällä" in page and f'<a href="/tournaments/{first.pk}/">' in page
    path = tmp_path / "kisa.xml"
    path.write_bytes(data)
    with pytest.raises(CommandError, match=f"/tournaments/{first.pk}/"):
        call_command("kaisakaavio", "import", str(path), "--club", club.slug, stdout=StringIO())

    # Another file of the same event (Kaiza's own export: other bytes, the same name and day).
    exported = kaavio_export(tournament=first).encode()
    assert exported != data
    with pytest.raises(TournamentError) as refused:
        kaavio_import(user=director, club=club, data=exported)
    assert refused.value.code == "already_imported"
    assert (Tournament.objects.count(), TournamentEntry.objects.count(), ClubPlayer.objects.count()) == rows

    # Another day is another event; another club has its own.
    later = re.sub(rb"(<AlkamisAika>[0-9.]*\.)(\d{4})", lambda m: m[1] + b"%d" % (int(m[2]) + 1), exported)
    assert later != exported
    again = kaavio_import(user=director, club=club, data=later).tournament
    assert again.pk != first.pk
    # ... whose participants are the club's players already: the same person as in the first.
    assert set(TournamentEntry.objects.filter(tournament=again).values_list("player_id", flat=True)) == set(
        TournamentEntry.objects.filter(tournament=first).values_list("player_id", flat=True)
    )
    assert ClubPlayer.objects.count() == rows[2]
    kaavio_import(user=director, club=make_club("Toinen klubi", director), data=data)
    assert not TournamentEntryMember.objects.exists()


def test_existing_walk_ins_become_register_players() -> None:
    """The data migration: the walk-ins of a club whose names are one name are one player (named as
    first typed), other clubs' apart; the series placings kept under a walk-in are the player's."""
    executor = MigrationExecutor(connection)
    before = [("game", "0027_club_player_register")]
    after = executor.loader.graph.leaf_nodes("game")
    executor.migrate(before)
    apps = executor.loader.project_state(before).apps
    Club = apps.get_model("game", "Club")
    Tournament = apps.get_model("game", "Tournament")
    Entry = apps.get_model("game", "TournamentEntry")
    Placing = apps.get_model("game", "SeriesPlacing")
    User = apps.get_model("auth", "User")
    owner = User.objects.create(username="migrator")
    clubs = [Club.objects.create(name=f"Club {n}", slug=f"club-{n}", created_by=owner) for n in (1, 2)]
    entries = []
    for day, (club, name) in enumerate(
        [(clubs[0], "Olli Tuominen"), (clubs[0], "olli  tuominen"), (clubs[0], "Jari"), (clubs[1], "Olli Tuominen")]
    ):
        event = Tournament.objects.create(
            club=club, name=f"Week {day}", starts_at=timezone.now() + datetime.timedelta(days=day), tables=2
        )
        entries.append(Entry.objects.create(tournament=event, name=name))
        Placing.objects.create(
            tournament=event, entry=entries[-1], player_key=f"entry:{entries[-1].pk}", name=name, place=1
        )
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    players = {e.pk: TournamentEntry.objects.get(pk=e.pk).player for e in entries}
    assert players[entries[0].pk] == players[entries[1].pk] and players[entries[0].pk].name == "Olli Tuominen"
    assert len({p.pk for p in players.values()}) == 3  # Olli and Jari of club 1, Olli of club 2
    assert set(SeriesPlacing.objects.filter(entry_id=entries[1].pk).values_list("player_key", flat=True)) == {
        f"player:{players[entries[0].pk].pk}"
    }
