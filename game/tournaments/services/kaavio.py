"""KaisaKaavio files in and out (issue 28 item 5): a club's event imported from the program's XML as
an event at the club, and any drawn event written back in the same format, so a club can move between
the two programs.

Decisions (docs/double-loss-draw.md, "KaisaKaavio files"):
- **Participants are walk-ins**, a name only: a file names people, not accounts, and a name that
  happens to match a member's is no proof it is that member. The director joins an entry to its
  account afterwards (club.tournament_walk_in_link), which is checked and deliberate.
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
  another game is refused), the seed marks `Sijoitettu` (Kaiza's seeds 1-8 at the handbook's places:
  a mark must be where its seed stands in the draw list) and each game's table `Poyta`. A bad value
  in one of them is refused with the reason, like any other.
- **What Kaiza has no place for is named, not kept** (:attr:`Imported.ignored`: the program's fees,
  dress code, director's name, end date, the players' clubs, the games' clock times, late entries):
  the command prints the list and the upload page shows it, so nobody believes they were moved.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from game.common.clock import game_now
from game.matches.clock_presets import EventClock, event_clock_of, event_clock_problems
from game.models import Club
from game.models.tournaments import Tournament, TournamentEntry, TournamentPairing, TournamentRound
from game.tournaments.kaisakaavio import FORMATS, PLAYED, FileGame, KaavioError, KaavioFile, Participant, parse, write
from game.tournaments.pairing.double_loss import DrawError, DrawState, Format, Game, is_finished
from game.tournaments.pairing.double_loss_state import MINIMUM_FIELD
from game.tournaments.pairing.draw_seeding import MOST_SEEDS, seed_places
from game.tournaments.pairing.results import decided
from game.tournaments.selectors.draw import draw_list, draw_state, drawn_pairings, is_drawn
from game.tournaments.services.base import TournamentError, require_manager
from game.tournaments.services.club import AT_TARGET, ON_TIME, SHOOTOUT
from game.tournaments.services.draw import draw_rounds_settle
from game.tournaments.services.play import draw_advance, tournament_finish
from game.tournaments.services.setup import ENTRIES_RANGE, TABLES_RANGE

#: The tables an imported event is played on unless the director says otherwise (the file has no
#: such setting); a club changes it like any other setting.
DEFAULT_TABLES = 4
#: The warning before the end of a file's game time: K-11.1's own lead (clock_presets.py).
WARNING_MINUTES = 5
#: An upload larger than this is refused unread: the largest sample (111 games) is about 40 kB.
MOST_BYTES = 2_000_000
FALLBACK_NAME = "KaisaKaavio"
#: The settings beyond the clock and format that Kaiza keeps (Tournament.starts_at, max_entries; the
#: game, which is always Kaisa); every other one of the file is named as ignored.
KEPT_SETTINGS = ("AlkamisAika", "KellonAika", "PelaajiaEnintaan", "Laji")
KAISA = "Kaisa"
_CLOCK_TIME = re.compile(r"^\s*(\d{1,2})[:.](\d{2})\s*$")


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


def _refused(reason: str) -> TournamentError:
    return TournamentError("bad_file", gettext_noop("the file is refused: %(reason)s"), {"reason": reason})


def _clock(kaavio: KaavioFile) -> EventClock:
    minutes = kaavio.game_minutes
    clock = EventClock(
        game_minutes=minutes,
        warning_minutes=WARNING_MINUTES if minutes is None or minutes > WARNING_MINUTES else 0,
        extra_visits=0,
        shootout_visits=kaavio.shootout_visits or 5,
        target_score=kaavio.target or 60,
    )
    problems = event_clock_problems(clock)
    if problems:
        words, params = problems[0]
        raise _refused(words % params if params else words)
    return clock


def seeds_for(order: list[int]) -> list[int]:
    """The seed order whose draw list (selectors.draw.draw_list) is `order`: the inverse of placing
    seeds 1-8 at the handbook's places, found by placing the seed numbers themselves."""
    places = draw_list(list(range(len(order))))  # places[p] = the seed index at place p
    seeded = [0] * len(order)
    for place, seed_index in enumerate(places):
        seeded[seed_index] = order[place]
    return seeded


def ended_of(game: FileGame, target: int) -> str:
    """How a played game ended, from its points (the file does not say)."""
    winner, loser = (
        (game.first_points, game.second_points) if game.winner == 1 else (game.second_points, game.first_points)
    )
    if (winner or 0) <= (loser or 0):
        return SHOOTOUT
    return AT_TARGET if (winner or 0) >= target else ON_TIME


