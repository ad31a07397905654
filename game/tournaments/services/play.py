"""A tournament in play: rounds paired from the pure logic (game/tournaments/), each pairing's real
match made by the match services, results taken when a match finishes (the one hook,
:func:`tournament_match_finished`, called where every match finishes: matches.inputs), no-shows
forfeited and rounds started by the server clocks (:func:`tournament_clocks_fire`, run by
game/matches/services/deadlines.py like every other deadline), the next round paired as soon as a round is
complete (an admin's fixed result: fixes.py).
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.utils import timezone

from game.common.clock import game_now
from game.matches.clock_presets import event_clock_of
from game.matches.selectors.match_state import deadline_next, fresh_since
from game.matches.services import (
    Applied,
    MatchError,
    connected_seats,
    match_abandon,
    match_create,
    match_join,
    refresh_grace,
    store_event,
)
from game.models import Match, MatchConnection
from game.models.tournaments import (
    NO_SHOW_AFTER,
    Tournament,
    TournamentPairing,
    TournamentRound,
)
from game.signals import tournament_finished
from game.teams.selectors import team_winner
from game.teams.services import team_match_create
from game.tournaments.pairing import knockout
from game.tournaments.pairing.results import LOSS, WIN, Game, decided
from game.tournaments.pairing.round_robin import round_robin_rounds
from game.tournaments.pairing.standings import round_robin_standings, swiss_standings
from game.tournaments.pairing.swiss import swiss_pairings, swiss_round_count
from game.tournaments.selectors import tournaments as selectors
from game.tournaments.selectors.draw import is_drawn
from game.tournaments.services import draw
from game.tournaments.services.base import TournamentError, is_member, lock_tournament
from game.tournaments.services.bouts import bouts_settle

logger = logging.getLogger(__name__)


def plan_rounds(tournament: Tournament, entries: int) -> int:
    if is_drawn(tournament):
        return 0  # drawn one game at a time: the number of rounds is known at the end
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        return len(round_robin_rounds(list(range(entries))))
    if tournament.format == Tournament.Format.SWISS:
        return swiss_round_count(entries)
    return len(knockout.schedule(entries, double=selectors.is_double(tournament)))


def _games(tournament: Tournament, number: int) -> list[tuple[str, Game]]:
    """The games of round `number` (slot name for eliminations), from the results so far."""
    ids = [e.pk for e in selectors.entries_in_seed_order(tournament=tournament)]
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        every = round_robin_rounds(ids)
        return [("", g) for g in every[number - 1]] if number <= len(every) else []
    if tournament.format == Tournament.Format.SWISS:
        return [("", g) for g in swiss_pairings(ids, selectors.results_of(tournament=tournament))]
    double = selectors.is_double(tournament)
    plan = knockout.sources(len(ids), double=double)
    winners = selectors.slot_winners(tournament=tournament)
    slots = knockout.schedule(len(ids), double=double)
    games: list[tuple[str, Game]] = []
    for slot in slots[number - 1] if number <= len(slots) else []:
        a, b = knockout.sides(slot, ids, plan, winners)
        if a is None and b is None:
            continue  # two byes: nobody plays, nobody advances
        present = a if a is not None else b
        assert present is not None
        games.append((selectors.slot_name(slot), Game(present, b if a is not None else None)))
    return games


def round_pair(tournament: Tournament, number: int) -> TournamentRound | None:
    """Store round `number`'s pairings (status paired, no matches yet); None when there is none."""
    while number <= tournament.rounds_planned:
        games = _games(tournament, number)
        round_ = TournamentRound.objects.create(tournament=tournament, number=number)
        for index, (slot, game) in enumerate(games):
            TournamentPairing.objects.create(
                round=round_,
                tournament=tournament,
                slot=slot,
                index=index,
                first_id=game.first,
                second_id=game.second,
            )
        if games:
            return round_
        round_.status = TournamentRound.Status.DONE  # an elimination round of byes only
        round_.save(update_fields=["status"])
        number += 1
    return None


