"""Tournament reads: entries in seed order, results as the pure logic's records, standings, rounds,
the bracket drawing's boxes, a player's matches to play, a club's history.

The pairing and standings arithmetic is game/tournaments/ (no Django); this module only turns rows
into its inputs and its outputs into what pages show (names, never ids).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Count, Q
from django.utils import formats, timezone
from django.utils.translation import gettext

from game.matches.clock_presets import event_clock_of, preset_of
from game.matches.selectors.match_result import score_line
from game.matches.selectors.match_state import AnyUser
from game.models import Match, Membership, Profile
from game.models.tournaments import (
    Tournament,
    TournamentEntry,
    TournamentEntryMember,
    TournamentPairing,
    TournamentRound,
)
from game.tournaments.pairing import knockout
from game.tournaments.pairing.double_loss import DrawState, Format, Placing, is_finished, placings
from game.tournaments.pairing.double_loss_state import records
from game.tournaments.pairing.results import Result
from game.tournaments.pairing.standings import Row, round_robin_standings, swiss_standings
from game.tournaments.selectors.draw import SEED_ORDER, draw_state, drawn_pairings, is_drawn

ELIMINATIONS = (Tournament.Format.SINGLE_ELIMINATION, Tournament.Format.DOUBLE_ELIMINATION)
#: The statuses of a tournament whose entries closed (and were seeded) and were not called off.
PLAYED = (Tournament.Status.RUNNING, Tournament.Status.FINISHED)


def is_double(tournament: Tournament) -> bool:
    return tournament.format == Tournament.Format.DOUBLE_ELIMINATION


def entries_in_seed_order(*, tournament: Tournament) -> list[TournamentEntry]:
    return list(TournamentEntry.objects.filter(tournament=tournament).order_by(*SEED_ORDER))


def entry_of_user(*, tournament: Tournament, user: AnyUser) -> TournamentEntry | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    member = (
        TournamentEntryMember.objects.filter(tournament=tournament, user_id=int(user.pk or 0))
        .select_related("entry")
        .first()
    )
    return member.entry if member else None


def teammate_choices(*, tournament: Tournament, user: AnyUser) -> list[dict[str, Any]]:
    """Whom `user` may name as a team-mate in a team tournament's entry form: the club's active
    members but himself and those already in an entry, by name (the service checks again)."""
    if tournament.kind != Tournament.Kind.TEAMS or user is None or not getattr(user, "is_authenticated", False):
        return []
    taken = TournamentEntryMember.objects.filter(tournament=tournament).values_list("user_id", flat=True)
    rows = list(
        Membership.objects.filter(club_id=tournament.club_id, status=Membership.Status.ACTIVE)
        .exclude(user_id=int(user.pk or 0))
        .exclude(user_id__in=taken)
        .values_list("user_id", flat=True)
    )
    names = dict(Profile.objects.filter(user_id__in=rows).values_list("user_id", "display_name"))
    choices = [{"id": user_id, "name": names.get(user_id) or "?"} for user_id in rows]
    return sorted(choices, key=lambda c: (str(c["name"]).lower(), c["id"]))


def entry_players(*, entry_ids: list[int]) -> dict[int, list[Any]]:
    """Each entry's users in playing order (one for singles)."""
    players: dict[int, list[Any]] = {entry_id: [] for entry_id in entry_ids}
    for member in (
        TournamentEntryMember.objects.filter(entry_id__in=entry_ids)
        .select_related("user")
        .order_by("entry_id", "position", "id")
    ):
        players.setdefault(member.entry_id, []).append(member.user)
    return players


def pairing_result(pairing: TournamentPairing) -> Result:
    assert pairing.first_id is not None
    return Result(
        pairing.first_id,
        pairing.second_id,
        pairing.first_points,
        pairing.second_points,
        pairing.first_score,
        pairing.second_score,
    )


def results_of(*, tournament: Tournament) -> list[Result]:
    done = TournamentPairing.objects.filter(tournament=tournament, status=TournamentPairing.Status.DONE)
    return [pairing_result(p) for p in done.order_by("round__number", "index")]


