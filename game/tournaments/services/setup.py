"""Setting a tournament up: a club admin creates it, members enter (alone or as a team), the admin
closes the entries (seeding by rating, round 1 paired) and may still swap entries between round-1
pairings until the round starts; the server clock starts it at its start time (play.py).

Every refusal is a TournamentError with a code, raised before anything is written (or inside the
transaction, which it rolls back), so a refused request changes nothing.
"""

from __future__ import annotations

import datetime
import secrets
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_noop, ngettext_lazy

from game.common.clock import game_now
from game.matches.clock_presets import KAISA_RULES, EventClock, event_clock_problems
from game.models import Club, Profile
from game.models.tournaments import (
    Tournament,
    TournamentEntry,
    TournamentEntryMember,
    TournamentPairing,
    TournamentRound,
)
from game.tournaments.categories import PAIRS_CATEGORIES
from game.tournaments.pairing.double_loss_state import KNOCKOUT_FROM_EARLIEST, KNOCKOUT_FROM_LATEST, MINIMUM_FIELD
from game.tournaments.pairing.team_games import LEAST_TEAMS
from game.tournaments.selectors.draw import DRAWN_FORMATS, LATE_FORMATS, draw_event, is_drawn
from game.tournaments.selectors.tournaments import entries_in_seed_order
from game.tournaments.services.base import TournamentError, is_member, lock_tournament, require_manager
from game.tournaments.services.play import draw_advance, plan_rounds, round_begin_if_due, round_pair
from game.tournaments.services.ranking import entry_seed_key
from game.tournaments.services.venues import venues_assign
from game.tournaments.values import ENTRIES_RANGE, STARTS_RANGE, TABLES_RANGE

NAME_LENGTH = (3, 80)
TEAM_SIZES = (2, 3, 4)
#: The events whose entrants the director enters, not the players themselves: the refusal's code and words.
DIRECTOR_ENTERS: dict[str, tuple[str, str]] = {
    Tournament.Kind.PAIRS: ("pairs", gettext_noop("in a pairs event the director enters each pair")),
    Tournament.Kind.CLUB_TEAMS: ("teams", gettext_noop("in a team event the director enters each team")),
}
#: The entrants an event at the club takes: single players, pairs, teams of its players (each a walk-in entry).
CLUB_KINDS = (Tournament.Kind.SINGLES, Tournament.Kind.PAIRS, Tournament.Kind.CLUB_TEAMS)
#: How far in the past a start time may be given (a form filled in slowly), seconds.
START_SLACK = 300
#: A drawn event's draw number is one of this many (Tournament.draw_seed).
DRAW_NUMBERS = 2**31


def _range(bounds: tuple[int, ...]) -> dict[str, object]:
    """The placeholders of a "from … to …" refusal."""
    return {"least": bounds[0], "most": bounds[-1]}


def _clean(
    *,
    name: str,
    format: str,
    kind: str,
    team_size: int,
    max_entries: int,
    clock: EventClock,
    starts_at: Any,
    knockout_from: Any = None,
    tables: Any = None,
    category: str = Tournament.Category.GENERAL,
) -> dict[str, Any]:
    errors: _Problems = []
    name = (name or "").strip()
    if not NAME_LENGTH[0] <= len(name) <= NAME_LENGTH[1]:
        errors.append((gettext_noop("the name is %(least)s to %(most)s characters"), _range(NAME_LENGTH)))
    knockout_from = _checked_knockout_from(format, knockout_from, errors)
    team_size = _checked_team_size(kind, team_size, errors)
    if isinstance(max_entries, bool) or not isinstance(max_entries, int):
        errors.append((gettext_noop("the number of entries is a whole number"), {}))
    elif not ENTRIES_RANGE[0] <= max_entries <= ENTRIES_RANGE[1]:
        errors.append((gettext_noop("a tournament takes %(least)s to %(most)s entries"), _range(ENTRIES_RANGE)))
    if not isinstance(clock, EventClock):
        errors.append((gettext_noop("choose a clock"), {}))
    else:
        errors.extend(event_clock_problems(clock))
    if tables is not None:
        _check_tables(tables, format=format, kind=kind, errors=errors)
    _check_category(category, kind=kind, tables=tables, errors=errors)
    _check_team_event(kind, format, errors)
    _check_start(starts_at, errors)
    if errors:
        raise TournamentError("bad_value", *errors[0], more=errors[1:])
    return {
        "name": name,
        "format": format,
        "kind": kind,
        "team_size": team_size,
        "max_entries": max_entries,
        "time_limit": clock.time_limit,
        "ruleset": clock.ruleset(),
        "starts_at": starts_at,
        "knockout_from": knockout_from,
        "tables": tables,
        "category": category,
    }


