"""KaisaKaavio files in and out: a club's event imported from the program's XML as
an event at the club, and any drawn event written back in the same format, so a club can move between
the two programs.

Decisions (docs/double-loss-draw.md, "KaisaKaavio files"):
- **Participants are walk-ins**: each the club's register player of that name (walk_ins.py: the
  same person as in the club's other events), not an account: a name that happens to match a
  member's is no proof it is that member. The director joins a player to its account
  (walk_ins.club_player_link), which is checked and deliberate; a player joined so is that account.
- **An event already here is refused** with its address: the same file again (its SHA-256 is
  kept), or an event of the same name on the same day of the club's calendar.
- **The draw list is the file's**: the participants in the order of their ids, as the program's
  draw reads them; the entries' seeds are chosen so that Kaiza's list (selectors/draw.py: seeds 1-8
  at the handbook's places) is exactly that order.
- **Each game is stored as the file has it**, in its order, round and result. How it ended is not
  in the file: a winner with fewer or equal points won the shoot-out (K-11.4), one at the target won
  there, any other won on time. A game not yet played waits for a free table.
- **Everything is checked before anything is written**, and the import is one transaction: a refused
  file (not XML, an unknown format, a game naming an unknown player, a third loss, a draw Kaiza's
  rules refuse) stores nothing and says why.
- **The program's other settings that Kaiza has a home for are kept** (:func:`kept_of`) and written
  back by the export: the start (`AlkamisAika`'s date at `KellonAika`) as the event's start time,
  `PelaajiaEnintaan` as its most entries (when within Kaiza's 2..64), `Laji` (Kaisa: a file of
  another game is refused), each participant's club `Seura` (the entry's and its register player's)
  and handicap `Tasoitus` (a whole number below the target: the score his games start at), the seed
  marks `Sijoitettu` (Kaiza's seeds 1-8 at the handbook's places: a mark must be where its seed
  stands in the draw list), each game's table `Poyta` and its runs (`PisinSarja1/2`,
  `ToiseksiPisinSarja1/2`: each player's two longest, on the pairing). A bad value
  in one of them is refused with the reason, like any other.
- **Every value is checked as the forms check it** (game/tournaments/values.py): numbers in the digits
  0-9, rounds 1 to 128, tables 1 to 32, the clock as the event form's, each played game's points as
  the phone's result form's (0 to target + 30, an end a game can have), the start within the years
  1970-2099 once its zone is applied. A refusal names the field and the value.
- **What Kaiza has no place for is named, not kept** (:attr:`Imported.ignored`: the program's fees,
  dress code, director's name, end date, the games' clock times, late entries):
  the command prints the list and the upload page shows it, so nobody believes they were moved.
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any
from zoneinfo import ZoneInfo

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from game.common.clock import game_now
from game.common.names import name_clean, register_key
from game.matches.clock_presets import EventClock, event_clock_of, event_clock_problems
from game.models import Club, ClubPlayer
from game.models.tournaments import (
    Tournament,
    TournamentBout,
    TournamentEntry,
    TournamentEntryMember,
    TournamentPairing,
    TournamentRound,
    TournamentTeamPlayer,
    TournamentVenue,
)
from game.tournaments import values
from game.tournaments.categories import CATEGORY_OF_SERIES, is_pairs_file, partners_of, series_of
from game.tournaments.draw_words import draw_refusal
from game.tournaments.kaisakaavio import (
    CHAMPIONSHIP_SEEDING,
    FORMATS,
    NO_RUNS,
    FileGame,
    KaavioFile,
    Participant,
    cup_lots,
    cup_slot,
    parse,
    write,
)
from game.tournaments.kaisakaavio_teams import (
    PAIRS_DRAWN,
    TEAM,
    TEAM_ID,
    TEAM_SERIES,
    TeamFile,
    is_team_file,
    team_file,
)
from game.tournaments.kaisakaavio_values import GAMES, NOT_STARTED, PLAYED, RUNNING, choice, decimal_number
from game.tournaments.kaisakaavio_venues import GAME_PLACE, JOIN_TAG, PLAYER_PLACE, FileVenue
from game.tournaments.pairing.double_loss import DrawError, DrawState, Format, Game, is_finished, listing_order
from game.tournaments.pairing.double_loss_state import CUP_FIRST_ROUND, MINIMUM_FIELD
from game.tournaments.pairing.draw_seeding import MOST_SEEDS
from game.tournaments.pairing.results import decided
from game.tournaments.selectors.draw import (
    LATE_FORMATS,
    draw_list,
    draw_state,
    drawn_pairings,
    is_drawn,
    seeds_placed,
)
from game.tournaments.services.base import TournamentError, require_manager
from game.tournaments.services.club import AT_TARGET
from game.tournaments.services.draw import draw_rounds_settle, draw_searched_now
from game.tournaments.services.kaavio_checks import (
    ended_of,
    file_error,
    list_is_drawn,
    results_checked,
    seeds_marked,
    tables_of,
)
from game.tournaments.services.play import draw_advance, tournament_finish
from game.tournaments.services.venues import NAME_LENGTH as VENUE_NAME_LENGTH
from game.tournaments.services.venues import SHORT_LENGTH, table_offsets
from game.tournaments.services.walk_ins import walk_in_player
from game.tournaments.values import ENTRIES_RANGE, Said, Words, bounded, refuse, shown

#: The tables an imported event is played on unless the director says otherwise (the file has no
#: such setting); a club changes it like any other setting.
DEFAULT_TABLES = 4
#: The warning before the end of a file's game time: K-11.1's own lead (clock_presets.py).
WARNING_MINUTES = 5
#: An upload larger than this is refused unread: the largest sample (111 games) is about 40 kB.
MOST_BYTES = 2_000_000
FALLBACK_NAME = "KaisaKaavio"
#: The program's `Sijoittaminen` (its seeding) that an export writes: marks for 8 seeds, or none.
SEEDS_MARKED, NO_SEEDS = "Sijoitetaan8Pelaajaa", "EiSijoittamista"
#: A participant's name (TournamentEntry.name), and how many ignored fields the user is told of (each
#: cut to 60 characters: a file's tag may be of any length).
NAME_LENGTH = 80
CLUB_LENGTH = 80
MOST_NAMED = 40
#: The settings beyond the clock and format that Kaiza keeps (Tournament.starts_at, max_entries; the
#: game, which is always Kaisa); every other one of the file is named as ignored.
KEPT_SETTINGS = ("AlkamisAika", "KellonAika", "PelaajiaEnintaan", "Laji", "Sijoittaminen", "KilpaSarja")
#: A pair's partners' names (categories.py), kept as the pair entry's two register players, and
#: their clubs (the program's `PitkaNimi` says a pair with them), kept on the entry and the register.
PARTNER_NAMES = ("Pelaajan1Nimi", "Pelaajan2Nimi")
PARTNER_CLUBS = ("Pelaajan1Seura", "Pelaajan2Seura")
KAISA = "Kaisa"


@dataclass(frozen=True)
class Kept:
    """What a file gives Kaiza beyond its participants, games and clock (checked): the start (None:
    no date in the file), the most entries (None: not kept), how many top seeds it marks, each
    game's table by its index (0-based, in draw order), and the names of the fields it ignores."""

    starts_at: datetime.datetime | None
    max_entries: int | None
    seeds_marked: int
    tables: dict[int, int]
    ignored: tuple[str, ...]


