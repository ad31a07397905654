"""A correction at the club changes only what it must: a game the draw gives again between the same two
players keeps its result, its table and its times; the warning lists each game drawn again with its
result as it stands and whether the result is kept or lost (and says so before anything changes);
the log names the game and its scores before and after. Real services and rows, the page in Finnish."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.utils import formats, timezone, translation

from game.models.tournaments import Tournament, TournamentPairing
from game.tournaments.selectors.draw import draw_state
from game.tournaments.services import (
    TournamentError,
    tournament_close_entries,
    tournament_create,
    tournament_walk_in_enter,
)
from game.tournaments.services.club import AT_TARGET, BoardResult, tournament_result_correct, tournament_result_enter
from tests.support.community_factories import make_club, make_player
from tests.tournaments.test_club_event import on_tables

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

PLAYERS = (
    "Olli Tuominen",
    "Jari Lehto",
    "Sari Mäkelä",
    "Pekka Laine",
    "Aino Uusi",
    "Eero Berg",
    "Kaisa Ek",
    "Ilona Aho",
)
FI = {"HTTP_ACCEPT_LANGUAGE": "fi"}


def _night(tag: str, results: int) -> tuple[Tournament, Any]:
    """Eight walk-ins on four tables; `results` results entered, the lowest table first, its first
    named player winning 60 to 30, 31, 32, ..."""
    director = make_player(f"Johtaja{tag}")
    tournament = tournament_create(
        user=director,
        club=make_club(f"Seura {tag}", director),
        name="Viikkokisa",
        format=Tournament.Format.DOUBLE_LOSS,
        starts_at=timezone.now(),
        tables=4,
    )
    for name in PLAYERS:
        tournament_walk_in_enter(user=director, tournament_id=tournament.pk, name=name)
    tournament_close_entries(user=director, tournament_id=tournament.pk)
    for step in range(results):
        tables = on_tables(tournament)
        game = tables[min(tables)]
        tournament_result_enter(user=director, pairing_id=game.pk, result=BoardResult(60, 30 + step, AT_TARGET))
    return tournament, director


def _reversed(pairing: TournamentPairing) -> BoardResult:
    return BoardResult(pairing.second_score, pairing.first_score, AT_TARGET)


def _rows(tournament: Tournament) -> list[tuple[Any, ...]]:
    fields = ("pk", "index", "first_id", "second_id", "status", "first_score", "second_score", "table", "finished_at")
    return list(TournamentPairing.objects.filter(tournament=tournament).order_by("index").values_list(*fields))


def _correction_keeping_and_losing(tournament: Tournament, director: Any) -> tuple[TournamentPairing, list[str]]:
    """A round 1 or 2 result whose reversal draws again games of which some keep their result and
    some lose it: the warning (nothing changes) says which, one line per game."""
    done = TournamentPairing.objects.filter(tournament=tournament, status="done", round__number__lte=2)
    for game in done.select_related("first", "second").order_by("index"):
        rows = _rows(tournament)
        with pytest.raises(TournamentError) as warned:
            tournament_result_correct(user=director, pairing_id=game.pk, result=_reversed(game), confirm=False)
        assert warned.value.code == "confirm_redraw" and _rows(tournament) == rows
        lines = warned.value.lines(str)[1:]
        if any("is kept" in line for line in lines) and any("is lost" in line for line in lines):
            return game, lines
    raise AssertionError("no correction both keeps and loses a result")


def test_correction_keeps_unchanged_games_results() -> None:
    tournament, director = _night("k", 10)
    game, _lines = _correction_keeping_and_losing(tournament, director)
    before = {p.pk: p for p in TournamentPairing.objects.filter(tournament=tournament)}

    redrawn = tournament_result_correct(
        user=director, pairing_id=game.pk, result=_reversed(game), confirm=True, reason="Väärin päin kirjattu"
    )
    state = draw_state(tournament=tournament)  # the rows are a draw again
    assert len(state.games) == TournamentPairing.objects.filter(tournament=tournament).count()
    now = {p.pk: p for p in TournamentPairing.objects.filter(tournament=tournament)}
    new = [p for pk, p in now.items() if pk not in before]
    for r in redrawn:
        old = before[r.pairing_id]
        pair = {old.first_id, old.second_id}
        again = [p for p in new if {p.first_id, p.second_id} == pair]
        assert r.pairing_id not in now  # taken out
        if r.had_result and again:  # drawn again between the same two: the result, table and times kept
            assert r.outcome == "kept"
            (same,) = again
            scores = (old.first_score, old.second_score)
            if same.first_id != old.first_id:
                scores = scores[::-1]
            assert (same.status, same.winner_id, same.result_code) == ("done", old.winner_id, old.result_code)
            assert (same.first_score, same.second_score) == scores
            assert (same.table, same.table_at, same.finished_at) == (old.table, old.table_at, old.finished_at)
        elif r.had_result:  # not drawn again: its result is lost, nothing stands in its name
            assert r.outcome == "lost"
            assert not any(p.status == "done" and p.finished_at == old.finished_at for p in new)
        else:
            assert r.outcome == ("stays" if again else "gone")
    assert {r.outcome for r in redrawn} >= {"kept", "lost"}
    # games not drawn again are untouched, the corrected one corrected
    for pk, old in before.items():
        if pk != game.pk and pk not in {r.pairing_id for r in redrawn}:
            assert (now[pk].status, now[pk].winner_id, now[pk].first_score) == (
                old.status,
                old.winner_id,
                old.first_score,
            )
    assert now[game.pk].winner_id == game.second_id
    # the draw goes on to the end from there
    while on_tables(tournament):
        tables = on_tables(tournament)
        tournament_result_enter(user=director, pairing_id=tables[min(tables)].pk, result=BoardResult(60, 40, AT_TARGET))
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED


def test_correction_warning_lists_results_kept_and_lost(client: Client) -> None:
    tournament, director = _night("w", 10)
    game, lines = _correction_keeping_and_losing(tournament, director)
    client.force_login(director)
    url = f"/tournaments/{tournament.pk}/pairings/{game.pk}/result/"
    typed = {"first_score": str(game.second_score), "second_score": str(game.first_score), "ended": "target"}
    rows = _rows(tournament)

    warned = client.post(url, {**typed, "reason": "Väärin päin kirjattu, Jari voitti"}, **FI)
    page = warned.content.decode()
    assert warned.status_code == 200 and "Vahvista korjaus" in page and _rows(tournament) == rows
    listed = re.findall(r"<li>(.*?)</li>", page.split("data-redrawn", 1)[1].split("</ul>", 1)[0])
    assert len(listed) == len(lines)
    with translation.override("fi"):
        for line in listed:  # each game: its players, round, its result now, kept or lost
            assert re.fullmatch(
                r".+ – .+ \(kierros \d+\) (\d+ – \d+: tulos säilyy|\d+ – \d+: tulos menetetään)"
                r"|.+ – .+ \(kierros \d+\), ei vielä pelattu: (haetaan uudelleen|ei enää haeta)",
                line.replace("&#x27;", "'"),
            ), line
    assert any("tulos säilyy" in line for line in listed) and any("tulos menetetään" in line for line in listed)

    done = client.post(url, {**typed, "reason": "Väärin päin kirjattu, Jari voitti", "confirm": "1"}, follow=True, **FI)
    assert "Tulos on korjattu." in done.content.decode()
    # The log names the game and the scores before and after, at the club's time.
    log = client.get(f"/tournaments/{tournament.pk}/", **FI).content.decode()
    entry = re.search(r"<section class=\"card\" data-fix-log>.*?</section>", log, re.S)
    assert entry is not None
    first, second = game.first.name, game.second.name
    before_line = f"{game.first_score} – {game.second_score}"
    after_line = f"{game.second_score} – {game.first_score}"
    expected = f"{first} – {second} (kierros {game.round.number}): {before_line} → {after_line}"
    assert expected in entry.group(0) and "Väärin päin kirjattu, Jari voitti" in entry.group(0)
    fix = game.fixes.get()
    with translation.override("fi"):
        when = formats.date_format(timezone.localtime(fix.created_at, tournament.club.zone), "DATETIME_FORMAT")
    assert when in entry.group(0)
