"""Bad values in a KaisaKaavio file, and the rows an earlier version let in: every value is refused
with a sentence naming the field and the value, in the reader's language, from the club page's upload
and from `manage.py kaisakaavio import` alike (exit status 2, no traceback), and nothing is stored; a
document type is refused whatever the file's encoding; a start stored beyond what a page reads back
is repaired; a club admin can delete an event imported by mistake; the phone's result form and a file
refuse the same scores and targets (game/tournaments/values.py, services/club.board_winner)."""

from __future__ import annotations

import datetime
import html
import importlib
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import connection

from game.models import Membership
from game.models.series import RankingSeries, SeriesPlacing
from game.models.tournaments import Tournament, TournamentEntry, TournamentPairing, TournamentRound
from game.tournaments.kaisakaavio import parse
from game.tournaments.services import TournamentError
from tests.support.community_factories import make_club, make_player
from tests.tournaments.test_kaisakaavio_files import FIXTURE

pytestmark = [pytest.mark.services, pytest.mark.django_db]

SEEDED = FIXTURE.parent / "kaiza-club-night-seeded.xml"
TEXT = SEEDED.read_text(encoding="utf-8")
ROOT = Path(__file__).resolve().parents[2]


def _changed(*changes: tuple[str, str]) -> bytes:
    text = TEXT
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text.encode("utf-8")


def _rows() -> tuple[int, int, int, int]:
    return (
        Tournament.objects.count(),
        TournamentEntry.objects.count(),
        TournamentRound.objects.count(),
        TournamentPairing.objects.count(),
    )


def _upload(client: Any, slug: str, data: bytes, language: str = "en") -> str:
    page = client.post(
        f"/clubs/{slug}/kaisakaavio/",
        {"file": SimpleUploadedFile("event.xml", data), "tables": "4"},
        HTTP_ACCEPT_LANGUAGE=language,
        follow=True,
    )
    assert page.status_code == 200
    return html.unescape(page.content.decode())


FIRST_GAME = 'PelaajaId1="1" PelaajaId2="2" Pisteet1="60v" Pisteet2="31"'
#: Each value the attack found breaking an import, and (item 6) what the phone's form refuses: the
#: file's change, the refusal's English words (field, value, rule) and the value a translation keeps.
OUT_OF_RANGE = {
    "start after the year 9999": (
        (
            ("2026-11-27T00:00:00+02:00", "9999-12-31T00:00:00-12:00"),
            ("<KellonAika>18:30</KellonAika>", "<KellonAika>23:59</KellonAika>"),
        ),
        "AlkamisAika is '9999-12-31T00:00:00-12:00 23:59': an event starts from 1970 to 2099",
        "9999-12-31T00:00:00-12:00 23:59",
    ),
    "unknown encoding": (
        (('encoding="utf-8"', 'encoding="x-nope"'),),
        "the file's encoding 'x-nope' is not one Kaiza reads",
        "x-nope",
    ),
    "score beyond a 64-bit number": (
        ((FIRST_GAME, FIRST_GAME.replace('"60v"', '"99999999999v"')),),
        "game 1's Pisteet1 is '99999999999': a score is 0 to 90",
        "99999999999",
    ),
    "score beyond a 32-bit number": (
        ((FIRST_GAME, FIRST_GAME.replace('"60v"', '"3000000000v"')),),
        "game 1's Pisteet1 is '3000000000': a score is 0 to 90",
        "3000000000",
    ),
    "score of 5,000 digits": (
        ((FIRST_GAME, FIRST_GAME.replace('"60v"', f'"{"9" * 5000}v"')),),
        f"game 1's Pisteet1 is '{'9' * 40}… (5,000 characters)': a number here has at most 18 digits",
        "(5,000",
    ),
    "round beyond a small integer": (
        (('<Peli Kierros="1"', '<Peli Kierros="99999"'),),
        "game 1's Kierros is '99999': a round is 1 to 128",
        "99999",
    ),
    "superscript most entries": (
        (("<PelaajiaEnintaan>24<", "<PelaajiaEnintaan>2\u00b2<"),),
        "PelaajiaEnintaan is '2\u00b2': a whole number is written with the digits 0 to 9",
        "2\u00b2",
    ),
    "superscript seed": (
        (('Sijoitettu="3"', 'Sijoitettu="\u00b3"'),),
        "Sijoitettu of 'Eero Berg' is '\u00b3': a whole number is written with the digits 0 to 9",
        "\u00b3",
    ),
    "superscript table": (
        (('Poyta="1"', 'Poyta="\u00b9"'),),
        "game 1's Poyta is '\u00b9': a whole number is written with the digits 0 to 9",
        "\u00b9",
    ),
    "negative winner's score": (
        (('Pisteet1="45v"', 'Pisteet1="-5v"'),),
        "game 3's Pisteet1 is '-5': a score is 0 to 90",
        "-5",
    ),
    "negative loser's score": (
        ((FIRST_GAME, FIRST_GAME.replace('"31"', '"-40"')),),
        "game 1's Pisteet2 is '-40': a score is 0 to 90",
        "-40",
    ),
    "target of 0": (
        (("<TavoitePistemaara>60<", "<TavoitePistemaara>0<"),),
        "TavoitePistemaara is '0': the target is 20 to 200 points",
        "TavoitePistemaara",
    ),
}