@dataclass(frozen=True)
class Imported:
    """The event an import made and the file's fields it did not keep (to tell the user)."""

    tournament: Tournament
    ignored: tuple[str, ...]


def _refused(reason: TournamentError) -> TournamentError:
    """A file's refusal: "the file is refused: <why>", the why worded in the reader's language."""
    return TournamentError("bad_file", gettext_noop("the file is refused: %(reason)s"), {"reason": Said(reason)})


#: The file's tags of the clock's settings, to name the one out of range.
CLOCK_TAGS = {"game_minutes": "PeliAika", "shootout_visits": "RankkareidenMaara", "target_score": "TavoitePistemaara"}


def _clock(kaavio: KaavioFile) -> EventClock:
    """The file's clock, checked as the event form checks one (a target of 0 is refused, not read as
    the default: only a missing setting takes Kaiza's)."""
    minutes = kaavio.game_minutes
    clock = EventClock(
        game_minutes=minutes,
        warning_minutes=WARNING_MINUTES if minutes is None or minutes > WARNING_MINUTES else 0,
        extra_visits=0,
        shootout_visits=kaavio.shootout_visits,
        target_score=kaavio.target,
    )
    for words, params in event_clock_problems(clock):
        setting = str(params.get("setting", ""))
        if setting in CLOCK_TAGS:
            raise refuse(CLOCK_TAGS[setting], params["value"], words, params)
        raise TournamentError("bad_file", words, params)
    return clock


def seeds_for(order: list[int]) -> list[int]:
    """The seed order whose draw list (selectors.draw.draw_list) is `order`: the inverse of placing
    seeds 1-8 at the handbook's places, found by placing the seed numbers themselves."""
    places = draw_list(list(range(len(order))))  # places[p] = the seed index at place p
    seeded = [0] * len(order)
    for place, seed_index in enumerate(places):
        seeded[seed_index] = order[place]
    return seeded


def _format_of(kaavio: KaavioFile) -> tuple[Format, int | None]:
    """The file's format and knockout round; a double-loss event seeding 24 is a championship."""
    kind, knockout_from = FORMATS[kaavio.format]
    return (Format.CHAMPIONSHIP if kaavio.championship_seeds else kind), knockout_from


def _seed_order(kaavio: KaavioFile, marked: int) -> tuple[list[int], bool]:
    """The entries' seed order that gives back the file's draw list, and whether the list is kept
    place by place (`TournamentEntry.list_place`). A championship's seeds by their marks, then the
    others in the list's order (selectors.draw.championship_list); the same for a list the program
    drew with its seeds (`list_kept`). Otherwise the order whose top 8 at their places give the list
    (`seeds_for`: an event without a draw number is listed so again), unless that order does not make
    the `marked` players seeds 1 to `marked` by their marks: in a field of 8 or fewer Kaiza places
    every entrant and their places clash where the file's few seeds' do not. Then the marks come first
    and the list is kept, so that an export marks the seeds the file marked, as the program does."""
    if kaavio.championship_seeds:
        return _marks_first(kaavio, kaavio.championship_seeds), list_kept(kaavio, marked)
    inverse = seeds_for(list(kaavio.draw_list))
    by_mark = sorted((int(p.seeded.strip()), p.id) for p in kaavio.participants if p.seeded.strip().isdigit())
    seeds = tuple(player for _, player in by_mark[:marked])
    if seeds and (list_kept(kaavio, marked) or tuple(inverse[:marked]) != seeds):
        return _marks_first(kaavio, seeds), True
    return inverse, False


def _marks_first(kaavio: KaavioFile, seeds: tuple[int, ...]) -> list[int]:
    return [*seeds, *(p for p in kaavio.draw_list if p not in seeds)]


def list_kept(kaavio: KaavioFile, marked: int) -> bool:
    """Whether the import keeps the file's list place by place (`TournamentEntry.list_place`): its
    seeds' places were drawn with the rest (kaavio_checks.list_is_drawn)."""
    championship = bool(kaavio.championship_seeds)
    return (championship or marked > 0) and list_is_drawn(kaavio, championship=championship, seeds=marked)


def file_draw(kaavio: KaavioFile) -> list[tuple[int, Game]]:
    """The file's games as the draw's, with their places in the file: a cup game keeps its seat in
    its round (`PeliNumeroKierroksella`, else its place among the round's games), a walk-over is a
    game of one player won by him, and a cup game whose players are not known yet is left out (the
    draw lists it once they are)."""
    cup = FORMATS[kaavio.format][0] == Format.TWO_ROUNDS_THEN_CUP
    games: list[tuple[int, Game]] = []
    in_round: dict[int, int] = {}
    for index, game in enumerate(kaavio.games):
        slot = None
        if cup and game.round >= CUP_FIRST_ROUND:
            slot = cup_slot(game, in_round.get(game.round, 0))
            in_round[game.round] = in_round.get(game.round, 0) + 1
        players = [p for p in (game.first_id, game.second_id) if p is not None]
        if not players or (len(players) == 1 and not game.played):
            continue
        first, second = players[0], (players[1] if len(players) == 2 else None)
        winner = _winner_id(game) if second is not None else (first if game.played else None)
        first_points, second_points = game.first_points or 0, game.second_points or 0
        first_round, second_round = game.first_round, game.second_round
        if first != game.first_id:  # only the second seat is filled: he is the walk-over's player
            first_points, second_points, first_round, second_round = 0, 0, second_round, first_round
        drawn = Game(first, second, game.round, first_round, second_round, winner, first_points, second_points, slot)
        games.append((index, drawn))
    return games


