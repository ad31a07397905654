"""The values of a KaisaKaavio file as the program writes and reads them (its Kilpailu.cs, Peli.cs,
Tyypit/Aika.cs and the XML serializer's rules): a game's points and the result they make, its state's
names, the settings' decimals, booleans and names and the program's own defaults. Each is read the way
the program reads it; one it cannot read, or one Kaiza has no place for, is refused with the field,
the value and the rule (game/tournaments/values.py words a refusal). docs/double-loss-draw.md, "The
forms of the program's files", lists them.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping

from django.utils.translation import gettext_noop

from game.matches.clock_presets import EventClock, event_clock_problems
from game.tournaments import values
from game.tournaments.refusal import TournamentError
from game.tournaments.values import Words

#: A game's state (`Tilanne`, the program's PelinTilanne by name): not ready, ready to start, being
#: played, played. The program refuses a file with any other name.
NOT_STARTED, READY, RUNNING, PLAYED = "Tyhja", "ValmiinaAlkamaan", "Kaynnissa", "Pelattu"
GAME_STATES = (NOT_STARTED, READY, RUNNING, PLAYED)
#: The program's own values of a setting its file leaves out (Kilpailu.cs; it writes each of them
#: always, so only a file made by hand lacks one): a missing setting is the program's, not Kaiza's.
DEFAULT_FORMAT = "Pudari3Kierros"
DEFAULT_GAME_MINUTES = 40
DEFAULT_SHOOTOUT_VISITS = 3
DEFAULT_TARGET = 60
#: Points as the program reads them (Peli.Pisteet): a number (or nothing), a sign, and the winner's
#: `v` or the loser's `h` (either case, before or after the number: "45v", "0h", "v", " 1v").
_POINTS = re.compile(r"\s*([vh]*)\s*([-\u2212]?[0-9]*)\s*([vh]*)\s*", re.IGNORECASE | re.ASCII)
#: A setting the program keeps as a decimal number: digits, or digits with a zero fraction ("40.0").
_ZERO_FRACTION = re.compile(r"\s*([-\u2212]?[0-9]+)\.0*\s*", re.ASCII)
#: The program's booleans as .NET's XML reader takes them (XmlConvert: lower case only).
_BOOLEANS = {"true": True, "1": True, "false": False, "0": False}
#: Enumerations the import reads, with every name the program knows (a file with another is one the
#: program refuses to open).
GAMES = ("Kaisa", "Pool", "Kara", "Pyramidi", "Heyball", "Snooker")
SEEDINGS = ("EiSijoittamista", "Sijoitetaan8Pelaajaa", "Sijoitetaan24Pelaajaa")
SERIES = (
    "Yleinen",
    "Naiset",
    "JunioritPT16",
    "JunioritPT18",
    "NuoretMN21",
    "SenioritMN40",
    "SenioritMN50",
    "SenioritMN60",
    "SenioritMN70",
    "SenioritMN80",
    "Parikilpailu",
    "MixedDoubles",
    "Joukkuekilpailu",
)
TEAM_EVENT = "Joukkuekilpailu"


class KaavioError(TournamentError):
    """A file refused for its shape, with the reason in words (gettext_noop) and their placeholders."""

    def __init__(self, words: str, params: Mapping[str, object] | None = None) -> None:
        super().__init__("bad_file", words, params)

    @property
    def reason(self) -> str:
        return self.message


def choice(fields: dict[str, str], tag: str, known: tuple[str, ...]) -> str | None:
    """A setting that names one of the program's values exactly (None if the file leaves it out)."""
    text = fields.get(tag)
    if text is not None and text not in known:
        rule = gettext_noop("the program knows %(known)s, written exactly so")
        raise values.refuse(tag, text, rule, {"known": ", ".join(known)})
    return text


def boolean(fields: dict[str, str], tag: str, default: bool) -> bool:
    """A true/false setting as the program's XML reader takes one ("true", "false", "1", "0")."""
    text = fields.get(tag)
    if text is None:
        return default
    if text not in _BOOLEANS:
        raise values.refuse(tag, text, gettext_noop("the program writes true or false here"))
    return _BOOLEANS[text]


def decimal_number(text: str | None, *, field: object) -> int | None:
    """A number the program keeps as a decimal ("40", or "40.0"), as a whole number (None if blank)."""
    match = _ZERO_FRACTION.fullmatch(text or "")
    return values.number_of(match[1] if match else text, field=field)


def number_setting(fields: dict[str, str], tag: str, default: int) -> int:
    """A number setting: the program's default if the file leaves it out; an empty one is refused
    (the program cannot open a file with one)."""
    if tag not in fields:
        return default
    value = decimal_number(fields[tag], field=tag)
    if value is None:
        raise values.refuse(tag, "", gettext_noop("the program writes a number here"))
    return value