#: What is wrong with a form's values, in the order the form shows them: the words and their values.
_Problems = list[tuple[str | Promise, dict[str, object]]]


def _checked_knockout_from(format: str, knockout_from: Any, errors: _Problems) -> Any:
    """The format chosen, and its knockout round for the knockout variant (None for the others, which
    have no such setting though the form may send one)."""
    if format not in Tournament.Format.values:
        errors.append((gettext_noop("choose a format"), {}))
    elif format == Tournament.Format.DOUBLE_LOSS_THEN_KNOCKOUT:
        knockout_rounds = (KNOCKOUT_FROM_EARLIEST, KNOCKOUT_FROM_LATEST)
        if (
            isinstance(knockout_from, bool)
            or not isinstance(knockout_from, int)
            or not knockout_rounds[0] <= knockout_from <= knockout_rounds[1]
        ):
            errors.append(
                (gettext_noop("the knockout starts from a round from %(least)s to %(most)s"), _range(knockout_rounds))
            )
    else:
        return None
    return knockout_from


def _checked_team_size(kind: str, team_size: int, errors: _Problems) -> int:
    """Singles or teams chosen, and the team's size (1 for singles)."""
    if kind not in Tournament.Kind.values:
        errors.append((gettext_noop("choose singles or teams"), {}))
    elif kind in CLUB_KINDS:  # a pair, a team of the club's players: one walk-in entry
        return 1
    elif team_size not in TEAM_SIZES:
        errors.append((gettext_noop("a team has %(least)s to %(most)s players"), _range(TEAM_SIZES)))
    return team_size


def _check_tables(tables: Any, *, format: str, kind: str, errors: _Problems) -> None:
    """An event at the club: its tables, played as a double-loss draw by single players."""
    if isinstance(tables, bool) or not isinstance(tables, int) or not TABLES_RANGE[0] <= tables <= TABLES_RANGE[1]:
        errors.append((gettext_noop("an event at the club has %(least)s to %(most)s tables"), _range(TABLES_RANGE)))
    elif format not in DRAWN_FORMATS:
        errors.append((gettext_noop("an event at the club is played as a double-loss draw"), {}))
    elif kind not in CLUB_KINDS:
        errors.append((gettext_noop("an event at the club is for single players, pairs or teams of its players"), {}))


def _check_team_event(kind: str, format: str, errors: _Problems) -> None:
    """A team event is drawn as the program draws its teams: unseeded (its `Sijoittaminen` for the
    teams is none), so not as a ranking event or a championship, whose seeds place the draw."""
    if kind == Tournament.Kind.CLUB_TEAMS and format in (
        Tournament.Format.RANKING_EVENT,
        Tournament.Format.CHAMPIONSHIP,
    ):
        errors.append((gettext_noop("a team event's draw of teams is not seeded: choose a double-loss draw"), {}))


def _check_category(category: Any, *, kind: str, tables: Any, errors: _Problems) -> None:
    """A category of the event's entrants: a pairs event (played at the club: the director enters
    each pair) is open or mixed pairs, the program's two pairs events; mixed is for pairs only."""
    if category not in Tournament.Category.values:
        errors.append((gettext_noop("choose the event's category"), {}))
    elif kind == Tournament.Kind.PAIRS and tables is None:
        errors.append((gettext_noop("a pairs event is played at the club: give its tables"), {}))
    elif kind == Tournament.Kind.CLUB_TEAMS and tables is None:
        errors.append((gettext_noop("a team event of the club's players is played at the club: give its tables"), {}))
    elif kind == Tournament.Kind.CLUB_TEAMS and category != Tournament.Category.GENERAL:
        errors.append((gettext_noop("a team event is open to all: its category is open"), {}))
    elif kind == Tournament.Kind.PAIRS and category not in PAIRS_CATEGORIES:
        errors.append((gettext_noop("a pairs event is open or mixed pairs"), {}))
    elif kind != Tournament.Kind.PAIRS and category == Tournament.Category.MIXED:
        errors.append((gettext_noop("mixed is a category of pairs"), {}))