def _check(kaavio: KaavioFile, clock: EventClock, *, games: KaavioFile | None = None) -> None:
    """Everything Kaiza refuses in a parsed file, before a row is written. A team event's: `kaavio` its
    draw of teams, `games` the file itself (its players' names and games' results checked)."""
    if games is not None:
        _names_checked(games.participants)
    count = len(kaavio.participants)
    if not max(MINIMUM_FIELD, ENTRIES_RANGE[0]) <= count <= ENTRIES_RANGE[1]:
        raise file_error(
            gettext_noop("a drawn event has %(least)s to %(most)s participants, this one %(count)s"),
            {"least": MINIMUM_FIELD, "most": ENTRIES_RANGE[1], "count": count},
        )
    _names_checked(kaavio.participants)
    handicaps_of(kaavio)
    results_checked(games or kaavio, clock.target_score)
    drawn = file_draw(kaavio)
    try:
        DrawState(kaavio.event(), tuple(game for _, game in drawn))
    except DrawError as error:
        raise _broken(kaavio, error, {p.id: p.name for p in kaavio.participants}) from error


def _names_checked(participants: tuple[Participant, ...]) -> None:
    """Each participant's name 1 to 80 characters, no two one name to the club's register."""
    seen: set[str] = set()
    for participant in participants:
        name = name_clean(participant.name)
        if not 1 <= len(name) <= NAME_LENGTH:
            raise file_error(
                gettext_noop("the name (Nimi) of participant %(id)s is %(name)s: a name is 1 to %(most)s characters"),
                {"id": participant.id, "name": shown(name), "most": NAME_LENGTH},
            )
        if register_key(name) in seen:  # one name to the club's register: one person
            raise file_error(gettext_noop("two participants are named %(name)s"), {"name": shown(name)})
        seen.add(register_key(name))


def _broken(kaavio: KaavioFile, error: DrawError, names: dict[int, str]) -> TournamentError:
    """The draw's refusal of the file's games: its players by name, its games by the file's numbers."""
    numbers = {number: place + 1 for number, (place, _) in enumerate(file_draw(kaavio), start=1)}
    reason = draw_refusal(error, names=names, game_numbers=numbers)
    return file_error(gettext_noop("the games break the draw's rules: %(reason)s"), {"reason": Said(reason)})


def _start_of(fields: dict[str, str], ignored: list[str], zone: ZoneInfo) -> datetime.datetime | None:
    """`AlkamisAika`'s day at `KellonAika` (midnight if none) on the club's wall clock, each in any
    form the program writes or reads (values.event_date: `1.1.2025`, `01.01.2025`, ISO with or
    without a time and offset; values.time_of_day: `18:30`, `18.30`). Only the day of an ISO date
    is read, as the program reads it: it writes the club's own times (the older versions' offsets
    are Finland's +02:00 and +03:00), and the day's offset at midnight is not the start's on the
    day the clocks change."""
    day, clock = fields.get("AlkamisAika", ""), fields.get("KellonAika", "")
    if not day:
        if clock:
            ignored.append("KellonAika (no AlkamisAika: no date to start on)")
        return None
    date = values.event_date(day, field="AlkamisAika")
    time = values.time_of_day(clock, field="KellonAika") if clock else datetime.time(0)
    return datetime.datetime.combine(date, time, tzinfo=zone)


def kept_of(kaavio: KaavioFile, *, tables: int, zone: ZoneInfo) -> Kept:
    """The file's settings, seed marks and tables that Kaiza keeps, checked, and the names of the
    rest (fields with a value only: an empty one loses nothing)."""
    fields = dict(kaavio.other_fields)
    ignored: list[str] = []
    starts_at = _start_of(fields, ignored, zone)
    if starts_at is not None:  # checked as the instant it is once the zone is applied
        given = " ".join(fields.get(tag, "") for tag in ("AlkamisAika", "KellonAika")).strip()
        starts_at = values.start(starts_at, field="AlkamisAika", given=given)
    max_entries = _max_entries(kaavio, fields, ignored)
    game = choice(fields, "Laji", GAMES)
    if game is not None and game != KAISA:
        raise refuse("Laji", game, gettext_noop("Kaiza plays Kaisa only"))
    marked = seeds_marked(kaavio)
    ignored += _not_kept(kaavio, seeds=marked is not None)
    named = tuple(name if len(name) <= 60 else f"{name[:60]}…" for name in ignored[:MOST_NAMED])
    return Kept(starts_at, max_entries, marked or 0, tables_of(kaavio, tables), named)


def _max_entries(kaavio: KaavioFile, fields: dict[str, str], ignored: list[str]) -> int | None:
    """The file's most entries (PelaajiaEnintaan), at least its participants; one over Kaiza's most is
    named in `ignored` and not kept."""
    most = decimal_number(fields.get("PelaajiaEnintaan"), field="PelaajiaEnintaan")
    if most is None:
        return None
    least = len(kaavio.participants)
    rule = gettext_noop("the most entries are at least the file's %(least)s participants")
    bounded(most, field="PelaajiaEnintaan", bounds=(least, most), rule=rule)
    if most <= ENTRIES_RANGE[1]:
        return max(most, ENTRIES_RANGE[0])
    ignored.append(f"PelaajiaEnintaan ({most}: Kaiza takes at most {ENTRIES_RANGE[1]} entries)")
    return None


