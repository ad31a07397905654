"""An event's entrants from the federation's ranking list, and the handicaps its games start at.

- **The ranking list** (game/tournaments/ranking_list.py reads it) seeds an event at the club before
  its draw: each listed player is the entrant of that name (as the register compares names), entered
  as a walk-in if not yet there; each gets the list's club and place, and the register player keeps
  the club. The seeds are the list's order among the entrants, as KaisaKaavio seeds from its
  registration list: the ranked players by place, those without a place after them, then the
  entrants the list does not name (by rating, then entry order). Its top 8 are the event's marked
  seeds (Tournament.seeds_marked), placed in the draw list as the program places them. A list with
  any bad line stores nothing: every bad line is named with its number.
- **Handicaps** (the program's `Tasoitus`): the score an entrant's games start at, typed on the
  entrants list or taken from the club's handicap list (ClubPlayer.handicap); below the event's
  target. A result below a player's handicap is refused (services/club.py `result_winner`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_noop

from game.common.names import register_key
from game.models import ClubPlayer
from game.models.tournaments import Tournament, TournamentEntry
from game.tournaments.pairing.draw_seeding import MOST_SEEDS
from game.tournaments.ranking_list import (
    LineProblem,
    RankedPlayer,
    read_handicap_list,
    read_ranking_list,
    seeding_order,
)
from game.tournaments.services.base import TournamentError, lock_tournament, require_manager
from game.tournaments.services.walk_ins import walk_in_entry_create, walk_in_player
from game.tournaments.values import Words, number_of, shown


@dataclass(frozen=True)
class RankingApplied:
    matched: int
    added: int


def _refused(problems: list[LineProblem]) -> TournamentError:
    """Every bad line, one part each, after the sentence that nothing was stored."""
    return TournamentError(
        "bad_list",
        gettext_noop("the list is refused and nothing is stored; fix these lines and send it again:"),
        {},
        more=[(p.words, {"line": p.line, **p.params}) for p in problems],
    )


def _club_event_before_draw(tournament: Tournament) -> None:
    if not tournament.tables:
        raise TournamentError("not_at_club", gettext_noop("this tournament is played online, not at the club"))
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentError("closed", gettext_noop("the ranking list seeds an event before its draw"))


def _entry_for(tournament: Tournament, player: RankedPlayer, by_key: dict[str, TournamentEntry]) -> TournamentEntry:
    entry = by_key.get(player.key)
    if entry is None:
        entry = walk_in_entry_create(tournament, walk_in_player(club_id=tournament.club_id, name=player.name))
    entry.club = player.club
    entry.ranking_place = player.place
    entry.save(update_fields=["club", "ranking_place"])
    if entry.player_id is not None:
        ClubPlayer.objects.filter(pk=entry.player_id).update(home_club=player.club)
    return entry


@transaction.atomic
def tournament_ranking_list_apply(*, user: Any, tournament_id: int, text: str) -> RankingApplied:
    """Seed the event from a pasted ranking list and fill each listed entrant's club (see the module)."""
    tournament = lock_tournament(tournament_id)
    require_manager(club_id=tournament.club_id, user=user)
    _club_event_before_draw(tournament)
    players, problems = read_ranking_list(text)
    if problems:
        raise _refused(problems)
    entries = list(TournamentEntry.objects.filter(tournament=tournament))
    by_key = {register_key(e.name): e for e in entries}
    if player_keys := [p.key for p in players if p.key not in by_key]:
        if len(entries) + len(player_keys) > tournament.max_entries:
            raise TournamentError(
                "full",
                gettext_noop("the list adds %(added)s players to %(count)s entries: the event takes %(most)s"),
                {"added": len(player_keys), "count": len(entries), "most": tournament.max_entries},
            )
    listed = [_entry_for(tournament, player, by_key) for player in seeding_order(players)]
    listed_ids = {e.pk for e in listed}
    others = sorted((e for e in entries if e.pk not in listed_ids), key=lambda e: (-e.rating, e.created_at, e.pk))
    for seed, entry in enumerate([*listed, *others], start=1):
        TournamentEntry.objects.filter(pk=entry.pk).update(
            seed=seed, **({"ranking_place": None} if entry.pk not in listed_ids else {})
        )
    ranked = sum(1 for p in players if p.place is not None)
    tournament.seeds_marked = min(MOST_SEEDS, ranked)
    tournament.save(update_fields=["seeds_marked"])
    return RankingApplied(matched=len(players) - len(player_keys), added=len(player_keys))


