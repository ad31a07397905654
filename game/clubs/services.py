"""Club writes: creating and editing a club, joining (open, by request, by invitation), roles, leaving,
marking a match for a club, and the club's ranking series (defining one, the tournaments it
counts, and keeping each finished tournament's placings for it).

Permissions live here, not in the views, so every caller (a view, the lobby, the admin's shell) gets the
same answer: only an owner or admin edits the club, approves requests, invites or removes members; only
the owner changes roles; the owner cannot leave without handing the club to someone else first.
Errors are `ClubError` (a ValidationError: bad input or a state that does not allow the action) or
`ClubPermissionError` (a PermissionDenied: this user may not do this); either way nothing has changed.
"""

from __future__ import annotations

import datetime
import functools
import re
import unicodedata
import zoneinfo
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from game.clubs.selectors import series_counted_tournaments
from game.models import (
    Club,
    Match,
    Membership,
    RankingSeries,
    RankingSeriesEvent,
    SeriesPlacing,
    Tournament,
    club_language_default,
    club_time_zone_default,
)
from game.models.series import PERIOD_CHOICES
from game.tournaments.selectors.placings import final_placings

SLUG_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
RESERVED_SLUGS = frozenset({"new"})


def club_slug_from_name(name: str) -> str:
    """The address a club's name gives when none is typed ("Kallio Kaisa" -> "kallio-kaisa", "Äänekosken
    Kaisa" -> "aanekosken-kaisa"): letters without their accents, lower case, every other run of
    characters one hyphen. static/game/js/pages/club_form.js fills the field with the same as the name is typed
    (tests/js/fixtures/slugs.json holds the examples both are checked against). May be too short or
    empty (a name in Cyrillic): the form then asks for an address."""
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    return re.sub(r"[^a-z0-9]+", "-", folded).strip("-")[:64].strip("-")


MANAGER_ROLES = frozenset({Membership.Role.OWNER, Membership.Role.ADMIN})


class ClubError(ValidationError):
    """The request is well-formed but the club's state or the input does not allow it."""


class ClubPermissionError(PermissionDenied):
    """This user may not do this to this club."""


def _membership(*, club: Club, user: Any, lock: bool = False) -> Membership | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    queryset = Membership.objects.select_for_update() if lock else Membership.objects
    return queryset.filter(club=club, user=user).first()


def _active_role(*, club: Club, user: Any) -> str | None:
    membership = _membership(club=club, user=user)
    if membership is None or membership.status != Membership.Status.ACTIVE:
        return None
    return membership.role


def _require_manager(*, club: Club, user: Any) -> str:
    role = _active_role(club=club, user=user)
    if role not in MANAGER_ROLES:
        raise ClubPermissionError(_("Only the club's owner or an admin can do that."))
    return role


@functools.cache
def time_zone_names() -> tuple[str, ...]:
    """The IANA zones this host knows, sorted: what a club may choose (read once)."""
    return tuple(sorted(zoneinfo.available_timezones()))


def _clean_fields(
    *,
    name: str,
    slug: str,
    description: str,
    join_policy: str,
    time_zone: str | None = None,
    language: str | None = None,
) -> dict[str, str]:
    errors: dict[str, list[str | Promise]] = {}
    time_zone = time_zone or club_time_zone_default()
    language = language or club_language_default()
    name = (name or "").strip()
    slug = (slug or "").strip().lower()
    description = (description or "").strip()
    if not 3 <= len(name) <= 64:
        errors["name"] = [_("A club name is 3 to 64 characters.")]
    if not 3 <= len(slug) <= 64 or not SLUG_PATTERN.match(slug) or slug in RESERVED_SLUGS:
        errors["slug"] = [_("The address is 3 to 64 lowercase letters, digits and single hyphens (not 'new').")]
    if len(description) > 2000:
        errors["description"] = [_("The description is at most 2000 characters.")]
    if join_policy not in Club.JoinPolicy.values:
        errors["join_policy"] = [_("Choose how people join.")]
    if time_zone not in time_zone_names():
        errors["time_zone"] = [_("Choose the club's time zone.")]
    if language not in dict(settings.LANGUAGES):
        errors["language"] = [_("Choose the club's language.")]
    if errors:
        raise ClubError(errors)
    return {
        "name": name,
        "slug": slug,
        "description": description,
        "join_policy": join_policy,
        "time_zone": time_zone,
        "language": language,
    }