def _not_kept(kaavio: KaavioFile, *, seeds: bool) -> list[str]:
    """The names of the settings, lists, participant fields and game fields with a value that Kaiza does
    not keep. Seed marks that are no seeds are the ranking points a weekly event shows ("3P")."""
    ignored = [tag for tag, text in kaavio.other_fields if tag not in KEPT_SETTINGS and text.strip()]
    ignored += [f"{tag} ({count})" for tag, count in kaavio.other_lists]
    ignored += [f"Pelaaja {name}" for name in sorted(_participant_fields(kaavio, seeds=seeds))]
    game_fields = {k for g in kaavio.games for k, v in g.extra if k != "Poyta" and v.strip()}
    ignored += [f"Peli {name}" for name in sorted(game_fields)]
    return ignored


def _participant_fields(kaavio: KaavioFile, *, seeds: bool) -> set[str]:
    fields: set[str] = set()
    if not seeds:
        fields |= {"Sijoitettu"} if any(p.seeded.strip() for p in kaavio.participants) else set()
    kept = (*PARTNER_NAMES, *PARTNER_CLUBS)
    return fields | {k for p in kaavio.participants for k, v in p.extra if v.strip() and k not in kept}


def handicaps_of(kaavio: KaavioFile) -> dict[int, int]:
    """Each participant's handicap (`Tasoitus`, none: 0), a whole number below the file's target."""
    handicaps: dict[int, int] = {}
    for participant in kaavio.participants:
        field = Words(gettext_noop("the handicap (Tasoitus) of %(name)s"), {"name": shown(participant.name)})
        value = values.number_of(participant.handicap.strip(), field=field) or 0
        rule = gettext_noop("a handicap is %(least)s to %(most)s")
        handicaps[participant.id] = bounded(value, field=field, bounds=(0, kaavio.target - 1), rule=rule)
    return handicaps


def _winner_id(game: FileGame) -> int | None:
    if not game.played:
        return None
    return game.first_id if game.winner == 1 else game.second_id


def already_here(*, club: Club, digest: str, name: str, starts_at: datetime.datetime | None) -> Tournament | None:
    """The club's event a file would import again: one imported from the same file, or one of the
    same name (as the register compares names) on the same day of the club's calendar."""
    same_file = Tournament.objects.filter(club=club, source_digest=digest).order_by("pk").first()
    if same_file is not None or starts_at is None:
        return same_file
    day = starts_at.astimezone(club.zone).date()
    first = datetime.datetime.combine(day, datetime.time(0), tzinfo=club.zone)
    after = datetime.datetime.combine(day + datetime.timedelta(days=1), datetime.time(0), tzinfo=club.zone)
    that_day = Tournament.objects.filter(club=club, starts_at__gte=first, starts_at__lt=after).order_by("pk")
    return next((t for t in that_day if register_key(t.name) == register_key(name)), None)


def _walk_in(tournament: Tournament, participant: Participant, handicap: int) -> TournamentEntry:
    """A participant as a walk-in: the club's register player of the name, with the file's club (the
    register player keeps it too) and handicap; a player joined to an account is that account's
    entry (the director joined them, deliberately)."""
    player = walk_in_player(club_id=tournament.club_id, name=participant.name)
    club = name_clean(participant.club)[:CLUB_LENGTH]
    if club:
        ClubPlayer.objects.filter(pk=player.pk).update(home_club=club)
    entry = TournamentEntry.objects.create(
        tournament=tournament, name=player.name, player=player, club=club, handicap=handicap
    )
    if player.user_id is not None:
        TournamentEntryMember.objects.create(entry=entry, tournament=tournament, user_id=player.user_id, position=0)
    return entry


def entrants_of(kaavio: KaavioFile) -> tuple[str, str]:
    """The file's event's entrants (Tournament.Kind: singles or pairs) and category, from its
    `KilpaSarja` (categories.py reads a file saved before the program had the setting)."""
    series = dict(kaavio.other_fields).get("KilpaSarja") or None
    if is_team_file(kaavio):
        return Tournament.Kind.CLUB_TEAMS, Tournament.Category.GENERAL
    listed = ({"Nimi": p.name, **dict(p.extra)} for p in kaavio.participants)
    pairs = is_pairs_file(series, kaavio.name, listed)
    kind = Tournament.Kind.PAIRS if pairs else Tournament.Kind.SINGLES
    return kind, CATEGORY_OF_SERIES.get(series or "", Tournament.Category.GENERAL)


def _pair_walk_in(tournament: Tournament, participant: Participant, handicap: int) -> TournamentEntry:
    """A pair of the file under its own name, with its club and handicap, its partners the club's
    register players of their names (`Pelaajan1Nimi`/`Pelaajan2Nimi`, else the name "A & B"), each
    with the club the file gives them (`Pelaajan1Seura`/`Pelaajan2Seura`: the entry's, and the
    register player's as a single player's `Seura` is); a pair whose partners the file does not name
    is the pair's name alone."""
    fields = dict(participant.extra)
    partners = partners_of({"Nimi": participant.name, **fields})
    club = name_clean(participant.club)[:CLUB_LENGTH]
    entry = TournamentEntry(tournament=tournament, name=participant.name, club=club, handicap=handicap)
    entry.player_club, entry.partner_club = (name_clean(fields.get(tag, ""))[:CLUB_LENGTH] for tag in PARTNER_CLUBS)
    if partners is not None:
        first, second = (walk_in_player(club_id=tournament.club_id, name=name) for name in partners)
        entry.player, entry.partner = first, (second if second.pk != first.pk else None)
        for player, home in ((first, entry.player_club), (second, entry.partner_club)):
            if home:
                ClubPlayer.objects.filter(pk=player.pk).update(home_club=home)
    entry.save()
    return entry


def _late_settings(kaavio: KaavioFile, entrants: str, kind: Format) -> dict[str, Any]:
    """The file's late entrants' list, kept; they wait to be drawn in as in the program, so late
    entries are on where Kaiza's draw takes them (services/late_entries.py)."""
    takes = entrants == Tournament.Kind.SINGLES and kind.value in LATE_FORMATS
    return {
        "file_late_entrants": [[list(pair) for pair in entrant] for entrant in kaavio.late_entrants],
        "late_entries": bool(kaavio.late_entrants) and takes,
    }