def slot_winners(*, tournament: Tournament) -> dict[knockout.Slot, int | None]:
    """The decided bracket slots of an elimination and their winners."""
    winners: dict[knockout.Slot, int | None] = {}
    for pairing in TournamentPairing.objects.filter(tournament=tournament, status=TournamentPairing.Status.DONE):
        if pairing.slot:
            winners[slot_parse(pairing.slot)] = pairing.winner_id
    return winners


def slot_name(slot: knockout.Slot) -> str:
    return f"{slot.bracket}{slot.round}-{slot.index}"


def slot_parse(text: str) -> knockout.Slot:
    head, index = text.split("-")
    return knockout.Slot(head[0], int(head[1:]), int(index))


def standings(*, tournament: Tournament) -> list[dict[str, Any]]:
    """The table the page shows, ranked by the format's tie-breaks."""
    entries = entries_in_seed_order(tournament=tournament)
    by_id = {e.pk: e for e in entries}
    ids = [e.pk for e in entries]
    results = results_of(tournament=tournament)
    if tournament.format == Tournament.Format.SWISS:
        rows = swiss_standings(ids, results)
    else:
        rows = round_robin_standings(ids, results)
    if tournament.format in ELIMINATIONS:
        order = knockout.placing(ids, slot_winners(tournament=tournament), double=is_double(tournament))
        keyed = {row.entry: row for row in rows}
        rows = [keyed[e] for e in order]
        for i, row in enumerate(rows):
            row.rank = i + 1
    drawn: dict[int, dict[str, Any]] = {}
    if is_drawn(tournament) and tournament.status in PLAYED:
        keyed = {row.entry: row for row in rows}
        state = draw_state(tournament=tournament)
        ranked = placings(state)  # the draw's order: in, then wins, then Kaisa points made
        rows = [keyed[p.entrant] for p in ranked]
        for row, placing in zip(rows, ranked, strict=True):
            row.rank = placing.place
        drawn = _draw_columns(state, ranked)
    wins = wins_by_end(tournament=tournament)
    rated = rated_entries(tournament=tournament)
    return [
        {
            **_row(row, by_id[row.entry]),
            "rating": round(by_id[row.entry].rating) if row.entry in rated else None,
            "won_in_shootout": wins[SHOOTOUT_END].get(row.entry, 0),
            "won_on_time": wins[TIME_END].get(row.entry, 0),
            **drawn.get(row.entry, {}),
        }
        for row in rows
    ]


def rated_entries(*, tournament: Tournament) -> set[int]:
    """The entries with a rating to show: those of accounts. A walk-in has none (the 1500 a walk-in's
    row holds only orders the seeding), so the pages show none rather than a number it never had."""
    return set(TournamentEntryMember.objects.filter(tournament=tournament).values_list("entry_id", flat=True))


def _draw_columns(state: DrawState, ranked: list[Placing]) -> dict[int, dict[str, Any]]:
    """The draw's tie-breaks as columns (every number its placings are decided by, in its order):
    whether a player is still in, his wins, then the Kaisa points he made; in the cup, the round he
    went out in. `points_made` is the figure the page once ranked by without showing."""
    cup = state.event.format == Format.TWO_ROUNDS_THEN_CUP
    out_round = out_rounds(state)
    return {
        p.entrant: {
            "points_made": p.points,
            "still_in": not p.out_after,
            "out_round": out_round.get(p.entrant),
            "cup": cup,
        }
        for p in ranked
    }


def out_rounds(state: DrawState) -> dict[int, int]:
    """The round each player went out in (the round of the game that put him out)."""
    table = records(state)
    out: dict[int, int] = {}
    games_of: dict[int, int] = {}
    for game in state.games:
        for entrant in game.players:
            games_of[entrant] = games_of.get(entrant, 0) + 1
            if table[entrant].out_after == games_of[entrant]:
                out[entrant] = game.round
    return out


#: How a game's end is named where a result is shown (the `result_code` of a match or a game at the
#: club): a shoot-out win carries KaisaKaavio's `v`, a win on time a mark of its own (`result_marks`).
SHOOTOUT_END, TIME_END = "shootout", "time_limit"


