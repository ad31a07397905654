"""KaisaKaavio event files: the XML the clubs' program saves, read into plain records and
written back, and the draw's replay against a file.

The format, as the program's files show it: a `<Kilpailu>` with the event's settings as child elements
(`Nimi`, `PeliAika` minutes, `RankkareidenMaara` shoot-out visits, `TavoitePistemaara` the target,
`KaavioTyyppi` the format), `<Osallistujat>` of `<Pelaaja Nimi Id …/>` (the draw list is the ids'
order; `Sijoitettu` a mark beside the name, a seed number when the event seeds; `Seura` the player's
club; `Tasoitus` the score his games start at) and `<Pelit>` of
`<Peli …/>` in draw order with `Kierros`, `KierrosPelaaja1/2` (each player's own round),
`PelaajaId1/2`, `Pisteet1/2` (points with the winner's `v` or the loser's `h`; without a mark the
player at the target has won), `Tilanne` (the game's state by the program's name) and each player's
longest and second-longest runs, "pisimmät sarjat" (`PisinSarja1`, `ToiseksiPisinSarja1`, `PisinSarja2`,
`ToiseksiPisinSarja2`: blank when none was written); `<JalkiIlmoittautuneet>` of `<Pelaaja …/>`, the
late entrants waiting for the second stage of the draw, each kept with all its attributes. Each value is
read in every form the program writes or reads, as it reads it (docs/double-loss-draw.md, "The forms
of the program's files"). What Kaiza does not use is kept (`other_fields`, `extra`) so a file written
back keeps it.

Parsing is safe whatever the file's encoding: defusedxml's parser refuses a document type (and so
every entity, internal or external) as expat meets it, so a UTF-16 file cannot carry one past a check
of the raw bytes. Every number is read by game/tournaments/values.py (digits 0-9 only, a bounded
length), so a refusal is a TournamentError with its words: `KaavioError` for the file's shape, the
values' own refusal for a number.
"""

from __future__ import annotations

import datetime
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring
from django.utils.translation import gettext_noop

from game.tournaments import values
from game.tournaments.kaisakaavio_values import (
    DEFAULT_FORMAT,
    DEFAULT_SHOOTOUT_VISITS,
    PLAYED,
    SERIES,
    TEAM_EVENT,
    KaavioError,
    choice,
    game_minutes_of,
    named,
    number_setting,
    points_of,
    state_of,
    target_of,
    winner_of,
)
from game.tournaments.kaisakaavio_venues import (
    PLAYER_PLACE,
    FileVenue,
    join_round_of,
    parse_venues,
    venue_groups,
    write_venues,
)
from game.tournaments.pairing.double_loss import (
    DrawState,
    Event,
    Format,
    GameKey,
    Outcome,
    listing_order,
    redraw,
)
from game.tournaments.pairing.double_loss_cup import cup_seats
from game.tournaments.pairing.double_loss_state import CUP_FIRST_ROUND, LATE_SEEDS
from game.tournaments.values import Words

#: The program's formats (`KaavioTyyppi`) as Kaiza's: (format, knockout from round).
FORMATS: dict[str, tuple[Format, int | None]] = {
    "TuplaKaavio": (Format.DOUBLE_LOSS, None),
    **{f"Pudari{n}Kierros": (Format.DOUBLE_LOSS_THEN_KNOCKOUT, n) for n in range(2, 7)},
    "KaksiKierrostaJaCup": (Format.TWO_ROUNDS_THEN_CUP, None),
}
#: The program's `Sijoittaminen` of a championship: 24 seeds who enter in rounds 2 and 3.
CHAMPIONSHIP_SEEDING = "Sijoitetaan24Pelaajaa"
#: The program's list of late entrants waiting for the second stage of its draw.
LATE_LIST = "JalkiIlmoittautuneet"
SETTINGS = ("Nimi", "PeliAika", "PeliaikaOnRajattu", "RankkareidenMaara", "TavoitePistemaara", "KaavioTyyppi")
#: The encoding a file declares, named in the refusal of one the parser cannot read.
_ENCODING = re.compile(rb"""encoding\s*=\s*["']([^"']{1,40})["']""")


