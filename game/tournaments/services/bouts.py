"""The games of each team game of a team event at the club, drawn once the draw gives the team game
(KaisaKaavio's `PaivitaPelitJoukkueKisasta`): three games between the two teams' players, as
game/tournaments/pairing/team_games.py draws them from the event's stored draw number, so a team game
drawn again (a correction) between the same teams in the same round meets the same players.

Called by play.py after each draw (the caller holds the tournament row).
"""

from __future__ import annotations

from collections import defaultdict

from game.models.tournaments import Tournament, TournamentBout, TournamentPairing, TournamentTeamPlayer
from game.tournaments.pairing.team_games import BOUTS, bouts_draw, bouts_seed


def team_rosters(tournament: Tournament) -> dict[int, list[int]]:
    """Each team's register players (ids), in the team's order."""
    rosters: dict[int, list[int]] = defaultdict(list)
    rows = TournamentTeamPlayer.objects.filter(tournament=tournament).order_by("entry_id", "position", "pk")
    for entry_id, player_id in rows.values_list("entry_id", "player_id"):
        rosters[entry_id].append(player_id)
    return rosters


def bouts_make(
    tournament: Tournament, pairing: TournamentPairing, rosters: dict[int, list[int]], *, again: int = 0
) -> list[TournamentBout]:
    """The three games of `pairing` drawn (the `again`-th draw of the director) and stored."""
    assert pairing.second_id is not None
    seed = bouts_seed(
        draw_seed=tournament.draw_seed,
        round=pairing.round.number,
        first=pairing.first_id,
        second=pairing.second_id,
        again=again,
    )
    games = bouts_draw(rosters[pairing.first_id], rosters[pairing.second_id], seed)
    return [
        TournamentBout.objects.create(
            pairing=pairing, index=index, first_player_id=first, second_player_id=second, drawn_again=again
        )
        for index, (first, second) in enumerate(games)
    ]


def bouts_settle(tournament: Tournament) -> None:
    """Every team game the draw has given gets its games (once); a team game the draw has taken its
    result back from (a correction: a team has an earlier game to play first) loses its games'
    results with it, as a game of single players loses its own."""
    if tournament.kind != Tournament.Kind.CLUB_TEAMS:
        return
    pairings = TournamentPairing.objects.filter(tournament=tournament, second__isnull=False).select_related("round")
    have = set(TournamentBout.objects.filter(pairing__tournament=tournament).values_list("pairing_id", flat=True))
    rosters = team_rosters(tournament)
    for pairing in pairings:
        if pairing.pk not in have:
            bouts_make(tournament, pairing, rosters)
        elif pairing.status == TournamentPairing.Status.PLAYING:
            played = TournamentBout.objects.filter(pairing=pairing, winner_side__isnull=False)
            if played.count() == BOUTS:
                played.update(winner_side=None, first_score=0, second_score=0, result_code="", finished_at=None)
