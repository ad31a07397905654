"""How a double-loss draw finds its games: the opening from the list, then one search at a time.

Players are numbered by their place in the draw list (1 = the head), as the reference program
(KaisaKaavio) numbers them; a game is a :class:`Drawn`. Everything here is pure and works on
positions; :mod:`game.tournaments.pairing.double_loss` maps entrants to positions and back and
decides when a search runs. docs/double-loss-draw.md gives the rules in words.

**The opening** (:func:`opening`): round 1 pairs the list in twos (an odd field rests the last);
round 2 is drawn before any result: a field of 4k + 2 first plays a "twist" at the foot of the
list, then each player in turn (fewest games, then the list) takes the first player he has not met.

**A search** (:func:`search_round`) is run for one set of known results (the caller tries every
way the games in progress can end). It aims at a target round: one past the fewest games anyone
still in has played (two past, when a single player is alone at the back: he rests). Then, one
game at a time:

- *While more than* :data:`CAREFUL_FIELD` *are in* (the quick search), the *seeker* is the player
  with the fewest games (then the list) below the target; he must be in whatever the games in
  progress give. His opponents are everyone still in with at least his games, in the same order;
  the first one *acceptable* is taken (:class:`_Lookahead`): not a rematch, not two games apart,
  not leaving the last two seekers of the round as a pair who have met, and leaving the rest of
  the round pairable in the same way (or, failing that, every player already past the game's
  level).
- *At* :data:`CAREFUL_FIELD` *or fewer* (the careful search, only as the search's first game) the
  rest of the event is scored whole, in :mod:`game.tournaments.pairing.double_loss_endgame`.

A search stops early (and asks to be run again) after a game between players of different own
rounds, a game beyond the target round, a careful game, or when it leaves one player alone below
the target. While results are awaited it gives no rematch (unless the seeker has met everyone), no
two-round gap, and no careful game costing :data:`LAGGARD` or more.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from game.tournaments.pairing.double_loss_endgame import (
    CAREFUL_FIELD,
    LAGGARD,
    NO_KNOCKOUT,
    best_pairing,
)
from game.tournaments.pairing.double_loss_state import DrawError

#: The first round a search draws (rounds 1 and 2 are the opening).
FIRST_SEARCHED_ROUND = 3


@dataclass(slots=True)
class Drawn:
    """A game by positions. `won` is 0 while it is not played, else 1 or 2 (the side that won).
    `slot` is a cup game's seat in its round (None outside the cup)."""

    first: int
    second: int
    round: int
    first_round: int
    second_round: int
    won: int = 0
    slot: int | None = None

    def has(self, player: int) -> bool:
        return player in (self.first, self.second)

    def lost_by(self, player: int) -> bool:
        return (self.won == 2 and player == self.first) or (self.won == 1 and player == self.second)

    def own_round(self, player: int) -> int:
        return self.first_round if player == self.first else self.second_round


def added(games: Sequence[Drawn], one: int, other: int, *, cup: bool = False) -> Drawn:
    """The game `one` v `other` as the program lists it: each player's own round is one more than
    his games so far, the player in the lower own round is named first, and at equal own rounds
    the one higher in the list (outside the cup, where the seats decide)."""
    first_round = sum(1 for g in games if g.has(one)) + 1
    second_round = sum(1 for g in games if g.has(other)) + 1
    if second_round < first_round or (second_round == first_round and other < one and not cup):
        one, other, first_round, second_round = other, one, second_round, first_round
    return Drawn(one, other, max(first_round, second_round), first_round, second_round)


#: The "player" of a walk-over's empty side: no place of the list (places start at 1).
NOBODY = 0


def opening(size: int, *, cup: bool = False, late: tuple[tuple[int, int], ...] = ()) -> list[Drawn]:
    """Rounds 1 and 2 for a list of `size`, in the order they are drawn. `late`: the championship's
    seeds as (place, rounds skipped), in seed order."""
    if late:
        return [replace(g) for g in _late_opening(size, late)]
    return [replace(g) for g in _opening(size, cup)]


