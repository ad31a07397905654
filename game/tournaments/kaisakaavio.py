"""KaisaKaavio event files (issue 28): the XML the clubs' program saves, read into plain records and
written back, and the draw's replay against a file.

The format, as the program's files show it: a `<Kilpailu>` with the event's settings as child elements
(`Nimi`, `PeliAika` minutes, `RankkareidenMaara` shoot-out visits, `TavoitePistemaara` the target,
`KaavioTyyppi` the format), `<Osallistujat>` of `<Pelaaja Nimi Id …/>` (the draw list is the ids'
order; `Sijoitettu` a seed number, empty if unseeded) and `<Pelit>` of `<Peli …/>` in draw order with
`Kierros`, `KierrosPelaaja1/2` (each player's own round), `PelaajaId1/2`, `Pisteet1/2` (points, a
trailing `v` marks the winner: a shoot-out winner may have fewer) and `Tilanne` (`Pelattu` once
played). What Kaiza does not use is kept (`other_fields`, `extra`) so a file written back keeps it.

Parsing is safe: a document type (and so any entity) is refused before the XML parser sees the file,
which leaves expat nothing to expand.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from game.tournaments.pairing.double_loss import DrawState, Event, Format, Game, next_game

#: The program's formats (`KaavioTyyppi`) as Kaiza's: (format, knockout from round).
FORMATS: dict[str, tuple[Format, int | None]] = {
    "TuplaKaavio": (Format.DOUBLE_LOSS, None),
    **{f"Pudari{n}Kierros": (Format.DOUBLE_LOSS_THEN_KNOCKOUT, n) for n in range(2, 7)},
    "KaksiKierrostaJaCup": (Format.TWO_ROUNDS_THEN_CUP, None),
}
PLAYED = "Pelattu"
SETTINGS = ("Nimi", "PeliAika", "RankkareidenMaara", "TavoitePistemaara", "KaavioTyyppi")
_POINTS = re.compile(r"^\s*(-?\d*)\s*(v?)\s*$", re.IGNORECASE)
_DOCTYPE = re.compile(rb"<!\s*(DOCTYPE|ENTITY)", re.IGNORECASE)


class KaavioError(ValueError):
    """A file refused, with the reason in words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


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


def parse(data: bytes | str) -> KaavioFile:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if _DOCTYPE.search(raw):
        raise KaavioError("the file declares a document type or entities, which are refused")
    try:
        root = ET.fromstring(raw)
    except ET.ParseError as error:
        raise KaavioError(f"not XML: {error}") from error
    if root.tag != "Kilpailu":
        raise KaavioError(f"not a KaisaKaavio event: the root is <{root.tag}>, not <Kilpailu>")
    fields = {child.tag: (child.text or "").strip() for child in root if len(child) == 0}
    kind = fields.get("KaavioTyyppi", "")
    if kind not in FORMATS:
        raise KaavioError(f"unknown format {kind!r} (KaavioTyyppi); known: {', '.join(FORMATS)}")
    participants = tuple(_participant(node) for node in root.iterfind("Osallistujat/Pelaaja"))
    ids = [p.id for p in participants]
    if len(set(ids)) != len(ids):
        raise KaavioError("two participants share an id")
    games = tuple(_game(node, number) for number, node in enumerate(root.iterfind("Pelit/Peli"), start=1))
    _check_games(games, set(ids))
    return KaavioFile(
        name=fields.get("Nimi", ""),
        format=kind,
        game_minutes=_number(fields.get("PeliAika"), "PeliAika"),
        shootout_visits=_number(fields.get("RankkareidenMaara"), "RankkareidenMaara"),
        target=_number(fields.get("TavoitePistemaara"), "TavoitePistemaara"),
        participants=participants,
        games=games,
        other_fields=tuple((tag, text) for tag, text in fields.items() if tag not in SETTINGS),
        other_lists=tuple(
            (child.tag, len(child)) for child in root if len(child) and child.tag not in ("Osallistujat", "Pelit")
        ),
    )


def _number(text: str | None, what: str) -> int | None:
    if not text:
        return None
    try:
        return int(text)
    except ValueError as error:
        raise KaavioError(f"{what} is not a number: {text!r}") from error


def _participant(node: ET.Element) -> Participant:
    known = ("Id", "Nimi", "Seura", "Sijoitettu")
    identifier = _number(node.get("Id"), "a participant's Id")
    if identifier is None:
        raise KaavioError(f"participant {node.get('Nimi')!r} has no Id")
    return Participant(
        id=identifier,
        name=node.get("Nimi", ""),
        club=node.get("Seura", ""),
        seeded=node.get("Sijoitettu", ""),
        extra=tuple((k, v) for k, v in node.attrib.items() if k not in known),
    )


def _points(text: str, number: int) -> tuple[int | None, bool]:
    match = _POINTS.match(text)
    if match is None:
        raise KaavioError(f"game {number}: points {text!r} are not a number with an optional 'v'")
    digits, mark = match.groups()
    return (int(digits) if digits not in ("", "-") else None), bool(mark)


def _game(node: ET.Element, number: int) -> FileGame:
    known = ("Kierros", "KierrosPelaaja1", "KierrosPelaaja2", "PelaajaId1", "PelaajaId2", "Pisteet1", "Pisteet2")
    values = {}
    for name in known[:5]:
        value = _number(node.get(name), f"game {number}'s {name}")
        if value is None:
            raise KaavioError(f"game {number} has no {name}")
        values[name] = value
    first_points, first_won = _points(node.get("Pisteet1", ""), number)
    second_points, second_won = _points(node.get("Pisteet2", ""), number)
    if first_won and second_won:
        raise KaavioError(f"game {number} marks both players the winner")
    return FileGame(
        round=values["Kierros"],
        first_round=values["KierrosPelaaja1"],
        second_round=values["KierrosPelaaja2"],
        first_id=values["PelaajaId1"],
        second_id=values["PelaajaId2"],
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
                raise KaavioError(f"game {number} names player {player}, who is not a participant")
        if game.first_id == game.second_id:
            raise KaavioError(f"game {number} pairs player {game.first_id} with himself")
        if game.played:
            loser = game.second_id if game.winner == 1 else game.first_id
            losses[loser] += 1
            if losses[loser] > 2:
                raise KaavioError(f"player {loser} has a third loss in game {number} of a double-loss event")


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
