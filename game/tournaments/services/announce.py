"""How an event is announced, written: its visibility and online registration, the invitation's venue
and fee, its tables' stream and scoreboard links, and the registrations made online (a player for
themselves, a friend by name, a guest by name) which the director may remove.

Each value is checked by one validator here whatever form it comes from; a refusal is a
TournamentError raised before anything is written (or inside the transaction it rolls back), so a
refused form stores nothing. The registrations close at the draw: `tournament_register` refuses an
event whose entries are closed, and `registration_make` (the entry and its record, no timing check)
is what a late entry made after the draw uses too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from django.db import transaction
from django.utils.translation import gettext_noop

from game.common.names import name_clean, register_key
from game.models import Profile
from game.models.announce import EventTable, TournamentAnnouncement, TournamentRegistration
from game.models.tournaments import Tournament, TournamentEntry, TournamentEntryMember
from game.tournaments.services.base import TournamentError, is_manager, lock_tournament, require_manager
from game.tournaments.services.walk_ins import walk_in_entry_make
from game.tournaments.values import Words, refuse
from game.tournaments.visibility import has_key, secret_make

URL_MOST = 300
VENUE_MOST = 120
FEE_MOST = 40
#: An entrant's club, as long as the ranking list's (TournamentEntry.club).
CLUB_MOST = 80
STREAM_FIELD = gettext_noop("table %(number)s's stream link")
SCOREBOARD_FIELD = gettext_noop("table %(number)s's scoreboard link")


def link_of(value: str | None, *, field: object) -> str:
    """A link typed for a table: blank, or an http(s) address with a host and no spaces."""
    text = (value or "").strip()
    if not text:
        return ""
    if len(text) > URL_MOST:
        raise refuse(field, text, gettext_noop("a link is at most %(most)s characters"), {"most": URL_MOST})
    parts = urlsplit(text)
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname or any(ch.isspace() for ch in text):
        raise refuse(field, text, gettext_noop("a link starts with https:// or http:// and names a site"))
    return text


def _choice(value: str, choices: Any, *, field: str) -> str:
    if value not in choices.values:
        raise refuse(Words(field), value, gettext_noop("choose one of the choices shown"))
    return value


def _short_text(value: str | None, *, field: str, most: int) -> str:
    text = name_clean(value or "")
    if len(text) > most:
        raise refuse(Words(field), text, gettext_noop("at most %(most)s characters"), {"most": most})
    return text


def announcement_for(*, tournament: Tournament) -> TournamentAnnouncement:
    """The event's announcement row, made (public, no online registration, a fresh secret) if new."""
    announcement, _ = TournamentAnnouncement.objects.get_or_create(
        tournament=tournament, defaults={"secret": secret_make()}
    )
    return announcement


@transaction.atomic
def announcement_save(
    *,
    user: Any,
    tournament_id: int,
    visibility: str,
    registration: str,
    friends: bool,
    venue: str,
    entry_fee: str,
) -> TournamentAnnouncement:
    """The director sets who sees the event, how players register online, the venue and the fee.
    Online registration enters players by name, so it is for an event at the club."""
    tournament = lock_tournament(tournament_id)
    require_manager(club_id=tournament.club_id, user=user)
    visibility = _choice(visibility, TournamentAnnouncement.Visibility, field=gettext_noop("who sees the event"))
    registration = _choice(registration, TournamentAnnouncement.Registration, field=gettext_noop("online registration"))
    venue = _short_text(venue, field=gettext_noop("the venue"), most=VENUE_MOST)
    entry_fee = _short_text(entry_fee, field=gettext_noop("the entry fee"), most=FEE_MOST)
    if registration != TournamentAnnouncement.Registration.CLOSED and not tournament.tables:
        raise TournamentError(
            "not_at_club", gettext_noop("online registration is for an event at the club; members enter online events")
        )
    announcement = announcement_for(tournament=tournament)
    announcement.visibility = visibility
    announcement.registration = registration
    announcement.friends = friends
    announcement.venue = venue
    announcement.entry_fee = entry_fee
    announcement.save()
    return announcement


@transaction.atomic
def table_links_save(*, user: Any, tournament_id: int, links: Mapping[int, tuple[str, str]]) -> list[EventTable]:
    """The director's list of the event's tables with their stream and scoreboard links (blank: none).
    Every link is checked before any is stored; a table with neither link keeps no row."""
    tournament = lock_tournament(tournament_id)
    require_manager(club_id=tournament.club_id, user=user)
    most = tournament.tables or 0
    checked: dict[int, tuple[str, str]] = {}
    for number, (stream, scoreboard) in sorted(links.items()):
        if not 1 <= number <= most:
            raise TournamentError("bad_value", gettext_noop("there is no table %(number)s"), {"number": number})
        checked[number] = (
            link_of(stream, field=Words(STREAM_FIELD, {"number": number})),
            link_of(scoreboard, field=Words(SCOREBOARD_FIELD, {"number": number})),
        )
    EventTable.objects.filter(tournament=tournament).delete()
    return [
        EventTable.objects.create(tournament=tournament, number=n, stream_url=s, scoreboard_url=b)
        for n, (s, b) in checked.items()
        if s or b
    ]


