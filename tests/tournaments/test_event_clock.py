"""The event's clock and target: the three presets reach the engine through the match's
`ruleset` (K-11.1 warning and limit, the extra visits, the K-11.4 shoot-out visits, the K-9.1 target),
bad settings are refused at the edge with nothing stored, and a game decided in the shoot-out keeps
both scores and its winner, shown as KaisaKaavio writes it (`45v – 52`)."""

from __future__ import annotations

import datetime
import html
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.utils import timezone

from game.common import clock as game_clock
from game.engine.rules import Match as EngineMatch
from game.engine.rules import Ruleset
from game.matches.clock_presets import (
    KAISA_RULES,
    NO_LIMIT,
    PRESETS,
    RANKING_EVENT,
    WEEKLY_EVENT,
    EventClock,
    EventClockError,
    event_clock_make,
)
from game.matches.selectors.match_result import match_stored_result, score_line
from game.matches.selectors.match_state import engine_names
from game.matches.services import MatchError, match_create, match_join
from game.matches.services.deadlines import deadlines_fire_due
from game.matches.services.inputs import finish_from_engine
from game.models import Match
from game.models.tournaments import Tournament, TournamentPairing
from game.tournaments.selectors.bracket import bracket_layout
from game.tournaments.selectors.tournaments import rounds, standings
from game.tournaments.services import TournamentError, tournament_close_entries, tournament_create, tournament_enter
from tests.rules.fakes import STRIKE, Script
from tests.rules.helpers import position, shot
from tests.support.community_factories import make_club, make_player
from tests.tournaments.test_tournaments import _on_page

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

MISS = shot([])
KAISA = {"ball": "kaisa", "pocket": "foot_left"}


def _club() -> tuple[Any, Any, dict[str, Any]]:
    owner = make_player("Owner")
    players = {"Aino": make_player("Aino", rating=1700), "Bertta": make_player("Bertta", rating=1600)}
    return make_club("Biljardi", owner, members=tuple(players.values())), owner, players


def _started_pairing(clock: EventClock, fmt: str = "round_robin") -> tuple[Tournament, TournamentPairing, Match]:
    """A tournament of two (a round robin) with `clock`, its one match started (Bertta took her seat)."""
    club, owner, players = _club()
    tournament = tournament_create(
        user=owner, club=club, name="Viikkokisa", format=fmt, starts_at=timezone.now(), clock=clock
    )
    for user in players.values():
        tournament_enter(user=user, tournament_id=tournament.pk)
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    pairing = TournamentPairing.objects.get(tournament=tournament)
    assert pairing.match is not None
    match_join(match_id=pairing.match.pk, user=players["Bertta"])
    match = Match.objects.get(pk=pairing.match.pk)
    assert match.status == Match.Status.ACTIVE
    for seat, name in enumerate(("Aino", "Bertta")):
        _on_page(match, players[name], seat)  # both at the table: no disconnect grace runs out
    return tournament, pairing, match


def _k11_numbers(ruleset: Ruleset) -> tuple[float, float, int, int, int]:
    return (
        ruleset.time_limit,
        ruleset.time_warning,
        ruleset.extra_visits_each,
        ruleset.shootout_visits,
        ruleset.target_score,
    )


def _expected(clock: EventClock) -> tuple[float, float, int, int, int]:
    assert clock.game_minutes is not None
    limit = clock.game_minutes * 60.0
    return (limit, limit - clock.warning_minutes * 60.0, clock.extra_visits, clock.shootout_visits, clock.target_score)


def _miss(m: EngineMatch, script: Script) -> None:
    """A visit that scores nothing; in the shoot-out the cue ball leaves the home (a real try)."""
    player = m.current_player
    cue = m.cue_ball_of(player)
    if m.pending() == [(player, "place")]:
        m.place(player, cue, (0.3, 0.3))
    script.push(shot([], moves={cue: (1.0, 0.3)}) if m.phase == "shootout" else MISS)
    m.shoot(player, KAISA, STRIKE)