@lru_cache(maxsize=128)
def _late_opening(size: int, late: tuple[tuple[int, int], ...]) -> tuple[Drawn, ...]:
    """The championship's opening: first a walk-over (won, against :data:`NOBODY`) for each round a
    seed skips, then round 1 pairs in twos down the list those with no game yet, and round 2 is
    drawn as ever (fewest games, then the list, each with the first he has not met); no twist at
    the foot of the list."""
    games: list[Drawn] = []
    for skipped in (1, 2):
        for place, rounds in late:
            if rounds >= skipped:
                games.append(Drawn(place, NOBODY, skipped, skipped, skipped, won=1))
    fresh = [p for p in range(1, size + 1) if not any(g.has(p) for g in games)]
    for one, other in zip(fresh[::2], fresh[1::2], strict=False):
        games.append(added(games, one, other))
    _round_two(size, games, cup=False)
    return tuple(games)


@lru_cache(maxsize=128)
def _opening(size: int, cup: bool) -> tuple[Drawn, ...]:
    games: list[Drawn] = []
    for first in range(1, size, 2):
        games.append(added(games, first, first + 1, cup=cup))
    if size % 2 == 0 and size % 4 != 0:
        games.append(added(games, size - 4, size - 1, cup=cup))
        games.append(added(games, size - 2, size, cup=cup))
    _round_two(size, games, cup=cup)
    return tuple(games)


def _round_two(size: int, games: list[Drawn], *, cup: bool) -> None:
    """Round 2 drawn onto `games`: each in turn (fewest games, then the list) takes the first
    player he has not met."""

    def met(one: int, other: int) -> bool:
        return any(g.has(one) and g.has(other) for g in games)

    def count(player: int) -> int:
        return sum(1 for g in games if g.has(player))

    while True:
        waiting = sorted((p for p in range(1, size + 1) if count(p) < 2), key=lambda p: (count(p), p))
        if len(waiting) < 2:
            break
        seeker = waiting[0]
        fresh = [p for p in waiting[1:] if not met(seeker, p)]
        if not fresh:
            raise DrawError("round_two_no_opponent", place=seeker)
        games.append(added(games, seeker, fresh[0], cup=cup))


@dataclass
class _Player:
    """A player still in during one search: his games (played, in progress and drawn), raw losses,
    games not yet played, and how many of those are in his own knockout rounds."""

    position: int
    games: int
    losses: int
    open: int
    open_single_loss: int

    def surely_in(self) -> bool:
        return self.open_single_loss == 0 and self.open + self.losses <= 1


@dataclass
class Searched:
    """One search's games, in the order found, and whether it asks to be run again at once."""

    games: list[Drawn]
    again: bool


#: No last round: the search of an event at one place.
NO_LAST_ROUND = 10_000


def search_round(
    size: int, single_loss_from: int, played: list[Drawn], results_awaited: bool, last_round: int = NO_LAST_ROUND
) -> Searched:
    """One search over `played` (every game drawn so far, each with a result: the real one or the
    one being tried). `results_awaited`: the event has games in progress, so the search is wary.
    `last_round`: a place's search before the draws are joined (the program's `MaxKierros`) leaves
    out the players with that many games and draws no game past it."""
    tally = _Tally(size, single_loss_from, played)
    alive = [p for p in range(1, size + 1) if tally.search_losses(p) <= 1]
    if len(alive) < 2:
        return Searched([], False)
    fewest = min(tally.games[p] for p in alive)
    target = fewest + (2 if sum(1 for p in alive if tally.games[p] == fewest) == 1 else 1)
    target = max(target, FIRST_SEARCHED_ROUND)
    tally.aim(target, played)
    games = list(played)
    found: list[Drawn] = []
    again = False
    while True:
        step = _next_game(target, tally, found, alive, single_loss_from, results_awaited, last_round)
        if step.asks_again:
            again = True
        game = step.game
        if game is None:
            break
        if any(g.has(game.first) or g.has(game.second) for g in found):
            break  # a player already drawn in this search: stop here
        games.append(game)
        found.append(game)
        tally.add(game)
        if game.first_round < game.round or game.second_round < game.round or game.round > target or step.careful:
            again = True
            break
    if found and sum(1 for p in alive if tally.games[p] < target) == 1:
        again = True
    return Searched(found, again)