def _team_walk_ins(tournament: Tournament, team: Participant, players: tuple[Participant, ...]) -> TournamentEntry:
    """A team of the file under its name, its players the club's register players of their names
    (each with the file's club, `Seura`), in their ids' order."""
    entry = TournamentEntry.objects.create(tournament=tournament, name=name_clean(team.name))
    for position, participant in enumerate(players):
        player = walk_in_player(club_id=tournament.club_id, name=participant.name)
        club = name_clean(participant.club)[:CLUB_LENGTH]
        if club:
            ClubPlayer.objects.filter(pk=player.pk).update(home_club=club)
        TournamentTeamPlayer.objects.create(entry=entry, tournament=tournament, player=player, position=position)
    return entry


def _entries(
    tournament: Tournament, kaavio: KaavioFile, *, cup: bool, marked: int = 0, team: TeamFile | None = None
) -> dict[int, TournamentEntry]:
    """The file's participants as the event's entries (walk-ins, pairs or teams of walk-ins) by their
    file ids, seeded so that Kaiza's draw list is the file's, with a cup's lots."""
    handicaps = handicaps_of(kaavio)
    if team is not None:
        entry_of = {p.id: _team_walk_ins(tournament, p, team.players[p.id]) for p in kaavio.participants}
    elif tournament.kind == Tournament.Kind.PAIRS:
        entry_of = {p.id: _pair_walk_in(tournament, p, handicaps[p.id]) for p in kaavio.participants}
    else:
        entry_of = {p.id: _walk_in(tournament, p, handicaps[p.id]) for p in kaavio.participants}
    order, kept = _seed_order(kaavio, marked)
    place = {file_id: number for number, file_id in enumerate(kaavio.draw_list, start=1)}
    for seed, file_id in enumerate(order, start=1):
        entry_of[file_id].seed = seed
        entry_of[file_id].list_place = place[file_id] if kept else None
        entry_of[file_id].save(update_fields=["seed", "list_place"])
    if cup:
        for lot, file_id in enumerate(cup_lots(kaavio), start=1):
            entry_of[file_id].cup_lot = lot
            entry_of[file_id].save(update_fields=["cup_lot"])
    return entry_of


@transaction.atomic
def kaavio_import(*, user: Any, club: Club, data: bytes, tables: int = DEFAULT_TABLES) -> Imported:
    """A KaisaKaavio file as a new event of `club` played at the club on `tables` tables. `user` None
    is the operator's command (manage.py kaisakaavio import); otherwise a club admin's upload. The
    event comes back with the names of the file's fields Kaiza did not keep."""
    if user is not None:
        require_manager(club_id=club.pk, user=user)
    values.tables(tables)
    try:
        games, team, clock, kept = _read(data, tables=tables, zone=club.zone)
    except TournamentError as error:
        raise _refused(error) from error
    kaavio = games if team is None else team.teams  # a team event's draw is of teams
    kind, knockout_from = _format_of(kaavio)
    entrants, category = entrants_of(games)
    name = name_clean(kaavio.name)[:80]
    name = name if len(name) >= 3 else FALLBACK_NAME
    digest = hashlib.sha256(data).hexdigest()
    there = already_here(club=club, digest=digest, name=name, starts_at=kept.starts_at)
    if there is not None:
        day = there.starts_at.astimezone(club.zone).date().isoformat()
        raise TournamentError(
            "already_imported",
            gettext_noop("this event is already here: %(name)s, %(day)s"),
            {"name": there.name, "day": day, "url": f"/tournaments/{there.pk}/"},
        )
    tournament = Tournament.objects.create(
        club=club,
        name=name,
        source_digest=digest,
        format=kind.value,
        knockout_from=knockout_from,
        kind=entrants,
        category=category,
        rated=False,
        time_limit=clock.time_limit,
        ruleset=clock.ruleset(),
        max_entries=kept.max_entries or max(16, len(kaavio.participants)),
        starts_at=kept.starts_at or timezone.now(),
        seeds_marked=kept.seeds_marked,
        status=Tournament.Status.RUNNING,
        tables=tables,
        created_by=user,
        started_at=timezone.now(),
        **_late_settings(kaavio, entrants, kind),
    )
    entry_of = _entries(tournament, kaavio, cup=kind == Format.TWO_ROUNDS_THEN_CUP, marked=kept.seeds_marked, team=team)
    player_of = _team_players_of(tournament, team)
    _venues_of_file(tournament, kaavio, entry_of, tables)
    rounds: dict[int, TournamentRound] = {}
    for index, (place, drawn) in enumerate(file_draw(kaavio)):
        game = kaavio.games[place]
        round_ = rounds.get(game.round) or TournamentRound.objects.create(
            tournament=tournament, number=game.round, status=TournamentRound.Status.PLAYING, started_at=timezone.now()
        )
        rounds[game.round] = round_
        pairing = _pairing_of(tournament, round_, index, drawn, game, entry_of, kept.tables.get(place), clock)
        if team is not None:
            pairing.result_code = AT_TARGET if pairing.status == TournamentPairing.Status.DONE else ""
            pairing.save(update_fields=["result_code"])
            _bouts_kept(pairing, team.bouts[place], player_of, clock.target_score)
    try:
        state = draw_state(tournament=tournament)  # the rows read back are the file's draw
    except DrawError as error:
        names = {entry.pk: entry.name for entry in entry_of.values()}
        raise _refused(_broken(kaavio, error, names)) from error
    draw_searched_now(tournament, state)  # the file's draw searched after its results: Kaiza does not again
    draw_rounds_settle(tournament)
    if is_finished(state):
        tournament_finish(tournament)
    else:
        draw_advance(tournament, game_now())  # the unplayed games get tables, the draw goes on
    return Imported(tournament, kept.ignored)


