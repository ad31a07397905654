"""The site in English, Finnish and Russian: every public page speaks the reader's language,
the header's switcher remembers the choice (cookie; profile for a signed-in player), and the committed
catalogues are complete and compiled.

"No English left" is checked against the catalogue itself: every English msgid of game/locale, cut into
its visible pieces (tags and placeholders removed), that shows on the English page must not show on the
Finnish or Russian page. Usernames, club names, numbers and the rules document's body are not msgids,
so they are not compared; the rules page's own frame (title, contents, note) is.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import polib
import pytest
from django.conf import settings
from django.test import Client

from game.models import Club, Profile
from game.models.tournaments import Tournament, TournamentEntry
from tests.support.community_factories import seed_demo

LOCALE = Path(__file__).resolve().parents[2] / "game" / "locale"
TRANSLATED = ("fi", "ru")
#: Pieces of msgids that are the same words in Finnish or Russian, so they may stay. Keep this tiny.
SAME_IN_EVERY_LANGUAGE: frozenset[str] = frozenset(
    {
        "RD",  # the admin's column for rating deviation: the Glicko-2 symbol, not a word
        "min",  # "%(minutes)s min": Finnish abbreviates minutes the same way
        "id",  # "/m/<em>id</em>/": a part of an address, the same in every language
    }
)
#: Below this length a piece is only "left" when a whole text node equals it ("Play" alone, not in
#: "Player"); from it on, also inside a longer text node.
SUBSTRING_MIN = 12
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w*\}")


# --- reading pages ------------------------------------------------------------------------------------


class _VisibleText(HTMLParser):
    """The text nodes a reader sees: no script or style, and nothing marked `data-i18n-elsewhere`: the
    rules document (translated apart, branch `learn`) and the replay's shot list (the verdicts' words,
    made per reader from each verdict's code)."""

    SKIPPED = frozenset({"script", "style"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.nodes: list[str] = []
        self._skip_depth = 0
        self._stack: list[tuple[str, bool]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in {"br", "img", "input", "meta", "link", "hr", "source", "wbr"}:
            return
        skip = tag in self.SKIPPED or "data-i18n-elsewhere" in dict(attrs)
        self._stack.append((tag, skip))
        self._skip_depth += skip

    def handle_endtag(self, tag: str) -> None:
        while self._stack:
            open_tag, skip = self._stack.pop()
            self._skip_depth -= skip
            if open_tag == tag:
                break

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if text and not self._skip_depth:
            self.nodes.append(text)


def visible_text(html: str) -> list[str]:
    parser = _VisibleText()
    parser.feed(html)
    return parser.nodes


def html_lang(html: str) -> str:
    found = re.search(r"<html lang=\"([\w-]+)\"", html)
    assert found, "the page has no <html lang>"
    return found.group(1)


# --- reading the catalogue ----------------------------------------------------------------------------


def msgid_pieces(msgid: str) -> Iterator[str]:
    """The visible pieces of an English msgid: tags and placeholders cut it into what a page shows as
    separate text (e.g. "<strong>Call every shot:</strong> the ball…" gives two pieces)."""
    for part in re.split(r"<[^>]+>", msgid):
        for piece in PLACEHOLDER.split(part):
            piece = " ".join(piece.split()).strip(" ·,.;:()–-")
            if len(piece) >= 2 and re.search(r"[A-Za-z]", piece) and piece not in SAME_IN_EVERY_LANGUAGE:
                yield piece


def english_pieces() -> set[str]:
    pieces: set[str] = set()
    for entry in polib.pofile(str(LOCALE / "fi" / "LC_MESSAGES" / "django.po")):
        for msgid in (entry.msgid, entry.msgid_plural):
            if msgid:
                pieces.update(msgid_pieces(msgid))
    return pieces


def without_numbers(node: str) -> str:
    """A text node with its numbers and punctuation gone: "match 3: 1474" reads as "match"."""
    return " ".join(re.sub(r"[\d%?±+−:.,;·–()-]+", " ", node).split())


def user_content() -> set[str]:
    """What players typed (names, clubs, descriptions, tournaments): the same text in every language."""
    words = {"Kaiza", "EN", "FI", "RU", *SAME_IN_EVERY_LANGUAGE}  # the brand, the switcher's codes
    words.update(Profile.objects.values_list("display_name", flat=True))
    for name, description in Club.objects.values_list("name", "description"):
        words.update({name, description})
    words.update(Tournament.objects.values_list("name", flat=True))
    words.update(TournamentEntry.objects.values_list("name", flat=True))
    return words


def untranslated_nodes(english: list[str], translated: list[str], allowed: set[str]) -> list[str]:
    """Text nodes with words that read the same on the English and the translated page, once user
    content is taken out: a string that never went through the catalogue (a forgotten {% translate %})."""
    same = set(english) & set(translated)
    words = sorted((w for w in {without_numbers(w) for w in allowed} if w), key=len, reverse=True)
    left = []
    for node in sorted(same):
        rest = without_numbers(node)
        for word in words:
            rest = rest.replace(word, " ")
        if re.search(r"[A-Za-z]{2,}", rest):
            left.append(node)
    return left


class Shown:
    """A page's text nodes, read once for `shown`: each piece of the catalogue (over a thousand) is
    looked up on each page in three languages, and matching every node anew cost most of this module's
    time (47 s of one worker)."""

    def __init__(self, nodes: list[str]) -> None:
        self.whole = set(nodes) | {without_numbers(node) for node in nodes}
        self.joined = "\n".join(nodes)


def shown(piece: str, nodes: Shown) -> bool:
    """Whether `piece` shows on the page: as a whole text node (numbers aside), or, from SUBSTRING_MIN
    characters on, inside one (a piece never spans two nodes: it holds no newline)."""
    return piece in nodes.whole or (len(piece) >= SUBSTRING_MIN and piece in nodes.joined)


# --- the pages ----------------------------------------------------------------------------------------


def public_pages(ids: dict[str, Any]) -> dict[str, tuple[str, int]]:
    """Each public page with the status it answers."""
    return {
        "home": ("/", 200),
        "lobby": ("/lobby/", 200),
        "watch": ("/watch/", 200),
        "leaderboard": ("/leaderboard/", 200),
        "clubs": ("/clubs/", 200),
        "club": (f"/clubs/{ids['club']}/", 200),
        "profile": ("/players/Aino/", 200),
        "login": ("/accounts/login/", 200),
        "signup": ("/accounts/signup/", 200),
        "password reset": ("/accounts/password/reset/", 200),
        "match": (f"/m/{ids['live']}/", 200),
        "replay": (f"/m/{ids['finished']}/replay/", 200),
        "not found": ("/no-such-page/", 404),
        "rules": ("/rules/", 200),
        "ratings help": ("/ratings/", 200),
        "tournament": (f"/tournaments/{ids['swiss']}/", 200),
        "tournament live": (f"/tournaments/{ids['swiss']}/live/", 200),
        "tournament bracket": (f"/tournaments/{ids['bracket']}/", 200),
        "team match waiting": (f"/m/{ids['team match']}/", 200),
        "practice": ("/practice/", 200),
        "real position": ("/practice/real/", 200),
        "club records": (f"/clubs/{ids['club']}/records/", 200),
        "puzzles": ("/puzzles/", 200),
        "puzzle streak": ("/puzzles/streak/", 200),
    }


#: A signed-in player's own pages (allauth's views, our templates) and the club owner's (Aino's) form.
ACCOUNT_PAGES = {
    "password change": ("/accounts/password/change/", 200),
    "e-mail addresses": ("/accounts/email/", 200),
    "log out": ("/accounts/logout/", 200),
    "new tournament": ("/clubs/helsinki/tournaments/new/", 200),
}


def seed_tournaments_and_teams(ids: dict[str, Any]) -> dict[str, Any]:
    """The demo club's tournaments and a team match waiting in the lobby, so their pages are
    read in three languages too: a Swiss tournament under way (standings with Buchholz, round 1 with a
    bye, the live page), a double elimination (the SVG bracket's labels) and a 2 vs 2 with open places."""
    from django.utils import timezone

    from game.teams.services import team_match_join, team_match_open
    from game.tournaments.services import tournament_close_entries, tournament_create, tournament_enter

    club = Club.objects.get(slug=ids["club"])
    owner = Profile.objects.get(display_name="Aino").user
    players = [Profile.objects.get(display_name=n).user for n in ("Aino", "Eero", "Kalle", "Liisa", "Mikko")]
    made = {}
    for fmt, name, entrants in (("swiss", "Winter Swiss", players), ("double_elimination", "Spring Cup", players[:4])):
        tournament = tournament_create(user=owner, club=club, name=name, format=fmt, starts_at=timezone.now())
        for player in entrants:
            tournament_enter(user=player, tournament_id=tournament.pk)
        tournament_close_entries(user=owner, tournament_id=tournament.pk)
        made[fmt] = tournament.pk
    sanna, tuomas = (Profile.objects.get(display_name=n).user for n in ("Sanna", "Tuomas"))
    team_match = team_match_open(user=sanna, team_size=2)
    team_match_join(match_id=str(team_match.pk), user=tuomas, team=1)
    return {**ids, "swiss": made["swiss"], "bracket": made["double_elimination"], "team match": team_match.pk}


def fetch(client: Client, url: str, status: int, **headers: str) -> tuple[str, list[str]]:
    response = client.get(url, **headers)
    assert response.status_code == status, url
    html = response.content.decode()
    return html, visible_text(html)


@pytest.mark.django_db
def test_every_page_in_three_languages(client: Client) -> None:
    ids = seed_tournaments_and_teams(seed_demo())
    pieces = english_pieces()
    assert len(pieces) > 300, "the catalogue lost its strings"
    allowed = user_content()
    aino = Profile.objects.get(display_name="Aino").user
    signed_in = Client()
    signed_in.force_login(aino)

    for name, (url, status) in {**public_pages(ids), **ACCOUNT_PAGES}.items():
        for reader, who in (("visitor", client), ("signed in", signed_in)):
            if reader == "signed in" and name in {"signup", "password reset"}:
                continue  # a signed-in player is sent on from these
            if reader == "visitor" and name in ACCOUNT_PAGES:
                continue
            english_html, english_nodes = fetch(who, url, status, HTTP_ACCEPT_LANGUAGE="en")
            assert html_lang(english_html) == "en", (name, reader)
            english_page = Shown(english_nodes)
            on_page = {piece for piece in pieces if shown(piece, english_page)}
            assert len(on_page) >= 5, f"{name}: too few catalogue strings found on the English page to compare"
            for language in TRANSLATED:
                translated_html, translated_nodes = fetch(who, url, status, HTTP_ACCEPT_LANGUAGE=language)
                assert html_lang(translated_html) == language, (name, reader, language)
                translated_page = Shown(translated_nodes)
                left = sorted(piece for piece in on_page if shown(piece, translated_page))
                assert left == [], f"{name} ({reader}) in {language} still shows English: {left}"
                same = untranslated_nodes(english_nodes, translated_nodes, allowed)
                assert same == [], f"{name} ({reader}) in {language}: not from the catalogue: {same}"

    # The switcher's cookie beats the browser's Accept-Language, on every page.
    for language in TRANSLATED:
        chooser = Client()
        response = chooser.post("/i18n/setlang/", {"language": language, "next": "/watch/"})
        assert response.status_code == 302 and response["Location"] == "/watch/"
        assert chooser.cookies[settings.LANGUAGE_COOKIE_NAME].value == language
        for name, (url, status) in public_pages(ids).items():
            html, nodes = fetch(chooser, url, status, HTTP_ACCEPT_LANGUAGE="en")
            assert html_lang(html) == language, (name, language)
            english_nodes = fetch(Client(), url, status, HTTP_ACCEPT_LANGUAGE="en")[1]
            english_page, page = Shown(english_nodes), Shown(nodes)
            left = sorted(p for p in pieces if shown(p, english_page) and shown(p, page))
            assert left == [], f"{name} via the cookie in {language} still shows English: {left}"


@pytest.mark.django_db
def test_the_switcher_is_on_every_page_and_keeps_next(client: Client) -> None:
    html = client.get("/leaderboard/?page=1", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    form = re.search(r"<form[^>]*data-language-switcher.*?</form>", html, re.S)
    assert form, "no language switcher in the header"
    assert 'action="/i18n/setlang/"' in form.group(0)
    assert 'name="next" value="/leaderboard/?page=1"' in form.group(0)
    assert sorted(re.findall(r'name="language" value="(\w+)"', form.group(0))) == ["en", "fi", "ru"]
    assert 'title="Suomi"' in form.group(0) and 'title="Русский"' in form.group(0)


@pytest.mark.django_db
def test_a_signed_in_players_language_follows_them_to_a_new_browser(client: Client) -> None:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(username="aino", password="kaisa-pass-123")
    Profile.objects.create(user=user, display_name="Aino")
    assert client.login(username="aino", password="kaisa-pass-123")

    response = client.post("/i18n/setlang/", {"language": "ru", "next": "/lobby/"})

    assert response.status_code == 302 and response["Location"] == "/lobby/"
    assert Profile.objects.get(user=user).language == "ru"
    assert html_lang(client.get("/lobby/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()) == "ru"

    # A new browser that speaks Finnish, signing in through the real login page: the account's
    # language applies from the first page after the login, and the cookie now carries it.
    fresh = Client()
    assert html_lang(fresh.get("/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()) == "fi"
    login = fresh.post("/accounts/login/", {"login": "aino", "password": "kaisa-pass-123"}, HTTP_ACCEPT_LANGUAGE="fi")
    assert login.status_code == 302
    assert fresh.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"
    html = fresh.get("/lobby/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert html_lang(html) == "ru" and "Новая партия" in html

    # A browser without the cookie but with the session (e.g. the cookie cleared): the profile decides.
    fresh.cookies.pop(settings.LANGUAGE_COOKIE_NAME)
    assert html_lang(fresh.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()) == "ru"
    assert fresh.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"


@pytest.mark.django_db
def test_a_guest_keeps_the_language_in_the_cookie_only(client: Client) -> None:
    client.post("/lobby/create/", {"opponent": "human"})  # a guest is made on the spot
    guest = Profile.objects.get(is_guest=True)

    client.post("/i18n/setlang/", {"language": "fi", "next": "/"})

    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fi"
    assert html_lang(client.get("/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()) == "fi"
    guest.refresh_from_db()
    assert guest.language in {"", "fi"}  # a guest's profile may keep it; the cookie is what counts


@pytest.mark.django_db
def test_a_player_who_never_chose_reads_the_browsers_language(client: Client) -> None:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(username="kalle")
    Profile.objects.create(user=user, display_name="Kalle")
    client.force_login(user)

    assert html_lang(client.get("/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()) == "ru"
    assert html_lang(client.get("/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()) == "fi"
    assert settings.LANGUAGE_COOKIE_NAME not in client.cookies  # nothing chosen, nothing stored
    # A choice made later on another browser reaches a new one.
    Profile.objects.filter(user=user).update(language="ru")
    fresh = Client()
    fresh.force_login(user)
    assert html_lang(fresh.get("/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()) == "ru"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "language, next_url",
    [
        ("xx", "/watch/"),  # a language the site does not speak
        ("", "/watch/"),
        ("fi", "https://evil.example/steal"),  # off-site: Django's set_language refuses the address
        ("fi", "//evil.example/"),
    ],
)
def test_setlang_refuses_bad_input(client: Client, language: str, next_url: str) -> None:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(username="eero")
    Profile.objects.create(user=user, display_name="Eero", language="ru")
    client.force_login(user)
    client.cookies.pop(settings.LANGUAGE_COOKIE_NAME, None)

    response = client.post("/i18n/setlang/", {"language": language, "next": next_url})

    assert response.status_code == 302
    location = response["Location"]
    assert location.startswith("/") and not location.startswith("//"), location
    if language not in TRANSLATED:
        assert Profile.objects.get(user=user).language == "ru"
        assert client.cookies.get(settings.LANGUAGE_COOKIE_NAME) is None or (
            client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"
        )
    else:
        assert location == "/"
    assert client.get("/i18n/setlang/").status_code == 405  # only the switcher's POST changes anything


# --- the catalogues -----------------------------------------------------------------------------------


def catalogues() -> list[Path]:
    return sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


def messages_of(catalogue: polib._BaseFile) -> dict[tuple[str | None, str], Any]:
    return {
        (entry.msgctxt, entry.msgid): (
            tuple(entry.msgstr_plural[i] for i in sorted(entry.msgstr_plural)) if entry.msgid_plural else entry.msgstr
        )
        for entry in catalogue
        if entry.msgid and not entry.obsolete
    }


def test_placeholder_scanner_finds_both_styles() -> None:
    assert placeholders("%(name)s vs {level} at %d") == ["%(name)s", "%d", "{level}"]
    assert list(msgid_pieces("<strong>Call every shot:</strong> the ball, %(n)s min")) == [
        "Call every shot",
        "the ball",
    ]
    assert shown("match", Shown(["match 3: 1474"])) and shown("start", Shown(["start: 1500"]))
    assert shown("the ball on the spot", Shown(["Play", "put the ball on the spot again"]))
    assert untranslated_nodes(
        ["Aino · Kaiza", "Slow down", "12 %"], ["Aino · Kaiza", "Slow down", "12 %"], {"Aino", "Kaiza"}
    ) == ["Slow down"]
    assert not shown("Play", Shown(["Player"])) and not shown("match", Shown(["ottelu 3"]))
    assert not shown("the ball on the spot", Shown(["the ball on", "the spot"]))


def test_catalogues_complete() -> None:
    found = catalogues()
    names = {(path.parts[-3], path.name) for path in found}
    assert {("fi", "django.po"), ("ru", "django.po")} <= names, found
    problems: list[str] = []
    for path in found:
        catalogue = polib.pofile(str(path))
        where = str(path.relative_to(LOCALE))
        if catalogue.metadata_is_fuzzy:
            problems.append(f"{where}: the header is fuzzy")
        problems += [f"{where}: untranslated {e.msgid!r}" for e in catalogue.untranslated_entries()]
        problems += [f"{where}: fuzzy {e.msgid!r}" for e in catalogue.fuzzy_entries()]
        for entry in catalogue.translated_entries():
            if entry.msgid_plural:
                for index, form in entry.msgstr_plural.items():
                    source = entry.msgid if index == 0 else entry.msgid_plural
                    if placeholders(form) != placeholders(source):
                        problems.append(f"{where}: placeholders differ in {entry.msgid!r}[{index}]")
            elif placeholders(entry.msgstr) != placeholders(entry.msgid):
                problems.append(f"{where}: placeholders differ in {entry.msgid!r}")
        compiled_path = path.with_suffix(".mo")
        if not compiled_path.exists():
            problems.append(f"{where}: no compiled .mo beside it (run `make messages`)")
            continue
        compiled = polib.mofile(str(compiled_path))
        if messages_of(compiled) != messages_of(catalogue):
            problems.append(f"{where}: the .mo is not the compilation of the .po (run `make messages`)")
    assert problems == []


@pytest.mark.django_db
def test_tournament_and_team_refusals_in_the_readers_language() -> None:
    """The services mark their refusals (gettext_noop, a count with ngettext_lazy) and keep names and
    numbers in params; the page that shows one words it in its reader's language, plural forms and all."""
    from django.utils import timezone, translation

    from game.matches.forms import match_error_words
    from game.matches.services import MatchError
    from game.teams.services import team_match_create
    from game.tournaments.services import TournamentError, tournament_close_entries, tournament_create
    from game.tournaments.views import refusal_words

    ids = seed_tournaments_and_teams(seed_demo())
    club = Club.objects.get(slug=ids["club"])
    user = {n: Profile.objects.get(display_name=n).user for n in ("Aino", "Eero", "Sanna", "Tuomas", "Venla")}

    # A flashed refusal: the Swiss tournament is under way, so it takes no more entries.
    venla = Client()
    venla.force_login(user["Venla"])
    page = venla.post(f"/tournaments/{ids['swiss']}/enter/", follow=True, HTTP_ACCEPT_LANGUAGE="fi")
    assert "tähän turnaukseen ei voi enää ilmoittautua" in page.content.decode()
    page = venla.post(f"/tournaments/{ids['swiss']}/enter/", follow=True, HTTP_ACCEPT_LANGUAGE="ru")
    assert "запись на этот турнир закрыта" in page.content.decode()

    # A form's refusal of several parts, each translated, the bounds filled in.
    aino = Client()
    aino.force_login(user["Aino"])
    form = {"name": "Cup", "format": "swiss", "kind": "singles", "time_limit": "65", "max_entries": "8"}
    form["starts_at"] = "2001-01-01T10:00"
    page = aino.post("/clubs/helsinki/tournaments/new/", form, HTTP_ACCEPT_LANGUAGE="ru")
    assert page.status_code == 400 and "время начала уже прошло" in page.content.decode()
    with translation.override("fi"), pytest.raises(TournamentError) as refused_form:
        tournament_create(user=user["Aino"], club=club, name="A", format="x", starts_at=timezone.now())
    assert refused_form.value.message == "the name is 3 to 80 characters; choose a format"
    with translation.override("fi"):
        assert refusal_words(refused_form.value) == "nimessä on 3–80 merkkiä; valitse turnausmuoto"

    # A counted refusal takes the reader's plural form: a double elimination needs 3 entries.
    lonely = tournament_create(
        user=user["Aino"], club=club, name="Lonely", format="double_elimination", starts_at=timezone.now()
    )
    for language, words in (("en", "at least 3 entries are needed"), ("ru", "нужны хотя бы 3 участника")):
        with translation.override(language), pytest.raises(TournamentError) as refused:
            tournament_close_entries(user=user["Aino"], tournament_id=lonely.pk)
        assert refused.value.message == "at least 3 entries are needed"
        with translation.override(language):
            assert refusal_words(refused.value) == words

    # A team refusal with a name in it: the name fills the translated words.
    with pytest.raises(MatchError) as refused_team:
        team_match_create(teams=[[user["Aino"], user["Sanna"]], [user["Eero"], user["Tuomas"]]], club=club)
    assert refused_team.value.message == "Sanna is not a member of this club"
    with translation.override("ru"):
        assert match_error_words(refused_team.value) == "Sanna не состоит в этом клубе"

    # Flashed on the match page: the team is full.
    team_url = f"/m/{ids['team match']}/team-join/"
    assert aino.post(team_url, {"team": "0"}).status_code == 302
    eero = Client()
    eero.force_login(user["Eero"])
    page = eero.post(team_url, {"team": "0"}, follow=True, HTTP_ACCEPT_LANGUAGE="ru")
    assert "эта команда заполнена: вступите в другую" in page.content.decode()


@pytest.mark.django_db
def test_the_brackets_numbers_stay_svg_numbers_in_every_language() -> None:
    """Finnish and Russian write decimals with a comma ("24,0"): the bracket's coordinates must not be
    localised, or the SVG draws nothing where the boxes should be (its labels are translated)."""
    ids = seed_tournaments_and_teams(seed_demo())
    english = Client().get(f"/tournaments/{ids['bracket']}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    svg = re.compile(r'<figure class="bracket" data-bracket>(.*?)</figure>', re.S)
    numbers = re.compile(r' (?:x|y|width|height|viewBox)="([^"]*)"')
    english_numbers = numbers.findall(svg.search(english).group(1))
    assert len(english_numbers) > 20 and all("," not in n for n in english_numbers)
    for language, label in (("fi", "Voittajien kierros 1"), ("ru", "Верхняя сетка, тур 1")):
        html = Client().get(f"/tournaments/{ids['bracket']}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        figure = svg.search(html).group(1)
        assert numbers.findall(figure) == english_numbers, language
        assert f">{label}</text>" in figure