def _check_start(starts_at: Any, errors: _Problems) -> None:
    """A start time, not in the past, before the last year Kaiza takes."""
    if not isinstance(starts_at, datetime.datetime):
        errors.append((gettext_noop("give a start time"), {}))
    elif starts_at < timezone.now() - datetime.timedelta(seconds=START_SLACK):
        errors.append((gettext_noop("the start time is in the past"), {}))
    elif starts_at >= STARTS_RANGE[1]:
        errors.append((gettext_noop("an event starts before %(year)s"), {"year": STARTS_RANGE[1].year}))


def tournament_create(
    *,
    user: Any,
    club: Club,
    name: str,
    format: str,
    kind: str = Tournament.Kind.SINGLES,
    team_size: int = 1,
    rated: bool = True,
    clock: EventClock = KAISA_RULES.clock,
    max_entries: int = 16,
    starts_at: Any,
    knockout_from: int | None = None,
    tables: int | None = None,
    players_enter_results: bool = False,
    category: str = Tournament.Category.GENERAL,
    late_entries: bool = False,
) -> Tournament:
    """A club's owner or admin announces a tournament; members enter until it starts. `clock`: the
    event's clock and target (game/matches/clock_presets.py; K-11's 60 + 5 by default), which every
    match of it is created with. `knockout_from`: the round (2 to 6) from which one loss is out, for
    `double_loss_then_knockout` only (ignored for the other formats). `tables`: an event played at the
    club on that many real tables (1 to 32, a drawn format of single players): its games are given
    tables and their results entered by the director, or by the two players too if
    `players_enter_results` (game/tournaments/services/club.py); None: online. `late_entries`: a
    double-loss event at the club takes late entrants once its draw has begun
    (game/tournaments/services/late_entries.py)."""
    require_manager(club_id=club.pk, user=user)
    fields = _clean(
        name=name,
        format=format,
        kind=kind,
        team_size=team_size,
        max_entries=max_entries,
        clock=clock,
        starts_at=starts_at,
        knockout_from=knockout_from,
        tables=tables,
        category=category,
    )
    # Games over the board have no match, so nothing of them is rated: an event at the club is unrated.
    rated = bool(rated) and fields["tables"] is None
    return Tournament.objects.create(
        club=club,
        rated=rated,
        created_by=user,
        players_enter_results=bool(players_enter_results) and fields["tables"] is not None,
        late_entries=bool(late_entries)
        and fields["tables"] is not None
        and fields["format"] in LATE_FORMATS
        and fields["kind"] != Tournament.Kind.CLUB_TEAMS,  # a team is entered whole, before the draw
        **fields,
    )


@transaction.atomic
def tournament_enter(*, user: Any, tournament_id: int, teammates: list[Any] | None = None) -> TournamentEntry:
    """A member enters (with `teammates`, in playing order after them, for a team tournament: the
    team plays its matches in this order, docs/teams.md). A team is as large as the tournament says,
    every member of it a member of the club, nobody in two entries."""
    tournament = lock_tournament(tournament_id)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentError("closed", gettext_noop("this tournament takes no more entries"))
    if tournament.kind in DIRECTOR_ENTERS:
        raise TournamentError(*DIRECTOR_ENTERS[tournament.kind])
    players = [user, *(teammates or [])]
    _check_team(tournament, user=user, players=players)
    profiles = {p.user_id: p for p in Profile.objects.filter(user__in=players)}
    if tournament.rated and any(profiles.get(p.pk) is None or profiles[p.pk].is_guest for p in players):
        raise TournamentError("needs_account", gettext_noop("rated tournaments need registered accounts"))
    _check_not_entered(tournament, players=players)
    if TournamentEntry.objects.filter(tournament=tournament).count() >= tournament.max_entries:
        raise TournamentError("full", gettext_noop("this tournament is full"))
    ratings = [profiles[p.pk].rating if p.pk in profiles else 1500.0 for p in players]
    names = [profiles[p.pk].display_name if p.pk in profiles else p.username for p in players]
    entry = TournamentEntry.objects.create(
        tournament=tournament, name=" & ".join(names), rating=sum(ratings) / len(ratings)
    )
    for position, player in enumerate(players):
        TournamentEntryMember.objects.create(entry=entry, tournament=tournament, user=player, position=position)
    return entry


