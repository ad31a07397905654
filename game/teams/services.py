"""Team matches, the writes: create one with every member known (what a club tournament
does), open one in the lobby and let players join a side, start it when every place is taken.

A team match is an ordinary Match (one snapshot, one version, the one input path of
game.matches.services.inputs) with `team_size` set and a TeamSeat per member; the engine takes each
team as one side (one cue ball, one score) and each member's visits in the team's fixed rotation
(game.engine.rules: `teams`, `at_table`). Team matches are casual: only a caller that rates them (a
club tournament) passes `rated=True`, and then game.teams.results moves each member's rating
(docs/teams.md).

Every refusal is a MatchError with a code, raised before anything is stored; its words are marked
with `gettext_noop` for the page that flashes them (docs/i18n.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_noop

from game.accounts.services import profile_ensure
from game.common.clock import game_now
from game.matches.clock_presets import EventClock
from game.matches.services import SHOT_CLOCK_RANGE, Applied, MatchError, check_range, clock_settings, lock, start
from game.models import Club, Match, Membership, TeamSeat
from game.teams.selectors import TEAM_SIZES

#: The sides of a team match (the seats of a one-to-one match).
TEAMS = (0, 1)


def _check_size(team_size: object) -> int:
    if isinstance(team_size, bool) or not isinstance(team_size, int) or team_size not in TEAM_SIZES:
        refusal = gettext_noop("a team has %(least)s to %(most)s players")
        raise MatchError("bad_team_size", refusal, {"least": TEAM_SIZES[0], "most": TEAM_SIZES[-1]})
    return team_size


def _check_member(user: User, *, rated: bool, club: Club | int | None) -> None:
    profile = profile_ensure(user=user)
    if rated and profile.is_guest:
        refusal = gettext_noop("%(name)s: rated matches need a registered account")
        raise MatchError("needs_account", refusal, {"name": profile.display_name})
    club_id = club.pk if isinstance(club, Club) else club
    if (
        club_id is not None
        and not Membership.objects.filter(club_id=club_id, user=user, status=Membership.Status.ACTIVE).exists()
    ):
        refusal = gettext_noop("%(name)s is not a member of this club")
        raise MatchError("not_a_member", refusal, {"name": profile.display_name})


def team_match_create(
    *,
    teams: Sequence[Sequence[User]],
    rated: bool = False,
    time_limit: int | None = None,
    shot_clock: int | None = None,
    club: Club | None = None,
    created_by: User | None = None,
    clock: EventClock | None = None,
) -> Match:
    """A team match with every member seated, started at once (phase ``lag``): ``teams[i]`` lists
    team i's members in their rotation order (the first ones lag, K-3.1); 2 to 4 per team, both teams
    the same size, nobody twice. ``rated`` only for a caller that rates team results (a club
    tournament): each member's rating then moves against the other team's mean (docs/teams.md).
    ``time_limit`` (K-11, seconds), ``clock`` (an event's clock and target) and ``shot_clock`` as for a
    one-to-one match."""
    if not isinstance(teams, list | tuple) or len(teams) != 2:
        raise MatchError("bad_teams", gettext_noop("a team match has exactly two teams"))
    if any(not isinstance(members, list | tuple) for members in teams):
        raise MatchError("bad_teams", gettext_noop("each team is a list of players"))
    size = _check_size(len(teams[0]))
    if len(teams[1]) != size:
        raise MatchError("bad_team_size", gettext_noop("both teams need the same number of players"))
    everyone = [*teams[0], *teams[1]]
    if any(not isinstance(u, User) for u in everyone):
        raise MatchError("bad_teams", gettext_noop("every member must be a user"))
    if len({u.pk for u in everyone}) != len(everyone):
        raise MatchError("duplicate_member", gettext_noop("a player can only take one place in a match"))
    time_limit, ruleset = clock_settings(clock, time_limit)
    shot_clock = check_range("shot_clock", shot_clock, *SHOT_CLOCK_RANGE)
    for user in everyone:
        _check_member(user, rated=bool(rated), club=club)
    with transaction.atomic():
        match = Match.objects.create(
            created_by=created_by,
            player1=teams[0][0],
            player2=teams[1][0],
            rated=bool(rated),
            time_limit=time_limit,
            shot_clock=shot_clock,
            club=club,
            team_size=size,
            ruleset=ruleset,
        )
        TeamSeat.objects.bulk_create(
            TeamSeat(match=match, user=user, team=team, order=order)
            for team, members in enumerate(teams)
            for order, user in enumerate(members)
        )
        match = Match.objects.select_for_update().get(pk=match.pk)
        start(match, game_now())
        match.save()
    return match


def team_match_open(
    *,
    user: User,
    team_size: int,
    time_limit: int | None = None,
    shot_clock: int | None = None,
    club: Club | None = None,
    clock: EventClock | None = None,
) -> Match:
    """A casual team match in the lobby, ``user`` first in team 0; it starts when every place is taken
    (:func:`team_match_join`)."""
    size = _check_size(team_size)
    time_limit, ruleset = clock_settings(clock, time_limit)
    shot_clock = check_range("shot_clock", shot_clock, *SHOT_CLOCK_RANGE)
    _check_member(user, rated=False, club=club)
    with transaction.atomic():
        match = Match.objects.create(
            created_by=user,
            player1=user,
            rated=False,
            time_limit=time_limit,
            shot_clock=shot_clock,
            club=club,
            team_size=size,
            ruleset=ruleset,
        )
        TeamSeat.objects.create(match=match, user=user, team=0, order=0)
    return match


def team_match_join(*, match_id: str, user: User, team: int) -> Applied:
    """Take the next place of ``team`` (0 or 1) in an open team match; the last place starts it (the
    `started` event everyone on the page hears)."""
    if isinstance(team, bool) or team not in TEAMS:
        raise MatchError("bad_team", gettext_noop("choose team 1 or team 2"))
    with transaction.atomic():
        match = lock(match_id)
        if not match.team_size:
            raise MatchError("not_a_team_match", gettext_noop("this match is one against one"))
        if match.status != Match.Status.OPEN:
            raise MatchError("seat_taken", gettext_noop("this match has no open place"))
        seats = list(TeamSeat.objects.filter(match=match).values_list("user_id", "team"))
        if any(user_id == user.pk for user_id, _ in seats):
            raise MatchError("already_playing", gettext_noop("you already play in this match"))
        taken = sum(1 for _, t in seats if t == team)
        if taken >= match.team_size:
            raise MatchError("team_full", gettext_noop("this team is full: join the other one"))
        _check_member(user, rated=match.rated, club=match.club_id)
        try:
            with transaction.atomic():
                TeamSeat.objects.create(match=match, user=user, team=team, order=taken)
        except IntegrityError as exc:  # the row lock forbids it; a clash still must not half-join
            raise MatchError("seat_taken", gettext_noop("that place was just taken")) from exc
        if taken == 0:
            if team == 0:
                match.player1 = user
            else:
                match.player2 = user
        events = []
        if len(seats) + 1 == 2 * match.team_size:
            events.append(start(match, game_now()))
        match.save()
    return Applied(events=events, lobby_changed=True)