@transaction.atomic
def club_create(
    *,
    user: Any,
    name: str,
    slug: str,
    description: str = "",
    join_policy: str = "request",
    time_zone: str | None = None,
    language: str | None = None,
) -> Club:
    """Creates the club with `user` as its owner; its time zone and language are the site's defaults
    unless given (None or empty)."""
    if user is None or not user.is_authenticated:
        raise ClubPermissionError(_("Log in to create a club."))
    fields = _clean_fields(
        name=name, slug=slug, description=description, join_policy=join_policy, time_zone=time_zone, language=language
    )
    errors: dict[str, list[str | Promise]] = {}
    if Club.objects.filter(name__iexact=fields["name"]).exists():
        errors["name"] = [_("A club with this name already exists.")]
    if Club.objects.filter(slug=fields["slug"]).exists():
        errors["slug"] = [_("This address is taken.")]
    if errors:
        raise ClubError(errors)
    try:
        with transaction.atomic():
            club = Club.objects.create(created_by=user, **fields)
    except IntegrityError as exc:  # a concurrent create won the race for the name or slug
        raise ClubError({"name": [_("A club with this name or address already exists.")]}) from exc
    Membership.objects.create(club=club, user=user, role=Membership.Role.OWNER, status=Membership.Status.ACTIVE)
    return club


@transaction.atomic
def club_update(
    *,
    club: Club,
    user: Any,
    name: str,
    description: str,
    join_policy: str,
    time_zone: str | None = None,
    language: str | None = None,
) -> Club:
    """Edits name, description, join policy, time zone and language (the slug is the club's address
    and stays). A new zone changes how the club's times read, never the instants stored."""
    _require_manager(club=club, user=user)
    fields = _clean_fields(
        name=name,
        slug=club.slug,
        description=description,
        join_policy=join_policy,
        time_zone=time_zone or club.time_zone,
        language=language or club.language,
    )
    if Club.objects.filter(name__iexact=fields["name"]).exclude(pk=club.pk).exists():
        raise ClubError({"name": [_("A club with this name already exists.")]})
    club.name, club.description, club.join_policy = fields["name"], fields["description"], fields["join_policy"]
    club.time_zone, club.language = fields["time_zone"], fields["language"]
    club.save(update_fields=["name", "description", "join_policy", "time_zone", "language"])
    return club


@transaction.atomic
def club_join(*, club: Club, user: Any) -> Membership:
    """Joins an open club, accepts an invitation, or asks to join a request-only club."""
    if user is None or not user.is_authenticated:
        raise ClubPermissionError(_("Log in to join a club."))
    membership = _membership(club=club, user=user, lock=True)
    if membership is not None:
        if membership.status == Membership.Status.INVITED:
            membership.status = Membership.Status.ACTIVE
            membership.save(update_fields=["status"])
            return membership
        if membership.status == Membership.Status.ACTIVE:
            raise ClubError(_("You are already a member of this club."))
        raise ClubError(_("Your request to join is waiting for an admin."))
    if club.join_policy == Club.JoinPolicy.OPEN:
        status = Membership.Status.ACTIVE
    elif club.join_policy == Club.JoinPolicy.REQUEST:
        status = Membership.Status.REQUESTED
    else:
        raise ClubPermissionError(_("This club is by invitation only."))
    return Membership.objects.create(club=club, user=user, role=Membership.Role.MEMBER, status=status)