def test_the_presets_numbers() -> None:
    """The K-11 default is the engine's own Ruleset; the club presets as the clubs play them."""
    k11 = Ruleset()
    assert _expected(KAISA_RULES.clock) == _k11_numbers(k11) == (3900.0, 3600.0, 2, 10, 60)
    assert KAISA_RULES.clock.ruleset() == {}  # an unchanged K-11 match stores what it always did
    assert _expected(RANKING_EVENT.clock) == (3600.0, 3300.0, 0, 5, 60)
    assert _expected(WEEKLY_EVENT.clock) == (2400.0, 2100.0, 0, 3, 60)
    assert list(PRESETS) == ["kaisa_rules", "ranking_event", "weekly_event"]
    assert [str(p.label) for p in PRESETS.values()] == [
        "Kaisa rules (60 + 5 min, shoot-out 10)",
        "Ranking event (60 min, shoot-out 5)",
        "Weekly event (40 min, shoot-out 3)",
    ]


@pytest.mark.parametrize("key", list(PRESETS))
def test_event_clock_presets(key: str) -> None:
    """Each preset: the tournament and its match carry the preset's numbers, the server's clock fires
    K-11.1's warning and limit at the preset's minutes, and then the engine gives the preset's extra
    visits (none: the shoot-out at once) and ends the shoot-out after the preset's visits (K-11.4)."""
    preset = PRESETS[key]
    tournament, _pairing, match = _started_pairing(preset.clock)
    assert tournament.time_limit == match.time_limit == preset.clock.time_limit
    assert _k11_numbers(Ruleset.from_dict(tournament.ruleset)) == _expected(preset.clock)
    assert _k11_numbers(Ruleset.from_dict(match.ruleset)) == _expected(preset.clock)
    limit, warning, extra, visits, _target = _expected(preset.clock)
    clock = match.snapshot["clock"]
    assert (clock["limit"], clock["warning"]) == (limit, warning)
    started = clock["started"]

    # K-11.1 on the game clock: nothing before the warning, the warning at it, the limit at the limit.
    game_clock.advance(started + warning - 1 - game_clock.game_now())
    deadlines_fire_due()
    match.refresh_from_db()
    assert not match.snapshot["clock"]["warned"]
    game_clock.advance(2)
    deadlines_fire_due()
    match.refresh_from_db()
    assert match.snapshot["clock"]["warned"] and not match.snapshot["clock"]["expired"]
    game_clock.advance(limit - warning - 2)
    deadlines_fire_due()
    match.refresh_from_db()
    assert not match.snapshot["clock"]["expired"]
    game_clock.advance(2)
    deadlines_fire_due()
    match.refresh_from_db()
    assert match.snapshot["clock"]["expired"]

    # The engine reads the stored clock and ruleset: the round ends with white2's visit, then the extra
    # visits (2 each for the Kaisa rules, none for the club events) and the shoot-out.
    script = Script()
    m = position("play", clock=match.snapshot["clock"], ruleset=match.ruleset, simulate=script)
    with script:
        _miss(m, script)  # alice, white1: the round is not over
        assert m.phase == "play"
        _miss(m, script)  # bob, white2: the round is over
        if extra:
            assert m.phase == "extra_visits" and m.snapshot()["extra_visits"] == ["white1", "white2"] * extra
            for _ in range(2 * extra):
                _miss(m, script)
    assert m.phase == "shootout"

    # K-11.4: the shoot-out lasts the preset's visits each, then the higher score wins.
    shootout = {"stage": "shoot", "visits": [visits - 1, visits - 1]}
    for before_last in (False, True):
        script = Script()
        so = shootout if before_last else {"stage": "shoot", "visits": [max(visits - 2, 0), max(visits - 2, 0)]}
        m = position(
            "shootout",
            scores=(40, 46),
            shootout=so,
            balls={"kaisa": [1.42, 0.71]},
            ruleset=match.ruleset,
            simulate=script,
        )
        with script:
            _miss(m, script)
            _miss(m, script)
        if before_last or visits == 1:
            assert m.phase == "finished" and m.winner == "bob"
        else:
            assert m.phase == "shootout"


@pytest.mark.parametrize("key", list(PRESETS))
def test_event_clock_presets_for_a_casual_match(key: str) -> None:
    """The same presets for a casual match: its ruleset and clock are the preset's once it starts."""
    preset = PRESETS[key]
    ann, bob = make_player("Ann"), make_player("Bob")
    match, _ = match_create(user=ann, rated=False, time_limit=None, shot_clock=None, clock=preset.clock)
    match_join(match_id=match.pk, user=bob)
    match.refresh_from_db()
    assert match.time_limit == preset.clock.time_limit
    assert _k11_numbers(Ruleset.from_dict(match.snapshot["ruleset"])) == _expected(preset.clock)
    limit, warning, *_ = _expected(preset.clock)
    assert (match.snapshot["clock"]["limit"], match.snapshot["clock"]["warning"]) == (limit, warning)