@dataclass(frozen=True)
class Participant:
    id: int
    name: str
    club: str = ""
    seeded: str = ""
    #: The score the player's games start at (`Tasoitus`), as the file writes it ("" for none).
    handicap: str = ""
    extra: tuple[tuple[str, str], ...] = ()


#: A player's two longest runs in a game (longest, second longest), each None when the file has none.
Runs = tuple[int | None, int | None]
NO_RUNS: Runs = (None, None)
#: The program's attributes of the runs, by player (Peli.cs: strings, written only when not blank).
RUN_TAGS = (("PisinSarja1", "ToiseksiPisinSarja1"), ("PisinSarja2", "ToiseksiPisinSarja2"))


@dataclass(frozen=True)
class FileGame:
    """`first_points` None: no points written yet; `winner` 1 or 2 from the `v` mark, or None. A
    player id None is an empty seat: a cup game whose player is not known yet, or a walk-over."""

    round: int
    first_round: int
    second_round: int
    first_id: int | None
    second_id: int | None
    first_points: int | None
    second_points: int | None
    winner: int | None
    state: str
    extra: tuple[tuple[str, str], ...] = ()
    first_runs: Runs = NO_RUNS
    second_runs: Runs = NO_RUNS

    @property
    def played(self) -> bool:
        return self.state == PLAYED and self.winner is not None


@dataclass(frozen=True)
class KaavioFile:
    name: str
    format: str
    #: None: no time limit
    game_minutes: int | None
    shootout_visits: int
    target: int
    participants: tuple[Participant, ...]
    games: tuple[FileGame, ...]
    other_fields: tuple[tuple[str, str], ...] = ()
    #: The program's other lists (e.g. `PeliPaikat`) by tag and length: Kaiza reads nothing in them
    #: and writes none back, so they are only named to the user as ignored.
    other_lists: tuple[tuple[str, int], ...] = field(default=(), compare=False)
    #: The late entrants not drawn in yet (`JalkiIlmoittautuneet`, the program's list for the second
    #: stage of its draw), each a `Pelaaja`'s attributes as the file writes them (`Nimi` first).
    late_entrants: tuple[tuple[tuple[str, str], ...], ...] = ()
    #: The places other than the host's of an event played at several places (`PeliPaikat`,
    #: game/tournaments/kaisakaavio_venues.py); empty: one place.
    venues: tuple[FileVenue, ...] = ()

    @property
    def draw_list(self) -> tuple[int, ...]:
        return tuple(sorted(p.id for p in self.participants))

    @property
    def championship_seeds(self) -> tuple[int, ...]:
        """The championship's seeds (`Sijoittaminen` Sijoitetaan24Pelaajaa), ids by their marks,
        the first 24 as the program takes them; empty for any other event."""
        if self.format != "TuplaKaavio" or dict(self.other_fields).get("Sijoittaminen") != CHAMPIONSHIP_SEEDING:
            return ()
        marked = [(int(p.seeded.strip()), p.id) for p in self.participants if p.seeded.strip().isdigit()]
        return tuple(player for _, player in sorted(marked))[: LATE_SEEDS[-1]]

    def event(self) -> Event:
        """The file's event: its format and draw list, its target, for a cup the lots its seats
        show (:func:`cup_lots`), for a championship its seeds."""
        kind, knockout_from = FORMATS[self.format]
        lots = cup_lots(self) if kind == Format.TWO_ROUNDS_THEN_CUP else ()
        seeds = self.championship_seeds
        if seeds:
            kind = Format.CHAMPIONSHIP
        groups: tuple[tuple[int, ...], ...] = ()
        join = 0
        if self.venues:
            groups = self.venue_groups()[1]
            join = join_round_of(dict(self.other_fields))
        return Event(kind, self.draw_list, knockout_from, lots, self.target, values.SCORE_MARGIN, seeds, groups, join)

    def venue_groups(self) -> tuple[tuple[str, ...], tuple[tuple[int, ...], ...]]:
        """Each place's name as its players carry it (the host's first) and its players in the list's
        order (kaisakaavio_venues.venue_groups)."""
        place_of = {p.id: dict(p.extra).get(PLAYER_PLACE, "").strip() for p in self.participants}
        return venue_groups(self.venues, self.draw_list, place_of)


