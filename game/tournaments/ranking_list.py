"""The federation's ranking list as a director pastes it (or uploads it as a text or CSV file) on an
event's page, read line by line into places, names and clubs; and a club's handicap list (a name and
the score the player's games start at).

The registration site gives the list as a table "Sija Nimi Seura" (place, name, club), the name as
"Sukunimi Etunimi", copied out of the browser with a tab between the columns (a text editor may turn
them into runs of spaces; a CSV file has ";" or ","). A header line is optional. KaisaKaavio reads
the same table (its registration reader): a place "-" is a registration without a ranking place,
"12." is place 12, and its seeding is the list's order, best place first.

The reader is pure and says everything that is wrong: each bad line with its number and why
(:class:`LineProblem`), so the service stores nothing unless every line reads
(game/tournaments/services/ranking.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.utils.translation import gettext_noop

from game.common.names import name_clean, register_key
from game.common.numbers import shown

#: A name, a club: as long as an entry's (TournamentEntry.name, .club).
NAME_LENGTH = 80
CLUB_LENGTH = 80
#: A place on a national ranking list (a few hundred players); a handicap is checked against the
#: event's target by the service.
PLACES = (1, 9999)
HANDICAPS = (0, 999)
#: More lines than any list an event takes (64 entries, with its header and reserves).
MOST_LINES = 500
MOST_CHARACTERS = 100_000
#: The words a header's columns are, in the languages a list comes in (casefolded).
HEADER_WORDS = frozenset(("sija", "nimi", "seura", "place", "name", "club", "место", "имя", "клуб", "#"))
NO_PLACE = "-"
_PLACE = re.compile(r"^(\d{1,4})\.?$")
_SPACES = re.compile(r" {2,}")


@dataclass(frozen=True)
class LineProblem:
    """Why line `line` (1 = the first of the text) is refused: words marked with gettext_noop."""

    line: int
    words: str
    params: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class RankedPlayer:
    line: int
    #: None: registered without a ranking place ("-")
    place: int | None
    name: str
    club: str

    @property
    def key(self) -> str:
        return register_key(self.name)


@dataclass(frozen=True)
class HandicapLine:
    line: int
    name: str
    handicap: int


def columns(line: str) -> list[str]:
    """A line's columns: split at tabs, else at ";", else at runs of two or more spaces, else at ","
    (a name has single spaces, so a single space never splits)."""
    for splitter in ("\t", ";"):
        if splitter in line:
            parts = line.split(splitter)
            break
    else:
        parts = _SPACES.split(line) if _SPACES.search(line) else line.split(",")
    return [name_clean(part.strip().strip('"')) for part in parts]


def _is_header(parts: list[str]) -> bool:
    return any(part.casefold() in HEADER_WORDS for part in parts)


def _place(text: str, line: int) -> tuple[int | None, LineProblem | None]:
    if text == NO_PLACE:
        return None, None
    match = _PLACE.match(text)
    if match is None or not PLACES[0] <= int(match[1]) <= PLACES[1]:
        words = gettext_noop("line %(line)s: the place is %(value)s: a place is %(least)s to %(most)s, or -")
        return None, LineProblem(line, words, {"value": shown(text), "least": PLACES[0], "most": PLACES[1]})
    return int(match[1]), None


def _text_problem(line: int, what: str, text: str, most: int) -> LineProblem | None:
    if not text:
        return LineProblem(line, what, {})
    if len(text) > most:
        words = gettext_noop("line %(line)s: %(value)s is longer than %(most)s characters")
        return LineProblem(line, words, {"value": shown(text), "most": most})
    return None


def _lines(text: str) -> list[tuple[int, list[str]]]:
    """The text's non-blank lines as (number, columns), a first line that is a header left out."""
    read = [(number, columns(line)) for number, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if read and _is_header(read[0][1]):
        read = read[1:]
    return read


def _too_long(text: str) -> LineProblem | None:
    if len(text) > MOST_CHARACTERS or len(text.splitlines()) > MOST_LINES:
        words = gettext_noop("the list is longer than %(most)s lines or %(characters)s characters")
        return LineProblem(0, words, {"most": MOST_LINES, "characters": MOST_CHARACTERS})
    return None


def _ranked(number: int, parts: list[str]) -> tuple[RankedPlayer | None, list[LineProblem]]:
    if len(parts) != 3:
        words = gettext_noop("line %(line)s: a line is a place, a name and a club; this one has %(count)s parts")
        return None, [LineProblem(number, words, {"count": len(parts)})]
    place, problem = _place(parts[0], number)
    problems = [p for p in (problem,) if p is not None]
    for what, text, most in (
        (gettext_noop("line %(line)s: the name is missing"), parts[1], NAME_LENGTH),
        (gettext_noop("line %(line)s: the club is missing"), parts[2], CLUB_LENGTH),
    ):
        text_problem = _text_problem(number, what, text, most)
        if text_problem is not None:
            problems.append(text_problem)
    if problems:
        return None, problems
    return RankedPlayer(number, place, parts[1], parts[2]), []


def read_ranking_list(text: str) -> tuple[list[RankedPlayer], list[LineProblem]]:
    """The players of a pasted ranking list in its order, and every line's problem (none: it reads).
    A name twice (as the register compares names: case and accents aside) or a place twice is a
    problem of the later line; so is a list of no player."""
    too_long = _too_long(text)
    if too_long is not None:
        return [], [too_long]
    players: list[RankedPlayer] = []
    problems: list[LineProblem] = []
    names: dict[str, int] = {}
    places: dict[int, int] = {}
    for number, parts in _lines(text):
        player, line_problems = _ranked(number, parts)
        problems += line_problems
        if player is None:
            continue
        if player.key in names:
            words = gettext_noop("line %(line)s: %(name)s is already on line %(first)s")
            problems.append(LineProblem(number, words, {"name": shown(player.name), "first": names[player.key]}))
            continue
        if player.place is not None and player.place in places:
            words = gettext_noop("line %(line)s: place %(place)s is already on line %(first)s")
            problems.append(LineProblem(number, words, {"place": player.place, "first": places[player.place]}))
            continue
        names[player.key] = number
        if player.place is not None:
            places[player.place] = number
        players.append(player)
    if not players and not problems:
        problems.append(LineProblem(0, gettext_noop("the list has no player"), {}))
    return players, problems


def seeding_order(players: list[RankedPlayer]) -> list[RankedPlayer]:
    """The players in the order they are seeded: by place (the list's order among equal ones), the
    players without a place after the ranked ones, in the list's order."""
    return sorted(players, key=lambda p: (p.place is None, p.place or 0, p.line))


def read_handicap_list(text: str) -> tuple[list[HandicapLine], list[LineProblem]]:
    """A club's handicap list: a name and a handicap a line (a header optional), every line's
    problem as the ranking list's."""
    too_long = _too_long(text)
    if too_long is not None:
        return [], [too_long]
    read: list[HandicapLine] = []
    problems: list[LineProblem] = []
    names: dict[str, int] = {}
    for number, parts in _lines(text):
        if len(parts) != 2:
            words = gettext_noop("line %(line)s: a line is a name and a handicap; this one has %(count)s parts")
            problems.append(LineProblem(number, words, {"count": len(parts)}))
            continue
        name, given = parts
        problem = _text_problem(number, gettext_noop("line %(line)s: the name is missing"), name, NAME_LENGTH)
        if problem is None and not (given.isascii() and given.isdigit() and int(given) <= HANDICAPS[1]):
            words = gettext_noop("line %(line)s: the handicap is %(value)s: a handicap is %(least)s to %(most)s")
            problem = LineProblem(number, words, {"value": shown(given), "least": HANDICAPS[0], "most": HANDICAPS[1]})
        if problem is None and register_key(name) in names:
            words = gettext_noop("line %(line)s: %(name)s is already on line %(first)s")
            problem = LineProblem(number, words, {"name": shown(name), "first": names[register_key(name)]})
        if problem is not None:
            problems.append(problem)
            continue
        names[register_key(name)] = number
        read.append(HandicapLine(number, name, int(given)))
    if not read and not problems:
        problems.append(LineProblem(0, gettext_noop("the list has no player"), {}))
    return read, problems