def test_lobby_form_creates_a_match_with_a_preset_and_refuses_bad_settings() -> None:
    client = Client()
    client.force_login(make_player("Ann"))
    sent = {"opponent": "human", "clock": WEEKLY_EVENT.key, "time_limit": "", "shot_clock": ""}
    made = client.post("/lobby/create/", sent)
    assert made.status_code == 302
    match = Match.objects.get()
    assert match.time_limit == 2400 and Ruleset.from_dict(match.ruleset).shootout_visits == 3
    # A target of 5, a warning after the start, no shoot-out at all: refused with the words, nothing made.
    for bad, words in (
        ({"target_score": "5"}, "the target is 20 to 200 points"),
        ({"time_limit": "4"}, "the warning must come after the game has begun"),
        ({"shootout_visits": "0"}, "the shoot-out is 1 to 20 visits each"),
        ({"clock": NO_LIMIT, "time_limit": "999"}, "the game time is 1 to 240 minutes"),
        ({"clock": "lightning"}, "Select a valid choice"),
    ):
        page = client.post("/lobby/create/", {**sent, **bad}, follow=True)
        assert words in page.content.decode(), bad
    assert Match.objects.count() == 1
    # No preset and minutes alone: the K-11 limit of old (the warning at 60/65 of it), no ruleset.
    client.post("/lobby/create/", {"opponent": "human", "time_limit": "30", "shot_clock": ""})
    newest = Match.objects.order_by("-created_at").first()
    assert newest is not None and newest.time_limit == 1800 and newest.ruleset == {}


#: Numbers `int()` reads (as Django's IntegerField did) that no one types on purpose: Arabic-Indic and
#: full-width digits, an underscore; and '²', which `str.isdigit()` takes and `int()` refuses.
NOT_TYPED_DIGITS = ("٦٠", "６０", "6_0", "6²")
DIGITS_RULE = {
    "en": "a whole number is written with the digits 0 to 9",
    "fi": "kokonaisluku kirjoitetaan numeroilla 0–9",
    "ru": "целое число записывается цифрами от 0 до 9",
}


def test_event_form_numbers_are_ascii_digits(settings: Any) -> None:
    """Every number of the event form (the match's and the club event's clock and target, the shot clock,
    the event's entries and tables) is the digits 0 to 9: anything else is refused quoting what was
    typed, in the reader's language, and nothing is made; the same numbers in ASCII are taken."""
    settings.KAIZA_RATE_LIMITS = {**settings.KAIZA_RATE_LIMITS, "match_create": {}}
    club, owner, _players = _club()
    client = Client()
    client.force_login(owner)
    start = timezone.now() + datetime.timedelta(hours=1)
    event = {
        "name": "Viikkokisa",
        "format": "round_robin",
        "kind": "singles",
        "clock": WEEKLY_EVENT.key,
        "max_entries": "8",
        "starts_at": start.astimezone(club.zone).strftime("%Y-%m-%dT%H:%M"),
    }
    match = {"opponent": "human", "clock": WEEKLY_EVENT.key, "time_limit": "", "shot_clock": ""}
    for index, typed in enumerate(NOT_TYPED_DIGITS):
        language, rule = list(DIGITS_RULE.items())[index % len(DIGITS_RULE)]
        for field in ("target_score", "time_limit", "shot_clock"):
            page = client.post("/lobby/create/", {**match, field: typed}, follow=True, HTTP_ACCEPT_LANGUAGE=language)
            said = html.unescape(page.content.decode())
            assert f"'{typed}'" in said and rule in said, (typed, field)
        for field in ("target_score", "extra_visits", "max_entries", "tables"):
            page = client.post(
                f"/clubs/{club.slug}/tournaments/new/", {**event, field: typed}, HTTP_ACCEPT_LANGUAGE=language
            )
            said = html.unescape(page.content.decode())
            assert page.status_code == 400 and f"'{typed}'" in said and rule in said, (typed, field)
    assert Match.objects.count() == 0 and Tournament.objects.count() == 0
    assert client.post("/lobby/create/", {**match, "target_score": "70", "shot_clock": "30"}).status_code == 302
    made = Match.objects.get()
    assert Ruleset.from_dict(made.ruleset).target_score == 70 and made.shot_clock == 30
    sent = {**event, "format": "double_loss", "target_score": " 70 ", "tables": "2"}
    assert client.post(f"/clubs/{club.slug}/tournaments/new/", sent).status_code == 302
    assert Tournament.objects.get().tables == 2