def cup_lots(kaavio: KaavioFile) -> tuple[int, ...]:
    """The lots of a cup file, best first, as far as its seats show them. The program draws a lot
    for each player to break ties in the opening's ranking and does not save it; the players it
    seated in the cup's first round stand in rank order, so their order is the lots' (the seated
    first, best rank first, then everyone else in the list's order)."""
    first_round = [g for g in kaavio.games if g.round == CUP_FIRST_ROUND]
    slots = sorted(range(len(first_round)), key=lambda i: (cup_slot(first_round[i], i), i))
    ranks: dict[int, int] = {}
    for position, (high, low) in zip(slots, cup_seats(len(first_round) * 2), strict=False):
        game = first_round[position]
        for player, rank in ((game.first_id, high), (game.second_id, low)):
            if player is not None:
                ranks.setdefault(player, rank)
    seated = sorted(ranks, key=lambda p: ranks[p])
    return (*seated, *(p for p in kaavio.draw_list if p not in ranks))


def cup_slot(game: FileGame, default: int) -> int:
    """A cup game's seat in its round (`PeliNumeroKierroksella`; `default` if the file omits it)."""
    text = dict(game.extra).get("PeliNumeroKierroksella", "").strip()
    return int(text) if text.isdigit() else default


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


def parse(data: bytes | str, *, teams: bool = False) -> KaavioFile:
    """The file's event; a TournamentError with the reason if it is not one (KaavioError for its
    shape, values' refusal for a number that is not one). Read as the program reads it: a setting
    the file leaves out is the program's default, a participant without a name is no participant
    (the program drops one when it opens the file), a game's result is what its points say."""
    root = _root(data.encode("utf-8") if isinstance(data, str) else data)
    if root.tag != "Kilpailu":
        raise KaavioError(
            gettext_noop("not a KaisaKaavio event: the root is %(root)s, not <Kilpailu>"),
            {"root": values.shown(f"<{root.tag}>")},
        )
    fields = {child.tag: (child.text or "").strip() for child in root if len(child) == 0}
    kind = fields.get("KaavioTyyppi", DEFAULT_FORMAT)
    if kind not in FORMATS:
        raise KaavioError(
            gettext_noop("unknown format %(format)s (KaavioTyyppi); known: %(known)s"),
            {"format": values.shown(kind), "known": ", ".join(FORMATS)},
        )
    _refuse_what_kaiza_cannot_hold(root, fields, teams=teams)
    participants = tuple(
        _participant(node) for node in root.iterfind("Osallistujat/Pelaaja") if node.get("Nimi", "") != ""
    )
    ids: set[int] = set()
    for participant in participants:
        if participant.id in ids:
            raise KaavioError(gettext_noop("two participants share the Id %(id)s"), {"id": participant.id})
        ids.add(participant.id)
    target = target_of(fields)
    games = tuple(_game(node, number, target) for number, node in enumerate(root.iterfind("Pelit/Peli"), start=1))
    late = fields.get("Sijoittaminen") == CHAMPIONSHIP_SEEDING
    _check_games(games, ids, cup=kind == "KaksiKierrostaJaCup", late=late, losses=_losses_count(participants, teams))
    return KaavioFile(
        name=fields.get("Nimi", ""),
        format=kind,
        game_minutes=game_minutes_of(fields),
        shootout_visits=number_setting(fields, "RankkareidenMaara", DEFAULT_SHOOTOUT_VISITS),
        target=target,
        participants=participants,
        games=games,
        other_fields=tuple((tag, text) for tag, text in fields.items() if tag not in SETTINGS),
        other_lists=_other_lists(root),
        late_entrants=_late_entrants(root),
        venues=parse_venues(root),
    )


def _other_lists(root: ET.Element) -> tuple[tuple[str, int], ...]:
    read = ("Osallistujat", "Pelit", LATE_LIST, "PeliPaikat")
    return tuple((child.tag, len(child)) for child in root if len(child) and child.tag not in read)


def _late_entrants(root: ET.Element) -> tuple[tuple[tuple[str, str], ...], ...]:
    """The late entrants' list, those with a name (the program drops a nameless one as it opens)."""
    listed = root.iterfind(f"{LATE_LIST}/Pelaaja")
    return tuple(tuple(node.attrib.items()) for node in listed if node.get("Nimi", "").strip())