@pytest.mark.parametrize(("changes", "reason", "kept"), OUT_OF_RANGE.values(), ids=OUT_OF_RANGE.keys())
def test_kaisakaavio_out_of_range_values_are_refused(
    changes: tuple[tuple[str, str], ...], reason: str, kept: str, client: Any, tmp_path: Path
) -> None:
    owner = make_player("Refused owner")
    club = make_club("Refusing club", owner)
    data = _changed(*changes)
    client.force_login(owner)
    page = _upload(client, club.slug, data)
    assert f"the file is refused: {reason}" in page and _rows() == (0, 0, 0, 0)
    # the reader's language: the same refusal in Finnish and in Russian, the value as it was given
    for language in ("fi", "ru"):
        translated = _upload(client, club.slug, data, language)
        assert reason not in translated and kept in translated and _rows() == (0, 0, 0, 0)
    path = tmp_path / "event.xml"
    path.write_bytes(data)
    with pytest.raises(CommandError) as refused:
        call_command("kaisakaavio", "import", str(path), "--club", club.slug, stdout=StringIO())
    assert reason in str(refused.value) and refused.value.returncode == 2
    assert _rows() == (0, 0, 0, 0)


def _utf16(prolog: str, name: str = "Aino Aalto") -> bytes:
    body = TEXT.split("?>", 1)[1].replace('Nimi="Aino Aalto"', f'Nimi="{name}"')
    return ('<?xml version="1.0" encoding="UTF-16"?>' + prolog + body).encode("utf-16")


def test_kaisakaavio_utf16_doctype_is_refused(client: Any, tmp_path: Path) -> None:
    """A UTF-16 file's bytes hide its document type from a check of the raw bytes: the parser refuses
    it as it reads it, so no entity (internal, external, nested) is ever expanded."""
    plain = _utf16("")
    assert parse(plain).participants[0].name == "Aino Aalto"  # UTF-16 itself is read
    laughs = '<!ENTITY a "aaaaaaaaaa">' + "".join(
        f'<!ENTITY {c} "{("&" + p + ";") * 10}">' for p, c in zip("abcd", "bcde", strict=True)
    )
    attacks = {
        "internal entity": _utf16('<!DOCTYPE Kilpailu [<!ENTITY n "Aino Aalto">]>', "&n;"),
        "external entity": _utf16('<!DOCTYPE Kilpailu [<!ENTITY n SYSTEM "file:///etc/passwd">]>', "&n;"),
        "billion laughs": _utf16(f"<!DOCTYPE Kilpailu [{laughs}]>", "&e;"),
        "document type alone": _utf16("<!DOCTYPE Kilpailu>"),
    }
    owner = make_player("Wide owner")
    club = make_club("Wide club", owner)
    client.force_login(owner)
    reason = "the file declares a document type or entities, which are refused"
    for name, data in attacks.items():
        with pytest.raises(TournamentError, match=reason):
            parse(data)
        assert f"the file is refused: {reason}" in _upload(client, club.slug, data), name
        assert _rows() == (0, 0, 0, 0)
    path = tmp_path / "wide.xml"
    path.write_bytes(attacks["internal entity"])
    with pytest.raises(CommandError, match=reason) as refused:
        call_command("kaisakaavio", "import", str(path), "--club", club.slug, stdout=StringIO())
    assert refused.value.returncode == 2 and _rows() == (0, 0, 0, 0)
    # as an operator runs it: the reason on stderr, exit status 2, no traceback
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "manage.py", "kaisakaavio", "replay", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
    )
    assert run.returncode == 2 and reason in run.stderr and "Traceback" not in run.stderr + run.stdout


