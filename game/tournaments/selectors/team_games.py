"""What the pages of a team event at the club read of its team games: each team's players, and each
team game's three games in words (the two players, the result once entered) with how its pairings
were drawn (game/tournaments/services/bouts.py)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, ngettext

from game.matches.selectors.match_result import score_line
from game.models.tournaments import Tournament, TournamentBout, TournamentTeamPlayer


def team_players(*, tournament: Tournament) -> dict[int, list[str]]:
    """Each team's players' names, in the team's order (empty for an event of no teams)."""
    if tournament.kind != Tournament.Kind.CLUB_TEAMS:
        return {}
    rosters: dict[int, list[str]] = {}
    rows = TournamentTeamPlayer.objects.filter(tournament=tournament).order_by("entry_id", "position", "pk")
    for entry_id, name in rows.values_list("entry_id", "player__name"):
        rosters.setdefault(entry_id, []).append(name)
    return rosters


def _bout(bout: TournamentBout) -> dict[str, Any]:
    done = bout.winner_side is not None
    sides = (bout.first_player_id, bout.second_player_id)
    return {
        "id": bout.pk,
        "number": bout.index + 1,
        "first": bout.first_player.name,
        "second": bout.second_player.name,
        # The result form's fields (game/templates/game/tournaments/_result_fields.html): the
        # shoot-out's winner is named by the player's id.
        "first_entry": sides[0],
        "second_entry": sides[1],
        "first_handicap": 0,
        "second_handicap": 0,
        "done": done,
        "first_score": bout.first_score,
        "second_score": bout.second_score,
        "ended": bout.result_code,
        "winner_entry": sides[bout.winner_side] if bout.winner_side is not None else None,
        "score_line": score_line(
            scores=(bout.first_score, bout.second_score), winner_seat=bout.winner_side, how=bout.result_code
        )
        if done
        else "",
    }


def drawn_words(again: int) -> str:
    """How a team game's pairings were drawn, in words."""
    if not again:
        return gettext("Pairings drawn by lot from the event's draw number")
    return ngettext(
        "Pairings drawn by lot, drawn again %(count)s time by the director",
        "Pairings drawn by lot, drawn again %(count)s times by the director",
        again,
    ) % {"count": again}


def team_games(*, tournament: Tournament) -> dict[int, dict[str, Any]]:
    """For each team game (pairing id): its three games (`bouts`), whether any is played, and how its
    pairings were drawn (`drawn`, in words)."""
    if tournament.kind != Tournament.Kind.CLUB_TEAMS:
        return {}
    games: dict[int, dict[str, Any]] = {}
    bouts = TournamentBout.objects.filter(pairing__tournament=tournament).select_related(
        "first_player", "second_player"
    )
    for bout in bouts.order_by("pairing_id", "index"):
        game = games.setdefault(bout.pairing_id, {"bouts": [], "played": False, "again": 0})
        game["bouts"].append(_bout(bout))
        game["played"] = game["played"] or bout.winner_side is not None
        game["again"] = max(game["again"], bout.drawn_again)
    for game in games.values():
        game["drawn"] = drawn_words(game["again"])
    return games