def _losses_count(participants: tuple[Participant, ...], teams: bool) -> bool:
    """Whether the players' own losses count: not in a team event, whose games are its players' and
    whose losses are the teams' (kaisakaavio_teams.py)."""
    return not (teams and any(dict(p.extra).get("Joukkue") for p in participants))


def _refuse_what_kaiza_cannot_hold(root: ET.Element, fields: dict[str, str], *, teams: bool) -> None:
    """Events the program runs that are no double-loss event Kaiza draws: one not drawn yet (no
    games; its participants have no place in a draw list), and unless the reader takes `teams` (the
    import does: kaisakaavio_teams.py reads the draw of teams), a team event, whose games are not its
    draw's."""
    if root.find("Pelit/Peli") is None:
        raise KaavioError(
            gettext_noop(
                "the event is not drawn yet (the file has no games): draw it in KaisaKaavio and save it, "
                "or enter its players in Kaiza"
            )
        )
    series = choice(fields, "KilpaSarja", SERIES)
    if series == TEAM_EVENT and not teams:
        raise KaavioError(
            gettext_noop(
                "a team event (KilpaSarja Joukkuekilpailu) is drawn by teams, not by its players' games: "
                "import it instead"
            )
        )


#: A participant's Id: the program's (a 32-bit number); Kaiza only orders and matches them.
IDS = (0, 2**31 - 1)


def _participant(node: ET.Element) -> Participant:
    known = ("Id", "Nimi", "Seura", "Sijoitettu", "Tasoitus")
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
        handicap=node.get("Tasoitus", ""),
        extra=tuple((k, v) for k, v in node.attrib.items() if k not in known),
    )


def _game(node: ET.Element, number: int, target: int) -> FileGame:
    known = ("Kierros", "KierrosPelaaja1", "KierrosPelaaja2", "PelaajaId1", "PelaajaId2", "Pisteet1", "Pisteet2")
    read: dict[str, int | None] = {}
    for tag in known[:5]:
        read[tag] = values.number_of(node.get(tag), field=named(number, tag))
    for tag, seat in (("Kierros", None), ("KierrosPelaaja1", "PelaajaId1"), ("KierrosPelaaja2", "PelaajaId2")):
        value = read[tag]
        if value is None and (seat is None or read[seat] is not None):  # an empty seat has no round
            raise KaavioError(gettext_noop("game %(game)s has no %(tag)s"), {"game": number, "tag": tag})
        if value is not None and not (value == 0 and seat is not None and read[seat] is None):
            values.round_number(value, field=named(number, tag))
    first = points_of(node.get("Pisteet1", ""), number, "Pisteet1")
    second = points_of(node.get("Pisteet2", ""), number, "Pisteet2")
    winner = winner_of(number, first, second, target)
    return FileGame(
        round=read["Kierros"] or 0,
        first_round=read["KierrosPelaaja1"] or 0,
        second_round=read["KierrosPelaaja2"] or 0,
        first_id=read["PelaajaId1"],
        second_id=read["PelaajaId2"],
        first_points=first[0],
        second_points=second[0],
        winner=winner,
        state=state_of(node, number, decided=winner is not None),
        extra=tuple((k, v) for k, v in node.attrib.items() if k not in (*known, "Tilanne", *RUN_TAGS[0], *RUN_TAGS[1])),
        first_runs=_runs(node, number, RUN_TAGS[0], target),
        second_runs=_runs(node, number, RUN_TAGS[1], target),
    )


def _runs(node: ET.Element, number: int, tags: tuple[str, str], target: int) -> Runs:
    """A player's runs as the program keeps them (text, blank for none), each checked as a run."""
    longest, second = (
        values.run(values.number_of(node.get(tag), field=named(number, tag)), field=named(number, tag), target=target)
        for tag in tags
    )
    return longest, second


