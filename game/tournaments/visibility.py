"""Who may see an event: everyone (public), whoever has its secret link (link only: not listed), or
the club's owner and admins only. One check for every path that shows the event (its pages, its
parts, the TV page, the wall chart, the export, the forum posts, the tournament socket; through the
match hooks an online event's match pages, replays and match socket) and one filter for the listings
(the club page's events; through the match hooks the live matches of the Watch, home, club and player
pages), so no path forgets it.

The secret link is the event's page with `?k=<secret>`; a browser that opened it keeps the secret in
its session, so the event's other pages and its socket (Channels reads the same session) need no key
in their own addresses. A hidden event is answered as if it did not exist (404).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from django.db.models import Q
from django.http import Http404, HttpRequest

from game.models import Membership
from game.models.announce import TournamentAnnouncement
from game.models.tournaments import Tournament
from game.tournaments.services.base import MANAGER_ROLES, is_manager

#: The session's key holding the secrets of the link-only events this browser opened: {event id: secret}.
SESSION_KEYS = "event_keys"
#: A query parameter carrying an event's secret.
KEY_PARAMETER = "k"


def secret_make() -> str:
    return secrets.token_urlsafe(18)


def announcement_of(tournament: Tournament) -> TournamentAnnouncement | None:
    """The event's announcement row, or None (a public event with no online registration)."""
    return TournamentAnnouncement.objects.filter(tournament_id=tournament.pk).first()


def _keys_of(session: Any) -> Mapping[str, str]:
    if session is None:
        return {}
    keys = session.get(SESSION_KEYS)
    return keys if isinstance(keys, dict) else {}


def key_matches(announcement: TournamentAnnouncement | None, key: Any) -> bool:
    return (
        announcement is not None
        and isinstance(key, str)
        and bool(announcement.secret)
        and secrets.compare_digest(key, announcement.secret)
    )


def key_remember(*, session: Any, tournament: Tournament, key: Any) -> bool:
    """Keep a matching secret in the browser's session; whether it matched."""
    announcement = announcement_of(tournament)
    if session is None or not key_matches(announcement, key):
        return False
    keys = dict(_keys_of(session))
    keys[str(tournament.pk)] = key
    session[SESSION_KEYS] = keys
    return True


def has_key(*, tournament: Tournament, session: Any, key: Any = None) -> bool:
    """Whether this browser holds the event's secret (in the address or in its session)."""
    announcement = announcement_of(tournament)
    return key_matches(announcement, key) or key_matches(announcement, _keys_of(session).get(str(tournament.pk)))


def tournament_visible(*, tournament: Tournament, user: Any, session: Any = None, key: Any = None) -> bool:
    """Whether this visitor may see the event at all."""
    announcement = announcement_of(tournament)
    if announcement is None or announcement.visibility == TournamentAnnouncement.Visibility.PUBLIC:
        return True
    if is_manager(club_id=tournament.club_id, user=user):
        return True
    if announcement.visibility == TournamentAnnouncement.Visibility.LINK:
        return key_matches(announcement, key) or key_matches(announcement, _keys_of(session).get(str(tournament.pk)))
    return False


def listed_filter(*, manager: bool) -> Q:
    """The events a listing shows: every event to the club's admins, the public ones to others (a
    link-only event is not listed: its link is the way in)."""
    if manager:
        return Q()
    return Q(announcement__isnull=True) | Q(announcement__visibility=TournamentAnnouncement.Visibility.PUBLIC)


def require_visible(request: HttpRequest, tournament: Tournament) -> None:
    """For a view: a secret in the address is kept in the session; a hidden event is not found."""
    key = request.GET.get(KEY_PARAMETER)
    session = getattr(request, "session", None)
    if key is not None:
        key_remember(session=session, tournament=tournament, key=key)
    if not tournament_visible(tournament=tournament, user=request.user, session=session, key=key):
        raise Http404("No such tournament")


def match_event_visible(*, match_id: str, user: Any, session: Any, key: Any = None) -> bool:
    """Whether this visitor may see the event a match is played for (a match of no event: yes); a
    matching secret in `key` is kept in the session, as the event's own pages keep it. The match's
    players are the match code's to let in (game/matches/selectors/matches.py `match_visible`)."""
    tournament = Tournament.objects.filter(pairings__match_id=match_id).first()
    if tournament is None:
        return True
    if key is not None:
        key_remember(session=session, tournament=tournament, key=key)
    return tournament_visible(tournament=tournament, user=user, session=session, key=key)


def matches_unlisted(*, user: Any) -> Q:
    """The matches no listing shows this viewer: those of the events that are not public (a link-only
    event's matches are reached through its pages, never listed), but the events of the clubs the
    viewer runs, as `listed_filter` lists them."""
    hidden = Tournament.objects.filter(
        announcement__visibility__in=(TournamentAnnouncement.Visibility.LINK, TournamentAnnouncement.Visibility.ADMINS)
    )
    if user is not None and getattr(user, "is_authenticated", False):
        managed = Membership.objects.filter(user=user, status=Membership.Status.ACTIVE, role__in=MANAGER_ROLES)
        hidden = hidden.exclude(club_id__in=managed.values("club_id"))
    return Q(tournament_pairing__tournament__in=hidden)
