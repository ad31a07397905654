"""What the match code needs of the domains built on it, registered by them: matches imports none.

Matches depend only on the engine, game.common, game.realtime and the models. Where a match needs a
value only another domain knows (a tournament's reserved seat, how a result counts into ratings, the
chat of the match socket), that domain hands the function over once, in `game.apps.GameConfig.ready`,
into a typed slot here (`register`: mypy checks each function against its slot's `Protocol`). What
others only react to goes through the signals of game/signals.py instead (`match_finished`,
`seat_arrived`). `tests/architecture` checks that every slot is registered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q

from game.common import hooks
from game.common.hooks import Slot
from game.models import Match, Profile

__all__ = ["HOOKS", "MatchHooks", "register"]


class ProfileEnsure(Protocol):
    """The user's profile, created on first need (accounts)."""

    def __call__(self, *, user: User) -> Profile: ...


class BotUser(Protocol):
    """The computer opponent of a level, 1 to 5 (accounts)."""

    def __call__(self, *, level: int) -> User: ...


class ReservedPlayer(Protocol):
    """The user id a tournament match's open seat waits for; None for any other match (tournaments)."""

    def __call__(self, *, match: Match) -> int | None: ...


class TeamsAwaited(Protocol):
    """Whether a tournament team match still waits for its teams: its no-show clock decides then,
    not the match's disconnect grace (tournaments)."""

    def __call__(self, *, match: Match) -> bool: ...


class ResultCount(Protocol):
    """Count a finished or aborted match into its players' records (and ratings), inside the
    transaction that finished it; `breaks` are the best breaks by player name. Returns the rating
    changes in the shape of `finished.rating_changes` (ratings for one-to-one, teams for team matches)."""

    def __call__(self, *, match: Match, breaks: dict[str, int]) -> list[dict[str, Any]]: ...


class ChatRecent(Protocol):
    """The newest chat messages of the channels `role` reads, oldest first (chat)."""

    def __call__(self, *, match_id: str, role: str) -> list[dict[str, Any]]: ...


class ChatPosted(Protocol):
    """A stored chat message: its `chat` payload and who hears it (None: everyone at the match)."""

    @property
    def entry(self) -> dict[str, Any]: ...

    @property
    def audience(self) -> str | None: ...


class ChatPost(Protocol):
    """Store one chat message said on the match socket (chat: its rules, docs/chat.md)."""

    def __call__(
        self,
        *,
        match_id: str,
        user: User | AnonymousUser,
        text: str,
        phrase: str = "",
        channel: str | None = None,
    ) -> ChatPosted: ...


class ChatReport(Protocol):
    """Report a chat message the reporter can read; the report's id (chat)."""

    def __call__(self, *, match_id: str, user: User | AnonymousUser, message_id: int) -> int: ...


class EventVisible(Protocol):
    """Whether this visitor may see the event a match is played for: True for a match of no event or
    of a public one; a link-only event's secret is `key` (kept in the session when it matches) or the
    session's; an admins-only event, its club's admins only (tournaments: the event's visibility)."""

    def __call__(self, *, match_id: str, user: Any, session: Any, key: Any = None) -> bool: ...


class EventsUnlisted(Protocol):
    """The matches a listing of live matches leaves out for this viewer: those of events that are not
    public, but the events of the clubs the viewer runs (tournaments)."""

    def __call__(self, *, user: Any) -> Q: ...


class MatchHooks:
    """The registered functions, one typed slot each (the domain function that fills it: game/apps.py)."""

    profile_ensure = Slot[ProfileEnsure]()
    bot_user = Slot[BotUser]()
    reserved_player = Slot[ReservedPlayer]()
    teams_awaited = Slot[TeamsAwaited]()
    pair_result = Slot[ResultCount]()
    team_result = Slot[ResultCount]()
    #: Why a rated match's result did not count, in words of the active language (ratings).
    unrated_reason_text = Slot[Callable[[str], str]]()
    chat_recent = Slot[ChatRecent]()
    chat_post = Slot[ChatPost]()
    chat_report = Slot[ChatReport]()
    #: The practice table's position code of a stored shot's start, from its segments and the shooter's
    #: white; None when they do not say it (the replay's "Practise this shot": site).
    practice_code = Slot[Callable[[object, object], str | None]]()
    event_visible = Slot[EventVisible]()
    events_unlisted = Slot[EventsUnlisted]()

    def missing(self) -> list[str]:
        """The hooks nobody registered (none once the app is ready)."""
        return hooks.missing(self)


HOOKS = MatchHooks()


def register(
    *,
    profile_ensure: ProfileEnsure,
    bot_user: BotUser,
    reserved_player: ReservedPlayer,
    teams_awaited: TeamsAwaited,
    pair_result: ResultCount,
    team_result: ResultCount,
    unrated_reason_text: Callable[[str], str],
    chat_recent: ChatRecent,
    chat_post: ChatPost,
    chat_report: ChatReport,
    practice_code: Callable[[object, object], str | None],
    event_visible: EventVisible,
    events_unlisted: EventsUnlisted,
) -> None:
    """Hand the match code every domain function it calls (all at once: one forgotten fails type checking)."""
    HOOKS.profile_ensure = profile_ensure
    HOOKS.bot_user = bot_user
    HOOKS.reserved_player = reserved_player
    HOOKS.teams_awaited = teams_awaited
    HOOKS.pair_result = pair_result
    HOOKS.team_result = team_result
    HOOKS.unrated_reason_text = unrated_reason_text
    HOOKS.chat_recent = chat_recent
    HOOKS.chat_post = chat_post
    HOOKS.chat_report = chat_report
    HOOKS.practice_code = practice_code
    HOOKS.event_visible = event_visible
    HOOKS.events_unlisted = events_unlisted