def _store_start(tournament_id: int, text: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute("UPDATE game_tournament SET starts_at = %s WHERE id = %s", [text, tournament_id])


def _readable(tournament_id: int) -> bool:
    """Does the event's start read back as a time? PostgreSQL returns a year past 9999 that psycopg
    cannot read (every page of the event failed); SQLite's text reads back as nothing."""
    try:
        start = Tournament.objects.values_list("starts_at", flat=True).get(pk=tournament_id)
    except Exception:
        return False
    return isinstance(start, datetime.datetime)


def test_no_stored_event_breaks_the_club_page(client: Any) -> None:
    """A start an earlier version stored past the year 9999 (PostgreSQL kept 9999-12-31 23:59 -12:00
    as 10000-01-01 11:59 UTC and could not return it) is repaired by the migration: the club's page,
    the event's page and its live page answer again, and the event keeps its games."""
    owner = make_player("Repair owner")
    club = make_club("Repair club", owner)
    client.force_login(owner)
    assert "The event is imported." in _upload(client, club.slug, TEXT.encode())
    tournament = Tournament.objects.get()
    games = TournamentPairing.objects.filter(tournament=tournament).count()
    on_postgresql = connection.vendor == "postgresql"
    _store_start(tournament.pk, "10000-01-01 11:59:00+00" if on_postgresql else "10000-01-01 11:59:00")
    assert not _readable(tournament.pk)
    migration = importlib.import_module("game.migrations.0025_event_starts_readable")
    migration.starts_repair(apps, connection.schema_editor())
    repaired = Tournament.objects.get(pk=tournament.pk)
    assert repaired.starts_at == repaired.created_at
    for url in (f"/clubs/{club.slug}/", f"/tournaments/{tournament.pk}/", f"/tournaments/{tournament.pk}/live/"):
        page = client.get(url)
        assert page.status_code == 200 and tournament.name in page.content.decode(), url
    assert TournamentPairing.objects.filter(tournament=tournament).count() == games
    # the window is both ways: a start before 1970 too
    _store_start(tournament.pk, "1901-01-01 00:00:00+00" if on_postgresql else "1901-01-01 00:00:00")
    migration.starts_repair(apps, connection.schema_editor())
    assert Tournament.objects.get(pk=tournament.pk).starts_at == repaired.created_at


def test_club_admin_deletes_an_imported_event(client: Any) -> None:
    """A club admin deletes an event imported by mistake after a confirmation page that says what
    goes; its entries, rounds, games and series placings go with it, and nothing else of the club
    changes (its members, its series, its other event). A member cannot."""
    owner = make_player("Deleting owner")
    admin = make_player("Deleting admin")
    member = make_player("Plain member")
    club = make_club("Deleting club", owner, members=(member,))
    Membership.objects.create(club=club, user=admin, role=Membership.Role.ADMIN)
    series = RankingSeries.objects.create(club=club, name="Season", points=[10, 8, 6, 4])
    client.force_login(owner)
    _upload(client, club.slug, FIXTURE.read_bytes())  # every game played: finished, placed in the series
    mistake = Tournament.objects.get()
    assert mistake.status == Tournament.Status.FINISHED
    assert SeriesPlacing.objects.filter(tournament=mistake).exists()
    _upload(client, club.slug, TEXT.encode())
    kept = Tournament.objects.exclude(pk=mistake.pk).get()
    kept_rows = (
        TournamentEntry.objects.filter(tournament=kept).count(),
        TournamentPairing.objects.filter(tournament=kept).count(),
    )
    members = sorted(Membership.objects.filter(club=club).values_list("user_id", "role"))
    url = f"/tournaments/{mistake.pk}/delete/"

    client.force_login(member)
    assert "Delete the event" not in client.get(f"/tournaments/{mistake.pk}/").content.decode()
    assert client.get(url).status_code == 403 and client.post(url).status_code == 403
    assert Tournament.objects.filter(pk=mistake.pk).exists()

    client.force_login(admin)
    assert url in client.get(f"/tournaments/{mistake.pk}/").content.decode()
    confirm = client.get(url)
    entries = TournamentEntry.objects.filter(tournament=mistake).count()
    games = TournamentPairing.objects.filter(tournament=mistake).count()
    text = html.unescape(confirm.content.decode())
    assert confirm.status_code == 200 and f"Delete “{mistake.name}”?" in text
    assert f"its {entries} entries" in text and f"and {games} games" in text and "data-delete-confirm" in text
    assert Tournament.objects.filter(pk=mistake.pk).exists()  # the page alone deletes nothing

    done = client.post(url, follow=True)
    assert done.redirect_chain[-1][0] == f"/clubs/{club.slug}/#tournaments"
    assert f"The event {mistake.name} is deleted." in html.unescape(done.content.decode())
    assert not Tournament.objects.filter(pk=mistake.pk).exists()
    for model in (TournamentEntry, TournamentRound, TournamentPairing, SeriesPlacing):
        assert not model.objects.filter(tournament_id=mistake.pk).exists(), model
    assert (
        TournamentEntry.objects.filter(tournament=kept).count(),
        TournamentPairing.objects.filter(tournament=kept).count(),
    ) == kept_rows
    assert sorted(Membership.objects.filter(club=club).values_list("user_id", "role")) == members
    assert RankingSeries.objects.filter(pk=series.pk, club=club).exists()
    assert client.get(url).status_code == 404


def test_one_validator_for_form_and_file(client: Any) -> None:
    """A negative score and a target of 0 are refused by the phone's result form and by a file, with
    the same rule (one check each: values.score through club.board_winner, the clock's ranges)."""
    owner = make_player("Both ways")
    club = make_club("Both ways club", owner)
    client.force_login(owner)
    _upload(client, club.slug, TEXT.encode())
    tournament = Tournament.objects.get()
    waiting = TournamentPairing.objects.get(tournament=tournament, first__name="Ilona Carlsson")
    url = f"/tournaments/{tournament.pk}/pairings/{waiting.pk}/result/"
    rows = _rows()
    for score, rule in (("-5", "a score is 0 to 90"), ("-40", "a score is 0 to 90"), ("91", "a score is 0 to 90")):
        refused = client.post(url, {"first_score": score, "second_score": "60", "ended": "target"})
        page = html.unescape(refused.content.decode())
        assert refused.status_code == 400 and f"the score of Ilona Carlsson is '{score}': {rule}" in page
        file_page = _upload(client, club.slug, _changed(('Pisteet1="45v"', f'Pisteet1="{score}v"')))
        assert f"game 3's Pisteet1 is '{score}': {rule}" in file_page
        assert _rows() == rows
        waiting.refresh_from_db()
        assert waiting.status == TournamentPairing.Status.PLAYING
    # the same values pass both ways at their bounds: 0 and target + 30
    assert client.post(url, {"first_score": "0", "second_score": "90", "ended": "target"}).status_code == 302
    at_bounds = (('Pisteet1="45v"', 'Pisteet1="0v"'), ('Pisteet2="52"', 'Pisteet2="0"'))
    another = ("<Nimi>Kaiza club night, seeded</Nimi>", "<Nimi>At the bounds</Nimi>")  # not the event here
    assert "The event is imported." in _upload(client, club.slug, _changed(*at_bounds, another))
    Tournament.objects.exclude(pk=tournament.pk).delete()
    rows = _rows()

    target = "the target is 20 to 200 points"
    file_page = _upload(client, club.slug, _changed(("<TavoitePistemaara>60<", "<TavoitePistemaara>0<")))
    assert f"TavoitePistemaara is '0': {target}" in file_page
    form = {
        "name": "Target nil",
        "format": "double_loss",
        "kind": "singles",
        "max_entries": "16",
        "starts_at": "2099-01-01 18:00",
        "clock": "weekly_event",
        "target_score": "0",
    }
    made = client.post(f"/clubs/{club.slug}/tournaments/new/", form)
    assert target in html.unescape(made.content.decode()) and _rows() == rows
    # the tables of an import: the upload's field and the command's option read and bounded alike
    upload = {"file": SimpleUploadedFile("event.xml", TEXT.encode()), "tables": "0"}
    page = html.unescape(client.post(f"/clubs/{club.slug}/kaisakaavio/", upload, follow=True).content.decode())
    assert "the number of tables is '0': an event at the club has 1 to 32 tables" in page
    with pytest.raises(CommandError, match="the number of tables is '0': an event at the club has 1 to 32 tables"):
        call_command("kaisakaavio", "import", str(SEEDED), "--club", club.slug, "--tables", "0", stdout=StringIO())
    with pytest.raises(CommandError, match="--tables is '\u00b2': a whole number is written with the digits 0 to 9"):
        call_command("kaisakaavio", "import", str(SEEDED), "--club", club.slug, "--tables", "\u00b2")
    assert _rows() == rows
    # the start's window is the form's too (values.STARTS_RANGE)
    late = client.post(
        f"/clubs/{club.slug}/tournaments/new/", {**form, "target_score": "60", "starts_at": "9999-12-31 23:59"}
    )
    assert "an event starts before 2100" in html.unescape(late.content.decode()) and _rows() == rows