def entry_seed_key(entry: TournamentEntry) -> tuple[bool, int, float, Any, int]:
    """The order the entries are seeded in when they close: the ranking list's places first, then
    by rating and entry order (an event without a list: by rating and entry order alone)."""
    place = entry.ranking_place
    return (place is None, place or 0, -entry.rating, entry.created_at, entry.pk)


def handicap_bounds(tournament: Tournament) -> tuple[int, int]:
    """A handicap is 0 to one below the event's target (a game must have a point left to play)."""
    return 0, int((tournament.ruleset or {}).get("target_score", 60)) - 1


def _handicap_of(text: str, *, name: str, bounds: tuple[int, int]) -> int:
    field = Words(gettext_noop("the handicap of %(name)s"), {"name": name})
    value = number_of(text, field=field) or 0
    if not bounds[0] <= value <= bounds[1]:
        raise TournamentError(
            "bad_value",
            gettext_noop("the handicap of %(name)s is %(value)s: a handicap is %(least)s to %(most)s"),
            {"name": name, "value": shown(value), "least": bounds[0], "most": bounds[1]},
        )
    return value


@transaction.atomic
def tournament_handicaps_set(*, user: Any, tournament_id: int, given: Mapping[int, str]) -> int:
    """The handicaps typed on the entrants list (entry id -> the typed text; blank is 0), every one
    checked before any is stored. Returns how many changed."""
    tournament = lock_tournament(tournament_id)
    require_manager(club_id=tournament.club_id, user=user)
    if not tournament.tables:
        raise TournamentError("not_at_club", gettext_noop("this tournament is played online, not at the club"))
    bounds = handicap_bounds(tournament)
    entries = {e.pk: e for e in TournamentEntry.objects.filter(tournament=tournament, pk__in=list(given))}
    wanted = {pk: _handicap_of(given[pk], name=e.name, bounds=bounds) for pk, e in entries.items()}
    changed = [pk for pk, value in wanted.items() if entries[pk].handicap != value]
    for pk in changed:
        TournamentEntry.objects.filter(pk=pk).update(handicap=wanted[pk])
    return len(changed)


@transaction.atomic
def tournament_handicaps_from_club(*, user: Any, tournament_id: int) -> int:
    """Each entrant's handicap from the club's handicap list (an entrant not on it keeps his); a
    handicap at or above the event's target is refused naming the player, nothing stored."""
    tournament = lock_tournament(tournament_id)
    require_manager(club_id=tournament.club_id, user=user)
    bounds = handicap_bounds(tournament)
    entries = TournamentEntry.objects.filter(tournament=tournament, player__handicap__isnull=False)
    given = {e.pk: str(e.player.handicap) for e in entries.select_related("player") if e.player is not None}
    names = {e.pk: e.name for e in entries}
    for pk, text in given.items():
        _handicap_of(text, name=names[pk], bounds=bounds)
    for pk, text in given.items():
        TournamentEntry.objects.filter(pk=pk).update(handicap=int(text))
    return len(given)


@transaction.atomic
def club_handicap_list_set(*, user: Any, club_id: int, text: str) -> int:
    """The club's handicap list from pasted lines "name, handicap": each name the register's player
    (added if new); any bad line refuses the whole list. Returns the players set."""
    require_manager(club_id=club_id, user=user)
    lines, problems = read_handicap_list(text)
    if problems:
        raise _refused(problems)
    for line in lines:
        player = walk_in_player(club_id=club_id, name=line.name)
        ClubPlayer.objects.filter(pk=player.pk).update(handicap=line.handicap)
    return len(lines)


__all__ = [
    "RankingApplied",
    "club_handicap_list_set",
    "entry_seed_key",
    "handicap_bounds",
    "tournament_handicaps_from_club",
    "tournament_handicaps_set",
    "tournament_ranking_list_apply",
]