class _Tally:
    """Each player's figures over a list of games, kept as games are added."""

    def __init__(self, size: int, single_loss_from: int, games: list[Drawn]) -> None:
        self.single_loss_from = single_loss_from
        self.games = [0] * (size + 1)
        self.losses = [0] * (size + 1)
        self.knocked = [False] * (size + 1)
        self.open = [0] * (size + 1)
        self.open_single_loss = [0] * (size + 1)
        self.met: dict[tuple[int, int], int] = {}
        self.played_pairs: set[tuple[int, int]] = set()
        self.open_pairs: dict[tuple[int, int], tuple[int, int]] = {}
        self.target = 0
        # games up to the target round only, as the quick search's checks count them (aim)
        self.games_aimed = [0] * (size + 1)
        self.losses_aimed = [0] * (size + 1)
        self.knocked_aimed = [False] * (size + 1)
        for game in games:
            self.add(game)

    def aim(self, target: int, games: list[Drawn]) -> None:
        self.target = target
        for game in games:
            self._add_aimed(game)

    def _add_aimed(self, game: Drawn) -> None:
        if game.round > self.target:
            return
        for player in (game.first, game.second):
            self.games_aimed[player] += 1
            if game.lost_by(player):
                self.losses_aimed[player] += 1
                if game.round >= self.single_loss_from:
                    self.knocked_aimed[player] = True

    def add(self, game: Drawn) -> None:
        if self.target:
            self._add_aimed(game)
        for player in (game.first, game.second):
            self.games[player] += 1
            if not game.won:
                self.open[player] += 1
                if game.own_round(player) >= self.single_loss_from:
                    self.open_single_loss[player] += 1
            elif game.lost_by(player):
                self.losses[player] += 1
                if game.round >= self.single_loss_from:
                    self.knocked[player] = True
        pair = (game.first, game.second) if game.first < game.second else (game.second, game.first)
        self.met[pair] = self.met.get(pair, 0) + 1
        if game.won:
            self.played_pairs.add(pair)
        elif pair not in self.open_pairs:
            self.open_pairs[pair] = (game.first_round, game.second_round)

    def search_losses(self, player: int) -> int:
        """Losses as the search counts them: a loss in a game of a knockout round counts as two."""
        if self.losses[player] < 2 and self.knocked[player]:
            return 2
        return self.losses[player]

    def meetings(self, one: int, other: int) -> int:
        return self.met.get((one, other) if one < other else (other, one), 0)


@dataclass
class _Step:
    game: Drawn | None
    careful: bool = False
    asks_again: bool = False


def _next_game(
    target: int,
    tally: _Tally,
    found: list[Drawn],
    alive: list[int],
    single_loss_from: int,
    awaited: bool,
    last_round: int,
) -> _Step:
    players = _players(tally, alive, last_round)
    if len(players) < 2:
        return _Step(None)
    careful = len(players) <= CAREFUL_FIELD
    if careful:
        if found:
            return _Step(None, asks_again=True)
        pick = _careful_pair(players, tally, single_loss_from, awaited)
    else:
        pick = _quick_pair(target, players, tally)
    if pick is None:
        return _Step(None)
    seeker, opponent = pick
    if len(players) > 2 and tally.meetings(seeker, opponent) and awaited:
        if any(p.position != seeker and not tally.meetings(seeker, p.position) for p in players):
            return _Step(None)  # a rematch while results are awaited: wait for them
    first_round, second_round = tally.games[seeker] + 1, tally.games[opponent] + 1
    if max(first_round, second_round) > last_round or (abs(first_round - second_round) > 1 and awaited):
        return _Step(None)  # past the round a place's draw is joined at; two rounds apart while results are awaited
    game = Drawn(seeker, opponent, max(first_round, second_round), first_round, second_round)
    return _Step(game, careful=careful)


def _players(tally: _Tally, alive: list[int], last_round: int) -> list[_Player]:
    """The players a step of the search pairs: those in, below `last_round`'s games."""
    return [
        _Player(p, tally.games[p], tally.losses[p], tally.open[p], tally.open_single_loss[p])
        for p in alive
        if tally.games[p] < last_round
    ]


