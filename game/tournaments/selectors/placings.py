"""A finished tournament's final placings, one per entry, for whoever scores events by placing (a
club's ranking series): the one place that says what "5th" means in every format.

- The drawn formats (double loss, cup) store their placings when they end (`TournamentEntry.place`,
  game/tournaments/services/draw.py); they are read as stored.
- Round robin and Swiss rank by their standings (game/tournaments/pairing/standings.py); entries level
  on every tie-break but the seed share the placing.
- Single and double elimination rank by the round an entry went out in, shared by those who went out
  in the same round (:func:`game.tournaments.pairing.knockout.placing_ranks`): the seed never decides
  who of two losing semi-finalists is 3rd.

Each placing carries the entry's identity (:func:`entry_identity`), the key a series adds an entry's
events up under: a walk-in's is its player in the club's register, the same person every week.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.models import ClubPlayer
from game.models.tournaments import Tournament, TournamentEntry, TournamentEntryMember
from game.tournaments.pairing import knockout
from game.tournaments.pairing.standings import round_robin_standings, swiss_standings
from game.tournaments.selectors.draw import is_drawn
from game.tournaments.selectors.tournaments import (
    ELIMINATIONS,
    entries_in_seed_order,
    is_double,
    results_of,
    slot_winners,
)


@dataclass(frozen=True)
class EntryIdentity:
    """Who an entry is, across events: `key` is what a series adds up under, `user_id` the account of
    a singles entry (None for a team or an entry without an account)."""

    key: str
    user_id: int | None


@dataclass(frozen=True)
class FinalPlacing:
    entry_id: int
    name: str
    place: int
    identity: EntryIdentity


def entry_identity(*, entry: TournamentEntry, user_ids: list[int], player_user: int | None = None) -> EntryIdentity:
    """An entry is its player's account when it has one member (`user:<id>`), the set of its members
    for a team (`team:<ids>`); a walk-in is its player in the club's register (`player:<id>`, the
    same person every week), or that player's account once joined (`player_user`), and an entry
    made before the register is itself (`entry:<id>`). When a walk-in is joined to an account,
    `game.signals.tournament_finished` is sent again for each finished tournament of the player, so
    a series files the events under the account (services/walk_ins.py)."""
    if len(user_ids) == 1:
        return EntryIdentity(key=f"user:{user_ids[0]}", user_id=user_ids[0])
    if user_ids:
        return EntryIdentity(key="team:" + ",".join(str(u) for u in sorted(user_ids)), user_id=None)
    if player_user is not None:
        return EntryIdentity(key=f"user:{player_user}", user_id=player_user)
    if entry.player_id is not None:
        return EntryIdentity(key=f"player:{entry.player_id}", user_id=None)
    return EntryIdentity(key=f"entry:{entry.pk}", user_id=None)


def final_placings(*, tournament: Tournament) -> list[FinalPlacing]:
    """Every entry's final placing, best first; empty unless the tournament is finished."""
    if tournament.status != Tournament.Status.FINISHED:
        return []
    entries = entries_in_seed_order(tournament=tournament)
    ids = [e.pk for e in entries]
    places: list[tuple[int, int]]
    if is_drawn(tournament):
        places = sorted(((e.pk, e.place) for e in entries if e.place is not None), key=lambda p: p[1])
    elif tournament.format in ELIMINATIONS:
        places = knockout.placing_ranks(ids, slot_winners(tournament=tournament), double=is_double(tournament))
    else:
        rows = swiss_standings if tournament.format == Tournament.Format.SWISS else round_robin_standings
        places = [(row.entry, row.rank) for row in rows(ids, results_of(tournament=tournament))]
    members: dict[int, list[int]] = {}
    for entry_id, user_id in TournamentEntryMember.objects.filter(tournament=tournament).values_list(
        "entry_id", "user_id"
    ):
        members.setdefault(entry_id, []).append(user_id)
    by_id = {e.pk: e for e in entries}
    player_users = dict(
        ClubPlayer.objects.filter(pk__in={e.player_id for e in entries}, user__isnull=False).values_list(
            "pk", "user_id"
        )
    )
    return [
        FinalPlacing(
            entry_id=entry_id,
            name=by_id[entry_id].name,
            place=place,
            identity=entry_identity(
                entry=by_id[entry_id],
                user_ids=members.get(entry_id, []),
                player_user=player_users.get(by_id[entry_id].player_id or 0),
            ),
        )
        for entry_id, place in places
    ]