def target_of(fields: dict[str, str]) -> int:
    """The points a game is played to, checked as the event form checks them before the games are
    read by them (a game at the target is won there)."""
    target = number_setting(fields, "TavoitePistemaara", DEFAULT_TARGET)
    for words, params in event_clock_problems(EventClock(None, 0, 0, 1, target)):
        raise values.refuse("TavoitePistemaara", target, words, params)
    return target


def game_minutes_of(fields: dict[str, str]) -> int | None:
    """The game time in minutes, None for no limit: the program's `PeliaikaOnRajattu` false, or a
    time of 0 (its new-event form writes both for an event without a limit). An empty `PeliAika` is
    no limit too: Kaiza's exports before it wrote the program's form wrote one."""
    limited = boolean(fields, "PeliaikaOnRajattu", True)
    if "PeliAika" in fields and not fields["PeliAika"]:
        return None
    minutes = number_setting(fields, "PeliAika", DEFAULT_GAME_MINUTES)
    return minutes if limited and minutes != 0 else None


def game_field(number: int, tag: str) -> Words:
    """A game's attribute as a refusal names it: "game 3's Kierros"."""
    return Words(gettext_noop("game %(game)s's %(tag)s"), {"game": number, "tag": tag})


def named(number: int, tag: str) -> Callable[[], Words]:
    """The game's attribute's name, made only if a refusal needs it (values.refuse)."""
    return lambda: game_field(number, tag)


#: A player's points in a game: the number (None if none), the winner's `v`, the loser's `h`.
Points = tuple[int | None, bool, bool]


def points_of(text: str, number: int, tag: str) -> Points:
    """A player's points in a game as the program reads them: the number (None if none) and whether
    they carry the winner's `v` and the loser's `h`."""
    match = _POINTS.fullmatch(text)
    if match is None:
        rule = gettext_noop("points are a whole number (digits 0 to 9) with the winner's 'v' or the loser's 'h'")
        raise values.refuse(game_field(number, tag), text, rule)
    before, digits, after = match.groups()
    if digits in ("-", "\u2212"):
        digits = ""
    marks = set((before + after).lower())
    if len(marks) > 1:
        raise KaavioError(
            gettext_noop("game %(game)s's %(tag)s marks its player both the winner (v) and the loser (h)"),
            {"game": number, "tag": tag},
        )
    return values.number_of(digits, field=named(number, tag)), "v" in marks, "h" in marks


def winner_of(number: int, first: Points, second: Points, target: int) -> int | None:
    """The player (1 or 2) a game's points make the winner, as the program decides it (Peli.cs
    PaivitaTulos): the `v`, else the other's `h`, else the one at the event's target; None if they
    decide nobody yet. Marks that contradict each other are refused, as the program marks the game
    faulty and will not go on until it is fixed; so is a game both players lose (`h` and `h`), which
    the program counts as a loss for each and Kaiza's draw has no place for."""
    (first_points, first_won, first_lost), (second_points, second_won, second_lost) = first, second
    if first_won and second_won:
        raise KaavioError(gettext_noop("game %(game)s marks both players the winner"), {"game": number})
    if first_lost and second_lost:
        raise KaavioError(
            gettext_noop("game %(game)s marks both players the loser (h), a result Kaiza's draw does not have"),
            {"game": number},
        )
    if first_won or second_lost:
        return 1
    if second_won or first_lost:
        return 2
    reached = ((first_points or 0) >= target, (second_points or 0) >= target)
    if all(reached):
        raise KaavioError(
            gettext_noop(
                "game %(game)s: both players have %(target)s points or more and neither is marked the winner (v)"
            ),
            {"game": number, "target": target},
        )
    return 1 if reached[0] else 2 if reached[1] else None


def state_of(node: ET.Element, number: int, *, decided: bool) -> str:
    """A game's state as the program has it once it shows its games (PaivitaTulos): a game being
    played, or ready, whose points decide it is played; a played one whose points decide nothing is
    still being played. A missing state is the program's first, not started; so is an empty one,
    which Kaiza's exports wrote before they wrote the program's names."""
    state = node.get("Tilanne", NOT_STARTED) or NOT_STARTED
    if state not in GAME_STATES:
        rule = gettext_noop("the program knows %(known)s, written exactly so")
        raise values.refuse(game_field(number, "Tilanne"), state, rule, {"known": ", ".join(GAME_STATES)})
    if decided and state in (READY, RUNNING):
        return PLAYED
    if not decided and state == PLAYED:
        return RUNNING
    return state