def wins_by_end(*, tournament: Tournament) -> dict[str, dict[int, int]]:
    """How many of each entry's wins were decided in the shoot-out (K-11.4) and on time (K-11.1)."""
    rows = (
        TournamentPairing.objects.filter(
            tournament=tournament,
            status=TournamentPairing.Status.DONE,
            result_code__in=(SHOOTOUT_END, TIME_END),
            winner__isnull=False,
        )
        .values("winner_id", "result_code")
        .annotate(wins=Count("pk"))
        .order_by()
    )
    counted: dict[str, dict[int, int]] = {SHOOTOUT_END: {}, TIME_END: {}}
    for row in rows:
        counted[row["result_code"]][row["winner_id"]] = row["wins"]
    return counted


def result_marks(pairing: TournamentPairing) -> dict[str, bool]:
    """Whether a decided game was won in the shoot-out or on time: every page that shows a result
    marks both (the shoot-out's `v` is in the score line, the time's mark beside it)."""
    played = pairing.status == TournamentPairing.Status.DONE and pairing.how == TournamentPairing.How.PLAYED
    return {
        "shootout": played and pairing.winner_id is not None and pairing.result_code == SHOOTOUT_END,
        "on_time": played and pairing.winner_id is not None and pairing.result_code == TIME_END,
    }


def _row(row: Row, entry: TournamentEntry) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "entry_id": entry.pk,
        "name": entry.name,
        "seed": entry.seed,
        "rating": round(entry.rating),
        "played": row.played,
        "won": row.won,
        "drawn": row.drawn,
        "lost": row.lost,
        "points": _points(row.points),
        "frames_difference": row.frames_difference,
        "buchholz": _points(row.buchholz),
        "median_buchholz": _points(row.median_buchholz),
    }


def _points(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:.1f}"


def _score(match: Match | None) -> tuple[int, int] | None:
    players = ((match.snapshot or {}).get("players") or []) if match is not None else []
    if len(players) != 2:
        return None
    return int(players[0].get("score", 0)), int(players[1].get("score", 0))


def pairing_score_line(pairing: TournamentPairing) -> str:
    """A decided pairing's result as KaisaKaavio writes it: `45v – 52` when the shoot-out decided it."""
    seat = None
    if pairing.winner_id is not None:
        seat = 0 if pairing.winner_id == pairing.first_id else 1
    scores = (pairing.first_score, pairing.second_score)
    return score_line(scores=scores, winner_seat=seat, how=pairing.result_code)


def pairing_view(pairing: TournamentPairing, names: dict[int, str]) -> dict[str, Any]:
    match = pairing.match
    live = _score(match)
    done = pairing.status == TournamentPairing.Status.DONE
    scored = done and pairing.how != "bye"
    return {
        "id": pairing.pk,
        "slot": pairing.slot,
        "first": names.get(pairing.first_id, "?"),
        "second": names.get(pairing.second_id, "") if pairing.second_id else None,
        "first_entry": pairing.first_id,
        "second_entry": pairing.second_id,
        "winner": names.get(pairing.winner_id) if pairing.winner_id else None,
        "done": done,
        "how": pairing.how,
        "how_text": TournamentPairing.How(pairing.how).label if pairing.how else "",
        "score": (pairing.first_score, pairing.second_score) if scored else live,
        "score_line": pairing_score_line(pairing) if scored else "",
        **result_marks(pairing),
        "match_id": match.pk if match is not None else None,
        "match_status": match.status if match is not None else None,
        "match_url": f"/m/{match.pk}/" if match is not None else None,
        "table": pairing.table,  # at the club: the real table it is played on (None: waiting, or online)
        "fixes": [f.reason for f in pairing.fixes.all()],
    }


def rounds(*, tournament: Tournament) -> list[dict[str, Any]]:
    names = dict(TournamentEntry.objects.filter(tournament=tournament).values_list("pk", "name"))
    pairings = (
        TournamentPairing.objects.filter(tournament=tournament)
        .select_related("round", "match")
        .prefetch_related("fixes")
        .order_by("round__number", "index")
    )
    by_round: dict[int, dict[str, Any]] = {}
    for pairing in pairings:
        number = pairing.round.number
        view = by_round.setdefault(number, {"number": number, "status": pairing.round.status, "pairings": []})
        view["pairings"].append(pairing_view(pairing, names))
    return [by_round[n] for n in sorted(by_round)]


