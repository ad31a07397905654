"""Walk-ins of an event at the club: the people who came on the day, entered by name. Each is a
player of the club's register (game/models/register.py), found by the name the director types (or a
KaisaKaavio file gives) and added the first time, so the same person is the same player every week
and the club's series add their events up (selectors/placings.py `entry_identity`). Joined to an
account later, a player's every event is the account's, and so is every later one.

The register's finder is the clubs' (game/clubs/register.py: what makes two typings one name), and
the tournaments never import the clubs (ARCHITECTURE.md section 2): the clubs hand it over once, in
game.apps, as the matches' clock sources are.

Every refusal is a TournamentError raised before anything is written or inside the transaction
that it rolls back, so a refused request changes nothing.
"""

from __future__ import annotations

from typing import Any, Protocol

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext_noop

from game.common.names import name_clean, register_key
from game.models import ClubPlayer, Profile
from game.models.tournaments import Tournament, TournamentEntry, TournamentEntryMember, TournamentTeamPlayer
from game.signals import tournament_finished
from game.tournaments.categories import pair_name, partners_in, team_in
from game.tournaments.pairing.team_games import TEAM_PLAYERS
from game.tournaments.services.base import TournamentError, lock_tournament, require_manager

WALK_IN_NAME = (1, 80)


class PlayerFinder(Protocol):
    def __call__(self, *, club_id: int, name: str) -> ClubPlayer: ...


_finder: list[PlayerFinder] = []


def walk_in_finder_register(finder: PlayerFinder) -> None:
    """The register's finder (game.apps hands over the clubs'); registered again, the last stands."""
    _finder[:] = [finder]


def walk_in_player(*, club_id: int, name: str) -> ClubPlayer:
    """The club's player of `name` (the same for every typing of the name), added if new."""
    if not _finder:
        raise RuntimeError("no walk-in finder is registered (game.apps registers the clubs' register)")
    return _finder[0](club_id=club_id, name=name)


@transaction.atomic
def tournament_walk_in_enter(*, user: Any, tournament_id: int, name: str) -> TournamentEntry:
    """The director enters a player who came on the day, by name: the club's register player of that
    name, under the register's spelling. A player joined to an account enters as that account's
    entry. Names are unique in the event on the register's terms (case, accents and look-alike
    letters aside), so the director and the pages can tell players apart."""
    tournament = lock_tournament(tournament_id)
    require_manager(club_id=tournament.club_id, user=user)
    if not tournament.tables:
        raise TournamentError("not_at_club", gettext_noop("this tournament is played online, not at the club"))
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentError("closed", gettext_noop("this tournament takes no more entries"))
    return walk_in_entry_make(tournament=tournament, name=name)


def walk_in_entry_make(*, tournament: Tournament, name: str) -> TournamentEntry:
    """An entry by name as the club's register player of that name: the director's walk-in and an
    online registration by name. The caller holds the event's row lock and has decided who may enter
    and whether entries are open (a late entry is made after the draw); the name, its uniqueness in
    the event and the event's size are checked here."""
    name = name_clean(name or "")
    if tournament.kind == Tournament.Kind.CLUB_TEAMS:
        return _team_enter(tournament, name)
    entries = _room_for(tournament, name)
    if tournament.kind == Tournament.Kind.PAIRS:
        return _pair_enter(tournament, name)
    player = walk_in_player(club_id=tournament.club_id, name=name)
    if entries.filter(player=player).exists() or (
        player.user_id is not None
        and TournamentEntryMember.objects.filter(tournament=tournament, user_id=player.user_id).exists()
    ):
        raise TournamentError("name_taken", gettext_noop("%(name)s is already entered"), {"name": player.name})
    return walk_in_entry_create(tournament, player)


def walk_in_entry_create(tournament: Tournament, player: ClubPlayer) -> TournamentEntry:
    """The entry of the register's `player` (the caller checked the event takes it); a player joined
    to an account is the account's entry, seeded by its rating."""
    entry = TournamentEntry.objects.create(tournament=tournament, name=player.name, player=player)
    profile = Profile.objects.filter(user_id=player.user_id).first() if player.user_id is not None else None
    if profile is not None:
        TournamentEntryMember.objects.create(entry=entry, tournament=tournament, user_id=profile.user_id, position=0)
        entry.rating = profile.rating
        entry.save(update_fields=["rating"])
    return entry


