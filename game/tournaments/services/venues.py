"""An event at the club played at several places, as KaisaKaavio plays one (its `PeliPaikat`): the
director gives the places (the host's hall first: a name, a short name, its tables) and the round from
which their draws are joined; when the entries close each place takes its run of the draw list
(pairing/venues.py) and its players are drawn on their own until that round, then as one
(pairing/double_loss.py, docs/double-loss-draw.md "Several places").

Tables are numbered through the places (the host's 1..n, the next place's from n + 1 on; a page shows
each as its place's own number); a game is played at its first player's place before the joining
round, at the host's from it, and gets a free table there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_noop

from game.common.names import name_clean
from game.models.tournaments import Tournament, TournamentEntry, TournamentPairing, TournamentVenue
from game.tournaments.pairing.double_loss_state import JOIN_ROUNDS
from game.tournaments.pairing.venues import venue_runs, venue_shares
from game.tournaments.services.base import TournamentError, lock_tournament, require_manager
from game.tournaments.values import Words, number_of, shown

#: The places an event may have: the host's and up to seven more.
VENUES_RANGE = (2, 8)
#: How long a place's name and short name may be (its short name is what its games and players carry).
NAME_LENGTH, SHORT_LENGTH = 80, 20
#: The most tables of an event (every place's together), as an event at one place.
MOST_TABLES = 32
#: The formats played at several places (the program's search by places is its double-loss search).
VENUE_FORMATS = (Tournament.Format.DOUBLE_LOSS, Tournament.Format.DOUBLE_LOSS_THEN_KNOCKOUT)


@dataclass(frozen=True)
class Venue:
    """A place as the director gives it: `short` is what its games and players carry."""

    name: str
    short: str
    tables: int


def venues_read(lines: Sequence[str]) -> list[Venue]:
    """The places as the director types them, a line each: "name; short name; tables". A line
    that is not so is refused, naming it."""
    venues: list[Venue] = []
    for number, line in enumerate(lines, start=1):
        parts = [part.strip() for part in line.split(";")]
        tables = (
            number_of(parts[2], field=Words(gettext_noop("the tables of place %(number)s"), {"number": number}))
            if len(parts) == 3
            else None
        )
        if tables is None:
            raise TournamentError(
                "bad_venues",
                gettext_noop("place %(number)s: write a line as name; short name; tables"),
                {"number": number},
            )
        venues.append(Venue(parts[0], parts[1], tables))
    return venues


def venues_checked(venues: Sequence[Venue], join_round: int) -> list[Venue]:
    """The places, cleaned, or a refusal naming the first wrong one: 2 to 8 places, each a name of
    1 to 80 characters, a short name of 1 to 20 (no two the same, whatever their case) and 1 or more
    tables, 32 at most in all; joined from round 3 to 6."""
    if not VENUES_RANGE[0] <= len(venues) <= VENUES_RANGE[1]:
        raise TournamentError(
            "bad_venues",
            gettext_noop("an event is played at %(least)s to %(most)s places, not %(count)s"),
            {"least": VENUES_RANGE[0], "most": VENUES_RANGE[1], "count": len(venues)},
        )
    if not JOIN_ROUNDS[0] <= join_round <= JOIN_ROUNDS[1]:
        raise TournamentError(
            "bad_venues",
            gettext_noop("the places' draws are joined from round %(earliest)s to %(latest)s, not %(given)s"),
            {"earliest": JOIN_ROUNDS[0], "latest": JOIN_ROUNDS[1], "given": join_round},
        )
    cleaned: list[Venue] = []
    for number, venue in enumerate(venues, start=1):
        name, short = name_clean(venue.name), name_clean(venue.short)
        if not 1 <= len(name) <= NAME_LENGTH or not 1 <= len(short) <= SHORT_LENGTH:
            raise TournamentError(
                "bad_venues",
                gettext_noop(
                    "place %(number)s needs a name of 1 to %(name)s characters and a short name of 1 to %(short)s"
                ),
                {"number": number, "name": NAME_LENGTH, "short": SHORT_LENGTH},
            )
        if any(short.casefold() == other.short.casefold() for other in cleaned):
            raise TournamentError(
                "bad_venues", gettext_noop("two places have the short name %(short)s"), {"short": shown(short)}
            )
        if venue.tables < 1:
            raise TournamentError(
                "bad_venues", gettext_noop("place %(name)s needs at least one table"), {"name": shown(name)}
            )
        cleaned.append(Venue(name, short, venue.tables))
    if sum(v.tables for v in cleaned) > MOST_TABLES:
        raise TournamentError(
            "bad_venues", gettext_noop("the places have at most %(most)s tables in all"), {"most": MOST_TABLES}
        )
    return cleaned


@transaction.atomic
def tournament_venues_set(*, user: Any, tournament_id: int, venues: Sequence[Venue], join_round: int) -> Tournament:
    """The director sets the places of an event at the club before its entries close (none: one
    place, the tables it had). Refused, with nothing changed, for an online event, a format or
    entrants the places cannot draw, late entries, or a place the check refuses."""
    tournament = lock_tournament(tournament_id)
    require_manager(club_id=tournament.club_id, user=user)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentError("already_started", gettext_noop("the places are set before the entries close"))
    TournamentVenue.objects.filter(tournament=tournament).delete()
    if not venues:
        tournament.join_round = None
        tournament.save(update_fields=["join_round"])
        return tournament
    _check_event(tournament)
    for number, venue in enumerate(venues_checked(venues, join_round), start=1):
        TournamentVenue.objects.create(
            tournament=tournament, number=number, name=venue.name, short_name=venue.short, tables=venue.tables
        )
    tournament.join_round = join_round
    tournament.tables = sum(v.tables for v in venues)
    tournament.save(update_fields=["join_round", "tables"])
    return tournament


def _check_event(tournament: Tournament) -> None:
    if not tournament.tables or tournament.format not in VENUE_FORMATS:
        raise TournamentError(
            "bad_venues", gettext_noop("only a double-loss event at the club is played at several places")
        )
    if tournament.kind != Tournament.Kind.SINGLES or tournament.late_entries:
        raise TournamentError(
            "bad_venues",
            gettext_noop("an event at several places is of single players, without late entries"),
        )


def venues_assign(tournament: Tournament, listing: Sequence[int]) -> None:
    """The entries closed: each place takes its run of the draw list, its share by its tables, as
    the program shares them. Refused (the caller's transaction rolls back) if a place's share is not
    more than the joining round, as the program's draw window refuses it."""
    venues = list(TournamentVenue.objects.filter(tournament=tournament).order_by("number"))
    if not venues or tournament.join_round is None:
        return
    shares = venue_shares([v.tables for v in venues], len(listing))
    for venue, share in zip(venues, shares, strict=True):
        if share <= tournament.join_round:
            raise TournamentError(
                "bad_venues",
                gettext_noop(
                    "%(name)s would have %(count)s players: a place needs more than %(join)s, the round the "
                    "draws are joined at (fewer places, or an earlier joining round)"
                ),
                {"name": shown(venue.name), "count": share, "join": tournament.join_round},
            )
    for venue, run in zip(venues, venue_runs(listing, shares), strict=True):
        TournamentEntry.objects.filter(pk__in=run).update(venue=venue)


def venue_tables(tournament: Tournament) -> Callable[[TournamentPairing], range] | None:
    """The tables a game may be given, by its place: its first player's before the joining round,
    the host's from it (None: one place, any table)."""
    offsets = table_offsets(tournament) if tournament.join_round is not None else []
    if not offsets:
        return None
    join = tournament.join_round or 0
    where = {venue.pk: range(first + 1, first + venue.tables + 1) for venue, first in offsets}
    host = where[offsets[0][0].pk]
    venue_of = dict(TournamentEntry.objects.filter(tournament=tournament).values_list("pk", "venue_id"))

    def tables_of(pairing: TournamentPairing) -> range:
        if pairing.round.number >= join:
            return host
        return where.get(venue_of.get(pairing.first_id) or 0, host)

    return tables_of


def table_offsets(tournament: Tournament) -> list[tuple[TournamentVenue, int]]:
    """Each place with the number of its first table less one (tables are numbered through them)."""
    offsets: list[tuple[TournamentVenue, int]] = []
    first = 0
    for venue in TournamentVenue.objects.filter(tournament=tournament).order_by("number"):
        offsets.append((venue, first))
        first += venue.tables
    return offsets