def _quick_pair(target: int, players: list[_Player], tally: _Tally) -> tuple[int, int] | None:
    seekers = sorted((p for p in players if p.games < target), key=lambda p: p.games)
    if not seekers:
        return None
    seeker = seekers[0]
    if not seeker.surely_in():
        return None
    opponents = sorted((p for p in players if p.games >= seeker.games and p is not seeker), key=lambda p: p.games)
    if not opponents:
        return None  # he rests
    if len(opponents) == 1:
        opponent = opponents[0]
    else:
        look = _Lookahead(tally, players)
        seeking = tuple(p.position for p in seekers)
        offered = tuple(p.position for p in opponents)
        position = seeker.position
        chosen = next((p for p in opponents if look.acceptable(seeking, offered, position, p.position, ())), None)
        if chosen is None:
            return None
        opponent = chosen
    if not opponent.surely_in():
        return None
    return seeker.position, opponent.position


#: A game tried by the look-ahead: (one, other, round, one's games, other's games), never played.
_Trial = tuple[int, int, int, int, int]


class _Lookahead:
    """Whether a seeker may take an opponent in the quick search: the checks and the depth-first
    look-ahead over the rest of the round. Games count to the target round only (a game beyond it
    is not counted), as the program counts them."""

    def __init__(self, tally: _Tally, players: list[_Player]) -> None:
        self.target = tally.target
        self.single_loss_from = tally.single_loss_from
        self.everyone = tuple(p.position for p in players)
        self.counted = tally.games_aimed
        self.losses = [
            2 if lost < 2 and knocked else lost
            for lost, knocked in zip(tally.losses_aimed, tally.knocked_aimed, strict=True)
        ]
        self.played_pairs = tally.played_pairs
        self.open_pairs = tally.open_pairs

    def count(self, player: int, trials: tuple[_Trial, ...]) -> int:
        counted = self.counted[player]
        for t in trials:
            if t[2] <= self.target and (t[0] == player or t[1] == player):
                counted += 1
        return counted

    def may_meet(self, one: int, other: int, trials: tuple[_Trial, ...]) -> bool:
        """No earlier meeting, or one still open that one of them surely leaves (a knockout game of
        both, or both with a loss)."""
        pair = (one, other) if one < other else (other, one)
        if pair in self.played_pairs:
            return False
        rounds = self.open_pairs.get(pair)
        if rounds is None:
            for t in trials:
                if (t[0] == one and t[1] == other) or (t[0] == other and t[1] == one):
                    rounds = (t[3], t[4])
                    break
        if rounds is None:
            return True
        if rounds[0] >= self.single_loss_from and rounds[1] >= self.single_loss_from:
            return True
        return self.losses[one] >= 1 and self.losses[other] >= 1

    def acceptable(
        self,
        seeking: tuple[int, ...],
        offered: tuple[int, ...],
        seeker: int,
        opponent: int,
        trials: tuple[_Trial, ...],
    ) -> bool:
        if not self.may_meet(seeker, opponent, trials):
            return False
        mine, theirs = self.count(seeker, trials), self.count(opponent, trials)
        if abs(mine - theirs) > 1:
            return False
        if len(seeking) == 2 and not self.may_meet(seeking[0], seeking[-1], trials):
            return False  # the last two of the round have met
        trials = (*trials, (seeker, opponent, max(mine, theirs), mine, theirs))
        rest = tuple(p for p in seeking if p != seeker and p != opponent)
        if not rest:
            return True
        following = rest[0]
        remaining = tuple(p for p in offered if p != seeker and p != opponent and p != following)
        if len(rest) == 1 and not remaining:
            return True  # he rests
        for candidate in remaining:
            if self.acceptable(rest, remaining, following, candidate, trials):
                return True
        level = max(mine, theirs)
        return all(self.count(p, trials) > level for p in self.everyone)


def _careful_pair(
    players: list[_Player], tally: _Tally, single_loss_from: int, awaited: bool
) -> tuple[int, int] | None:
    positions = [p.position for p in players]  # list order
    counts = [min(3, tally.meetings(a, b)) for i, a in enumerate(positions) for b in positions[i + 1 :]]
    floor = min(p.games for p in players) if single_loss_from >= NO_KNOCKOUT else 0
    state = bytes([len(players), *(p.games - floor for p in players), *(p.losses for p in players), *counts])
    best = best_pairing(state, min(single_loss_from, NO_KNOCKOUT))
    if best is None:
        return None
    score, seeker, opponent = best
    if awaited and score >= LAGGARD:
        return None  # a poor pairing while results are awaited: wait for them
    return positions[seeker], positions[opponent]