def _may_register(tournament: Tournament, *, user: Any, session: Any, key: Any) -> None:
    announcement = TournamentAnnouncement.objects.filter(tournament=tournament).first()
    mode = announcement.registration if announcement else TournamentAnnouncement.Registration.CLOSED
    if mode == TournamentAnnouncement.Registration.CLOSED:
        raise TournamentError("no_registration", gettext_noop("this event takes no registrations online"))
    if mode == TournamentAnnouncement.Registration.LINK and not (
        has_key(tournament=tournament, session=session, key=key) or is_manager(club_id=tournament.club_id, user=user)
    ):
        raise TournamentError(
            "needs_link", gettext_noop("registration is open to those given the event's link"), forbidden=True
        )
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentError("closed", gettext_noop("the entries closed at the draw"))


@transaction.atomic
def tournament_register(
    *, user: Any, tournament_id: int, name: str = "", club: str = "", session: Any = None, key: Any = None
) -> TournamentRegistration:
    """Online registration: a signed-in player with no name given registers themselves; a name given
    registers that person (a signed-in player's friend, or a guest without an account), who enters
    by that name as the club's register player. Open to all, or to those with the event's link."""
    tournament = lock_tournament(tournament_id)
    _may_register(tournament, user=user, session=session, key=key)
    signed_in = bool(getattr(user, "is_authenticated", False))
    by_name = bool(name_clean(name or ""))
    if not signed_in and not by_name:
        raise TournamentError("bad_value", gettext_noop("give the name to register"))
    announcement = TournamentAnnouncement.objects.get(tournament=tournament)
    if signed_in and by_name and not announcement.friends:
        raise TournamentError("no_friends", gettext_noop("in this event each player registers themselves"))
    return registration_make(
        tournament=tournament,
        name=name if by_name else "",
        club=club,
        user=None if by_name else user,
        registered_by=user if signed_in else None,
    )


def registration_make(
    *, tournament: Tournament, name: str, user: Any, registered_by: Any, club: str = ""
) -> TournamentRegistration:
    """The entry and its registration: `user`'s own entry (under their account's name), or an entry
    by `name`; with the player's club if given. The caller holds the event's row lock and has
    decided the entries are open."""
    club = _short_text(club, field=gettext_noop("the club"), most=CLUB_MOST)
    if user is not None:
        entry = _own_entry(tournament, user)
    else:
        entry = walk_in_entry_make(tournament=tournament, name=name)
    if club:
        entry.club = club
        entry.save(update_fields=["club"])
    return TournamentRegistration.objects.create(
        tournament=tournament,
        entry=entry,
        name=entry.name,
        user=user,
        registered_by=registered_by if getattr(registered_by, "is_authenticated", False) else None,
    )


def _own_entry(tournament: Tournament, user: Any) -> TournamentEntry:
    profile = Profile.objects.filter(user_id=user.pk).first()
    name = profile.display_name if profile is not None else str(user.get_username())
    if TournamentEntryMember.objects.filter(tournament=tournament, user_id=user.pk).exists():
        raise TournamentError("already_entered", gettext_noop("you are already registered"))
    entries = TournamentEntry.objects.filter(tournament=tournament)
    if any(register_key(e.name) == register_key(name) for e in entries):
        raise TournamentError("name_taken", gettext_noop("%(name)s is already entered"), {"name": name})
    if entries.count() >= tournament.max_entries:
        raise TournamentError("full", gettext_noop("this tournament is full"))
    entry = TournamentEntry.objects.create(
        tournament=tournament, name=name, rating=profile.rating if profile is not None else 1500.0
    )
    TournamentEntryMember.objects.create(entry=entry, tournament=tournament, user_id=user.pk, position=0)
    return entry


@transaction.atomic
def tournament_registration_remove(*, user: Any, registration_id: int) -> str:
    """The director removes an online registration (and its entry) before the draw; its name."""
    registration = TournamentRegistration.objects.filter(pk=registration_id).first()
    if registration is None:
        raise TournamentError("not_found", gettext_noop("there is no such registration"))
    tournament = lock_tournament(registration.tournament_id)
    require_manager(club_id=tournament.club_id, user=user)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentError("closed", gettext_noop("the entries closed at the draw: the draw keeps its players"))
    name = registration.name
    registration.entry.delete()
    return name