def _check_team(tournament: Tournament, *, user: Any, players: list[Any]) -> None:
    """Accounts, as many as the tournament's team size, each named once, each a member of the club."""
    if any(not isinstance(p, User) for p in players):
        raise TournamentError("bad_value", gettext_noop("name each team-mate by their account"))
    if len(players) != tournament.team_size:
        if tournament.team_size == 1:
            raise TournamentError("team_size", gettext_noop("in this tournament each player enters alone"))
        team = ngettext_lazy("an entry here is a team of %(n)s player", "an entry here is a team of %(n)s players", "n")
        raise TournamentError("team_size", team, {"n": tournament.team_size})
    if len({p.pk for p in players}) != len(players):
        raise TournamentError("team_size", gettext_noop("a player is named twice"))
    for player in players:
        if not is_member(club_id=tournament.club_id, user=player):
            if player is user:
                raise TournamentError("not_a_member", gettext_noop("only the club's members can enter"), forbidden=True)
            raise TournamentError(
                "not_a_member",
                gettext_noop("%(name)s is not a member of this club"),
                {"name": _display_name(player)},
            )


def _check_not_entered(tournament: Tournament, *, players: list[Any]) -> None:
    """Nobody of the entry in another entry of the tournament."""
    taken = TournamentEntryMember.objects.filter(tournament=tournament, user__in=players).order_by(
        "entry_id", "position"
    )
    first_taken = taken.select_related("user").first()
    if first_taken is None:
        return
    if tournament.kind == Tournament.Kind.TEAMS:
        raise TournamentError(
            "already_entered",
            gettext_noop("%(name)s already plays in another entry of this tournament"),
            {"name": _display_name(first_taken.user)},
        )
    raise TournamentError("already_entered", gettext_noop("already entered in this tournament"))


def _display_name(user: User) -> str:
    profile = Profile.objects.filter(user=user).first()
    return profile.display_name if profile is not None else user.get_username()


@transaction.atomic
def tournament_withdraw(*, user: Any, tournament_id: int) -> None:
    """A player takes their entry (their team's) back before the entries close."""
    tournament = lock_tournament(tournament_id)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentError("closed", gettext_noop("entries are closed: ask an admin"))
    member = TournamentEntryMember.objects.filter(tournament=tournament, user=user).first()
    if member is None:
        raise TournamentError("not_entered", gettext_noop("you have not entered this tournament"))
    member.entry.delete()


def min_entries(tournament: Tournament) -> int:
    if tournament.kind == Tournament.Kind.CLUB_TEAMS:
        return max(MINIMUM_FIELD, LEAST_TEAMS)
    if is_drawn(tournament):
        return MINIMUM_FIELD
    return 3 if tournament.format == Tournament.Format.DOUBLE_ELIMINATION else 2