def round_begin_if_due(tournament: Tournament, round_: TournamentRound, now: float | None) -> None:
    now = game_now() if now is None else now
    if round_.status == TournamentRound.Status.PAIRED and tournament.starts_at.timestamp() <= now:
        round_begin(tournament, round_, now)


def round_begin(tournament: Tournament, round_: TournamentRound, now: float) -> None:
    """Make every pairing's match (byes are decided at once) and start the no-show clocks. A drawn
    format begins all its stored games at once and draws on (:func:`draw_advance`)."""
    if is_drawn(tournament):
        draw.draw_rounds_begin(tournament)
        draw_advance(tournament, now)
        return
    round_.status = TournamentRound.Status.PLAYING
    round_.started_at = timezone.now()
    round_.save(update_fields=["status", "started_at"])
    players = selectors.entry_players(
        entry_ids=[
            e
            for p in TournamentPairing.objects.filter(round=round_)
            for e in (p.first_id, p.second_id)
            if e is not None
        ]
    )
    for pairing in TournamentPairing.objects.filter(round=round_).order_by("index"):
        _pairing_begin(tournament, pairing, players, now)
    _after_result(tournament, round_, now)


def _pairing_begin(
    tournament: Tournament, pairing: TournamentPairing, players: dict[int, list[Any]], now: float
) -> None:
    if pairing.second_id is None:
        pairing_decide(pairing, winner=pairing.first_id, how=TournamentPairing.How.BYE, points=(WIN, LOSS))
        return
    first, second = players[pairing.first_id], players[pairing.second_id]
    try:
        _give_match(tournament, pairing, first, second, now)
    except TournamentError as exc:
        # The match services refuse a player (no longer a member, say): who cannot play loses
        # the pairing, as a no-show would. A single match checks its first player only (the
        # second is checked when joining); a team match checks every member of both teams.
        logger.info("tournament %s: pairing %s forfeited at its start (%s)", tournament.pk, pairing.pk, exc.code)
        can_play = [False, True]
        if tournament.kind == Tournament.Kind.TEAMS:
            members = [all(is_member(club_id=tournament.club_id, user=u) for u in side) for side in (first, second)]
            can_play = members if not all(members) else can_play
        _forfeit(tournament, pairing, can_play)


def draw_advance(tournament: Tournament, now: float) -> None:
    """A drawn format after anything was decided (the entries closed, a result, a no-show, a fix):
    store every game the draw gives now and, once the tournament has begun, give each its match at
    once (online every drawn game is played at once: there are no tables to wait for). A game
    decided at its start (a player who cannot play) feeds the draw again; it ends when the draw is
    over, with the placings stored (:func:`_finish`). An event at the club (`Tournament.tables`)
    gives each stored game a free table instead (draw.draw_tables_give): its result is entered by
    hand (game/tournaments/services/club.py), so it has no match and no no-show clock."""
    if tournament.status != Tournament.Status.RUNNING:
        return
    begun = tournament.starts_at.timestamp() <= now
    while True:
        draw.draw_store_next(tournament, begun=begun)
        bouts_settle(tournament)  # a team event's team games get their three games
        if tournament.tables:  # at the club: a game gets a free table, not a match; it waits if none
            if begun:
                draw.draw_tables_give(tournament)
            break
        waiting = draw.draw_ready(tournament)  # both players free of earlier games, in the list's order
        if not begun or not waiting:
            break
        players = selectors.entry_players(entry_ids=[e for p in waiting for e in (p.first_id, p.second_id) if e])
        for pairing in waiting:
            _pairing_begin(tournament, pairing, players, now)
    draw.draw_rounds_settle(tournament)
    if draw.draw_is_over(tournament):
        tournament_finish(tournament)


