"""A club's ranking series: a series of finished events scored by placing, through
the real services (every match made by the match services and decided by a real resignation); the
placings kept when each tournament finishes (game.signals.tournament_finished, heard by the clubs);
bad points and another club's tournament refused with nothing stored; the table on the club page."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from game.clubs.selectors import series_table
from game.clubs.services import ClubError, ClubPermissionError, series_create, series_update
from game.matches.services import match_join, match_resign
from game.models import Match, RankingSeries, RankingSeriesEvent, SeriesPlacing
from game.models.tournaments import Tournament, TournamentEntry, TournamentPairing
from game.tournaments.pairing import knockout
from game.tournaments.selectors.placings import entry_identity
from game.tournaments.services import (
    tournament_close_entries,
    tournament_create,
    tournament_enter,
    tournament_result_fix,
)
from game.tournaments.services.announce import announcement_save
from game.tournaments.services.kaavio import kaavio_import
from tests.support.community_factories import make_club, make_player

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

POINTS = [25, 20, 16, 13]
RATINGS = {"Aino": 1800, "Bertta": 1700, "Celia": 1600, "Dora": 1500}


def _club(tag: str, names: tuple[str, ...] = tuple(RATINGS)) -> tuple[Any, Any, dict[str, Any]]:
    owner = make_player(f"Owner{tag}")
    players = {name: make_player(f"{name}{tag}", rating=RATINGS[name]) for name in names}
    club = make_club(f"Club {tag}", owner, members=tuple(players.values()))
    return club, owner, players


def _event(club: Any, owner: Any, players: list[Any], fmt: str, name: str) -> Tournament:
    tournament = tournament_create(user=owner, club=club, name=name, format=fmt, starts_at=timezone.now(), rated=False)
    for user in players:
        tournament_enter(user=user, tournament_id=tournament.pk)
    return tournament


def _play(tournament: Tournament, owner: Any, winner_of: Callable[[str, str], str]) -> None:
    """Close the entries and play every game the tournament gives until it ends: the second player
    takes the reserved seat and whoever `winner_of(first, second)` does not name resigns."""
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    for _ in range(40):
        tournament.refresh_from_db()
        if tournament.status == Tournament.Status.FINISHED:
            return
        pairing = (
            TournamentPairing.objects.filter(tournament=tournament, status=TournamentPairing.Status.PLAYING)
            .select_related("match")
            .order_by("index", "pk")
            .first()
        )
        assert pairing is not None and pairing.match is not None and pairing.match.status == Match.Status.OPEN
        match = pairing.match
        second = TournamentEntry.objects.get(pk=pairing.second_id).members.get().user
        match_join(match_id=match.pk, user=second)
        match.refresh_from_db()
        first_name, second_name = match.player1.profile.display_name, match.player2.profile.display_name
        won = winner_of(first_name, second_name)
        match_resign(match_id=match.pk, user=match.player2 if won == first_name else match.player1)
    raise AssertionError("the tournament did not end")


def _rating(name: str) -> int:
    return next(rating for prefix, rating in RATINGS.items() if name.startswith(prefix))


def _by_rating(first: str, second: str) -> str:
    return max((first, second), key=_rating)


def _table(series: RankingSeries) -> list[tuple[int, str, int, int, list[int]]]:
    return [
        (r["rank"], r["name"], r["events"], r["points"], r["placings"]) for r in series_table(series=series)["rows"]
    ]


def test_ranking_series_points() -> None:
    """Three finished events of the club, one of each kind of ranking, give the stated table:
    - a round robin of three (the better rating wins): Aino 1st, Bertta 2nd, Celia 3rd;
    - a single elimination of four where Dora beats everyone and Celia beats Bertta: Dora 1st, Celia 2nd,
      and the two losing semi-finalists, Aino and Bertta, share 3rd (each scores 3rd's 16);
    - a double-loss draw of four where Celia beats Bertta and otherwise the better rating wins: its
      list (Celia, Bertta, Dora, Aino: online all four are seeded, seeds 2 and 4 share a place and
      stand in seed order) gives Celia-Bertta and Dora-Aino, then Celia-Dora and Bertta-Aino, so
      Bertta and Dora, each out in the second round without a win, are both 3rd; Aino 1st, Celia 2nd.
    A fourth tournament of the club, not in the series, counts nothing."""
    club, owner, p = _club("S")
    everyone = list(p.values())
    round_robin = _event(club, owner, [p["Aino"], p["Bertta"], p["Celia"]], Tournament.Format.ROUND_ROBIN, "Week 1")
    cup = _event(club, owner, everyone, Tournament.Format.SINGLE_ELIMINATION, "Week 2")
    draw = _event(club, owner, everyone, Tournament.Format.DOUBLE_LOSS, "Week 3")
    other = _event(club, owner, [p["Aino"], p["Dora"]], Tournament.Format.ROUND_ROBIN, "Friendly")
    series = series_create(
        club=club, user=owner, name="Weekly 2026", points=POINTS, tournament_ids=[round_robin.pk, cup.pk, draw.pk]
    )
    assert _table(series) == []

    _play(round_robin, owner, _by_rating)
    assert _table(series) == [
        (1, "AinoS", 1, 25, [1]),
        (2, "BerttaS", 1, 20, [2]),
        (3, "CeliaS", 1, 16, [3]),
    ]

    def cup_winner(first: str, second: str) -> str:
        if "DoraS" in (first, second):
            return "DoraS"
        return "CeliaS" if {first, second} == {"BerttaS", "CeliaS"} else _by_rating(first, second)

    def draw_winner(first: str, second: str) -> str:
        return "CeliaS" if {first, second} == {"BerttaS", "CeliaS"} else _by_rating(first, second)

    _play(cup, owner, cup_winner)
    _play(draw, owner, draw_winner)
    _play(other, owner, lambda first, second: "DoraS")
    names = dict(TournamentEntry.objects.filter(tournament=draw).values_list("pk", "name"))
    second_round = TournamentPairing.objects.filter(tournament=draw, round__number=2)
    assert {frozenset((names[g.first_id], names[g.second_id])) for g in second_round} == {
        frozenset(("CeliaS", "DoraS")),
        frozenset(("BerttaS", "AinoS")),
    }
    places = dict(TournamentEntry.objects.filter(tournament=draw).values_list("name", "place"))
    assert places == {"AinoS": 1, "BerttaS": 3, "CeliaS": 2, "DoraS": 3}

    # Aino 25 + 16 + 25 = 66; Celia 16 + 20 + 20 = 56; Bertta 20 + 16 + 16 = 52; Dora 25 + 16 = 41.
    assert _table(series) == [
        (1, "AinoS", 3, 66, [1, 1, 3]),
        (2, "CeliaS", 3, 56, [2, 2, 3]),
        (3, "BerttaS", 3, 52, [2, 3, 3]),
        (4, "DoraS", 2, 41, [1, 3]),
    ]
    assert SeriesPlacing.objects.filter(tournament=other).count() == 2  # kept, but not in this series

    # An edited series is scored again at once: only the cup, 1st 10, 2nd 6, 3rd 5, 4th 0: Dora 10,
    # Celia 6, Aino and Bertta share 3rd with 5 each (the same rank, listed by name).
    series = series_update(series=series, user=owner, name="Weekly 2026", points=[10, 6, 5, 0], tournament_ids=[cup.pk])
    assert _table(series) == [
        (1, "DoraS", 1, 10, [1]),
        (2, "CeliaS", 1, 6, [2]),
        (3, "AinoS", 1, 5, [3]),
        (3, "BerttaS", 1, 5, [3]),
    ]
    # A season instead of a list takes in every finished event that starts within it, the friendly
    # too (Dora 1st 25, Aino 2nd 20).
    today = timezone.localdate(timezone=club.zone)  # the season is days on the club's clock
    series = series_update(
        series=series, user=owner, name="Weekly 2026", points=POINTS, starts_on=today, ends_on=today, tournament_ids=[]
    )
    rows = _table(series)
    assert [(r[1], r[2], r[3]) for r in rows] == [
        ("AinoS", 4, 66 + 20),
        ("DoraS", 3, 41 + 25),
        ("CeliaS", 3, 56),
        ("BerttaS", 3, 52),
    ]


def test_ranking_series_tie_break_by_placings() -> None:
    """Level on points, more wins rank first; level on every placing too, the same rank."""
    club, owner, p = _club("T", ("Aino", "Bertta", "Celia"))
    first = _event(club, owner, [p["Aino"], p["Bertta"]], Tournament.Format.ROUND_ROBIN, "One")
    second = _event(club, owner, [p["Bertta"], p["Celia"]], Tournament.Format.ROUND_ROBIN, "Two")
    _play(first, owner, _by_rating)  # Aino 1st, Bertta 2nd
    _play(second, owner, lambda a, b: "CeliaT")  # Celia 1st, Bertta 2nd
    # Points 10, 5: Aino 10 (one win), Celia 10 (one win), Bertta 10 (two 2nds): the wins rank first.
    series = series_create(club=club, user=owner, name="Pairs", points=[10, 5], tournament_ids=[first.pk, second.pk])
    assert _table(series) == [
        (1, "AinoT", 1, 10, [1]),
        (1, "CeliaT", 1, 10, [1]),
        (3, "BerttaT", 2, 10, [2, 2]),
    ]


def test_ranking_series_refuses_bad_points() -> None:
    """Points that increase, negative points or none are refused in words; nothing is stored, and a
    refused edit leaves the series as it was."""
    club, owner, _players = _club("P", ("Aino",))
    with pytest.raises(ClubError) as refused:
        series_create(club=club, user=owner, name="Weekly", points=[25, 20, 22])
    assert refused.value.message_dict["points"] == [
        "Points must not increase: placing 3 has 22, more than the 20 of placing 2."
    ]
    with pytest.raises(ClubError) as refused:
        series_create(club=club, user=owner, name="Weekly", points=[10, -1])
    assert refused.value.message_dict["points"] == ["Placing 2: points are 0 to 1000, not -1."]
    with pytest.raises(ClubError):
        series_create(club=club, user=owner, name="Weekly", points=[])
    today = datetime.date(2026, 9, 1)
    with pytest.raises(ClubError) as refused:
        series_create(
            club=club, user=owner, name="Weekly", points=[5], starts_on=today, ends_on=today.replace(day=1, month=8)
        )
    assert refused.value.message_dict["ends_on"] == ["The season cannot end before it starts."]
    assert not RankingSeries.objects.exists()

    series = series_create(club=club, user=owner, name="Weekly", points=[25, 20])
    with pytest.raises(ClubError):
        series_update(series=series, user=owner, name="Renamed", points=[1, 2])
    series.refresh_from_db()
    assert (series.name, series.points) == ("Weekly", [25, 20])


def test_ranking_series_refuses_another_clubs_tournament(client: Any) -> None:
    """A series counts only its own club's tournaments: the service and the form refuse another club's,
    in words and without an id, and store nothing; only the club's owner or admins define a series."""
    club, owner, players = _club("C", ("Aino",))
    other_club, other_owner, other_players = _club("O", ("Bertta",))
    theirs = _event(other_club, other_owner, list(other_players.values()), Tournament.Format.ROUND_ROBIN, "Theirs")
    with pytest.raises(ClubError) as refused:
        series_create(club=club, user=owner, name="Weekly", points=[5], tournament_ids=[theirs.pk])
    assert refused.value.message_dict["tournaments"] == ["A series counts only this club's own tournaments."]
    with pytest.raises(ClubPermissionError):
        series_create(club=club, user=players["Aino"], name="Weekly", points=[5])

    client.force_login(owner)
    url = f"/clubs/{club.slug}/series/new/"
    response = client.post(url, {"name": "Weekly", "points": "25, 20", "tournaments": [str(theirs.pk)]})
    assert response.status_code == 400
    text = response.content.decode()
    assert "A series counts only this club&#x27;s own tournaments." in text
    assert f"{theirs.pk} is not one of" not in text
    response = client.post(url, {"name": "Weekly", "points": "25, 30"})
    assert response.status_code == 400
    assert "Points must not increase: placing 2 has 30, more than the 25 of placing 1." in response.content.decode()
    response = client.post(url, {"name": "Weekly", "points": "25, twenty"})
    assert response.status_code == 400
    assert "Write the points as whole numbers separated by commas" in response.content.decode()
    assert not RankingSeries.objects.exists() and not RankingSeriesEvent.objects.exists()

    client.force_login(players["Aino"])
    assert client.post(url, {"name": "Weekly", "points": "25, 20"}).status_code == 403
    assert not RankingSeries.objects.exists()


def test_ranking_series_on_the_club_page(client: Any) -> None:
    """The club page shows the series table beside the online leaderboard, with the points by placing
    and the tie-breaks in words, in the reader's language; an admin defines the series by the form."""
    club, owner, p = _club("W", ("Aino", "Bertta", "Celia"))
    week = _event(club, owner, list(p.values()), Tournament.Format.ROUND_ROBIN, "Week 1")
    client.force_login(owner)
    form = client.get(f"/clubs/{club.slug}/series/new/").content.decode()
    assert "Points by placing" in form and "25, 20, 16, 13, 11, 10" in form and "Week 1" in form
    response = client.post(
        f"/clubs/{club.slug}/series/new/",
        {"name": "Autumn ranking", "points": "25, 20, 16", "tournaments": [str(week.pk)]},
    )
    assert response.status_code == 302 and response["Location"].endswith("#series")
    series = RankingSeries.objects.get(club=club)
    edit = client.get(f"/clubs/{club.slug}/series/{series.pk}/edit/").content.decode()
    assert 'value="Autumn ranking"' in edit and 'value="25, 20, 16"' in edit and "checked" in edit
    _play(week, owner, _by_rating)

    client.logout()
    page = client.get(f"/clubs/{club.slug}/").content.decode()
    assert "Club leaderboard" in page and "Ranking series" in page and "Autumn ranking" in page
    assert "Points by placing: 1: 25 · 2: 20 · 3: 16" in page
    assert "Ties: more points first; level on points, the better placings" in page
    table = page[page.index('data-series="') :]
    words = " ".join(re.sub(r"<[^>]+>", " ", table).split())
    # rank, player, events, points, best placing, placings
    assert "1 AinoW 1 25 1 1 2 BerttaW 1 20 2 2 3 CeliaW 1 16 3 3" in words
    assert "Week 1" in table

    finnish = client.get(f"/clubs/{club.slug}/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "Rankingsarja" in finnish and "Pisteet sijoituksittain: 1: 25 · 2: 20 · 3: 16" in finnish


def test_series_keys_entries_by_account_else_by_entry() -> None:
    """The identity a series adds up under: the account of a singles entry, the members of a team,
    the entry itself for one without an account (a walk-in, until it is joined to one)."""
    entry = TournamentEntry(pk=41, name="Walk-in")
    assert entry_identity(entry=entry, user_ids=[7]) == entry_identity(entry=TournamentEntry(pk=9), user_ids=[7])
    assert entry_identity(entry=entry, user_ids=[7]).key == "user:7"
    assert entry_identity(entry=entry, user_ids=[9, 3]).key == "team:3,9"
    assert entry_identity(entry=entry, user_ids=[]).key == "entry:41"
    assert entry_identity(entry=entry, user_ids=[]).user_id is None


def test_knockout_placings_shared_by_round() -> None:
    """Eliminated in the same round, the same placing: the seed orders the list, never the placing."""
    seeds = [1, 2, 3, 4, 5, 6, 7, 8]
    plan = knockout.sources(8, double=False)
    winners: dict[knockout.Slot, int | None] = {}
    for slots in knockout.schedule(8, double=False):
        for slot in slots:
            a, b = knockout.sides(slot, seeds, plan, winners)
            winners[slot] = min(x for x in (a, b) if x is not None)
    ranks = knockout.placing_ranks(seeds, winners, double=False)
    assert ranks == [(1, 1), (2, 2), (3, 3), (4, 3), (5, 5), (6, 5), (7, 5), (8, 5)]


def test_ranking_series_follows_a_fixed_result() -> None:
    """An admin's fix after the end finishes the tournament again: the signal is sent again and the
    series scores the placings as they now stand."""
    club, owner, p = _club("F", ("Aino", "Bertta", "Celia"))
    week = _event(club, owner, list(p.values()), Tournament.Format.ROUND_ROBIN, "Week 1")
    series = series_create(club=club, user=owner, name="Weekly", points=[3, 2, 1], tournament_ids=[week.pk])
    _play(week, owner, _by_rating)
    assert [(r[1], r[3]) for r in _table(series)] == [("AinoF", 3), ("BerttaF", 2), ("CeliaF", 1)]
    entries = dict(TournamentEntry.objects.filter(tournament=week).values_list("name", "pk"))
    pairing = TournamentPairing.objects.get(
        tournament=week,
        first_id__in=[entries["AinoF"], entries["BerttaF"]],
        second_id__in=[entries["AinoF"], entries["BerttaF"]],
    )
    tournament_result_fix(user=owner, pairing_id=pairing.pk, winner_entry_id=entries["BerttaF"], reason="scoresheet")
    assert [(r[1], r[3]) for r in _table(series)] == [("BerttaF", 3), ("AinoF", 2), ("CeliaF", 1)]


def test_series_limited_to_one_category() -> None:
    """A series of one category counts the club's events of that category only: an event of
    another category, even one listed in the series, scores nothing in it."""
    owner = make_player("Category Series Owner")
    club = make_club("Category Series Club", owner)
    fixture = Path(__file__).parents[1] / "tournaments" / "fixtures" / "kaisakaavio" / "tupla-13-t2.xml"
    data = fixture.read_bytes()
    women = kaavio_import(
        user=owner,
        club=club,
        data=data.replace(b"<KilpaSarja>Yleinen</KilpaSarja>", b"<KilpaSarja>Naiset</KilpaSarja>"),
    ).tournament
    open_event = kaavio_import(
        user=owner, club=club, data=data.replace(b"Generated tupla-13-t2", b"Open evening")
    ).tournament
    assert (women.category, open_event.category) == ("women", "general")
    assert women.status == open_event.status == Tournament.Status.FINISHED
    both = [women.pk, open_event.pk]
    every = series_create(club=club, user=owner, name="Every event", points=POINTS, tournament_ids=both)
    only = series_create(club=club, user=owner, name="Women", points=POINTS, tournament_ids=both, category="women")
    assert {row["events"] for row in series_table(series=every)["rows"]} == {2}
    assert {row["events"] for row in series_table(series=only)["rows"]} == {1}
    with pytest.raises(ClubError):
        series_update(series=only, user=owner, name="Women", points=POINTS, category="veterans")
    series_update(series=only, user=owner, name="Open", points=POINTS, tournament_ids=both, category="general")
    only.refresh_from_db()
    assert only.category == "general"
    assert {row["events"] for row in series_table(series=only)["rows"]} == {1}


def test_series_names_only_the_events_the_reader_may_see(client: Any) -> None:
    """Three events count in a series: a public one, one seen only with its link and one for the
    club's admins only. Every placing counts for everyone; the club page names the public event to a
    visitor and a member (the other two are counted as "2 events not shown to you", in the reader's
    words), and all three to the club's owner."""
    club, owner, p = _club("Vis", ("Aino", "Bertta"))
    events = {
        visibility: _event(club, owner, [p["Aino"], p["Bertta"]], Tournament.Format.ROUND_ROBIN, f"Secret {visibility}")
        for visibility in ("public", "link", "admins")
    }
    for visibility, event in events.items():
        values = {"registration": "closed", "friends": True, "venue": "", "entry_fee": ""}
        announcement_save(user=owner, tournament_id=event.pk, visibility=visibility, **values)
        _play(event, owner, _by_rating)
    series = series_create(
        club=club, user=owner, name="Season", points=POINTS, tournament_ids=[e.pk for e in events.values()]
    )
    assert [(r["name"], r["events"], r["points"]) for r in series_table(series=series)["rows"]] == [
        ("AinoVis", 3, 75),
        ("BerttaVis", 3, 60),
    ]

    def page(language: str = "en") -> str:
        return client.get(f"/clubs/{club.slug}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()

    for reader in (None, p["Aino"]):
        if reader is not None:
            client.force_login(reader)
        shown = page()
        assert "Secret public" in shown and "Secret link" not in shown and "Secret admins" not in shown
        assert "2 events not shown to you" in shown and ">75<" in shown
        assert "2 kilpailua, joita sinulle ei näytetä" in page("fi")
    client.force_login(owner)
    shown = page()
    assert all(f"Secret {v}" in shown for v in events) and "not shown to you" not in shown
