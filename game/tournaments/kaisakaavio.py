"""KaisaKaavio event files (issue 28): the XML the clubs' program saves, read into plain records and
written back, and the draw's replay against a file.

The format, as the program's files show it: a `<Kilpailu>` with the event's settings as child elements
(`Nimi`, `PeliAika` minutes, `RankkareidenMaara` shoot-out visits, `TavoitePistemaara` the target,
`KaavioTyyppi` the format), `<Osallistujat>` of `<Pelaaja Nimi Id …/>` (the draw list is the ids'
order; `Sijoitettu` a seed number, empty if unseeded) and `<Pelit>` of `<Peli …/>` in draw order with
`Kierros`, `KierrosPelaaja1/2` (each player's own round), `PelaajaId1/2`, `Pisteet1/2` (points, a
trailing `v` marks the winner: a shoot-out winner may have fewer) and `Tilanne` (`Pelattu` once
played). What Kaiza does not use is kept (`other_fields`, `extra`) so a file written back keeps it.

Parsing is safe whatever the file's encoding: defusedxml's parser refuses a document type (and so
every entity, internal or external) as expat meets it, so a UTF-16 file cannot carry one past a check
of the raw bytes. Every number is read by game/tournaments/values.py (digits 0-9 only, a bounded
length), so a refusal is a TournamentError with its words: `KaavioError` for the file's shape, the
values' own refusal for a number.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring
from django.utils.translation import gettext_noop

from game.tournaments import values
from game.tournaments.pairing.double_loss import DrawState, Event, Format, Game, next_game
from game.tournaments.refusal import TournamentError
from game.tournaments.values import Words

#: The program's formats (`KaavioTyyppi`) as Kaiza's: (format, knockout from round).
FORMATS: dict[str, tuple[Format, int | None]] = {
    "TuplaKaavio": (Format.DOUBLE_LOSS, None),
    **{f"Pudari{n}Kierros": (Format.DOUBLE_LOSS_THEN_KNOCKOUT, n) for n in range(2, 7)},
    "KaksiKierrostaJaCup": (Format.TWO_ROUNDS_THEN_CUP, None),
}
PLAYED = "Pelattu"
SETTINGS = ("Nimi", "PeliAika", "RankkareidenMaara", "TavoitePistemaara", "KaavioTyyppi")
#: Points as the program writes them: a number (or nothing) and the winner's `v`.
_POINTS = re.compile(r"\s*([-\u2212]?[0-9]*)\s*(v?)\s*", re.IGNORECASE | re.ASCII)
#: The encoding a file declares, named in the refusal of one the parser cannot read.
_ENCODING = re.compile(rb"""encoding\s*=\s*["']([^"']{1,40})["']""")


class KaavioError(TournamentError):
    """A file refused for its shape, with the reason in words (gettext_noop) and their placeholders."""

    def __init__(self, words: str, params: Mapping[str, object] | None = None) -> None:
        super().__init__("bad_file", words, params)

    @property
    def reason(self) -> str:
        return self.message


@dataclass(frozen=True)
class Participant:
    id: int
    name: str
    club: str = ""
    seeded: str = ""
    extra: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class FileGame:
    """`first_points` None: no points written yet; `winner` 1 or 2 from the `v` mark, or None."""

    round: int
    first_round: int
    second_round: int
    first_id: int
    second_id: int
    first_points: int | None
    second_points: int | None
    winner: int | None
    state: str
    extra: tuple[tuple[str, str], ...] = ()

    @property
    def played(self) -> bool:
        return self.state == PLAYED and self.winner is not None


@dataclass(frozen=True)
class KaavioFile:
    name: str
    format: str
    game_minutes: int | None
    shootout_visits: int | None
    target: int | None
    participants: tuple[Participant, ...]
    games: tuple[FileGame, ...]
    other_fields: tuple[tuple[str, str], ...] = ()
    #: The program's other lists (e.g. `JalkiIlmoittautuneet`, late entries) by tag and length: Kaiza
    #: reads nothing in them and writes none back, so they are only named to the user as ignored.
    other_lists: tuple[tuple[str, int], ...] = field(default=(), compare=False)

    @property
    def draw_list(self) -> tuple[int, ...]:
        return tuple(sorted(p.id for p in self.participants))

    def event(self) -> Event:
        kind, knockout_from = FORMATS[self.format]
        return Event(kind, self.draw_list, knockout_from)


def _root(raw: bytes) -> ET.Element:
    """The document's root, read by a parser that refuses a document type whatever the encoding."""
    try:
        return fromstring(raw, forbid_dtd=True)
    except DefusedXmlException as error:
        raise KaavioError(gettext_noop("the file declares a document type or entities, which are refused")) from error
    except ET.ParseError as error:
        line, column = error.position
        raise KaavioError(
            gettext_noop("the file is not XML (line %(line)s, column %(column)s)"), {"line": line, "column": column}
        ) from error
    except (LookupError, ValueError) as error:  # an encoding Python does not know, or a multi-byte one
        declared = _ENCODING.search(raw[:200])
        name = declared[1].decode("ascii", "replace") if declared else "?"
        raise KaavioError(
            gettext_noop("the file's encoding %(encoding)s is not one Kaiza reads: save it as UTF-8"),
            {"encoding": values.shown(name)},
        ) from error