def _pair_enter(tournament: Tournament, name: str) -> TournamentEntry:
    """A pair of a pairs event, typed "A & B": each partner the club's register player of that name
    (added if new), the entry named "A & B" in the register's spelling; a player plays in one pair
    of the event only."""
    partners = partners_in(name)
    if partners is None:
        raise TournamentError("bad_value", gettext_noop("give a pair as two names joined by &, e.g. Anna K & Ben L"))
    first, second = (walk_in_player(club_id=tournament.club_id, name=n) for n in partners)
    if first.pk == second.pk:
        raise TournamentError("bad_value", gettext_noop("a pair is two different players"))
    entered = TournamentEntry.objects.filter(tournament=tournament)
    for player in (first, second):
        if entered.filter(Q(player=player) | Q(partner=player)).exists():
            raise TournamentError("name_taken", gettext_noop("%(name)s is already entered"), {"name": player.name})
    full_name = pair_name(first.name, second.name)
    if len(full_name) > WALK_IN_NAME[1]:
        raise TournamentError(
            "bad_value", gettext_noop("the name is %(least)s to %(most)s characters"), {"least": 1, "most": 80}
        )
    return TournamentEntry.objects.create(tournament=tournament, name=full_name, player=first, partner=second)


def _team_enter(tournament: Tournament, text: str) -> TournamentEntry:
    """A team of a team event, typed "Team name: A, B, C" (3 or 4 players, KaisaKaavio's team): each
    player the club's register player of that name (added if new), in the order typed; a team's name
    and a player are each in one team of the event."""
    team = team_in(text)
    if team is None:
        raise TournamentError(
            "bad_value", gettext_noop("give a team as its name, a colon and its players: Cue Club: Anna, Ben, Cai")
        )
    name, names = team
    if not TEAM_PLAYERS[0] <= len(names) <= TEAM_PLAYERS[1]:
        raise TournamentError(
            "bad_value",
            gettext_noop("a team has %(least)s to %(most)s players"),
            {"least": TEAM_PLAYERS[0], "most": TEAM_PLAYERS[1]},
        )
    _room_for(tournament, name)
    players = [walk_in_player(club_id=tournament.club_id, name=n) for n in names]
    if len({p.pk for p in players}) != len(players):
        raise TournamentError("bad_value", gettext_noop("a team names each player once"))
    playing = TournamentTeamPlayer.objects.filter(tournament=tournament, player__in=players).select_related("player")
    first_taken = playing.first()
    if first_taken is not None:
        raise TournamentError(
            "name_taken", gettext_noop("%(name)s already plays in another team"), {"name": first_taken.player.name}
        )
    entry = TournamentEntry.objects.create(tournament=tournament, name=name)
    for position, player in enumerate(players):
        TournamentTeamPlayer.objects.create(entry=entry, tournament=tournament, player=player, position=position)
    return entry


def is_walk_in(entry: TournamentEntry) -> bool:
    return not TournamentEntryMember.objects.filter(entry=entry).exists()


def _registered_profile(account: Any) -> Profile:
    account_id = getattr(account, "pk", None)
    profile = Profile.objects.filter(user_id=account_id).first() if isinstance(account_id, int) else None
    if profile is None or profile.is_guest:
        raise TournamentError("needs_account", gettext_noop("choose a registered account"))
    return profile


@transaction.atomic
def tournament_walk_in_link(*, user: Any, entry_id: int, account: Any) -> TournamentEntry:
    """The director joins a walk-in entry to the player's account, during the event or after it: the
    entry's register player is joined (:func:`club_player_link`: every event the player played is
    the account's); an entry made before the register, this entry alone. Refused if the entry is an
    account's already, the account is a guest or has an entry in the event (one entry per player).
    The account's rating is not touched: over-the-board games rate nothing. The entry keeps the
    name it played under."""
    entry = TournamentEntry.objects.filter(pk=entry_id).first()
    if entry is None:
        raise TournamentError("not_found", gettext_noop("there is no such entry"))
    tournament = lock_tournament(entry.tournament_id)
    require_manager(club_id=tournament.club_id, user=user)
    if not is_walk_in(entry):
        raise TournamentError("not_walk_in", gettext_noop("this entry already belongs to an account"))
    profile = _registered_profile(account)
    if TournamentEntryMember.objects.filter(tournament=tournament, user_id=profile.user_id).exists():
        raise TournamentError(
            "already_entered",
            gettext_noop("%(name)s already has an entry in %(event)s"),
            {"name": profile.display_name, "event": tournament.name},
        )
    if entry.player_id is not None:
        club_player_link(user=user, player_id=entry.player_id, account=account)
    else:
        _entries_link([entry], profile)
    return entry