@transaction.atomic
def club_leave(*, club: Club, user: Any) -> str:
    """Leaves the club, withdraws a request, or declines an invitation; returns the status the user had
    (active, requested or invited) so the caller can say which it was."""
    membership = _membership(club=club, user=user, lock=True)
    if membership is None:
        raise ClubError(_("You are not in this club."))
    if membership.role == Membership.Role.OWNER and membership.status == Membership.Status.ACTIVE:
        raise ClubError(_("The owner cannot leave: make another member the owner first."))
    status = membership.status
    membership.delete()
    return status


@transaction.atomic
def club_request_decide(*, club: Club, user: Any, member: Any, approve: bool) -> None:
    """An owner or admin approves or declines a request to join."""
    _require_manager(club=club, user=user)
    membership = _membership(club=club, user=member, lock=True)
    if membership is None or membership.status != Membership.Status.REQUESTED:
        raise ClubError(_("There is no request to join from this player."))
    if approve:
        membership.status = Membership.Status.ACTIVE
        membership.save(update_fields=["status"])
    else:
        membership.delete()


@transaction.atomic
def club_invite(*, club: Club, user: Any, invitee: Any) -> Membership:
    """An owner or admin invites a player; a pending request from that player is simply approved."""
    _require_manager(club=club, user=user)
    if invitee is None:
        raise ClubError({"player": [_("No player has that name.")]})
    membership = _membership(club=club, user=invitee, lock=True)
    if membership is None:
        return Membership.objects.create(
            club=club, user=invitee, role=Membership.Role.MEMBER, status=Membership.Status.INVITED
        )
    if membership.status == Membership.Status.REQUESTED:
        membership.status = Membership.Status.ACTIVE
        membership.save(update_fields=["status"])
        return membership
    if membership.status == Membership.Status.INVITED:
        raise ClubError({"player": [_("This player is already invited.")]})
    raise ClubError({"player": [_("This player is already a member.")]})


@transaction.atomic
def club_member_set_role(*, club: Club, user: Any, member: Any, role: str) -> None:
    """The owner makes a member an admin or a member again, or hands over ownership (the old owner
    becomes an admin, so a club always has exactly one owner)."""
    if _active_role(club=club, user=user) != Membership.Role.OWNER:
        raise ClubPermissionError(_("Only the club's owner can change roles."))
    if role not in Membership.Role.values:
        raise ClubError({"role": [_("Choose owner, admin or member.")]})
    membership = _membership(club=club, user=member, lock=True)
    if membership is None or membership.status != Membership.Status.ACTIVE:
        raise ClubError(_("Only active members can be given a role."))
    if membership.user_id == user.pk:
        raise ClubError(_("Hand the club to another member to change your own role."))
    if role == Membership.Role.OWNER:
        Membership.objects.filter(club=club, user=user).update(role=Membership.Role.ADMIN)
    membership.role = role
    membership.save(update_fields=["role"])


@transaction.atomic
def club_member_remove(*, club: Club, user: Any, member: Any) -> None:
    """An owner removes anyone but themself; an admin removes plain members only."""
    role = _require_manager(club=club, user=user)
    membership = _membership(club=club, user=member, lock=True)
    if membership is None:
        raise ClubError(_("This player is not in the club."))
    if membership.role == Membership.Role.OWNER:
        raise ClubPermissionError(_("The owner cannot be removed."))
    if membership.role == Membership.Role.ADMIN and role != Membership.Role.OWNER:
        raise ClubPermissionError(_("Only the owner can remove an admin."))
    membership.delete()