def _check(kaavio: KaavioFile) -> None:
    """Everything Kaiza refuses in a parsed file, before a row is written."""
    count = len(kaavio.participants)
    if not max(MINIMUM_FIELD, ENTRIES_RANGE[0]) <= count <= ENTRIES_RANGE[1]:
        raise _refused(f"a drawn event has {MINIMUM_FIELD} to {ENTRIES_RANGE[1]} participants, this one {count}")
    names = [" ".join(p.name.split()) for p in kaavio.participants]
    if any(not 1 <= len(name) <= 80 for name in names):
        raise _refused("every participant needs a name of 1 to 80 characters")
    if len({name.lower() for name in names}) != len(names):
        raise _refused("two participants have the same name")
    try:
        DrawState(
            kaavio.event(),
            tuple(
                Game(
                    g.first_id,
                    g.second_id,
                    g.round,
                    g.first_round,
                    g.second_round,
                    _winner_id(g),
                    g.first_points or 0,
                    g.second_points or 0,
                )
                for g in kaavio.games
            ),
        )
    except DrawError as error:
        raise _refused(error.reason) from error


def _start_of(fields: dict[str, str], ignored: list[str], zone: ZoneInfo) -> datetime.datetime | None:
    """`AlkamisAika`'s day at `KellonAika` (HH:MM, midnight if none) on the club's wall clock: the
    program writes the club's own times (the samples' offsets are Finland's +02:00 and +03:00), and
    the day's offset at midnight is not the start's on the day the clocks change."""
    day, clock = fields.get("AlkamisAika", ""), fields.get("KellonAika", "")
    if not day:
        if clock:
            ignored.append("KellonAika (no AlkamisAika: no date to start on)")
        return None
    try:
        start = datetime.datetime.fromisoformat(day)
    except ValueError as error:
        raise _refused(f"AlkamisAika {day!r} is not a date") from error
    hour = minute = 0
    if clock:
        match = _CLOCK_TIME.match(clock)
        if match is None or int(match[1]) > 23 or int(match[2]) > 59:
            raise _refused(f"KellonAika {clock!r} is not a time of day (HH:MM)")
        hour, minute = int(match[1]), int(match[2])
    return datetime.datetime.combine(start.date(), datetime.time(hour, minute), tzinfo=zone)


def _seeds_marked(kaavio: KaavioFile) -> int:
    """The number of top seeds the file marks (`Sijoitettu`), checked against the draw list: Kaiza's
    seed k stands at the handbook's place for seed k (selectors/draw.py), so a mark elsewhere, a
    mark that is not 1 to 8, repeated, or with a gap below it, has no home and is refused."""
    order = list(kaavio.draw_list)
    by_id = {p.id: p for p in kaavio.participants}
    marks: dict[int, Participant] = {}
    for participant in kaavio.participants:
        text = participant.seeded.strip()
        if not text:
            continue
        if not text.isdigit() or not 1 <= int(text) <= min(MOST_SEEDS, len(order)):
            raise _refused(
                f"{participant.name!r} is marked seed {text!r}: a seed is 1 to {min(MOST_SEEDS, len(order))}"
            )
        if int(text) in marks:
            raise _refused(f"{participant.name!r} and {marks[int(text)].name!r} are both marked seed {text}")
        marks[int(text)] = participant
    if sorted(marks) != list(range(1, len(marks) + 1)):
        raise _refused(f"the seed marks are {sorted(marks)}: they run from 1 without a gap")
    places = seed_places(len(order), min(MOST_SEEDS, len(order)))
    for seed, participant in marks.items():
        place = order.index(participant.id) + 1
        if place != places[seed - 1]:
            expected = by_id[order[places[seed - 1] - 1]].name
            raise _refused(
                f"{participant.name!r} is marked seed {seed} at place {place} of the draw list, where seed "
                f"{seed} stands at place {places[seed - 1]} ({expected!r})"
            )
    return len(marks)


