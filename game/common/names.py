"""People's names as typed by people: the form a name is kept in, and the key two names are compared by.

A name is kept in Unicode's compatibility form (NFKC), so the look-alike ways of writing the same
letters (fullwidth `Ｍａｉｊａ`, the ligature `ﬁ`, a decomposed `a` + `¨`) are stored as the plain
letters, and its runs of white space are one space. Two names are the same name when their keys are
equal: NFKC, case folded (`ß` and `ss`, `Ä` and `ä`), and NFKC again (the fold can undo the
normal form): Unicode's NFKC_Casefold, less its removal of default-ignorable characters, which a
validated name never holds.

Pure: no Django, so every domain that compares names (display names, a club's player register)
uses the same key.
"""

from __future__ import annotations

import unicodedata
from typing import Any


def name_normal(text: str) -> str:
    """The form a name is kept in: NFKC, white space trimmed and each run of it one space."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def name_key(text: str) -> str:
    """The key under which two names are one: equal keys, the same name whatever the case or the form
    of its letters (`Sakari-Mäkelä`, `SAKARI-MÄKELÄ` and its fullwidth or decomposed spellings)."""
    return unicodedata.normalize("NFKC", name_normal(text).casefold())


#: The alphabets whose letters look alike (Latin `a`, Cyrillic `а`, Greek `α`): a name keeps to one of
#: them, so `Аlice` with a Cyrillic `А` cannot pass for `Alice`. Other alphabets mix freely (Japanese
#: writes kanji and kana together).
LOOK_ALIKE_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")


def look_alike_scripts(text: str) -> set[str]:
    """Which of LOOK_ALIKE_SCRIPTS the letters of `text` are written in."""
    found = set()
    for char in text:
        if unicodedata.category(char).startswith("L"):
            script = unicodedata.name(char, "").split(" ", 1)[0]
            if script in LOOK_ALIKE_SCRIPTS:
                found.add(script)
    return found


#: A club's register compares names more loosely than display names (:func:`register_key`): each
#: letter of another alphabet (case folded) drawn like a Latin letter, each Latin letter whose stroke
#: Unicode does not decompose, and the dashes and apostrophes, with what a reader takes it for.
REGISTER_FOLDS = str.maketrans(
    {
        # Cyrillic а в е һ і ј к м н о р с т у х ѕ ԁ ԛ ԝ (В, Н, К, М, Т read as B, H, K, M, T)
        "а": "a",
        "в": "b",
        "е": "e",
        "һ": "h",
        "і": "i",
        "ј": "j",
        "к": "k",
        "м": "m",
        "н": "h",
        "о": "o",
        "р": "p",
        "с": "c",
        "т": "t",
        "у": "y",
        "х": "x",
        "ѕ": "s",
        "ԁ": "d",
        "ԛ": "q",
        "ԝ": "w",
        # Greek α β ε ζ η ι κ μ ν ο ρ τ υ χ (capitals Α Β Ε Ζ Η Ι Κ Μ Ν Ο Ρ Τ Υ Χ)
        "α": "a",
        "β": "b",
        "ε": "e",
        "ζ": "z",
        "η": "h",
        "ι": "i",
        "κ": "k",
        "μ": "m",
        "ν": "n",
        "ο": "o",
        "ρ": "p",
        "τ": "t",
        "υ": "y",
        "χ": "x",
        # Latin letters with a stroke or a slash
        "ø": "o",
        "đ": "d",
        "ł": "l",
        "ı": "i",
        # dashes and apostrophes
        "‐": "-",
        "‑": "-",
        "‒": "-",
        "–": "-",
        "—": "-",
        "―": "-",
        "−": "-",
        "’": "'",
        "‘": "'",
        "ʼ": "'",
        "`": "'",
        "´": "'",
    }
)


def name_clean(text: str) -> str:
    """A name someone else typed (a club's director, a KaisaKaavio file), as it is kept and shown:
    `name_normal` with control and invisible format characters (a zero-width space) taken out."""
    return name_normal("".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in text or ""))


def _fold_latin_marks(text: str) -> str:
    """The accents of Latin letters dropped (ä, é, å to a, e, a); other alphabets' marks kept
    (Cyrillic й is not и)."""
    kept: list[str] = []
    base_is_latin = False
    for ch in unicodedata.normalize("NFD", text):
        if unicodedata.combining(ch):
            if not base_is_latin:
                kept.append(ch)
            continue
        base_is_latin = "a" <= ch <= "z"
        kept.append(ch)
    return unicodedata.normalize("NFC", "".join(kept))


def register_key(text: str) -> str:
    """The key a club's player register finds a person by: `name_key` with the accents of Latin letters
    and the Latin look-alikes of Cyrillic and Greek letters folded, dashes and apostrophes unified. A
    display name is chosen once and may not mix those alphabets (`look_alike_scripts`), so its key
    keeps them apart; a walk-in's name is typed again every week, on a phone, by someone else: "olli
    tuominen", "sari makela" and "Оlli" with a Cyrillic О are last week's Olli Tuominen and Sari
    Mäkelä."""
    return _fold_latin_marks(name_key(name_clean(text)).translate(REGISTER_FOLDS))


def profile_name(*, user: Any) -> str:
    """A user's display name, tolerant of a deleted user or a missing profile."""
    if user is None:
        return "(gone)"
    profile = getattr(user, "profile", None)
    return profile.display_name if profile is not None else user.get_username()
