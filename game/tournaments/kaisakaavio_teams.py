"""A KaisaKaavio team event's file (`KilpaSarja` Joukkuekilpailu) read as Kaiza's draw of teams, and
written back. Pure: no Django.

The program saves the players, not the teams: each `<Pelaaja>` has its team's name (`Joukkue`) and,
once the event is drawn, its team's id in the draw of teams (`JoukkueId`, Kilpailu.ArvoKaavio), the
players' own ids following their teams' order. Its `<Pelit>` are the games between players, three
for each team game, one after another, each with the team game's round and the two teams' own rounds
(`KierrosPelaaja1/2`, Kilpailu.PaivitaPelitJoukkueKisasta); a team game is the three games of one
round between the same two teams, the first player of each game of the first team. Whether the
director drew or confirmed a team game's pairings is `JoukkueParitArvottu` on each of its games.

Read here: the teams as the draw's participants (id `JoukkueId`), each team game as the draw's game
(decided once its three games are played, by the games won, `PaivitaPelitJoukkueKisaan`; its table
the first game's; begun at its first game's start and ended at its last's end), and each team's
players and each team game's games kept beside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from django.utils.translation import gettext_noop

from game.tournaments.kaisakaavio import FileGame, KaavioFile, Participant
from game.tournaments.kaisakaavio_values import NOT_STARTED, PLAYED, RUNNING, KaavioError
from game.tournaments.pairing.team_games import BOUTS, LEAST_TEAMS, TEAM_PLAYERS, team_score
from game.tournaments.values import shown

TEAM_SERIES = "Joukkuekilpailu"
#: A player's team and its id in the draw of teams (Pelaaja.cs).
TEAM, TEAM_ID = "Joukkue", "JoukkueId"
#: A game whose team game's pairings the director drew or confirmed, or that began (Peli.cs).
PAIRS_DRAWN = "JoukkueParitArvottu"


def is_team_file(kaavio: KaavioFile) -> bool:
    """A team event: its `KilpaSarja` says so, or (a file without the setting) its players have teams."""
    series = dict(kaavio.other_fields).get("KilpaSarja")
    if series:
        return series == TEAM_SERIES
    return any(dict(p.extra).get(TEAM, "").strip() for p in kaavio.participants)


@dataclass(frozen=True)
class TeamFile:
    """`teams`: the draw of teams (its participants the teams, its games the team games, the file's
    settings); `players`: each team's players by the team's id, in their ids' order; `bouts`: each
    team game's three games, in the file's order, by the team game's place in `teams.games`."""

    teams: KaavioFile
    players: dict[int, tuple[Participant, ...]]
    bouts: tuple[tuple[FileGame, ...], ...]


def _teams_of(participants: Sequence[Participant]) -> tuple[dict[int, tuple[Participant, ...]], dict[int, str]]:
    """Each team's players and its name by its id; a refusal for a player without a team, a team
    without an id or with two, two teams of one id, or a team of fewer than 3 or more than 4."""
    players: dict[int, list[Participant]] = {}
    names: dict[int, str] = {}
    for player in sorted(participants, key=lambda p: p.id):
        fields = dict(player.extra)
        team = fields.get(TEAM, "").strip()
        if not team:
            raise KaavioError(gettext_noop("player %(name)s has no team (Joukkue)"), {"name": shown(player.name)})
        text = fields.get(TEAM_ID, "").strip()
        if not text.isdigit() or not text.isascii() or len(text) > 9:
            raise KaavioError(
                gettext_noop("team %(team)s has no id in the draw (JoukkueId): draw it in KaisaKaavio and save it"),
                {"team": shown(team)},
            )
        team_id = int(text)
        if names.setdefault(team_id, team) != team or any(n == team and i != team_id for i, n in names.items()):
            raise KaavioError(gettext_noop("team %(team)s has two ids or shares its id"), {"team": shown(team)})
        players.setdefault(team_id, []).append(player)
    if len(players) < LEAST_TEAMS:
        raise KaavioError(
            gettext_noop("a team event has %(least)s teams or more, this one %(count)s"),
            {"least": LEAST_TEAMS, "count": len(players)},
        )
    for team_id, roster in players.items():
        if not TEAM_PLAYERS[0] <= len(roster) <= TEAM_PLAYERS[1]:
            raise KaavioError(
                gettext_noop("team %(team)s has %(count)s players: a team has %(least)s to %(most)s"),
                {
                    "team": shown(names[team_id]),
                    "count": len(roster),
                    "least": TEAM_PLAYERS[0],
                    "most": TEAM_PLAYERS[1],
                },
            )
    return {team_id: tuple(roster) for team_id, roster in players.items()}, names