@transaction.atomic
def club_player_link(*, user: Any, player_id: int, account: Any) -> ClubPlayer:
    """The director joins a player of the club's register to the player's account: each of the
    player's walk-in entries becomes the account's (a finished event's placing is filed under the
    account: its `tournament_finished` is sent again), and the player's later walk-ins enter as the
    account. Refused with nothing changed if the player has another account, the account is a guest
    or another player of this club, or has an entry of its own in an event the player played."""
    player = ClubPlayer.objects.select_for_update().filter(pk=player_id).first()
    if player is None:
        raise TournamentError("not_found", gettext_noop("there is no such player"))
    require_manager(club_id=player.club_id, user=user)
    profile = _registered_profile(account)
    if player.user_id not in (None, profile.user_id):
        raise TournamentError("not_walk_in", gettext_noop("this player already belongs to an account"))
    other = ClubPlayer.objects.filter(club_id=player.club_id, user_id=profile.user_id).exclude(pk=player.pk).first()
    if other is not None:
        raise TournamentError(
            "already_joined",
            gettext_noop("%(account)s is already the club's player %(name)s"),
            {"account": profile.display_name, "name": other.name},
        )
    entries = list(
        TournamentEntry.objects.filter(player=player, members__isnull=True)
        .select_related("tournament")
        .order_by("tournament__starts_at", "pk")
    )
    own = set(TournamentEntryMember.objects.filter(user_id=profile.user_id).values_list("tournament_id", flat=True))
    clash = next((e.tournament for e in entries if e.tournament_id in own), None)
    if clash is not None:
        raise TournamentError(
            "already_entered",
            gettext_noop("%(name)s already has an entry in %(event)s"),
            {"name": profile.display_name, "event": clash.name},
        )
    player.user_id = profile.user_id
    player.save(update_fields=["user"])
    _entries_link(entries, profile)
    return player


def _entries_link(entries: list[TournamentEntry], profile: Profile) -> None:
    for entry in entries:
        TournamentEntryMember.objects.create(
            entry=entry, tournament_id=entry.tournament_id, user_id=profile.user_id, position=0
        )
    for tournament in Tournament.objects.filter(
        pk__in={e.tournament_id for e in entries}, status=Tournament.Status.FINISHED
    ).order_by("starts_at", "pk"):
        # The placing kept for a club's ranking series was the walk-in's own (selectors.placings
        # entry_identity): told again, the series files it under the account.
        tournament_finished.send(sender=Tournament, tournament=tournament)


def _name_length(name: str) -> None:
    """A walk-in's (or a team's) name is WALK_IN_NAME characters long."""
    if not WALK_IN_NAME[0] <= len(name) <= WALK_IN_NAME[1]:
        raise TournamentError(
            "bad_value",
            gettext_noop("the name is %(least)s to %(most)s characters"),
            {"least": WALK_IN_NAME[0], "most": WALK_IN_NAME[1]},
        )


def _room_for(tournament: Tournament, name: str) -> QuerySet[TournamentEntry]:
    """The event's entries, once `name` is checked: of a valid length, not entered yet (by the
    register's spelling), and the event not full."""
    _name_length(name)
    entries = TournamentEntry.objects.filter(tournament=tournament)
    taken = next((e for e in entries if register_key(e.name) == register_key(name)), None)
    if taken is not None:
        raise TournamentError("name_taken", gettext_noop("%(name)s is already entered"), {"name": taken.name})
    if entries.count() >= tournament.max_entries:
        raise TournamentError("full", gettext_noop("this tournament is full"))
    return entries