def _give_match(
    tournament: Tournament, pairing: TournamentPairing, first: list[Any], second: list[Any], now: float
) -> None:
    """Make the pairing's match and start its no-show clock. A team match is started when made, its
    disconnect grace with it: once the pairing points at it, the grace is held
    (presence.refresh_grace) so that the no-show clock alone decides who did not come."""
    match = create_match(tournament, first, second)
    pairing.match = match
    pairing.no_show_deadline = now + NO_SHOW_AFTER
    pairing.save(update_fields=["match", "no_show_deadline"])
    if match.team_size:
        refresh_grace(match, now)
        match.next_deadline = deadline_next(match)
        match.save(update_fields=["grace_seat", "grace_deadline", "next_deadline"])


def create_match(tournament: Tournament, first: list[Any], second: list[Any]) -> Match:
    """The real match of a pairing, made by the match services: the first entry's player sits in seat
    0 and the seat 1 waits for the second's (matches.lifecycle.match_join lets only them in). A team
    pairing's match has every member seated at once, the first entry as team 0, each team in its
    playing order, rated as the tournament is (docs/teams.md: each member against the other team's
    mean), and starts at once. Its clock and target are the tournament's; one made before
    tournaments had them (an empty `ruleset`) keeps its time limit alone, as then."""
    clock = event_clock_of(ruleset=tournament.ruleset, time_limit=tournament.time_limit) if tournament.ruleset else None
    limit = None if clock is not None else tournament.time_limit
    try:
        if tournament.kind == Tournament.Kind.TEAMS:
            return team_match_create(
                teams=[first, second],
                rated=tournament.rated,
                time_limit=limit,
                clock=clock,
                shot_clock=None,
                club=tournament.club,
                created_by=first[0],
            )
        match, _ = match_create(
            user=first[0], rated=tournament.rated, time_limit=limit, clock=clock, shot_clock=None, club=tournament.club
        )
    except MatchError as exc:
        raise TournamentError(exc.code, exc.template, exc.params) from exc
    return match


def pairing_decide(
    pairing: TournamentPairing,
    *,
    winner: int | None,
    how: str,
    points: tuple[float, float],
    scores: tuple[int, int] = (0, 0),
    result_code: str = "",
) -> None:
    pairing.winner_id = winner
    pairing.how = how
    pairing.result_code = result_code
    pairing.first_points, pairing.second_points = points
    pairing.first_score, pairing.second_score = scores
    pairing.status = TournamentPairing.Status.DONE
    pairing.no_show_deadline = None
    pairing.finished_at = timezone.now()
    pairing.save()


def _after_result(tournament: Tournament, round_: TournamentRound, now: float) -> None:
    """When the last pairing of the round is decided: the next round, or the end of the tournament.
    A drawn format draws on after every result instead."""
    if is_drawn(tournament):
        draw_advance(tournament, now)
        return
    if TournamentPairing.objects.filter(round=round_, status=TournamentPairing.Status.PLAYING).exists():
        return
    round_.status = TournamentRound.Status.DONE
    round_.finished_at = timezone.now()
    round_.save(update_fields=["status", "finished_at"])
    following = round_pair(tournament, round_.number + 1)
    if following is not None:
        round_begin(tournament, following, now)
        return
    tournament_finish(tournament)


def tournament_finish(tournament: Tournament) -> None:
    ids = [e.pk for e in selectors.entries_in_seed_order(tournament=tournament)]
    top: int | None
    if is_drawn(tournament):
        top = draw.draw_placings_store(tournament)
    elif tournament.format in selectors.ELIMINATIONS:
        top = knockout.champion(
            ids, selectors.slot_winners(tournament=tournament), double=selectors.is_double(tournament)
        )
    else:
        results = selectors.results_of(tournament=tournament)
        rows = swiss_standings if tournament.format == Tournament.Format.SWISS else round_robin_standings
        table = rows(ids, results)
        top = table[0].entry if table else None
    tournament.winner_id = top
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["winner", "status", "finished_at"])
    tournament_finished.send(sender=Tournament, tournament=tournament)


def pairing_points(tournament: Tournament, pairing: TournamentPairing, winner: int | None) -> tuple[float, float]:
    result = decided(pairing.first_id, pairing.second_id, winner)
    return result.first_points, result.second_points


