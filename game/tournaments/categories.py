"""An event's category and its entrants (single players or pairs) as KaisaKaavio's files carry them.

The program keeps both in one setting, `KilpaSarja`: a category of single players (`Yleinen` open,
`Naiset` women, `JunioritPT16`/`JunioritPT18` juniors, `NuoretMN21` youth, `SenioritMN40`..`MN80`
seniors) or a pairs event (`Parikilpailu`, open pairs; `MixedDoubles`, mixed pairs), or a team event.
A pair is one participant named "A & B", with each partner's name in `Pelaajan1Nimi` and
`Pelaajan2Nimi`. Files saved before the program had the setting name neither: such a file is a pairs
event when its participants' names are pairs ("A & B") or its own name calls it one ("Pari SM",
"pairs"), as the federation names its pairs events. Pure: no Django.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

#: Kaiza's categories (Tournament.Category's values) by the program's `KilpaSarja` names.
CATEGORY_OF_SERIES: Mapping[str, str] = {
    "Yleinen": "general",
    "Naiset": "women",
    "JunioritPT16": "juniors_u16",
    "JunioritPT18": "juniors_u18",
    "NuoretMN21": "youth_u21",
    "SenioritMN40": "seniors_40",
    "SenioritMN50": "seniors_50",
    "SenioritMN60": "seniors_60",
    "SenioritMN70": "seniors_70",
    "SenioritMN80": "seniors_80",
    "Parikilpailu": "general",
    "MixedDoubles": "mixed",
}
PAIRS_SERIES = ("Parikilpailu", "MixedDoubles")
SINGLES_SERIES: Mapping[str, str] = {
    category: series for series, category in CATEGORY_OF_SERIES.items() if series not in PAIRS_SERIES
}
#: The categories a pairs event may have: the program's two pairs series.
PAIRS_CATEGORIES = ("general", "mixed")
#: The categories of single players (mixed is a pairs category).
SINGLES_CATEGORIES = tuple(SINGLES_SERIES)
#: The participant's fields that name a pair's partners (and their clubs).
PARTNER_FIELDS = ("Pelaajan1Nimi", "Pelaajan2Nimi", "Pelaajan1Seura", "Pelaajan2Seura")
#: The words of an event's own name that call it a pairs event (Finnish "pari", "parit", "parikisa";
#: "pairs", "doubles").
_PAIRS_NAME = re.compile(r"(?<![^\W\d_])(pari\w*|pairs?|doubles)(?![^\W\d_])", re.IGNORECASE)
SEPARATOR = " & "


def series_of(category: str, *, pairs: bool) -> str:
    """The program's `KilpaSarja` for an event of `category` (a pairs event: open or mixed pairs)."""
    if pairs:
        return "MixedDoubles" if category == "mixed" else "Parikilpailu"
    return SINGLES_SERIES.get(category, "Yleinen")


def partners_in(name: str) -> tuple[str, str] | None:
    """A pair's two partners in its name "A & B" (each trimmed); None when the name is not two
    names joined by one "&"."""
    parts = [part.strip() for part in name.split("&")]
    if len(parts) != 2 or not all(parts):
        return None
    return parts[0], parts[1]


#: A team event's `KilpaSarja`: each participant is a player with his team's name (`Joukkue`).
TEAM_SERIES = "Joukkuekilpailu"


def team_in(text: str) -> tuple[str, tuple[str, ...]] | None:
    """A team as the director types it, "Team name: A, B, C" (its name, then its players joined by
    commas), each part trimmed; None when the text is not a name, a colon and at least one player."""
    name, colon, players = text.partition(":")
    names = tuple(part.strip() for part in players.split(","))
    if not colon or not name.strip() or not all(names):
        return None
    return name.strip(), names


def pair_name(first: str, second: str) -> str:
    return f"{first}{SEPARATOR}{second}"


def is_pairs_file(series: str | None, event_name: str, participants: Iterable[Mapping[str, str]]) -> bool:
    """Whether a file is of a pairs event: its `KilpaSarja` says so; a file without the setting
    (saved before the program had it) when any participant names its partners, or every one is
    named as a pair, or the event's own name calls it a pairs event."""
    if series is not None:
        return series in PAIRS_SERIES
    listed = list(participants)
    if any(p.get("Pelaajan1Nimi") and p.get("Pelaajan2Nimi") for p in listed):
        return True
    if listed and all(partners_in(p.get("Nimi", "")) is not None for p in listed):
        return True
    return _PAIRS_NAME.search(event_name) is not None


def partners_of(fields: Mapping[str, str]) -> tuple[str, str] | None:
    """A pair's partners: the file's `Pelaajan1Nimi` and `Pelaajan2Nimi`, else its name "A & B"."""
    first, second = fields.get("Pelaajan1Nimi", "").strip(), fields.get("Pelaajan2Nimi", "").strip()
    if first and second:
        return first, second
    return partners_in(fields.get("Nimi", ""))
