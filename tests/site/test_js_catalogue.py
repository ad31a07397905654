"""The JS client's own words (djangojs domain, static/game/js/i18n.js): every message a module asks for
is in the Finnish and Russian catalogues, translated, not fuzzy, the committed .mo is what msgfmt makes
of the .po, and /jsi18n/ serves the request's language from our origin (CSP script-src 'self')."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "static" / "game" / "js"
LOCALE = ROOT / "game" / "locale"
#: gettext("…") / ngettext("…", "…", n) / pgettext: the calls makemessages extracts.
CALL = re.compile(
    r"\b(?:gettext|ngettext|pgettext\(\s*\"\w+\"\s*,)\(?\s*\"((?:[^\"\\]|\\.)*)\"(?:\s*,\s*\"((?:[^\"\\]|\\.)*)\")?"
)


def _po(language: str) -> dict[str, list[str]]:
    """msgid -> its msgstr(s), with fuzzy flags kept as a pseudo entry."""
    entries: dict[str, list[str]] = {}
    for block in (LOCALE / language / "LC_MESSAGES" / "djangojs.po").read_text().split("\n\n"):
        lines = block.strip().splitlines()
        if any(line.startswith("#, fuzzy") for line in lines):
            entries.setdefault("#fuzzy", []).append(block)
        ids = [line for line in lines if line.startswith("msgid ")]
        if not ids:
            continue
        msgid = eval(ids[0][6:])
        entries[msgid] = [eval(line.split(" ", 1)[1]) for line in lines if line.startswith("msgstr")]
    return entries


def _asked() -> set[str]:
    asked: set[str] = set()
    for path in sorted(JS.rglob("*.js")):
        for match in CALL.finditer(path.read_text()):
            asked.add(match.group(1).encode().decode("unicode_escape").encode("latin-1").decode())
    return asked


@pytest.mark.parametrize("language", ["fi", "ru"])
def test_js_catalogue_complete(language: str) -> None:
    entries = _po(language)
    assert "#fuzzy" not in entries
    asked = _asked()
    assert len(asked) > 100
    assert asked <= set(entries), sorted(asked - set(entries))
    for msgid in asked:
        forms = entries[msgid]
        assert forms and all(forms), f"{language}: {msgid!r} is not translated"
        for form in forms:
            assert set(re.findall(r"%\((\w+)\)s", form)) == set(re.findall(r"%\((\w+)\)s", msgid)) or "%(n)s" in msgid
    msgfmt = shutil.which("msgfmt")
    assert msgfmt, "gettext's msgfmt is needed to check the committed .mo"
    folder = LOCALE / language / "LC_MESSAGES"
    made = subprocess.run([msgfmt, "-o", "-", str(folder / "djangojs.po")], capture_output=True, check=True).stdout
    assert made == (folder / "djangojs.mo").read_bytes(), "run manage.py compilemessages and commit the .mo"


def _unescaped(content: bytes) -> str:
    """The served catalogue is JSON in a script: non-ASCII letters come as \\uXXXX escapes."""
    return re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), content.decode())


@pytest.mark.django_db
def test_the_catalogue_is_served_in_the_requests_language() -> None:
    client = Client()
    fi = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="fi")
    assert fi.status_code == 200 and "javascript" in fi["Content-Type"]
    assert "Ratkaisulyönnit" in _unescaped(fi.content)  # the catalogue is JSON: \u00f6
    client.cookies["django_language"] = "ru"
    ru = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="fi")
    served = _unescaped(ru.content)
    assert "Серия пенальти" in served and "Ratkaisulyönnit" not in served
    page = Client().get("/watch/", HTTP_ACCEPT_LANGUAGE="ru")
    html = page.content.decode()
    assert '<html lang="ru">' in html and '<script src="/jsi18n/ru/"></script>' in html


@pytest.mark.django_db
def test_a_language_switch_is_never_answered_with_the_cached_catalogue() -> None:
    """The page names its language in the catalogue's URL, so a switch asks for another URL;
    and a browser's conditional request with the English copy's validators, after the cookie is set, is
    answered 200 with the Finnish words, never 304 (it was: a fixed Last-Modified)."""
    client = Client()
    page = client.get("/watch/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<script src="/jsi18n/en/"></script>' in page
    english = client.get("/jsi18n/en/", HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 200 and "Ratkaisulyönnit" not in _unescaped(english.content)
    assert "no-cache" in english["Cache-Control"] and english["ETag"]
    # Revalidating the same language's copy is a cheap 304: the URL decides, not the cookie.
    assert client.get("/jsi18n/en/", HTTP_IF_NONE_MATCH=english["ETag"]).status_code == 304
    # The header's switch: the cookie is set, the next page names the Finnish catalogue.
    client.post("/i18n/setlang/", {"language": "fi", "next": "/watch/"})
    assert client.cookies["django_language"].value == "fi"
    page = client.get("/watch/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="fi">' in page and '<script src="/jsi18n/fi/"></script>' in page
    finnish = client.get("/jsi18n/fi/", HTTP_IF_NONE_MATCH=english["ETag"])
    assert finnish.status_code == 200 and "Ratkaisulyönnit" in _unescaped(finnish.content)
    # The bare URL too: the English copy's validators (ETag or date) do not validate the Finnish answer.
    bare_en = Client().get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="en")
    conditional = {}
    if bare_en.has_header("ETag"):
        conditional["HTTP_IF_NONE_MATCH"] = bare_en["ETag"]
    if bare_en.has_header("Last-Modified"):
        conditional["HTTP_IF_MODIFIED_SINCE"] = bare_en["Last-Modified"]
    assert conditional, "the bare catalogue has no validator to revalidate with"
    bare_fi = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="en", **conditional)
    assert bare_fi.status_code == 200 and "Ratkaisulyönnit" in _unescaped(bare_fi.content)
    # A language the site does not speak is no catalogue at all.
    assert client.get("/jsi18n/de/").status_code == 404
