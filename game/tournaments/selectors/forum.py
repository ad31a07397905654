"""The forum posts of an event, as a club writes them for the federation's forum: the invitation, the
first rounds (the drawn games with their tables), the results so far and the final results, each in
BBCode and in plain text, in the event's language (the club's, or one the director picks), the
times in the club's time zone, with the event's live page and each table's stream and scoreboard.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from django.utils import formats, translation
from django.utils.translation import gettext as _

from game.models.announce import EventTable, TournamentAnnouncement, TournamentRegistration
from game.models.realgames import ScoringTable
from game.models.tournaments import Tournament, TournamentEntry
from game.tournaments.forum_text import ForumText
from game.tournaments.selectors import tournaments as selectors
from game.tournaments.visibility import KEY_PARAMETER, announcement_of

#: The rounds the "first rounds" post gives.
FIRST_ROUNDS = 2


@dataclasses.dataclass(frozen=True)
class ForumPost:
    key: str
    title: str
    bbcode: str
    plain: str


@dataclasses.dataclass(frozen=True)
class EventLinks:
    """The absolute addresses the posts give (the page that asks knows the site's own address)."""

    live: str
    register: str


def event_links(*, tournament: Tournament, absolute: Callable[[str], str]) -> EventLinks:
    """The live page and the registration page; a link-only event's carry its secret."""
    announcement = announcement_of(tournament)
    secret = ""
    if announcement is not None and TournamentAnnouncement.Visibility.LINK in (
        announcement.visibility,
        announcement.registration,
    ):
        secret = f"?{KEY_PARAMETER}={announcement.secret}"
    return EventLinks(
        live=absolute(f"/tournaments/{tournament.pk}/live/{secret}"),
        register=absolute(f"/tournaments/{tournament.pk}/register/{secret}"),
    )


def _when(tournament: Tournament) -> str:
    local = tournament.starts_at.astimezone(tournament.club.zone)
    # The 24-hour clock in every language: the federation's posts give times so.
    return f"{formats.date_format(local, 'l')} {formats.date_format(local, 'DATE_FORMAT')} {local:%H:%M}"


def _clock_words(summary: dict[str, Any]) -> str:
    clock = summary["clock"]
    minutes = _("%(minutes)s minutes") % {"minutes": clock["minutes"]} if clock["minutes"] else _("no time limit")
    return _("%(clock)s, to %(target)s points") % {"clock": minutes, "target": clock["target"]}


def _registration_words(announcement: TournamentAnnouncement | None) -> str:
    mode = announcement.registration if announcement else TournamentAnnouncement.Registration.CLOSED
    if mode == TournamentAnnouncement.Registration.OPEN:
        return _("online, open to everyone (you may register a friend by name)")
    if mode == TournamentAnnouncement.Registration.LINK:
        return _("online, with this link")
    return _("at the venue before the start")


def table_links(*, tournament: Tournament) -> list[tuple[int, str, str]]:
    """Each table's (number, stream, scoreboard) links: the event's own list, and where it names no
    link for a table, the club's scoring table of that number (game/models/realgames.py)."""
    own = {t.number: (t.stream_url, t.scoreboard_url) for t in EventTable.objects.filter(tournament=tournament)}
    club = {
        t.number: (t.stream_url, t.scoreboard_url)
        for t in ScoringTable.objects.filter(club_id=tournament.club_id, number__lte=tournament.tables or 0)
    }
    merged = {**club, **own}
    return [(n, *merged[n]) for n in sorted(merged) if any(merged[n])]


def _table_links(post: ForumText, tournament: Tournament) -> None:
    tables = table_links(tournament=tournament)
    if not tables:
        return
    post.end().heading(_("Streams and scoreboards"))
    for number, stream, scoreboard in tables:
        post.text(_("Table %(number)s") % {"number": number} + ":")
        if stream:
            post.text(" ").link(_("stream"), stream)
        if scoreboard:
            post.text(" ").link(_("scoreboard"), scoreboard)
        post.end()


def _head(post: ForumText, tournament: Tournament, links: EventLinks) -> None:
    post.heading(tournament.name)
    post.bold(_("Live page")).text(": ").link(_("follow the event"), links.live).end()


def invitation(*, tournament: Tournament, links: EventLinks) -> ForumText:
    summary = selectors.tournament_summary(tournament=tournament)
    announcement = announcement_of(tournament)
    post = ForumText().heading(tournament.name).rule()
    post.info(_("When"), f"{_when(tournament)} ({tournament.club.time_zone})")
    venue = announcement.venue if announcement and announcement.venue else ""
    post.info(_("Where"), ", ".join(p for p in (tournament.club.name, venue) if p))
    post.info(_("Format"), str(summary["format"]))
    post.info(_("Game time"), _clock_words(summary))
    if announcement and announcement.entry_fee:
        post.info(_("Entry fee"), announcement.entry_fee)
    post.info(_("Registration"), _registration_words(announcement))
    if announcement and announcement.registration != TournamentAnnouncement.Registration.CLOSED:
        post.bold(_("Register")).text(": ").link(_("registration page"), links.register).end()
    post.bold(_("Live page")).text(": ").link(_("follow the event"), links.live).end()
    names = list(TournamentEntry.objects.filter(tournament=tournament).order_by("created_at", "pk"))
    if names:
        post.end().heading(_("Registered (%(count)s)") % {"count": len(names)})
        for number, entry in enumerate(names, start=1):
            post.line(f"{number}. {_with_club(entry.name, _club_of(entry))}")
    return post


def _club_of(entry: TournamentEntry) -> str:
    """The entrant's club; a pair's without one, its partners' clubs as known ("A & B")."""
    if entry.club or not (entry.player_club or entry.partner_club):
        return entry.club
    return f"{entry.player_club or '–'} & {entry.partner_club or '–'}"


def _with_club(name: str, club: str) -> str:
    """An entrant as the federation's posts list them: the name, then the club if known."""
    return f"{name} ({club})" if club else name


def _game_line(post: ForumText, game: dict[str, Any]) -> None:
    if game["second"] is None:
        post.line(_("%(name)s: a bye") % {"name": game["first"]})
        return
    where = _("Table %(number)s") % {"number": game["table"]} + ": " if game["table"] else ""
    post.text(where).text(f"{game['first']} – {game['second']}")
    if game["done"] and game["score_line"]:
        post.text(f"  {game['score_line']}")
    elif not game["done"] and not game["table"]:
        post.text("  (" + _("waiting for a table") + ")")
    post.end()


def first_rounds(*, tournament: Tournament, links: EventLinks) -> ForumText:
    post = ForumText()
    _head(post, tournament, links)
    _table_links(post, tournament)
    every = selectors.rounds(tournament=tournament)
    if not every:
        post.end().line(_("The draw has not been made yet."))
    for round_view in every[:FIRST_ROUNDS]:
        post.end().heading(_("Round %(number)s") % {"number": round_view["number"]})
        for game in round_view["pairings"]:
            _game_line(post, game)
    return post


def results_so_far(*, tournament: Tournament, links: EventLinks) -> ForumText:
    post = ForumText()
    _head(post, tournament, links)
    _table_links(post, tournament)
    played = [(r["number"], [g for g in r["pairings"] if g["done"]]) for r in selectors.rounds(tournament=tournament)]
    if not any(games for _number, games in played):
        post.end().line(_("No results yet."))
    for number, games in played:
        if games:
            post.end().heading(_("Round %(number)s") % {"number": number})
            for game in games:
                _game_line(post, game)
    return post


def final_results(*, tournament: Tournament, links: EventLinks) -> ForumText:
    post = ForumText()
    _head(post, tournament, links)
    post.end().heading(_("Final results"))
    if tournament.status != Tournament.Status.FINISHED:
        post.line(_("The event has not ended yet; the standings so far:"))
    clubs = {entry.pk: _club_of(entry) for entry in TournamentEntry.objects.filter(tournament=tournament)}
    for row in selectors.standings(tournament=tournament):
        post.line(f"{row['rank']}. {_with_club(row['name'], clubs.get(row['entry_id'], ''))}")
    return post


def forum_posts(*, tournament: Tournament, links: EventLinks, language: str) -> list[ForumPost]:
    """The four posts in `language`."""
    with translation.override(language):
        made = (
            ("invitation", _("Invitation"), invitation),
            ("first_rounds", _("First rounds"), first_rounds),
            ("results", _("Results so far"), results_so_far),
            ("final", _("Final results"), final_results),
        )
        posts = []
        for key, title, write in made:
            text = write(tournament=tournament, links=links)
            posts.append(ForumPost(key=key, title=title, bbcode=text.bbcode, plain=text.plain))
    return posts


def registrations(*, tournament: Tournament) -> list[dict[str, Any]]:
    """The online registrations the director sees: who, registered by whom, when."""
    rows = TournamentRegistration.objects.filter(tournament=tournament).select_related("registered_by", "user")
    return [
        {
            "id": r.pk,
            "name": r.name,
            "by": r.registered_by.get_username() if r.registered_by is not None and r.user_id is None else "",
            "guest": r.registered_by_id is None,
            "at": r.created_at,
        }
        for r in rows
    ]