def parse(data: bytes | str) -> KaavioFile:
    """The file's event; a TournamentError with the reason if it is not one (KaavioError for its
    shape, values' refusal for a number that is not one)."""
    root = _root(data.encode("utf-8") if isinstance(data, str) else data)
    if root.tag != "Kilpailu":
        raise KaavioError(
            gettext_noop("not a KaisaKaavio event: the root is %(root)s, not <Kilpailu>"),
            {"root": values.shown(f"<{root.tag}>")},
        )
    fields = {child.tag: (child.text or "").strip() for child in root if len(child) == 0}
    kind = fields.get("KaavioTyyppi", "")
    if kind not in FORMATS:
        raise KaavioError(
            gettext_noop("unknown format %(format)s (KaavioTyyppi); known: %(known)s"),
            {"format": values.shown(kind), "known": ", ".join(FORMATS)},
        )
    participants = tuple(_participant(node) for node in root.iterfind("Osallistujat/Pelaaja"))
    ids: set[int] = set()
    for participant in participants:
        if participant.id in ids:
            raise KaavioError(gettext_noop("two participants share the Id %(id)s"), {"id": participant.id})
        ids.add(participant.id)
    games = tuple(_game(node, number) for number, node in enumerate(root.iterfind("Pelit/Peli"), start=1))
    _check_games(games, ids)
    return KaavioFile(
        name=fields.get("Nimi", ""),
        format=kind,
        game_minutes=_setting(fields, "PeliAika"),
        shootout_visits=_setting(fields, "RankkareidenMaara"),
        target=_setting(fields, "TavoitePistemaara"),
        participants=participants,
        games=games,
        other_fields=tuple((tag, text) for tag, text in fields.items() if tag not in SETTINGS),
        other_lists=tuple(
            (child.tag, len(child)) for child in root if len(child) and child.tag not in ("Osallistujat", "Pelit")
        ),
    )


def _setting(fields: dict[str, str], tag: str) -> int | None:
    return values.number_of(fields.get(tag), field=tag)


#: A participant's Id: the program's (a 32-bit number); Kaiza only orders and matches them.
IDS = (0, 2**31 - 1)


def _participant(node: ET.Element) -> Participant:
    known = ("Id", "Nimi", "Seura", "Sijoitettu")
    name = node.get("Nimi", "")

    def where() -> Words:
        return Words(gettext_noop("the Id of %(name)s"), {"name": values.shown(name)})

    identifier = values.number_of(node.get("Id"), field=where)
    if identifier is None:
        raise KaavioError(gettext_noop("participant %(name)s has no Id"), {"name": values.shown(name)})
    values.bounded(identifier, field=where, bounds=IDS, rule=gettext_noop("an Id is %(least)s to %(most)s"))
    return Participant(
        id=identifier,
        name=name,
        club=node.get("Seura", ""),
        seeded=node.get("Sijoitettu", ""),
        extra=tuple((k, v) for k, v in node.attrib.items() if k not in known),
    )


def game_field(number: int, tag: str) -> Words:
    """A game's attribute as a refusal names it: "game 3's Kierros"."""
    return Words(gettext_noop("game %(game)s's %(tag)s"), {"game": number, "tag": tag})


def _named(number: int, tag: str) -> Callable[[], Words]:
    """The game's attribute's name, made only if a refusal needs it (values.refuse)."""
    return lambda: game_field(number, tag)


def _points(text: str, number: int, tag: str) -> tuple[int | None, bool]:
    match = _POINTS.fullmatch(text)
    if match is None:
        rule = gettext_noop("points are a whole number (digits 0 to 9) with the winner's 'v'")
        raise values.refuse(game_field(number, tag), text, rule)
    digits, mark = match.groups()
    if digits in ("-", "\u2212"):
        digits = ""
    return values.number_of(digits, field=_named(number, tag)), bool(mark)