def _tables_of(kaavio: KaavioFile, tables: int) -> dict[int, int]:
    """Each game's table (`Poyta`): a played game keeps the one it was played on (1 to 32), a game
    not yet played is on it now, so it is one of the event's tables and no other such game's."""
    given: dict[int, int] = {}
    busy: dict[int, int] = {}
    for index, game in enumerate(kaavio.games):
        text = dict(game.extra).get("Poyta", "").strip()
        if not text:
            continue
        if not text.isdigit() or not TABLES_RANGE[0] <= int(text) <= TABLES_RANGE[1]:
            raise _refused(
                f"game {index + 1}'s table (Poyta) {text!r} is not a table {TABLES_RANGE[0]} to {TABLES_RANGE[1]}"
            )
        table = int(text)
        if not game.played:
            if table > tables:
                raise _refused(f"game {index + 1} is being played on table {table}, and the event has {tables} tables")
            if table in busy:
                raise _refused(f"games {busy[table] + 1} and {index + 1} are both being played on table {table}")
            busy[table] = index
        given[index] = table
    return given


def kept_of(kaavio: KaavioFile, *, tables: int, zone: ZoneInfo) -> Kept:
    """The file's settings, seed marks and tables that Kaiza keeps, checked, and the names of the
    rest (fields with a value only: an empty one loses nothing)."""
    fields = dict(kaavio.other_fields)
    ignored: list[str] = []
    starts_at = _start_of(fields, ignored, zone)
    max_entries = None
    most = fields.get("PelaajiaEnintaan", "").strip()
    if most:
        if not most.isdigit():
            raise _refused(f"PelaajiaEnintaan {most!r} is not a number")
        if int(most) < len(kaavio.participants):
            raise _refused(f"PelaajiaEnintaan {most} is fewer than the file's {len(kaavio.participants)} participants")
        if int(most) <= ENTRIES_RANGE[1]:
            max_entries = max(int(most), ENTRIES_RANGE[0])
        else:
            ignored.append(f"PelaajiaEnintaan ({most}: Kaiza takes at most {ENTRIES_RANGE[1]} entries)")
    game = fields.get("Laji", "").strip()
    if game and game.lower() != KAISA.lower():
        raise _refused(f"the game (Laji) is {game!r}: Kaiza plays Kaisa only")
    ignored += [tag for tag, text in kaavio.other_fields if tag not in KEPT_SETTINGS and text.strip()]
    ignored += [f"{tag} ({count})" for tag, count in kaavio.other_lists]
    participant_fields = {"Seura"} if any(p.club.strip() for p in kaavio.participants) else set()
    participant_fields |= {k for p in kaavio.participants for k, v in p.extra if v.strip()}
    ignored += [f"Pelaaja {name}" for name in sorted(participant_fields)]
    game_fields = {k for g in kaavio.games for k, v in g.extra if k != "Poyta" and v.strip()}
    ignored += [f"Peli {name}" for name in sorted(game_fields)]
    return Kept(starts_at, max_entries, _seeds_marked(kaavio), _tables_of(kaavio, tables), tuple(ignored))


def _winner_id(game: FileGame) -> int | None:
    if not game.played:
        return None
    return game.first_id if game.winner == 1 else game.second_id