def tournament_match_finished(*, match: Match) -> None:
    """The hook: a match finished or was aborted (inside the transaction that ended it). A tournament
    match's result is copied to its pairing (the next round paired once the round is complete); an
    aborted one is replaced by a fresh match with a fresh no-show clock. Anything the tournament
    refuses is logged and left to an admin, never raised into the input that finished the match."""
    pairing = TournamentPairing.objects.select_for_update().filter(match=match).first()
    if pairing is None or pairing.status == TournamentPairing.Status.DONE:
        return
    tournament = lock_tournament(pairing.tournament_id)
    now = game_now()
    try:
        with transaction.atomic():
            if match.status == Match.Status.ABORTED:
                players = selectors.entry_players(entry_ids=[pairing.first_id, pairing.second_id or 0])
                assert pairing.second_id is not None
                _give_match(tournament, pairing, players[pairing.first_id], players[pairing.second_id], now)
                return
            winner = None
            if match.team_size:
                team = team_winner(match=match)  # team 0 is the first entry (create_match)
                winner = None if team is None else (pairing.first_id, pairing.second_id)[team]
            elif match.winner_id is not None:
                winner = pairing.first_id if match.winner_id == match.player1_id else pairing.second_id
            if winner is None and (tournament.format in selectors.ELIMINATIONS or is_drawn(tournament)):
                # a level knockout match (K-11 after the shoot-out): the better seed; in a draw the
                # entry the draw was seeking a game for (a drawn format has no drawn game)
                winner = pairing.first_id
            seated = (match.snapshot or {}).get("players") or []  # a team match's sides: the team scores
            scores = (int(seated[0].get("score", 0)), int(seated[1].get("score", 0))) if len(seated) == 2 else (0, 0)
            pairing_decide(
                pairing,
                winner=winner,
                how=TournamentPairing.How.PLAYED,
                points=pairing_points(tournament, pairing, winner),
                scores=scores,
                result_code=match.result_code,  # "shootout": both scores kept, the winner marked (K-11.4)
            )
            _after_result(tournament, pairing.round, now)
    except (TournamentError, MatchError) as exc:
        logger.warning("tournament %s: pairing %s left for an admin (%s)", tournament.pk, pairing.pk, exc)


def _present(match: Match, user_ids: list[int | None]) -> list[bool]:
    fresh = set(
        MatchConnection.objects.filter(
            match=match,
            user_id__in=[u for u in user_ids if u is not None],
            seen_at__gte=fresh_since(),
        ).values_list("user_id", flat=True)
    )
    return [u is not None and u in fresh for u in user_ids]


def no_show_fire(pairing_id: int, now: float) -> list[tuple[str, Applied]]:
    """One pairing whose no-show clock ran out: if its match has not started, whoever is not on the
    match page loses by forfeit (both away: both lose); both there: the match starts."""

    with transaction.atomic():
        # The match row first, then the pairing, then the tournament: the order of the path that
        # finishes a match (an input holds the match, the hook takes the pairing), so the two never
        # wait on each other. A match another process holds is skipped: the next poll looks again.
        match_id = (
            TournamentPairing.objects.filter(
                pk=pairing_id, status=TournamentPairing.Status.PLAYING, no_show_deadline__lte=now
            )
            .values_list("match_id", flat=True)
            .first()
        )
        if match_id is None:
            return []
        match = Match.objects.select_for_update(skip_locked=True).filter(pk=match_id).first()
        if match is None:
            return []
        pairing = (
            TournamentPairing.objects.select_for_update(of=("self",))
            .filter(
                pk=pairing_id, match_id=match_id, status=TournamentPairing.Status.PLAYING, no_show_deadline__lte=now
            )
            .select_related("round", "first", "second")
            .first()
        )
        if pairing is None:
            return []
        tournament = lock_tournament(pairing.tournament_id)
        pairing.no_show_deadline = None
        pairing.save(update_fields=["no_show_deadline"])
        if match.team_size and match.status == Match.Status.ACTIVE:
            return _team_no_show(tournament, pairing, match, now)
        if match.status != Match.Status.OPEN:
            return []
        second_user = selectors.reserved_player(match=match)
        here = _present(match, [match.player1_id, second_user])
        if all(here) and second_user is not None:
            return [(match.pk, match_join(match_id=match.pk, user=match_user(second_user)))]
        match.status = Match.Status.ABORTED
        match.finished_at = timezone.now()
        match.result_code = "aborted"
        match.result_reason = _no_show_reason(pairing, here)
        event = store_event(
            match,
            "finished",
            {"winner": None, "reason": match.result_reason, "rating_changes": [], "state": None, "clock": None},
        )
        match.save()
        _forfeit(tournament, pairing, here)
        _after_result(tournament, pairing.round, now)
    return [(match.pk, Applied(events=[event], lobby_changed=True))]