def test_bad_event_clock_settings_store_nothing() -> None:
    club, owner, _players = _club()
    start = timezone.now() + datetime.timedelta(hours=1)
    for bad, code_words in (
        (
            EventClock(game_minutes=0, warning_minutes=0, extra_visits=0, shootout_visits=3, target_score=60),
            "game time",
        ),
        (
            EventClock(game_minutes=40, warning_minutes=45, extra_visits=0, shootout_visits=3, target_score=60),
            "warning",
        ),
        (EventClock(game_minutes=40, warning_minutes=5, extra_visits=9, shootout_visits=3, target_score=60), "extra"),
        (
            EventClock(game_minutes=40, warning_minutes=5, extra_visits=0, shootout_visits=0, target_score=60),
            "shoot-out",
        ),
        (
            EventClock(game_minutes=None, warning_minutes=5, extra_visits=0, shootout_visits=3, target_score=1000),
            "target",
        ),
    ):
        with pytest.raises(TournamentError) as refused:
            tournament_create(user=owner, club=club, name="Kisa", format="round_robin", starts_at=start, clock=bad)
        assert refused.value.code == "bad_value" and code_words in refused.value.message
        with pytest.raises(MatchError) as refused_match:
            match_create(user=owner, rated=False, time_limit=None, shot_clock=None, clock=bad)
        assert refused_match.value.code == "bad_value"
    with pytest.raises(MatchError):  # a clock and another limit: one of them would be ignored
        match_create(user=owner, rated=False, time_limit=600, shot_clock=None, clock=WEEKLY_EVENT.clock)
    with pytest.raises(EventClockError):
        event_clock_make(preset="lightning")
    assert Tournament.objects.count() == 0 and Match.objects.count() == 0

    # The page: the service's words as the form's error, a 400, nothing stored; a good one is made.
    client = Client()
    client.force_login(owner)
    data = {
        "name": "Viikkokisa",
        "format": "round_robin",
        "kind": "singles",
        "rated": "on",
        "clock": WEEKLY_EVENT.key,
        "max_entries": "8",
        "starts_at": start.astimezone(club.zone).strftime("%Y-%m-%dT%H:%M"),  # the club's clock
    }
    for bad, words in (
        ({"target_score": "300"}, "the target is 20 to 200 points"),
        ({"extra_visits": "6"}, "each player gets 0 to 5 extra visits"),
        ({"warning_minutes": "40"}, "the warning comes 0 to 30 minutes before the end"),
        ({"time_limit": "0"}, "the game time is 1 to 240 minutes"),
    ):
        page = client.post(f"/clubs/{club.slug}/tournaments/new/", {**data, **bad})
        assert page.status_code == 400 and words in page.content.decode(), bad
    assert Tournament.objects.count() == 0
    made = client.post(f"/clubs/{club.slug}/tournaments/new/", {**data, "target_score": "80"})
    assert made.status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.time_limit == 2400
    assert tournament.ruleset == {
        "target_score": 80,
        "plain_white_pass_score": 79,
        "extra_visits_each": 0,
        "shootout_visits": 3,
        "time_limit": 2400.0,
        "time_warning": 2100.0,
    }
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "K-11 limit 40 min" in page and "shoot-out 3 visits" in page and "target 80" in page
    preset_made = client.post(
        f"/clubs/{club.slug}/tournaments/new/", {**data, "name": "Ranking", "clock": "ranking_event"}
    )
    assert preset_made.status_code == 302
    ranking = Tournament.objects.get(name="Ranking")
    assert (ranking.time_limit, Ruleset.from_dict(ranking.ruleset).shootout_visits) == (3600, 5)
    assert "Ranking event (60 min, shoot-out 5)" in client.get(f"/tournaments/{ranking.pk}/").content.decode()