def _check_games(
    games: tuple[FileGame, ...], ids: set[int], *, cup: bool, late: bool = False, losses: bool = True
) -> None:
    """Players named are participants, two different ones; a game with an empty seat is a cup game
    (round 3 on) or, in a championship (`late`), a seed's walk-over in rounds 1-2 (the draw checks
    whose); outside the cup (which may seat a player with two opening losses) no third loss, when the
    players' `losses` count (not in a team event)."""
    lost = dict.fromkeys(ids, 0)
    for number, game in enumerate(games, start=1):
        for player in (game.first_id, game.second_id):
            if player is not None and player not in ids:
                raise KaavioError(
                    gettext_noop("game %(game)s names player %(id)s, who is not a participant"),
                    {"game": number, "id": player},
                )
        if game.first_id is None or game.second_id is None:
            _check_empty_seat(game, number, cup=cup, late=late)
            continue
        if game.first_id == game.second_id:
            raise KaavioError(
                gettext_noop("game %(game)s pairs player %(id)s with himself"), {"game": number, "id": game.first_id}
            )
        if game.played:
            loser = game.second_id if game.winner == 1 else game.first_id
            lost[loser] += 1
            if lost[loser] > 2 and not cup and losses:
                raise KaavioError(
                    gettext_noop("player %(id)s has a third loss in game %(game)s of a double-loss event"),
                    {"game": number, "id": loser},
                )


def _check_empty_seat(game: FileGame, number: int, *, cup: bool, late: bool) -> None:
    """A game with one player: a cup game, or a championship seed's walk-over before he enters."""
    walkover = late and game.first_id is not None and game.round < CUP_FIRST_ROUND
    if not walkover and (not cup or game.round < CUP_FIRST_ROUND):
        tag = "PelaajaId1" if game.first_id is None else "PelaajaId2"
        raise KaavioError(gettext_noop("game %(game)s has no %(tag)s"), {"game": number, "tag": tag})


def write(kaavio: KaavioFile) -> str:
    """The file in the program's layout, as the program writes one and reads it back: no time
    limit is a time of 0 with `PeliaikaOnRajattu` false, a winner is marked `v`; parse(write(k)) == k."""
    root = ET.Element("Kilpailu")
    settings = (
        ("Nimi", kaavio.name),
        ("PeliAika", "0" if kaavio.game_minutes is None else str(kaavio.game_minutes)),
        *((("PeliaikaOnRajattu", "false"),) if kaavio.game_minutes is None else ()),
        ("RankkareidenMaara", str(kaavio.shootout_visits)),
        ("TavoitePistemaara", str(kaavio.target)),
        ("KaavioTyyppi", kaavio.format),
    )
    for tag, text in (*settings, *kaavio.other_fields):
        ET.SubElement(root, tag).text = text
    participants = ET.SubElement(root, "Osallistujat")
    for p in kaavio.participants:
        attributes = {"Nimi": p.name, "Seura": p.club, "Sijoitettu": p.seeded}
        if p.handicap:  # the program leaves its default (none) out
            attributes["Tasoitus"] = p.handicap
        attributes |= {**dict(p.extra), "Id": str(p.id)}
        ET.SubElement(participants, "Pelaaja", attributes)
    _late_entrants_write(root, kaavio)
    write_venues(root, kaavio.venues)
    games = ET.SubElement(root, "Pelit")
    for g in kaavio.games:
        attributes = {
            "Kierros": str(g.round),
            "KierrosPelaaja1": str(g.first_round),
            "KierrosPelaaja2": str(g.second_round),
            "PelaajaId1": _text(g.first_id),
            "PelaajaId2": _text(g.second_id),
            "Pisteet1": _text(g.first_points) + ("v" if g.winner == 1 else ""),
            "Pisteet2": _text(g.second_points) + ("v" if g.winner == 2 else ""),
            "Tilanne": g.state,
            **_run_attributes(g),
            **dict(g.extra),
        }
        ET.SubElement(games, "Peli", attributes)
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _late_entrants_write(root: ET.Element, kaavio: KaavioFile) -> None:
    """The late entrants' list after the participants, where the program writes it (none: no list)."""
    if kaavio.late_entrants:
        late = ET.SubElement(root, LATE_LIST)
        for entrant in kaavio.late_entrants:
            ET.SubElement(late, "Pelaaja", dict(entrant))


def _run_attributes(game: FileGame) -> dict[str, str]:
    """The runs a game has, as the program writes them: a blank one is left out (its default)."""
    pairs = zip((*RUN_TAGS[0], *RUN_TAGS[1]), (*game.first_runs, *game.second_runs), strict=True)
    return {tag: str(run) for tag, run in pairs if run is not None}


