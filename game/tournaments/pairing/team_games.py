"""A team game of KaisaKaavio's team event (`KilpaSarja` Joukkuekilpailu), pure: no Django.

The program draws the team event as it draws single players, the teams being the draw's participants
(Kilpailu.cs `PaivitaJoukkueKisa`: a second event whose participants are the teams, unseeded, its games
to 3 so that a 2-0 lead does not end one). Each game between two teams is three games between their
players (the program's "osaottelut"), drawn from each team's 3 or 4 players: each team's players in a
random order, the first three of each meeting in that order (`JoukkuePeliparienArvontaPopup.Arvo`:
both lists ordered by random keys, pairs 1-1, 2-2, 3-3; `PaivitaPelitJoukkueKisasta` draws the same
kind of lot when it first makes the three games). A team of four has one player sitting out each
team game. The team game is decided once its three games are played, by the games won (2-1 or 3-0;
`PaivitaPelitJoukkueKisaan`), and is written as the program writes it: the games won, the winner's
marked `v`.

The program takes its lot from an unseeded clock; Kaiza's is drawn from a text made of the event's
stored draw number, the round, the two teams and how many times the director drew again, so the
same event gives the same pairings on every page and after every correction.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

#: Players in a team: the program refuses a team of fewer than 3 or more than 4 (Kilpailu.ArvoKaavio).
TEAM_PLAYERS = (3, 4)
#: The games of one team game.
BOUTS = 3
#: The program draws a team event of 4 teams or more ("Joukkueita on alle neljä").
LEAST_TEAMS = 4


def bouts_seed(*, draw_seed: int | None, round: int, first: int, second: int, again: int) -> str:
    """The text a team game's lot is drawn from: the event's draw number (0 if it has none), the
    team game's round, its two teams (entry ids, first then second) and the director's draws again."""
    return f"team-bouts:{draw_seed or 0}:{round}:{first}:{second}:{again}"


def bouts_draw(first_team: Sequence[int], second_team: Sequence[int], seed: str) -> tuple[tuple[int, int], ...]:
    """The three games of a team game: each team's players (in the team's order) shuffled by the
    lot of `seed`, then paired in that order, first with first. Each team has 3 or 4 players."""
    for team in (first_team, second_team):
        if not TEAM_PLAYERS[0] <= len(team) <= TEAM_PLAYERS[1] or len(set(team)) != len(team):
            raise ValueError(f"a team is {TEAM_PLAYERS[0]} to {TEAM_PLAYERS[1]} different players: {team!r}")
    lot = random.Random(seed)  # a draw's lot, not a secret
    first_order, second_order = list(first_team), list(second_team)
    lot.shuffle(first_order)
    lot.shuffle(second_order)
    return tuple(zip(first_order[:BOUTS], second_order[:BOUTS], strict=True))


@dataclass(frozen=True)
class TeamScore:
    """A team game's score: the games each team has won, and the winning side (0 the first team, 1
    the second) once all three games are played, None before."""

    first_wins: int
    second_wins: int
    winner: int | None

    @property
    def decided(self) -> bool:
        return self.winner is not None


def team_score(winners: Sequence[int | None]) -> TeamScore:
    """The team game of its games' winners (0 or 1 each, None for a game not played yet): decided
    when all three are played, by the games won, as the program decides it."""
    if len(winners) != BOUTS or any(w not in (None, 0, 1) for w in winners):
        raise ValueError(f"a team game is {BOUTS} games, each won by side 0 or 1: {winners!r}")
    first, second = winners.count(0), winners.count(1)
    if first + second < BOUTS:
        return TeamScore(first, second, None)
    return TeamScore(first, second, 0 if first > second else 1)