def _team_games(
    games: Sequence[FileGame], team_of: dict[int, int], names: dict[int, str]
) -> list[tuple[tuple[int, int, int, int, int], list[FileGame]]]:
    """The file's games grouped into team games in the file's order: (round, first team's round,
    second team's round, first team, second team) and its games; a game with an empty seat or two
    players of one team is refused."""
    grouped: dict[tuple[int, int, int, int, int], list[FileGame]] = {}
    for number, game in enumerate(games, start=1):
        if game.first_id is None or game.second_id is None:
            raise KaavioError(gettext_noop("game %(game)s of the team event has an empty seat"), {"game": number})
        first, second = team_of[game.first_id], team_of[game.second_id]
        if first == second:
            raise KaavioError(
                gettext_noop("game %(game)s is between two players of team %(team)s"),
                {"game": number, "team": shown(names[first])},
            )
        grouped.setdefault((game.round, game.first_round, game.second_round, first, second), []).append(game)
    return list(grouped.items())


def _check_team_game(key: tuple[int, int, int, int, int], bouts: list[FileGame], names: dict[int, str]) -> None:
    """Three games, each player of a team in one of them."""
    words = {"first": shown(names[key[3]]), "second": shown(names[key[4]]), "round": key[0]}
    if len(bouts) != BOUTS:
        raise KaavioError(
            gettext_noop(
                "the team game %(first)s – %(second)s (round %(round)s) has %(count)s games: a team game is 3"
            ),
            {**words, "count": len(bouts)},
        )
    for side in ("first_id", "second_id"):
        if len({getattr(b, side) for b in bouts}) != BOUTS:
            raise KaavioError(
                gettext_noop("a player plays twice in the team game %(first)s – %(second)s (round %(round)s)"),
                words,
            )


def _team_game(key: tuple[int, int, int, int, int], bouts: list[FileGame]) -> FileGame:
    """The team game of its three games: decided once all are played, by the games won (its points the
    games won, the winner's marked), else running once one is begun; its table the first game's, its
    start the earliest start and its end the latest end (times as the program writes them compare as
    text, as it compares them)."""
    score = team_score([None if not b.played else (0 if b.winner == 1 else 1) for b in bouts])
    begun = any(b.state in (RUNNING, PLAYED) for b in bouts)
    kept = [("Poyta", dict(bouts[0].extra).get("Poyta", "")), *_times(bouts, ended=score.decided)]
    return FileGame(
        round=key[0],
        first_round=key[1],
        second_round=key[2],
        first_id=key[3],
        second_id=key[4],
        first_points=score.first_wins if score.decided else None,
        second_points=score.second_wins if score.decided else None,
        winner=None if score.winner is None else score.winner + 1,
        state=PLAYED if score.decided else RUNNING if begun else NOT_STARTED,
        extra=tuple(kept),
    )


def _times(bouts: list[FileGame], *, ended: bool) -> list[tuple[str, str]]:
    """A team game's start (its games' earliest) and, once decided, its end (their latest)."""
    starts = [t for t in (dict(b.extra).get("Alkoi", "") for b in bouts) if t]
    ends = [t for t in (dict(b.extra).get("Paattyi", "") for b in bouts) if t]
    times = [("Alkoi", min(starts))] if starts else []
    return times + ([("Paattyi", max(ends))] if ended and ends else [])


def team_file(kaavio: KaavioFile) -> TeamFile:
    """The team event's draw of teams, its teams' players and its team games' games (see the module's
    docstring); a KaavioError naming what is wrong with a file that is no team event's."""
    players, names = _teams_of(kaavio.participants)
    team_of = {p.id: team_id for team_id, team in players.items() for p in team}
    grouped = _team_games(kaavio.games, team_of, names)
    for key, bouts in grouped:
        _check_team_game(key, bouts, names)
    teams = replace(
        kaavio,
        participants=tuple(Participant(id=team_id, name=names[team_id]) for team_id in sorted(players)),
        games=tuple(_team_game(key, bouts) for key, bouts in grouped),
    )
    return TeamFile(teams, players, tuple(tuple(bouts) for _, bouts in grouped))
