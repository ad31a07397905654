"""The draw of a team game's three games and its result, pure (game/tournaments/pairing/team_games.py).

The program's own draw of the pairings (JoukkuePeliparienArvontaPopup.Arvo) takes its lot from an
unseeded clock, so the oracle cannot replay it: these cases are checked by hand against its code
(each team's players ordered by random keys, the first three paired 1-1, 2-2, 3-3; the team game
decided once its three games are played, by the games won, Kilpailu.PaivitaPelitJoukkueKisaan)."""

from __future__ import annotations

import itertools

import pytest

from game.tournaments.pairing.team_games import BOUTS, TeamScore, bouts_draw, bouts_seed, team_score

A, B = (11, 12, 13), (21, 22, 23)


def test_each_player_plays_once_against_one_of_the_other_team() -> None:
    for again in range(50):
        games = bouts_draw(A, B, bouts_seed(draw_seed=7, round=1, first=1, second=2, again=again))
        assert len(games) == BOUTS
        assert sorted(g[0] for g in games) == list(A)
        assert sorted(g[1] for g in games) == list(B)


def test_the_same_lot_gives_the_same_pairings() -> None:
    seed = bouts_seed(draw_seed=123, round=3, first=5, second=9, again=0)
    assert bouts_draw(A, B, seed) == bouts_draw(A, B, seed)
    assert seed == "team-bouts:123:3:5:9:0"


def test_every_pairing_of_two_teams_of_three_can_be_drawn() -> None:
    """As the program's shuffle of both teams: each of the 3! ways to meet comes (the order of the
    three games aside, 6 sets; with the order, 36), none favoured much over 3600 lots."""
    counts: dict[frozenset[tuple[int, int]], int] = {}
    orders = set()
    for n in range(3600):
        games = bouts_draw(A, B, bouts_seed(draw_seed=n, round=1, first=1, second=2, again=0))
        counts[frozenset(games)] = counts.get(frozenset(games), 0) + 1
        orders.add(games)
    assert len(counts) == 6 and len(orders) == 36
    assert all(450 <= c <= 750 for c in counts.values())


def test_a_team_of_four_sits_one_player_out() -> None:
    four = (31, 32, 33, 34)
    out = set()
    for n in range(200):
        games = bouts_draw(four, B, bouts_seed(draw_seed=n, round=2, first=3, second=2, again=0))
        playing = {g[0] for g in games}
        assert len(playing) == 3 and playing < set(four)
        out |= set(four) - playing
    assert out == set(four)  # any of the four may sit out


@pytest.mark.parametrize("team", [(1, 2), (1, 2, 3, 4, 5), (1, 1, 2)])
def test_a_team_is_three_or_four_different_players(team: tuple[int, ...]) -> None:
    with pytest.raises(ValueError):
        bouts_draw(team, B, "x")


@pytest.mark.parametrize(
    ("winners", "score"),
    [
        ((0, 0, 0), TeamScore(3, 0, 0)),
        ((0, 1, 0), TeamScore(2, 1, 0)),
        ((1, 1, 0), TeamScore(1, 2, 1)),
        ((1, 1, 1), TeamScore(0, 3, 1)),
        # Two won is not yet the end: the program plays all three (its team game to 3).
        ((0, 0, None), TeamScore(2, 0, None)),
        ((None, None, None), TeamScore(0, 0, None)),
    ],
)
def test_the_team_game_is_decided_by_games_won_once_all_three_are_played(
    winners: tuple[int | None, ...], score: TeamScore
) -> None:
    assert team_score(winners) == score


def test_a_team_game_is_three_games() -> None:
    for bad in ((0, 1), (0, 1, 0, 1), (0, 2, 1)):
        with pytest.raises(ValueError):
            team_score(bad)
    assert all(team_score(w).decided for w in itertools.product((0, 1), repeat=3))