def _game(node: ET.Element, number: int) -> FileGame:
    known = ("Kierros", "KierrosPelaaja1", "KierrosPelaaja2", "PelaajaId1", "PelaajaId2", "Pisteet1", "Pisteet2")
    read = {}
    for tag in known[:5]:
        value = values.number_of(node.get(tag), field=_named(number, tag))
        if value is None:
            raise KaavioError(gettext_noop("game %(game)s has no %(tag)s"), {"game": number, "tag": tag})
        if tag.startswith("Kierros"):
            values.round_number(value, field=_named(number, tag))
        read[tag] = value
    first_points, first_won = _points(node.get("Pisteet1", ""), number, "Pisteet1")
    second_points, second_won = _points(node.get("Pisteet2", ""), number, "Pisteet2")
    if first_won and second_won:
        raise KaavioError(gettext_noop("game %(game)s marks both players the winner"), {"game": number})
    return FileGame(
        round=read["Kierros"],
        first_round=read["KierrosPelaaja1"],
        second_round=read["KierrosPelaaja2"],
        first_id=read["PelaajaId1"],
        second_id=read["PelaajaId2"],
        first_points=first_points,
        second_points=second_points,
        winner=1 if first_won else 2 if second_won else None,
        state=node.get("Tilanne", ""),
        extra=tuple((k, v) for k, v in node.attrib.items() if k not in (*known, "Tilanne")),
    )


def _check_games(games: tuple[FileGame, ...], ids: set[int]) -> None:
    losses = dict.fromkeys(ids, 0)
    for number, game in enumerate(games, start=1):
        for player in (game.first_id, game.second_id):
            if player not in ids:
                raise KaavioError(
                    gettext_noop("game %(game)s names player %(id)s, who is not a participant"),
                    {"game": number, "id": player},
                )
        if game.first_id == game.second_id:
            raise KaavioError(
                gettext_noop("game %(game)s pairs player %(id)s with himself"), {"game": number, "id": game.first_id}
            )
        if game.played:
            loser = game.second_id if game.winner == 1 else game.first_id
            losses[loser] += 1
            if losses[loser] > 2:
                raise KaavioError(
                    gettext_noop("player %(id)s has a third loss in game %(game)s of a double-loss event"),
                    {"game": number, "id": loser},
                )


def write(kaavio: KaavioFile) -> str:
    """The file in the program's layout; parse(write(k)) == k."""
    root = ET.Element("Kilpailu")
    settings = (
        ("Nimi", kaavio.name),
        ("PeliAika", _text(kaavio.game_minutes)),
        ("RankkareidenMaara", _text(kaavio.shootout_visits)),
        ("TavoitePistemaara", _text(kaavio.target)),
        ("KaavioTyyppi", kaavio.format),
    )
    for tag, text in (*settings, *kaavio.other_fields):
        ET.SubElement(root, tag).text = text
    participants = ET.SubElement(root, "Osallistujat")
    for p in kaavio.participants:
        attributes = {"Nimi": p.name, "Seura": p.club, "Sijoitettu": p.seeded, **dict(p.extra), "Id": str(p.id)}
        ET.SubElement(participants, "Pelaaja", attributes)
    games = ET.SubElement(root, "Pelit")
    for g in kaavio.games:
        attributes = {
            "Kierros": str(g.round),
            "KierrosPelaaja1": str(g.first_round),
            "KierrosPelaaja2": str(g.second_round),
            "PelaajaId1": str(g.first_id),
            "PelaajaId2": str(g.second_id),
            "Pisteet1": _text(g.first_points) + ("v" if g.winner == 1 else ""),
            "Pisteet2": _text(g.second_points) + ("v" if g.winner == 2 else ""),
            "Tilanne": g.state,
            **dict(g.extra),
        }
        ET.SubElement(games, "Peli", attributes)
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _text(value: int | None) -> str:
    return "" if value is None else str(value)


@dataclass(frozen=True)
class ReplayLine:
    number: int
    round: int
    file_pair: tuple[int, int]
    drawn: tuple[int, int] | None
    drawn_round: int | None

    @property
    def same(self) -> bool:
        return self.drawn is not None and set(self.drawn) == set(self.file_pair) and self.drawn_round == self.round


def replay(kaavio: KaavioFile) -> list[ReplayLine]:
    """Kaiza's draw beside the file's, game by game: before each of the file's games Kaiza draws the
    next one from the file's games so far, every result in, then takes the file's game and its result
    (so one different game does not make every later one differ)."""
    state = DrawState(kaavio.event())
    lines: list[ReplayLine] = []
    for number, game in enumerate(kaavio.games, start=1):
        pairing = next_game(state)
        drawn = None if pairing is None else (pairing.first, pairing.second)
        drawn_round = None if pairing is None else pairing.round
        lines.append(ReplayLine(number, game.round, (game.first_id, game.second_id), drawn, drawn_round))
        winner = None
        if game.played:
            winner = game.first_id if game.winner == 1 else game.second_id
        state = state.with_game(
            Game(
                game.first_id,
                game.second_id,
                game.round,
                game.first_round,
                game.second_round,
                winner,
                game.first_points or 0,
                game.second_points or 0,
            )
        )
    return lines