@transaction.atomic
def match_mark_for_club(*, match: Match, club: Club | None, user: Any) -> Match:
    """Marks a match as the club's (or unmarks it with club=None).

    The players must be active members of the club (an open match waiting for its opponent may be
    marked: whoever joins it must then be a member, see `selectors.clubs.club_is_active_member`), and
    the user must be one of the players or an owner/admin of the club. A finished or aborted match keeps
    its club, so a club's record cannot be rewritten after the fact.
    """
    match = Match.objects.select_for_update().get(pk=match.pk)
    if match.status in (Match.Status.FINISHED, Match.Status.ABORTED):
        raise ClubError(_("A finished match cannot change its club."))
    target = club if club is not None else match.club
    if target is None:
        return match
    user_id = getattr(user, "pk", None) if getattr(user, "is_authenticated", False) else None
    players = [pid for pid in (match.player1_id, match.player2_id) if pid is not None]
    is_player = user_id is not None and user_id in players
    if not is_player and _active_role(club=target, user=user) not in MANAGER_ROLES:
        raise ClubPermissionError(_("Only a player of the match or a club admin can mark it for the club."))
    if club is not None:
        active = set(
            Membership.objects.filter(club=club, user_id__in=players, status=Membership.Status.ACTIVE).values_list(
                "user_id", flat=True
            )
        )
        if is_player and user_id not in active:
            raise ClubPermissionError(_("You are not a member of this club."))
        if not players or set(players) - active:
            raise ClubError(_("Both players must be members of the club."))
    match.club = club
    match.save(update_fields=["club", "updated_at"])
    return match


# --- Ranking series -------------------------------------------------------------------------------

#: The most placings a points table may list, and the most points one placing may give.
SERIES_MOST_PLACINGS = 64
SERIES_MOST_POINTS = 1000
#: Bonus points are given for beating the players ranked 1st, 2nd and 3rd.
SERIES_BONUS_PLACES = 3


def series_points_check(points: Sequence[int]) -> list[int]:
    """A points table is 1 to 64 whole numbers from 0 to 1000, none above the one before it (a better
    placing never scores less); the first fault is named in words."""
    values = list(points)
    if not 1 <= len(values) <= SERIES_MOST_PLACINGS:
        raise ClubError({"points": [_("Give the points of 1 to 64 placings.")]})
    for place, value in enumerate(values, start=1):
        if not 0 <= value <= SERIES_MOST_POINTS:
            message = _("Placing %(place)s: points are 0 to 1000, not %(value)s.")
            raise ClubError({"points": [message % {"place": place, "value": value}]})
        if place > 1 and value > values[place - 2]:
            raise ClubError(
                {
                    "points": [
                        _(
                            "Points must not increase: placing %(place)s has %(value)s, more than the %(before)s "
                            "of placing %(previous)s."
                        )
                        % {"place": place, "value": value, "before": values[place - 2], "previous": place - 1}
                    ]
                }
            )
    return values


def _series_category_check(category: str, errors: dict[str, list[str | Promise]]) -> None:
    """A series counts every category (blank) or one of the events' categories."""
    if category and category not in Tournament.Category.values:
        errors["category"] = [_("Choose one of the categories, or every category.")]


def _series_fields(
    *,
    club: Club,
    name: str,
    starts_on: datetime.date | None,
    ends_on: datetime.date | None,
    points: Sequence[int],
    tournament_ids: Sequence[int],
    period: str = "",
    bonus: Sequence[int] = (),
    category: str = "",
) -> dict[str, Any]:
    errors: dict[str, list[str | Promise]] = {}
    if period not in dict(PERIOD_CHOICES):
        errors["period"] = [_("Choose how the series rolls over: every month, quarter or half-year, or not at all.")]
    bonus = list(bonus)
    if len(bonus) > SERIES_BONUS_PLACES or any(not 0 <= b <= SERIES_MOST_POINTS for b in bonus):
        errors["bonus"] = [_("Bonus points are 0 to 1000, for beating the players ranked 1st, 2nd and 3rd.")]
    _series_category_check(category, errors)
    name = (name or "").strip()
    if not 3 <= len(name) <= 80:
        errors["name"] = [_("A series name is 3 to 80 characters.")]
    if (starts_on is None) != (ends_on is None):
        errors["ends_on"] = [_("Give both days of the season, or neither.")]
    elif starts_on is not None and ends_on is not None and ends_on < starts_on:
        errors["ends_on"] = [_("The season cannot end before it starts.")]
    ids = sorted(set(tournament_ids))
    if len(ids) != Tournament.objects.filter(club=club, pk__in=ids).count():
        errors["tournaments"] = [_("A series counts only this club's own tournaments.")]
    try:
        values = series_points_check(points)
    except ClubError as error:
        errors["points"] = list(error.messages)
        values = []
    if errors:
        raise ClubError(errors)
    return {
        "name": name,
        "starts_on": starts_on,
        "ends_on": ends_on,
        "points": values,
        "tournament_ids": ids,
        "period": period,
        "bonus": bonus if any(bonus) else [],
        "category": category,
    }


