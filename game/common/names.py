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