def _finish_in_the_shootout(match: Match, scores: tuple[int, int], winner_seat: int) -> dict[str, Any]:
    """End `match` as a game decided in the shoot-out, through the one path every match ends by."""
    names = engine_names(match)
    final = EngineMatch.from_snapshot(
        {
            "phase": "finished",
            "players": [
                {"name": names[0], "cue_ball": "white1", "score": scores[0]},
                {"name": names[1], "cue_ball": "white2", "score": scores[1]},
            ],
            "turn": 0,
            "balls": {"kaisa": [1.42, 0.71]},
            "winner": names[winner_seat],
            "ruleset": match.ruleset,
        }
    ).snapshot()
    match.snapshot = final
    # Inside the writing transaction, as every caller of finish_from_engine is (its rating and
    # tournament writes lock rows: PostgreSQL refuses select_for_update outside a transaction).
    with transaction.atomic():
        return finish_from_engine(match, final, game_clock.game_now(), "shootout")


def test_shootout_result_recorded_with_both_scores() -> None:
    """K-11.4: a game decided in the shoot-out whose winner has fewer points (as a result from a real
    table or a KaisaKaavio file is; Kaiza's own shoot-out adds its points to the game score): the match
    finishes through the one path every match ends by, the pairing keeps 45 and 52 and marks the winner,
    and the end card, the round's results, the standings and the replay say `45v – 52`."""
    tournament, pairing, match = _started_pairing(WEEKLY_EVENT.clock)
    first, second = engine_names(match)
    assert (first, second) == ("Aino", "Bertta")
    finished = _finish_in_the_shootout(match, (45, 52), 0)

    # The stored result: both scores, the winner, how it ended.
    match.refresh_from_db()
    pairing.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner is not None and match.result_code == "shootout"
    assert (pairing.first_score, pairing.second_score) == (45, 52)
    assert pairing.winner_id == pairing.first_id and pairing.result_code == "shootout"
    assert (pairing.first_points, pairing.second_points) == (1.0, 0.0)

    # The end card's data (the `finished` event and the stored result a reload shows).
    for result in (finished["result"], match_stored_result(match=match)):
        assert result is not None
        assert (result["winner"], result["loser"], result["scores"], result["how"]) == (
            first,
            second,
            [45, 52],
            "shootout",
        )
        assert result["score_line"] == "45v – 52"
        assert result["text"] == "Aino won in the shoot-out"
        assert all(first in words and "45" not in words for words in result["words"].values())

    # The round's results and the standings: the winner marked, the win counted, both scores kept.
    view = rounds(tournament=tournament)[0]["pairings"][0]
    assert (view["score"], view["score_line"], view["winner"], view["shootout"]) == ((45, 52), "45v – 52", first, True)
    table = {row["name"]: row for row in standings(tournament=tournament)}
    assert (table[first]["rank"], table[first]["won"], table[first]["won_in_shootout"]) == (1, 1, 1)
    assert (table[second]["lost"], table[second]["won_in_shootout"]) == (1, 0)
    assert table[first]["frames_difference"] == -7  # the points stay as played
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "45v – 52" in page and "Aino won in the shoot-out" in page and "1 in the shoot-out" in page
    replay = Client().get(f"/m/{match.pk}/replay/").content.decode()
    assert "45v – 52" in replay and "Aino won in the shoot-out" in replay


def test_score_line_marks_only_a_shootout_winner() -> None:
    assert score_line(scores=[45, 52], winner_seat=0, how="shootout") == "45v – 52"
    assert score_line(scores=[58, 40], winner_seat=1, how="shootout") == "58 – 40v"
    assert score_line(scores=[60, 41], winner_seat=0, how="target") == "60 – 41"
    assert score_line(scores=[0, -6], winner_seat=0, how="shootout") == "0v – −6"


def test_bracket_marks_the_shootout_winner() -> None:
    """A knockout's bracket box: the winner's score of a shoot-out game carries the `v` (Bertta 40v)."""
    tournament, _pairing, match = _started_pairing(RANKING_EVENT.clock, fmt="single_elimination")
    _finish_in_the_shootout(match, (46, 40), 1)
    box = bracket_layout(tournament=tournament)["boxes"][0]
    assert [(side["name"], side["won"], side["score"]) for side in box["sides"]] == [
        ("Aino", False, "46"),
        ("Bertta", True, "40v"),
    ]