def _text(value: int | None) -> str:
    return "" if value is None else str(value)


@dataclass(frozen=True)
class ReplayLine:
    """One place of the program's list: the file's game there and Kaiza's, each as (round, first
    player's id, second player's id), None where that list is shorter."""

    number: int
    file_game: tuple[int, int, int] | None
    drawn: tuple[int, int, int] | None

    @property
    def same(self) -> bool:
        return self.file_game is not None and self.file_game == self.drawn


#: The orders a replay takes a file's results in: by each game's end on the file's clock (`Paattyi`;
#: games ending together, or without a time, in the file's order), or the file's own order.
REPLAY_ORDERS = ("times", "file")


def replay(kaavio: KaavioFile, order: str = "times") -> list[ReplayLine]:
    """Kaiza's draw of the file's event beside the file's list, place by place. Kaiza draws the
    opening, then takes the file's results one at a time as the program's own replay does (of the
    games drawn and ready to start, the one that ended first by the file's clock, `Paattyi`, else the
    earliest in the file; with `order` "file", always the earliest in the file) and draws what it
    draws after each: the program's draw depends, now and then, on the order its results came in,
    and the clock keeps it (Kaiza's own export writes each game's end to the microsecond). The games it
    drew, in the program's list order, are compared with the file's list (an empty seat is -1). A
    game Kaiza draws that the file does not have gets no result, so the draw stops short there. A
    cup's walk-overs are decided without a result."""
    state = replayed(kaavio, order)
    drawn = [state.games[i] for i in listing_order(state)]
    lines: list[ReplayLine] = []
    for number in range(max(len(drawn), len(kaavio.games))):
        file_game = None
        if number < len(kaavio.games):
            g = kaavio.games[number]
            file_game = (g.round, _seat(g.first_id), _seat(g.second_id))
        mine = None
        if number < len(drawn):
            d = drawn[number]
            mine = (d.round, d.first, _seat(d.second))
        lines.append(ReplayLine(number + 1, file_game, mine))
    return lines


def replayed(kaavio: KaavioFile, order: str = "times") -> DrawState:
    """Kaiza's draw of the file's event fed the file's results (see :func:`replay`), its games in
    the order Kaiza drew them."""
    outcomes: dict[GameKey, Outcome] = {}
    for rank, index in enumerate(results_order(kaavio, order)):
        game = kaavio.games[index]
        assert game.first_id is not None and game.second_id is not None
        key = (game.round, frozenset((game.first_id, game.second_id)))
        winner = game.first_id if game.winner == 1 else game.second_id
        points = ((game.first_id, game.first_points or 0), (game.second_id, game.second_points or 0))
        outcomes.setdefault(key, Outcome(rank, winner, points))
    return redraw(kaavio.event(), outcomes)


def results_order(kaavio: KaavioFile, order: str = "times") -> list[int]:
    """The file's played games (their places in the file, 0-based) in the order a replay takes their
    results: by each game's end on the file's clock (`Paattyi`), or (`order` "file") as listed."""
    played = [i for i, g in enumerate(kaavio.games) if g.played and g.first_id is not None and g.second_id is not None]
    if order == "times":
        start = values.clock_minutes(dict(kaavio.other_fields).get("KellonAika", "")) or 0.0
        played.sort(key=lambda i: (_ended(dict(kaavio.games[i].extra).get("Paattyi", ""), start), i))
    return played


def _ended(text: str, start: float) -> tuple[int, float]:
    """A game's end as a sort key: an instant (a date and time, as Kaiza writes it) by its epoch
    seconds; a clock time (as the program stamps it in the machine's language: "9:54", "9.54",
    "9:54 PM") by its minutes after the event's start time, through midnight; no time (or none that
    reads) after all the others."""
    text = text.strip()
    if "T" in text or "-" in text:
        try:
            moment = datetime.datetime.fromisoformat(text)
        except ValueError:
            return 2, 0.0
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=datetime.UTC)
        return 0, moment.timestamp()
    minutes = values.clock_minutes(text)
    if minutes is None:
        return 2, 0.0
    return 1, (minutes - start) % (24 * 60)


def _seat(player: int | None) -> int:
    return -1 if player is None else player