@transaction.atomic
def tournament_close_entries(*, user: Any, tournament_id: int, now: float | None = None) -> Tournament:
    """Close the entries: seed by the ranking list's places, then by rating (a team by its mean), plan
    the rounds, pair round 1 (a drawn format: store the games the draw gives, from the draw list the
    seeds make, game/tournaments/selectors/draw.py). Play begins at the start time (at once if it has come).
    `user` None is the server clock at the start time."""
    tournament = lock_tournament(tournament_id)
    if user is not None:
        require_manager(club_id=tournament.club_id, user=user)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentError("already_started", gettext_noop("the entries of this tournament are already closed"))
    entries = sorted(TournamentEntry.objects.filter(tournament=tournament), key=entry_seed_key)
    if len(entries) < min_entries(tournament):
        needed = ngettext_lazy("at least %(n)s entry is needed", "at least %(n)s entries are needed", "n")
        raise TournamentError("too_few_entries", needed, {"n": min_entries(tournament)})
    for seed, entry in enumerate(entries, start=1):
        entry.seed = seed
        entry.save(update_fields=["seed"])
    tournament.status = Tournament.Status.RUNNING
    tournament.rounds_planned = plan_rounds(tournament, len(entries))
    if is_drawn(tournament) and tournament.draw_seed is None:
        tournament.draw_seed = secrets.randbelow(DRAW_NUMBERS)  # the list's draw, kept (selectors/draw.py)
    tournament.save(update_fields=["status", "rounds_planned", "draw_seed"])
    if is_drawn(tournament):
        venues_assign(tournament, draw_event(tournament=tournament).entrants)  # an event at several places
        draw_advance(tournament, game_now() if now is None else now)
        return tournament
    first = round_pair(tournament, 1)
    if first is not None:
        round_begin_if_due(tournament, first, now)
    return tournament


@transaction.atomic
def tournament_pairing_swap(*, user: Any, tournament_id: int, entry_a: int, entry_b: int) -> None:
    """Swap two entries between (or within) the pairings of the round not yet started."""
    tournament = lock_tournament(tournament_id)
    require_manager(club_id=tournament.club_id, user=user)
    known = {e.pk for e in entries_in_seed_order(tournament=tournament)}
    if entry_a not in known or entry_b not in known or entry_a == entry_b:
        raise TournamentError("bad_value", gettext_noop("choose two different entries of this tournament"))
    round_ = TournamentRound.objects.filter(tournament=tournament).order_by("-number").first()
    if round_ is None or round_.status != TournamentRound.Status.PAIRED:
        raise TournamentError("round_started", gettext_noop("pairings can only be changed before their round starts"))
    # The schedule is a function of the seed order (every format), so the seeds swap too: the later
    # rounds then follow the edited pairing.
    seeds = dict(TournamentEntry.objects.filter(pk__in=(entry_a, entry_b)).values_list("pk", "seed"))
    TournamentEntry.objects.filter(pk=entry_a).update(seed=seeds[entry_b])
    TournamentEntry.objects.filter(pk=entry_b).update(seed=seeds[entry_a])
    if is_drawn(tournament):
        # the draw list swaps the two places; its opening (rounds 1 and 2) is drawn again from it
        TournamentPairing.objects.filter(tournament=tournament).delete()
        TournamentRound.objects.filter(tournament=tournament).delete()
        draw_advance(tournament, game_now())
        return
    pairings = list(TournamentPairing.objects.select_for_update().filter(round=round_).order_by("index"))
    for pairing in pairings:
        for side in ("first_id", "second_id"):
            value = getattr(pairing, side)
            if value == entry_a:
                setattr(pairing, side, entry_b)
            elif value == entry_b:
                setattr(pairing, side, entry_a)
        pairing.save(update_fields=["first", "second"])


@transaction.atomic
def tournament_delete(*, user: Any, tournament_id: int) -> str:
    """A club admin removes an event played at the club (one imported by mistake, say): the event
    with its entries, rounds, games, fixed results and its placings in the club's ranking series, and
    nothing else of the club. An online event is not removed: its games are its players' matches.
    The row is read by the columns this needs only, so a start an earlier version stored unreadable
    (a migration repairs those) cannot stop its removal. Returns the event's name."""
    tournament = (
        Tournament.objects.select_for_update().only("pk", "name", "club_id", "tables").filter(pk=tournament_id).first()
    )
    if tournament is None:
        raise TournamentError("not_found", gettext_noop("there is no such tournament"))
    require_manager(club_id=tournament.club_id, user=user)
    if not tournament.tables or TournamentPairing.objects.filter(tournament=tournament, match__isnull=False).exists():
        raise TournamentError("online", gettext_noop("only an event played at the club can be deleted"))
    name = tournament.name
    tournament.delete()
    return name