def draw_view(*, tournament: Tournament) -> dict[str, Any] | None:
    """What the pages show of a double-loss draw: the games in progress, the draw list with
    each player's losses and the round he went out in, and the final placings once it is over. None
    for the other formats and before the entries close (there is no list yet)."""
    if not is_drawn(tournament) or tournament.status not in PLAYED:
        return None
    pairings = drawn_pairings(tournament=tournament)
    state = draw_state(tournament=tournament, pairings=pairings)
    table = records(state)
    names = dict(TournamentEntry.objects.filter(tournament=tournament).values_list("pk", "name"))
    out_round = out_rounds(state)
    begun = _begun(pairings)
    finished = is_finished(state)
    places = {p.entrant: p.place for p in placings(state)} if finished else {}
    rows = [
        {
            "position": position,
            "name": names.get(entrant, "?"),
            "losses": table[entrant].losses,
            "wins": table[entrant].wins,
            "games": table[entrant].games,
            "playing": entrant in begun,
            "out_round": out_round.get(entrant),
            "place": places.get(entrant),
        }
        for position, entrant in enumerate(state.event.entrants, start=1)
    ]
    playing = (
        TournamentPairing.objects.filter(tournament=tournament, status=TournamentPairing.Status.PLAYING)
        .select_related("round", "match")
        .prefetch_related("fixes")
        .order_by("index", "pk")
    )
    in_progress = [{**pairing_view(p, names), "round": p.round.number} for p in playing]
    return {
        "list": rows,
        "in_progress": in_progress,
        "placings": sorted((r for r in rows if r["place"] is not None), key=lambda r: (r["place"], r["position"])),
        "finished": finished,
        "knockout_from": state.event.single_loss_from if tournament.format != Tournament.Format.DOUBLE_LOSS else None,
    }


def _begun(pairings: Iterable[TournamentPairing]) -> set[int]:
    """The players at a table or in a match now (a game drawn ahead of his earlier one waits)."""
    return {
        e
        for p in pairings
        if p.status == TournamentPairing.Status.PLAYING and (p.table is not None or p.match_id is not None)
        for e in (p.first_id, p.second_id)
        if e is not None
    }


def current_round(*, tournament: Tournament) -> dict[str, Any] | None:
    every = rounds(tournament=tournament)
    playing = [r for r in every if r["status"] != "done"]
    return playing[0] if playing else (every[-1] if every else None)


def is_scheduled(tournament: Tournament) -> bool:
    """Entries closed and round 1 paired, but not started by the server clock yet (no round has begun:
    a round of byes only is decided without beginning)."""
    return (
        tournament.status == Tournament.Status.RUNNING
        and not TournamentRound.objects.filter(tournament=tournament, started_at__isnull=False).exists()
    )


def status_words(tournament: Tournament) -> str:
    """The status a reader sees. Closing the entries makes a tournament `running` (its round 1 is
    paired), but nothing is played before the server clock starts it at the start time, so until then
    it says when it starts ("Running" above a round that "starts at the start time")."""
    if is_scheduled(tournament):
        start = formats.date_format(timezone.localtime(tournament.starts_at), "DATETIME_FORMAT")
        return gettext("Entries closed · starts %(start)s") % {"start": start}
    return str(tournament.get_status_display())


def format_words(tournament: Tournament) -> str:
    if tournament.format == Tournament.Format.DOUBLE_LOSS_THEN_KNOCKOUT and tournament.knockout_from:
        return gettext("Double-loss draw, then knockout from round %(round)s") % {"round": tournament.knockout_from}
    return str(tournament.get_format_display())