@transaction.atomic
def kaavio_import(*, user: Any, club: Club, data: bytes, tables: int = DEFAULT_TABLES) -> Imported:
    """A KaisaKaavio file as a new event of `club` played at the club on `tables` tables. `user` None
    is the operator's command (manage.py kaisakaavio import); otherwise a club admin's upload. The
    event comes back with the names of the file's fields Kaiza did not keep."""
    if user is not None:
        require_manager(club_id=club.pk, user=user)
    if not TABLES_RANGE[0] <= tables <= TABLES_RANGE[1]:
        raise _refused(f"an event at the club has {TABLES_RANGE[0]} to {TABLES_RANGE[1]} tables")
    if len(data) > MOST_BYTES:
        raise _refused(f"the file is larger than {MOST_BYTES // 1_000_000} MB")
    try:
        kaavio = parse(data)
    except KaavioError as error:
        raise _refused(error.reason) from error
    _check(kaavio)
    kept = kept_of(kaavio, tables=tables, zone=club.zone)
    clock = _clock(kaavio)
    kind, knockout_from = FORMATS[kaavio.format]
    name = " ".join(kaavio.name.split())[:80]
    tournament = Tournament.objects.create(
        club=club,
        name=name if len(name) >= 3 else FALLBACK_NAME,
        format=kind.value,
        knockout_from=knockout_from,
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
    )
    entry_of = {
        p.id: TournamentEntry.objects.create(tournament=tournament, name=" ".join(p.name.split()))
        for p in kaavio.participants
    }
    for seed, file_id in enumerate(seeds_for(list(kaavio.draw_list)), start=1):
        entry_of[file_id].seed = seed
        entry_of[file_id].save(update_fields=["seed"])
    rounds: dict[int, TournamentRound] = {}
    for index, game in enumerate(kaavio.games):
        round_ = rounds.get(game.round) or TournamentRound.objects.create(
            tournament=tournament, number=game.round, status=TournamentRound.Status.PLAYING, started_at=timezone.now()
        )
        rounds[game.round] = round_
        first, second = entry_of[game.first_id], entry_of[game.second_id]
        pairing = TournamentPairing(
            round=round_, tournament=tournament, index=index, first=first, second=second, table=kept.tables.get(index)
        )
        winner_file_id = _winner_id(game)
        if winner_file_id is not None:
            winner = entry_of[winner_file_id].pk
            result = decided(first.pk, second.pk, winner)
            pairing.status = TournamentPairing.Status.DONE
            pairing.how = TournamentPairing.How.PLAYED
            pairing.winner_id = winner
            pairing.first_points, pairing.second_points = result.first_points, result.second_points
            pairing.first_score, pairing.second_score = game.first_points or 0, game.second_points or 0
            pairing.result_code = ended_of(game, clock.target_score)
            pairing.finished_at = timezone.now()
        pairing.save()
    try:
        state = draw_state(tournament=tournament)  # the rows read back are the file's draw
    except DrawError as error:
        raise _refused(error.reason) from error
    draw_rounds_settle(tournament)
    if is_finished(state):
        tournament_finish(tournament)
    else:
        draw_advance(tournament, game_now())  # the unplayed games get tables, the draw goes on
    return Imported(tournament, kept.ignored)


_FORMAT_NAMES = {value: key for key, value in FORMATS.items()}


def kaavio_export(*, tournament: Tournament) -> str:
    """A drawn event in KaisaKaavio's format: the participants in draw-list order (ids 1..n), every
    game in draw order with each player's own round, its points and the winner's `v`."""
    if not is_drawn(tournament):
        raise TournamentError("not_drawn", gettext_noop("only a double-loss draw can be written as a KaisaKaavio file"))
    pairings = drawn_pairings(tournament=tournament)
    state = draw_state(tournament=tournament, pairings=pairings)
    file_id = {entrant: position for position, entrant in enumerate(state.event.entrants, start=1)}
    names = dict(TournamentEntry.objects.filter(tournament=tournament).values_list("pk", "name"))
    knockout = tournament.knockout_from if tournament.format == Format.DOUBLE_LOSS_THEN_KNOCKOUT else None
    clock = event_clock_of(ruleset=tournament.ruleset, time_limit=tournament.time_limit)
    seeds = dict(TournamentEntry.objects.filter(tournament=tournament).values_list("pk", "seed"))
    marked = tournament.seeds_marked if tournament.seeds_marked is not None else min(MOST_SEEDS, len(seeds))
    start = tournament.starts_at.astimezone(tournament.club.zone)  # the club's wall clock, as the program
    settings = (
        ("AlkamisAika", datetime.datetime.combine(start.date(), datetime.time(0), tzinfo=start.tzinfo).isoformat()),
        ("KellonAika", start.strftime("%H:%M")),
        ("PelaajiaEnintaan", str(tournament.max_entries)),
        ("Laji", KAISA),
    )
    games = []
    for pairing, game in zip(pairings, state.games, strict=True):
        done = pairing.status == TournamentPairing.Status.DONE
        winner = None
        if done:
            winner = 1 if game.winner == game.first else 2
        games.append(
            FileGame(
                round=game.round,
                first_round=game.first_round,
                second_round=game.second_round,
                first_id=file_id[game.first],
                second_id=file_id[game.second],
                first_points=pairing.first_score if done else None,
                second_points=pairing.second_score if done else None,
                winner=winner,
                state=PLAYED if done else "",
                extra=(("Poyta", "" if pairing.table is None else str(pairing.table)),),
            )
        )
    return write(
        KaavioFile(
            name=tournament.name,
            format=_FORMAT_NAMES[(Format(tournament.format), knockout)],
            game_minutes=clock.game_minutes,
            shootout_visits=clock.shootout_visits,
            target=clock.target_score,
            participants=tuple(
                Participant(id=file_id[e], name=names[e], seeded=str(seeds[e]) if 1 <= seeds[e] <= marked else "")
                for e in state.event.entrants
            ),
            games=tuple(games),
            other_fields=settings,
        )
    )