@transaction.atomic
def series_create(
    *,
    club: Club,
    user: Any,
    name: str,
    points: Sequence[int],
    starts_on: datetime.date | None = None,
    ends_on: datetime.date | None = None,
    tournament_ids: Sequence[int] = (),
    period: str = "",
    bonus: Sequence[int] = (),
    category: str = "",
) -> RankingSeries:
    """An owner or admin defines a series: its season, its listed tournaments, its points by placing,
    and the one category of events it counts (blank: every category)."""
    _require_manager(club=club, user=user)
    fields = _series_fields(
        club=club,
        name=name,
        starts_on=starts_on,
        ends_on=ends_on,
        points=points,
        tournament_ids=tournament_ids,
        period=period,
        bonus=bonus,
        category=category,
    )
    ids = fields.pop("tournament_ids")
    series = RankingSeries.objects.create(club=club, created_by=user, **fields)
    RankingSeriesEvent.objects.bulk_create(RankingSeriesEvent(series=series, tournament_id=i) for i in ids)
    _series_placings_fill(series)
    return series


@transaction.atomic
def series_update(
    *,
    series: RankingSeries,
    user: Any,
    name: str,
    points: Sequence[int],
    starts_on: datetime.date | None = None,
    ends_on: datetime.date | None = None,
    tournament_ids: Sequence[int] = (),
    period: str = "",
    bonus: Sequence[int] = (),
    category: str = "",
) -> RankingSeries:
    """Edits a series; its table is scored again from the placings kept, at once."""
    series = RankingSeries.objects.select_for_update().select_related("club").get(pk=series.pk)
    _require_manager(club=series.club, user=user)
    fields = _series_fields(
        club=series.club,
        name=name,
        starts_on=starts_on,
        ends_on=ends_on,
        points=points,
        tournament_ids=tournament_ids,
        period=period,
        bonus=bonus,
        category=category,
    )
    ids = fields.pop("tournament_ids")
    for field, value in fields.items():
        setattr(series, field, value)
    series.save(update_fields=list(fields))
    RankingSeriesEvent.objects.filter(series=series).exclude(tournament_id__in=ids).delete()
    listed = set(RankingSeriesEvent.objects.filter(series=series).values_list("tournament_id", flat=True))
    RankingSeriesEvent.objects.bulk_create(
        RankingSeriesEvent(series=series, tournament_id=i) for i in ids if i not in listed
    )
    _series_placings_fill(series)
    return series


def series_placings_record(*, tournament: Tournament) -> int:
    """Keep a finished tournament's final placings for the series (called from the receiver of
    `tournament_finished`, inside the transaction that finished it); placings kept before are
    replaced, so a result fixed after the end, or an entry that now names an account, is scored as it
    stands. Returns the number of placings kept."""
    placings = final_placings(tournament=tournament)
    SeriesPlacing.objects.filter(tournament=tournament).delete()
    SeriesPlacing.objects.bulk_create(
        SeriesPlacing(
            tournament=tournament,
            entry_id=p.entry_id,
            player_key=p.identity.key,
            user_id=p.identity.user_id,
            name=p.name,
            place=p.place,
        )
        for p in placings
    )
    return len(placings)


def _series_placings_fill(series: RankingSeries) -> None:
    """A tournament that finished before it was put in a series (or before series existed) has no
    placings kept yet: they are read now."""
    kept = SeriesPlacing.objects.values("tournament_id")
    for tournament in series_counted_tournaments(series=series).exclude(pk__in=kept):
        series_placings_record(tournament=tournament)