def _team_no_show(
    tournament: Tournament, pairing: TournamentPairing, match: Match, now: float
) -> list[tuple[str, Applied]]:
    """The no-show of a team match (locked; started when made, its grace held till now): a team none
    of whose members is on the match page loses by forfeit, both such: both lose, and the engine ends
    the match as the disconnect grace would (deadlines.match_abandon: nothing played yet, so
    aborted: no rating moves, as for a single's no-show). Both teams there: the no-show clock is over
    and the disconnect grace takes over. The pairing is decided first, so the result hook the
    match's end calls finds it done."""

    connected = connected_seats(match, now)
    here = [0 in connected, 1 in connected]
    if all(here):
        refresh_grace(match, now)
        match.next_deadline = deadline_next(match)
        match.save(update_fields=["grace_seat", "grace_deadline", "next_deadline"])
        return []
    _forfeit(tournament, pairing, here)
    events = match_abandon(match, now, seats=[seat for seat in (0, 1) if not here[seat]])
    match.result_reason = _no_show_reason(pairing, here)
    match.save(update_fields=["result_reason"])
    _after_result(tournament, pairing.round, now)
    return [(match.pk, Applied(events=events, lobby_changed=True))]


def tournament_teams_arrived(*, match: Match, now: float) -> None:
    """A member of a team match came to its page (the caller holds the match row): once each team
    has a member there, the teams have come (a single match's start, for a team match made started)
    and the no-show clock stops; the disconnect grace takes over."""
    if not selectors.awaiting_teams(match=match) or connected_seats(match, now) != {0, 1}:
        return
    TournamentPairing.objects.filter(
        match=match, status=TournamentPairing.Status.PLAYING, no_show_deadline__isnull=False
    ).update(no_show_deadline=None)


def _no_show_reason(pairing: TournamentPairing, here: list[bool]) -> str:
    absent = [str(entry) for entry, present in zip((pairing.first, pairing.second), here, strict=True) if not present]
    return "no-show: " + " and ".join(absent) + " did not come (forfeit)"


def _forfeit(tournament: Tournament, pairing: TournamentPairing, can_play: list[bool]) -> None:
    """Decide a pairing one or both of whose sides could not play or did not come: that side loses by
    forfeit, both such: both lose."""
    if can_play[0] != can_play[1]:
        winner = pairing.first_id if can_play[0] else pairing.second_id
        pairing_decide(
            pairing,
            winner=winner,
            how=TournamentPairing.How.FORFEIT,
            points=pairing_points(tournament, pairing, winner),
        )
    else:
        pairing_decide(pairing, winner=None, how=TournamentPairing.How.DOUBLE_FORFEIT, points=(LOSS, LOSS))


def match_user(user_id: int) -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(pk=user_id)


# --- how the tournaments hear the matches (connected in game.apps) -----------------------------------


def on_match_finished(sender: object, *, match: Match, **_: object) -> None:
    """Receiver of `match_finished`: a tournament match's result goes to its pairing."""
    tournament_match_finished(match=match)


def on_seat_arrived(sender: object, *, match: Match, now: float, **_: object) -> None:
    """Receiver of `seat_arrived`: a team match's teams may have come."""
    tournament_teams_arrived(match=match, now=now)
