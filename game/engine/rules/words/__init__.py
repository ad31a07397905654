"""Words at the edge: every sentence a player reads about the rules is made here, from a verdict's
``code`` and ``params`` (and a refusal's or a lag's code), by a catalogue of templates per language:
English (:mod:`.en`), Finnish (:mod:`.fi`) and Russian (:mod:`.ru`).

The rules decide in structure (codes, ball ids, pocket ids, numbers); this package is the only place
that turns ids into names a player would use: "alice's cue ball" (never "white2"), "the red" and "the
other red" (never "red" twice), "the kaisa", pockets named as the table is drawn (ARCHITECTURE 4: in
landscape the home end is on the left and +y points up, so ``middle_right`` at y = 0 is the bottom
middle pocket), a win as "alice won: reached 60" (no score: pages print it between the names),
phases in words (never "choose_break"). Plain Python catalogues, not gettext: the engine stays free
of the framework, and a template is a function, so a language's grammar (Russian cases and plurals,
Finnish cases) lives in its own module.

The engine's own ``reason`` and RuleError ``message`` stay English (the default language); the online
layer makes the other languages from the same ``code`` and ``params`` (:func:`in_every_language`).

Malformed input (wrong types, unknown fields: what a correct client never sends) is answered in plain
English for developers next to its check (calls.py, strike.py, snapshot.py); everything a player can
meet in play is here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from game.engine.rules.words.catalogue import CUE_IDS, RED_IDS, Catalogue, Namer, Template, form
from game.engine.rules.words.en import ENGLISH
from game.engine.rules.words.fi import FINNISH
from game.engine.rules.words.ru import RUSSIAN

#: The languages players read, the default first (the order of every `words` map on the wire).
LANGUAGES: tuple[str, ...] = ("en", "fi", "ru")
DEFAULT_LANGUAGE = "en"

CATALOGUES: dict[str, Catalogue] = {"en": ENGLISH, "fi": FINNISH, "ru": RUSSIAN}

#: A `words` map's key for a portrait table's sentence: ``"fi@portrait"``. Only sentences
#: that name a pocket differ, and only those get the key; a page that draws the table in portrait
#: reads ``<lang>@portrait`` first (static/game/js/i18n.js `said`).
PORTRAIT = "@portrait"
#: Where a portrait table (the home end at the bottom, the player looking up the table: ARCHITECTURE 4,
#: transform.js) draws each corner pocket, as the landscape pocket drawn at that place: the home end's
#: left pocket is the bottom left, which landscape calls ``home_right``. The middles are the
#: catalogue's ``side_pockets``.
_PORTRAIT_CORNERS = {
    "home_left": "home_right",
    "home_right": "foot_right",
    "foot_left": "home_left",
    "foot_right": "foot_left",
}


def _portrait(cat: Catalogue) -> Catalogue:
    pockets = {pocket: cat.pockets[drawn_as] for pocket, drawn_as in _PORTRAIT_CORNERS.items()}
    pockets.update(
        {pocket: cat.side_pockets.get(pocket, cat.pockets[pocket]) for pocket in ("middle_left", "middle_right")}
    )
    return replace(cat, pockets=pockets, upright=True)


_PORTRAIT_CATALOGUES: dict[str, Catalogue] = {lang: _portrait(cat) for lang, cat in CATALOGUES.items()}


def catalogue(language: str) -> Catalogue:
    """The catalogue of ``language`` ("fi", "fi-FI" and "FI" alike); English for any other.
    ``"fi@portrait"`` names the pockets as a portrait table draws them."""
    code = str(language).lower()
    if code.endswith(PORTRAIT):
        return _PORTRAIT_CATALOGUES.get(code[:2], _PORTRAIT_CATALOGUES[DEFAULT_LANGUAGE])
    return CATALOGUES.get(code[:2], ENGLISH)


def _namer(params: Mapping[str, Any], cat: Catalogue) -> Namer:
    call = params.get("call")
    called = call.get("ball") if isinstance(call, Mapping) else params.get("ball", params.get("called"))
    return Namer(cat, params.get("owners") or {}, params.get("cue"), called)


def say(code: str, params: Mapping[str, Any], language: str = "en") -> str:
    """The words of a verdict from its ``code`` and ``params``."""
    cat = catalogue(language)
    template = cat.verdicts.get(code)
    if template is None:
        raise KeyError(f"no words for verdict code {code!r}")
    return template(_namer(params, cat), params)


def failure_words(code: str, params: Mapping[str, Any], language: str = "en") -> str:
    """Why a call was not made (K-4.2), from the failure code of :func:`~game.engine.rules.calls.judge_call`."""
    cat = catalogue(language)
    return cat.failures[code](_namer(params, cat), params)


def refusal(key: str, params: Mapping[str, Any] | None = None, language: str = "en") -> str:
    """Why an input is refused (the message of a RuleError), from its key and params."""
    cat = catalogue(language)
    values = params or {}
    return cat.refusals[key](Namer(cat, values.get("owners") or {}, values.get("cue"), None), values)


def finish_words(key: str, params: Mapping[str, Any] | None = None, language: str = "en") -> str:
    """How the game ended, in words (the snapshot's ``finish_reason``)."""
    cat = catalogue(language)
    values = params or {}
    return cat.finishes[key](Namer(cat, {}, None, None), values)


def text(key: str, params: Mapping[str, Any] | None = None, language: str = "en") -> str:
    """One of the online layer's sentences (``Catalogue.texts``: choices, K-11 notices, results)."""
    cat = catalogue(language)
    values = params or {}
    return cat.texts[key](Namer(cat, values.get("owners") or {}, None, None), values)


def lag_words(code: str, distance: float | None, language: str = "en") -> str:
    """One lag's result (K-3.1) in words."""
    return catalogue(language).lags[code](distance)


def phase_name(phase: str, language: str = "en") -> str:
    cat = catalogue(language)
    return form(cat.phases.get(str(phase), cat.unknown_phase), "nom")


def ball_name(ball: str, owners: Mapping[str, str] | None = None, language: str = "en") -> str:
    """A ball's name on its own ("the kaisa", "a red", "bob's cue ball")."""
    return Namer(catalogue(language), owners or {}, None, None).ball(ball)


def pocket_name(pocket: str, language: str = "en") -> str:
    cat = catalogue(language)
    return form(cat.pockets.get(pocket, cat.unknown_pocket), "nom")


def in_every_language(make: Callable[[str], str], *, portrait: bool = False) -> dict[str, str]:
    """``{language: make(language)}`` for every language players read: the `words` map an event
    carries, made once when it is published so no socket renders a template. With ``portrait`` (the
    sentences of the rules, which may name a pocket: verdicts, refusals) a sentence that reads
    otherwise on a portrait table also comes as ``<language>@portrait``; `make` then gets that code."""
    out = {language: make(language) for language in LANGUAGES}
    for language in LANGUAGES if portrait else ():
        drawn = make(language + PORTRAIT)
        if drawn != out[language]:
            out[language + PORTRAIT] = drawn
    return out


__all__ = [
    "CATALOGUES",
    "CUE_IDS",
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "PORTRAIT",
    "RED_IDS",
    "Catalogue",
    "Namer",
    "Template",
    "ball_name",
    "catalogue",
    "failure_words",
    "finish_words",
    "in_every_language",
    "lag_words",
    "phase_name",
    "pocket_name",
    "refusal",
    "say",
    "text",
]