def tournament_summary(*, tournament: Tournament) -> dict[str, Any]:
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "url": f"/tournaments/{tournament.pk}/",
        "format": format_words(tournament),
        "kind": tournament.get_kind_display(),
        "category": tournament.get_category_display(),
        "status": tournament.status,
        "status_text": status_words(tournament),
        "scheduled": is_scheduled(tournament),
        "rated": tournament.rated,
        "time_limit_minutes": tournament.time_limit // 60 if tournament.time_limit else None,
        "clock": clock_summary(tournament),
        "starts_at": tournament.starts_at,
        "entries": TournamentEntry.objects.filter(tournament=tournament).count(),
        "max_entries": tournament.max_entries,
        "winner": tournament.winner.name if tournament.winner_id and tournament.winner else None,
        "club": tournament.club.name,
        "club_slug": tournament.club.slug,
        # A drawn event whose list is drawn: it has a wall chart and a KaisaKaavio file.
        "charted": is_drawn(tournament) and tournament.status in PLAYED,
    }


def clock_summary(tournament: Tournament) -> dict[str, Any]:
    """The event's clock and target as the page says them: its preset's name, or None when the club
    changed a number (the page then gives the numbers)."""
    clock = event_clock_of(ruleset=tournament.ruleset, time_limit=tournament.time_limit)
    preset = preset_of(clock)
    return {
        "preset": str(preset.label) if preset is not None else None,
        "minutes": clock.game_minutes,
        "warning_minutes": clock.warning_minutes,
        "extra_visits": clock.extra_visits,
        "shootout_visits": clock.shootout_visits,
        "target": clock.target_score,
    }


def club_tournaments(*, club_id: int, limit: int = 30, listed: Q | None = None) -> list[dict[str, Any]]:
    """The club page's tournament history, newest first; `listed` keeps the events this visitor may
    see listed (game/tournaments/visibility.py `listed_filter`)."""
    rows = (
        Tournament.objects.filter(listed or Q(), club_id=club_id)
        .select_related("club", "winner")
        .order_by("-starts_at", "-id")
    )
    return [tournament_summary(tournament=t) for t in rows[:limit]]


def to_play_for(*, user: AnyUser) -> list[dict[str, Any]]:
    """The visitor's tournament matches not played yet: the header's badge counts them, the home page
    lists them."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    entry_ids = list(TournamentEntryMember.objects.filter(user_id=int(user.pk or 0)).values_list("entry_id", flat=True))
    if not entry_ids:
        return []
    pairings = (
        TournamentPairing.objects.filter(
            Q(first_id__in=entry_ids) | Q(second_id__in=entry_ids),
            status=TournamentPairing.Status.PLAYING,
            match__status__in=(Match.Status.OPEN, Match.Status.ACTIVE),
        )
        .select_related("tournament", "round", "first", "second", "match")
        .order_by("round__created_at", "id")
    )
    result = []
    for pairing in pairings:
        mine = pairing.first if pairing.first_id in entry_ids else pairing.second
        other = pairing.second if mine == pairing.first else pairing.first
        assert pairing.match is not None
        result.append(
            {
                "tournament": pairing.tournament.name,
                "tournament_url": f"/tournaments/{pairing.tournament_id}/",
                "round": pairing.round.number,
                "opponent": other.name if other is not None else "",
                "url": f"/m/{pairing.match.pk}/",
                "started": pairing.match.status == Match.Status.ACTIVE,
                "deadline": pairing.no_show_deadline,
            }
        )
    return result


def tournament_of_match(*, match_id: str) -> int | None:
    """The tournament a match is played for, if any (the live page's socket group)."""
    return TournamentPairing.objects.filter(match_id=match_id).values_list("tournament_id", flat=True).first()


def reserved_player(*, match: Match) -> int | None:
    """The user id a tournament match's open seat waits for (its second entry's player); None when the
    match is not a tournament match."""
    pairing = TournamentPairing.objects.filter(match=match).first()
    if pairing is None or pairing.second_id is None:
        return None
    return (
        TournamentEntryMember.objects.filter(entry_id=pairing.second_id)
        .order_by("position", "id")
        .values_list("user_id", flat=True)
        .first()
    )


def awaiting_teams(*, match: Match) -> bool:
    """Whether this is a tournament team match whose teams are still awaited: its pairing's no-show
    clock runs (game.tournaments.services.play). Till then that clock, not the match's disconnect
    grace, decides who did not come (game.matches.services.presence holds the grace), so a team
    match started at once is ended once, by one of the two."""
    if not match.team_size:
        return False
    return TournamentPairing.objects.filter(match_id=match.pk, no_show_deadline__isnull=False).exists()