def _read(data: bytes, *, tables: int, zone: ZoneInfo) -> tuple[KaavioFile, TeamFile | None, EventClock, Kept]:
    """The file, checked: itself, a team event's draw of teams (None for others), its clock and what
    Kaiza keeps of it; a refusal with the reason otherwise."""
    if len(data) > MOST_BYTES:
        raise file_error(gettext_noop("the file is larger than %(most)s MB"), {"most": MOST_BYTES // 1_000_000})
    kaavio = parse(data, teams=True)
    team = team_file(kaavio) if is_team_file(kaavio) else None
    drawn = kaavio if team is None else team.teams  # the draw is of teams; the file's games are their players'
    clock = _clock(drawn)
    _check(drawn, clock, games=None if team is None else kaavio)
    kept = kept_of(drawn, tables=tables, zone=zone)
    if team is not None and any(run is not None for g in kaavio.games for run in (*g.first_runs, *g.second_runs)):
        kept = replace(kept, ignored=(*kept.ignored, "Peli PisinSarja (the runs of a team game's games)"))
    return kaavio, team, clock, kept


def _pairing_of(
    tournament: Tournament,
    round_: TournamentRound,
    index: int,
    drawn: Game,
    game: FileGame,
    entry_of: dict[int, TournamentEntry],
    table: int | None,
    clock: EventClock,
) -> TournamentPairing:
    """A game of the file stored as it is: its players, table, seat and result (a walk-over a bye)."""
    first = entry_of[drawn.first]
    second = None if drawn.second is None else entry_of[drawn.second]
    pairing = TournamentPairing(
        round=round_,
        tournament=tournament,
        index=index,
        first=first,
        second=second,
        table=table,
        slot="" if drawn.slot is None else str(drawn.slot),
    )
    if drawn.winner is not None:
        winner = entry_of[drawn.winner].pk
        result = decided(first.pk, None if second is None else second.pk, winner)
        pairing.status = TournamentPairing.Status.DONE
        pairing.how = TournamentPairing.How.PLAYED if second is not None else TournamentPairing.How.BYE
        pairing.winner_id = winner
        pairing.first_points, pairing.second_points = result.first_points, result.second_points
        pairing.first_score, pairing.second_score = drawn.first_points, drawn.second_points
        pairing.result_code = ended_of(game, clock.target_score) if second is not None else ""
        pairing.finished_at = timezone.now()
    _runs_kept(pairing, game, drawn)
    pairing.save()
    return pairing


def _team_players_of(tournament: Tournament, team: TeamFile | None) -> dict[int, int]:
    """The register player (id) of each player of a team file, by the player's file id."""
    if team is None:
        return {}
    rows = TournamentTeamPlayer.objects.filter(tournament=tournament).order_by("entry_id", "position")
    by_entry: dict[int, list[int]] = {}
    for entry_id, player_id in rows.values_list("entry_id", "player_id"):
        by_entry.setdefault(entry_id, []).append(player_id)
    names = dict(TournamentEntry.objects.filter(tournament=tournament).values_list("name", "pk"))
    player_of: dict[int, int] = {}
    for team_id, players in team.players.items():
        team_name = next(p.name for p in team.teams.participants if p.id == team_id)
        for participant, player_id in zip(players, by_entry[names[name_clean(team_name)]], strict=True):
            player_of[participant.id] = player_id
    return player_of


def _bouts_kept(
    pairing: TournamentPairing, bouts: tuple[FileGame, ...], player_of: dict[int, int], target: int
) -> None:
    """A team game's three games as the file has them, with their results; its pairings drawn again
    (`JoukkueParitArvottu`) before any was begun is kept as one draw again."""
    begun = any(b.state in (RUNNING, PLAYED) for b in bouts)
    again = int(not begun and any(dict(b.extra).get(PAIRS_DRAWN, "").lower() == "true" for b in bouts))
    for index, bout in enumerate(bouts):
        assert bout.first_id is not None and bout.second_id is not None
        row = TournamentBout(
            pairing=pairing,
            index=index,
            first_player_id=player_of[bout.first_id],
            second_player_id=player_of[bout.second_id],
            drawn_again=again,
        )
        if bout.played:
            row.winner_side = 0 if bout.winner == 1 else 1
            row.first_score, row.second_score = bout.first_points or 0, bout.second_points or 0
            row.result_code = ended_of(bout, target)
            row.finished_at = timezone.now()
        row.save()


def _runs_kept(pairing: TournamentPairing, game: FileGame, drawn: Game) -> None:
    """A game's runs as the file has them, on its pairing (a walk-over has none)."""
    if drawn.second is not None and drawn.first == game.first_id:
        pairing.first_longest_run, pairing.first_second_run = game.first_runs
        pairing.second_longest_run, pairing.second_second_run = game.second_runs


_FORMAT_NAMES = {value: key for key, value in FORMATS.items()}


def kaavio_export(*, tournament: Tournament) -> str:
    """A drawn event in KaisaKaavio's format: the participants in draw-list order (ids 1..n), every
    game in the program's list order (double_loss.listing_order) with each player's own round, its
    points and the winner's `v`, a cup game with its seat (`PeliNumeroKierroksella`), a walk-over
    with its one player."""
    if not is_drawn(tournament):
        raise TournamentError("not_drawn", gettext_noop("only a double-loss draw can be written as a KaisaKaavio file"))
    pairings = drawn_pairings(tournament=tournament)
    state = draw_state(tournament=tournament, pairings=pairings)
    file_id = {entrant: position for position, entrant in enumerate(state.event.entrants, start=1)}
    rows = TournamentEntry.objects.filter(tournament=tournament).values_list("pk", "name", "club", "handicap")
    names = {pk: name for pk, name, _, _ in rows}
    clubs = {pk: club for pk, _, club, _ in rows}
    handicaps = {pk: str(handicap) if handicap else "" for pk, _, _, handicap in rows}
    partners = _partners(tournament)
    knockout = tournament.knockout_from if tournament.format == Format.DOUBLE_LOSS_THEN_KNOCKOUT else None
    championship = state.event.format == Format.CHAMPIONSHIP
    kind = Format.DOUBLE_LOSS if championship else state.event.format
    clock = event_clock_of(ruleset=tournament.ruleset, time_limit=tournament.time_limit)
    seeds = dict(TournamentEntry.objects.filter(tournament=tournament).values_list("pk", "seed"))
    marked = len(state.event.seeds) if championship else _seeds_to_mark(tournament, len(seeds))
    zone = tournament.club.zone
    venues, places, game_place = _file_venues(tournament, state)
    games = [
        _placed(
            _file_game(pairings[index], state.games[index], file_id=file_id, zone=zone),
            game_place(index, pairings[index]),
        )
        for index in listing_order(state)  # the program's list order
    ]
    participants = tuple(
        Participant(
            id=file_id[e],
            name=names[e],
            club=clubs[e],
            seeded=str(seeds[e]) if 1 <= seeds[e] <= marked else "",
            handicap=handicaps[e],
            extra=partners.get(e, ()) + places.get(e, ()),
        )
        for e in state.event.entrants
    )
    if tournament.kind == Tournament.Kind.CLUB_TEAMS:
        order = [pairings[index] for index in listing_order(state)]
        participants, games = _team_file_parts(tournament, state.event.entrants, file_id, order, games, zone)
    settings = _file_settings(tournament, seeding=_seeding(championship, marked), join=state.event.join_round)
    return write(
        KaavioFile(
            name=tournament.name,
            format=_FORMAT_NAMES[(kind, knockout)],
            game_minutes=clock.game_minutes,
            shootout_visits=clock.shootout_visits,
            target=clock.target_score,
            participants=participants,
            games=tuple(games),
            other_fields=settings,
            late_entrants=late_entrants_of(tournament),
            venues=venues,
        )
    )


def _team_file_parts(
    tournament: Tournament,
    teams: tuple[int, ...],
    file_id: dict[int, int],
    order: list[TournamentPairing],
    team_games: list[FileGame],
    zone: ZoneInfo,
) -> tuple[tuple[Participant, ...], list[FileGame]]:
    """A team event as the program saves it (kaisakaavio_teams.py): its players, team by team in the
    draw's order, each with its team's name and id in the draw; and each team game's three games in
    the team game's place, with the team game's rounds and table."""
    names = dict(TournamentEntry.objects.filter(tournament=tournament).values_list("pk", "name"))
    rows = TournamentTeamPlayer.objects.filter(tournament=tournament).select_related("player")
    by_team: dict[int, list[Any]] = {}
    for row in rows.order_by("entry_id", "position", "pk"):
        by_team.setdefault(row.entry_id, []).append(row.player)
    player_id: dict[int, int] = {}
    participants: list[Participant] = []
    for team in teams:
        for player in by_team.get(team, []):
            player_id[player.pk] = len(player_id) + 1
            extra = ((TEAM, names[team]), (TEAM_ID, str(file_id[team])))
            participants.append(
                Participant(id=player_id[player.pk], name=player.name, club=player.home_club, extra=extra)
            )
    games: list[FileGame] = []
    for pairing, team_game in zip(order, team_games, strict=True):
        for bout in TournamentBout.objects.filter(pairing=pairing).order_by("index"):
            games.append(_bout_file_game(bout, team_game, player_id, zone))
    return tuple(participants), games


def _bout_file_game(bout: TournamentBout, team_game: FileGame, player_id: dict[int, int], zone: ZoneInfo) -> FileGame:
    """One game of a team game in the file: the team game's rounds and table, its players, its points
    and the winner's `v` once played, and whether its pairings are drawn (`JoukkueParitArvottu`)."""
    done = bout.winner_side is not None
    running = team_game.state != NOT_STARTED and not done
    extra = [("Poyta", dict(team_game.extra).get("Poyta", ""))]
    if done or running or bout.drawn_again:
        extra.append((PAIRS_DRAWN, "true"))
    if done and bout.finished_at is not None:
        extra.append(("Paattyi", bout.finished_at.astimezone(zone).isoformat(timespec="microseconds")))
    return FileGame(
        round=team_game.round,
        first_round=team_game.first_round,
        second_round=team_game.second_round,
        first_id=player_id[bout.first_player_id],
        second_id=player_id[bout.second_player_id],
        first_points=max(0, bout.first_score) if done else None,
        second_points=max(0, bout.second_score) if done else None,
        winner=None if bout.winner_side is None else bout.winner_side + 1,
        state=PLAYED if done else RUNNING if running else NOT_STARTED,
        extra=tuple(extra),
    )


def late_entrants_of(tournament: Tournament) -> tuple[tuple[tuple[str, str], ...], ...]:
    """The late entrants an imported file listed and nobody drew in yet, as the file wrote them."""
    listed = tournament.file_late_entrants if isinstance(tournament.file_late_entrants, list) else []
    return tuple(tuple((str(key), str(value)) for key, value in entrant) for entrant in listed)


def _placed(game: FileGame, place: tuple[str, int | None] | None) -> FileGame:
    """A game of an event at several places with its place (`Paikka`) and its table there."""
    if place is None:
        return game
    label, table = place
    extra = tuple((tag, ("" if table is None else str(table)) if tag == "Poyta" else text) for tag, text in game.extra)
    return replace(game, extra=(*extra, (GAME_PLACE, label)))


def _venues_of_file(
    tournament: Tournament, kaavio: KaavioFile, entry_of: dict[int, TournamentEntry], tables: int
) -> None:
    """An event at several places: its places (the host's first, on the tables given for it: the
    file does not keep them), each entry's place, the joining round; tables numbered through them.
    Nothing for an event at one place."""
    if not kaavio.venues:
        return
    labels, groups = kaavio.venue_groups()
    given = {v.label: v for v in kaavio.venues}
    total = 0
    for number, (label, group) in enumerate(zip(labels, groups, strict=True), start=1):
        venue = given.get(label)
        short = label or tournament.club.name
        name = (venue.name or venue.label) if venue is not None else short
        count = venue.tables if venue is not None else tables
        row = TournamentVenue.objects.create(
            tournament=tournament,
            number=number,
            name=name_clean(name)[:VENUE_NAME_LENGTH],
            short_name=name_clean(short)[:SHORT_LENGTH],
            tables=count,
        )
        TournamentEntry.objects.filter(pk__in=[entry_of[p].pk for p in group]).update(venue=row)
        total += count
    tournament.join_round = kaavio.event().join_round
    tournament.tables = total
    tournament.save(update_fields=["join_round", "tables"])


def _file_venues(
    tournament: Tournament, state: DrawState
) -> tuple[
    tuple[FileVenue, ...],
    dict[int, tuple[tuple[str, str], ...]],
    Callable[[int, TournamentPairing], tuple[str, int | None] | None],
]:
    """An export's places: the places other than the host's (its `PeliPaikat`), each entrant's place
    and, for a game by its index, its place and its table there (tables are numbered through the
    places in Kaiza, each place's own in the file)."""
    offsets = table_offsets(tournament)
    if not offsets or not state.event.venues:
        return (), {}, lambda index, pairing: None
    count = {v.pk: 0 for v, _ in offsets}
    venue_of = dict(TournamentEntry.objects.filter(tournament=tournament).values_list("pk", "venue_id"))
    for pk in venue_of.values():
        if pk in count:
            count[pk] += 1
    shorts = {v.pk: v.short_name for v, _ in offsets}
    places: dict[int, tuple[tuple[str, str], ...]] = {
        e: ((PLAYER_PLACE, shorts.get(venue_of.get(e) or 0, "")),) for e in state.event.entrants
    }
    venues = tuple(FileVenue(v.name, v.short_name, v.tables, count[v.pk]) for v, _ in offsets[1:])

    def game_place(index: int, pairing: TournamentPairing) -> tuple[str, int | None] | None:
        venue, first = offsets[state.event.venue_of(state.games[index])]
        return venue.short_name, None if pairing.table is None else pairing.table - first

    return venues, places, game_place


def _seeds_to_mark(tournament: Tournament, entries: int) -> int:
    """How many seeds the file marks: an import's marks, or the seeds Kaiza placed."""
    if tournament.seeds_marked is not None:
        return tournament.seeds_marked
    placed = seeds_placed(tournament)
    return min(MOST_SEEDS, entries) if placed is None else placed


def _partners(tournament: Tournament) -> dict[int, tuple[tuple[str, str], ...]]:
    """A pairs event's partners by entry, as the program writes them: their names (`Pelaajan1Nimi`,
    `Pelaajan2Nimi`) and the clubs known (`Pelaajan1Seura`, `Pelaajan2Seura`: a blank one left out,
    the program's default); none for single players or a pair without its partners."""
    if tournament.kind != Tournament.Kind.PAIRS:
        return {}
    entries = TournamentEntry.objects.filter(tournament=tournament, player__isnull=False, partner__isnull=False)
    return {
        e.pk: (
            ("Pelaajan1Nimi", e.player.name),
            *((("Pelaajan1Seura", e.player_club),) if e.player_club else ()),
            ("Pelaajan2Nimi", e.partner.name),
            *((("Pelaajan2Seura", e.partner_club),) if e.partner_club else ()),
        )
        for e in entries.select_related("player", "partner")
        if e.player is not None and e.partner is not None
    }


def _seeding(championship: bool, marked: int) -> str:
    """The file's `Sijoittaminen`: the championship's 24, the 8 seeds marked, or none."""
    if championship:
        return CHAMPIONSHIP_SEEDING
    return SEEDS_MARKED if marked else NO_SEEDS


def _file_settings(tournament: Tournament, *, seeding: str, join: int = 0) -> tuple[tuple[str, str], ...]:
    start = tournament.starts_at.astimezone(tournament.club.zone)  # the club's wall clock, as the program
    joined = ((JOIN_TAG, str(join)),) if join else ()  # an event at several places
    return (
        *joined,
        ("AlkamisAika", f"{start.day}.{start.month}.{start.year}"),  # as today's program writes its date
        ("KellonAika", start.strftime("%H:%M")),
        ("PelaajiaEnintaan", str(tournament.max_entries)),
        ("Laji", KAISA),
        ("Sijoittaminen", seeding),
        ("KilpaSarja", _series(tournament)),
    )


def _series(tournament: Tournament) -> str:
    if tournament.kind == Tournament.Kind.CLUB_TEAMS:
        return TEAM_SERIES
    return series_of(tournament.category, pairs=tournament.kind == Tournament.Kind.PAIRS)


def _file_game(pairing: TournamentPairing, game: Game, *, file_id: dict[int, int], zone: ZoneInfo) -> FileGame:
    """One game of the file: each player's own round, the points and the winner's `v` once played, its
    state, its table and times."""
    done = pairing.status == TournamentPairing.Status.DONE
    winner = None
    if done:
        winner = 1 if game.winner == game.first else 2
    running = not done and (pairing.table is not None or pairing.match_id is not None)
    scored = done and game.second is not None  # a walk-over has only its winner's `v`
    return FileGame(
        round=game.round,
        first_round=game.first_round,
        second_round=game.second_round,
        first_id=file_id[game.first],
        second_id=None if game.second is None else file_id[game.second],
        # a negative score (an online game's penalties, K-8.1) as the program writes one: 0
        first_points=max(0, pairing.first_score) if scored else None,
        second_points=max(0, pairing.second_score) if scored else None,
        winner=winner,
        state=PLAYED if done else RUNNING if running else NOT_STARTED,
        extra=_game_extra(pairing, game, done=done, running=running, zone=zone),
        first_runs=(pairing.first_longest_run, pairing.first_second_run) if scored else NO_RUNS,
        second_runs=(pairing.second_longest_run, pairing.second_second_run) if scored else NO_RUNS,
    )


def _game_extra(
    pairing: TournamentPairing, game: Game, *, done: bool, running: bool, zone: ZoneInfo
) -> tuple[tuple[str, str], ...]:
    """A game's seat in a cup round, its table, and when it began (and ended) on the club's clock."""
    extra = [("Poyta", "" if pairing.table is None else str(pairing.table))]
    if game.slot:
        extra.insert(0, ("PeliNumeroKierroksella", str(game.slot)))
    if running and pairing.table_at is not None:
        extra.append(("Alkoi", pairing.table_at.astimezone(zone).isoformat(timespec="microseconds")))
    if done and pairing.finished_at is not None:
        # when it began and ended on the club's clock, to the microsecond: the draw searched after
        # each result in the order they came, and a replay takes them in that order (`Paattyi`)
        ended = pairing.finished_at.astimezone(zone)
        began = (pairing.table_at or pairing.finished_at).astimezone(zone)
        extra += [
            ("Alkoi", began.isoformat(timespec="microseconds")),
            ("Paattyi", ended.isoformat(timespec="microseconds")),
        ]
    return tuple(extra)
