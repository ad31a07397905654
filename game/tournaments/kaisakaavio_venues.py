"""The places of an event played at several places, as KaisaKaavio files hold them.

The program draws such an event place by place until a round it is told (`KaavioidenYhdistaminen-
Kierroksesta`, 5 unless set), then as one (docs/double-loss-draw.md, "Several places"). Its file
names the places other than the host's (`<PeliPaikat>` of `<Sali Nimi Lyhenne Pelaajia>`, each with
its `<Poydat>` of `<Poyta Numero>`): the host's hall is a setting of the program on the director's
machine and is not saved, so the host is only the name its players carry (`PeliPaikka` of each
`<Pelaaja>`) that is none of those places, or none at all. Each game names its place (`Paikka`): its
first player's before the joining round, the host's from it.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext_noop

from game.tournaments import values
from game.tournaments.kaisakaavio_values import KaavioError

#: The program's joining round when the file does not set one (its `Kilpailu` sets "5").
DEFAULT_JOIN_ROUND = 5
#: The setting of the joining round.
JOIN_TAG = "KaavioidenYhdistaminenKierroksesta"
#: A player's place and a game's place (attributes of `<Pelaaja>` and `<Peli>`).
PLAYER_PLACE, GAME_PLACE = "PeliPaikka", "Paikka"


@dataclass(frozen=True)
class FileVenue:
    """A place of play as the file names it: `name` (`Nimi`), `short` (`Lyhenne`, the name its
    players and games carry; the name without one), its `tables` (`Poydat` with a number) and the
    players the program gave it when it drew (`Pelaajia`)."""

    name: str
    short: str
    tables: int
    players: int = 0

    @property
    def label(self) -> str:
        return self.short or self.name


def parse_venues(root: ET.Element) -> tuple[FileVenue, ...]:
    """The file's places other than the host's, in its order; a place switched off (`Kaytossa`
    false) or without a name is none, as the program reads it."""
    venues: list[FileVenue] = []
    for node in root.iterfind("PeliPaikat/Sali"):
        name, short = node.get("Nimi", "").strip(), node.get("Lyhenne", "").strip()
        if not (name or short) or node.get("Kaytossa", "true").strip().lower() in ("false", "0"):
            continue
        numbers = {t.get("Numero", "").strip() for t in node.iterfind("Poydat/Poyta")} - {""}
        players = values.number_of(node.get("Pelaajia") or "0", field=f"Pelaajia of {name or short}") or 0
        venues.append(FileVenue(name, short, max(1, len(numbers)), players))
    return tuple(venues)


def write_venues(root: ET.Element, venues: Sequence[FileVenue]) -> None:
    """`<PeliPaikat>` as the program writes it (nothing for an event at one place)."""
    if not venues:
        return
    places = ET.SubElement(root, "PeliPaikat")
    for venue in venues:
        node = ET.SubElement(
            places, "Sali", {"Nimi": venue.name, "Lyhenne": venue.short, "Pelaajia": str(venue.players)}
        )
        tables = ET.SubElement(node, "Poydat")
        for number in range(1, venue.tables + 1):
            ET.SubElement(tables, "Poyta", {"Numero": str(number)})


def join_round_of(fields: dict[str, str]) -> int:
    """The round the places' draws are joined at (the draw checks it is 3 to 6)."""
    text = fields.get(JOIN_TAG, "").strip()
    if not text:
        return DEFAULT_JOIN_ROUND
    number = values.number_of(text, field=JOIN_TAG)
    return DEFAULT_JOIN_ROUND if number is None else number


def host_of(venues: Sequence[FileVenue], places: Sequence[str]) -> str | None:
    """The host's place: the one name among the players' places (`places`, "" for none) that is
    none of the file's places; "" when the host's players carry no name; None when every player is
    at one of the file's places (the host's hall had nobody)."""
    known = {v.label for v in venues}
    others = {place for place in places if place not in known}
    if len(others) > 1:
        unnamed = sorted(others - {""})
        raise KaavioError(
            gettext_noop("the players' places (PeliPaikka) %(places)s are not among the event's places (PeliPaikat)"),
            {"places": ", ".join(values.shown(p) for p in unnamed)},
        )
    return next(iter(others), None)


def venue_groups(
    venues: Sequence[FileVenue], draw_list: Sequence[int], place_of: dict[int, str]
) -> tuple[tuple[str, ...], tuple[tuple[int, ...], ...]]:
    """Each place's label (the host's first) and its players in the draw list's order."""
    host = host_of(venues, [place_of[p] for p in draw_list])
    labels = ([] if host is None else [host]) + [v.label for v in venues]
    groups = tuple(tuple(p for p in draw_list if place_of[p] == label) for label in labels)
    return tuple(labels), groups
