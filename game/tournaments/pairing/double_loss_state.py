"""The records of a double-loss draw ("tuplakaavio") and what is known of each player from them.

An event is its format and its draw list (the entrants in the order they were drawn, seeds placed
first: :mod:`game.tournaments.pairing.draw_seeding`); its state is that and every game drawn so far, in
draw order, each with its result once it has one. Everything else (who is out, who waits, the next
game, the placings) is derived, so the same list and results always give the same draw.

A game has a round (`round`) and each player his own round in it (`first_round`, `second_round`): a
player who rested plays his own round 3 against someone in his round 4, in round 4.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

#: The earliest and the latest round a knockout may start from (the program's `Pudari2Kierros` …
#: `Pudari6Kierros`).
KNOCKOUT_FROM_EARLIEST, KNOCKOUT_FROM_LATEST = 2, 6
#: The cup of `two_rounds_then_cup` starts in round 3 and a loss there is final.
CUP_FIRST_ROUND = 3
#: The smallest field the draw takes (the program's minimum: the opening needs four).
MINIMUM_FIELD = 4
#: No knockout: a round no event reaches.
NEVER = 10_000
#: The championship's seeds by the round they enter: seeds up to the first number skip rounds 1 and
#: 2, those up to the second skip round 1.
LATE_SEEDS = (12, 24)
#: The rounds from which the draws of an event played at several places may be joined (the program
#: offers these four; it sets 5 unless told).
JOIN_ROUNDS = (3, 6)
#: The formats an event at several places may have (the program's search by places is the
#: double-loss search's).
VENUE_FORMATS = ("double_loss", "double_loss_then_knockout")


class Format(StrEnum):
    DOUBLE_LOSS = "double_loss"
    DOUBLE_LOSS_THEN_KNOCKOUT = "double_loss_then_knockout"
    TWO_ROUNDS_THEN_CUP = "two_rounds_then_cup"
    #: The championship draw (the program's `Sijoitetaan24Pelaajaa`): double loss, seeds 1-12 enter
    #: in round 3 and 13-24 in round 2, each round they skip a walk-over won at the draw.
    CHAMPIONSHIP = "championship"


#: Each refusal of the draw by its code: the English words of a log or a test (`DrawError.reason`).
#: A page words the code and its params itself, in the reader's language and with the players'
#: names (game/tournaments/draw_words.py has the same codes); this package stays free of Django.
REASONS: dict[str, str] = {
    "entrant_twice": "an entrant is twice in the draw list",
    "too_few_entrants": "a double-loss draw needs at least {least} entrants",
    "knockout_round": "a knockout starts from round {earliest} to {latest}, not {given}",
    "no_knockout": "{format} has no knockout round to choose",
    "cup_lots": "the cup's lots are not one for each entrant",
    "not_in_list": "{where} names {player}, who is not in the draw list",
    "with_himself": "{where} pairs a player with himself",
    "walk_over_outside_cup": "{where}: only a cup game may have one player (a walk-over)",
    "walk_over_winner": "{where}: a walk-over is won by its player",
    "third_loss": "{where} would be a third loss for {player}, out after his game {out_after}",
    "already_out": "{where}: {player} is already out (after his game {out_after})",
    "own_round": "{where}: it is {player}'s own round {expected}, not {given}",
    "round_before_own": "{where}: a game is in the later of its players' own rounds or after",
    "winner_not_player": "{where}: the winner {winner} did not play in it",
    "no_game": "there is no game {game}",
    "winner_not_in_game": "{winner} did not play in game {game}",
    "round_two_no_opponent": "round 2 has no opponent left for place {place} that he has not met",
    "seed_count": "1 to {most} seeds, and no more than the entrants; not {seeds}",
    "seed_not_entrant": "the seed {player} is not in the draw list",
    "no_seed_place": "no free place left for a seed",
    "venue_format": "only a double-loss event, with or without a knockout, is played at several places, not {format}",
    "join_round": "the places' draws are joined from round {earliest} to {latest}, not {given}",
    "venue_list": "the places' players are not the draw list, each once in its order",
    "venue_too_small": "place {venue} has {count} players: each place needs at least {least}",
}


class DrawError(ValueError):
    """A state the draw refuses: `code` names the rule it breaks and `params` its values (a game by
    its number in draw order and its two entrants, `second` None for a walk-over; entrants by id),
    so the words a tournament director acts on are made where they are shown; `reason` is them in
    English."""

    def __init__(self, code: str, **params: int | str | None) -> None:
        self.code = code
        self.params = params
        where = {}
        if "first" in params:
            second = "nobody" if params.get("second") is None else params["second"]
            where = {"where": f"game {params['game']} ({params['first']} v {second})"}
        self.reason = REASONS[code].format(**params, **where)
        super().__init__(self.reason)


@dataclass(frozen=True)
class Event:
    """`entrants`: ids in draw-list order. `knockout_from`: the round from which one loss is out
    (only for `double_loss_then_knockout`, 2..6)."""

    format: Format
    entrants: tuple[int, ...]
    knockout_from: int | None = None
    #: The cup's ranking ties are broken by lot: the entrants from the best lot to the worst (empty:
    #: the draw list's order). The program draws its lots; Kaiza's come from the event's draw seed.
    lots: tuple[int, ...] = ()
    #: The points a game is played to, and how far past it a game's score may go (the last shot's
    #: points): what a game still to play can add at most to a cup ranking (the program counts the
    #: target alone; a rank taken for final must stay so whatever a game's score is).
    target: int = 60
    score_margin: int = 0
    #: The championship's seeds, the entrants in seed order (seed 1 first): seeds 1-12 skip rounds 1
    #: and 2, seeds 13-24 round 1 (:data:`LATE_SEEDS`); empty elsewhere.
    seeds: tuple[int, ...] = ()
    #: An event played at several places (the program's `PeliPaikat`): each place's entrants in the
    #: list's order, the host's place first; empty: one place. Each place's players are drawn on
    #: their own until `join_round`, then the draws are joined (double_loss.py).
    venues: tuple[tuple[int, ...], ...] = ()
    join_round: int = 0

    def __post_init__(self) -> None:
        if len(set(self.entrants)) != len(self.entrants):
            raise DrawError("entrant_twice")
        if len(self.entrants) < MINIMUM_FIELD:
            raise DrawError("too_few_entrants", least=MINIMUM_FIELD)
        if self.format == Format.DOUBLE_LOSS_THEN_KNOCKOUT:
            if self.knockout_from is None or not KNOCKOUT_FROM_EARLIEST <= self.knockout_from <= KNOCKOUT_FROM_LATEST:
                raise DrawError(
                    "knockout_round",
                    earliest=KNOCKOUT_FROM_EARLIEST,
                    latest=KNOCKOUT_FROM_LATEST,
                    given=self.knockout_from,
                )
        elif self.knockout_from is not None:
            raise DrawError("no_knockout", format=str(self.format))
        if self.lots and sorted(self.lots) != sorted(self.entrants):
            raise DrawError("cup_lots")
        self._check_seeds()
        if self.venues:
            self._check_venues()

    def _check_venues(self) -> None:
        if self.format not in VENUE_FORMATS or self.seeds or self.lots:
            raise DrawError("venue_format", format=str(self.format))
        if not JOIN_ROUNDS[0] <= self.join_round <= JOIN_ROUNDS[1]:
            raise DrawError("join_round", earliest=JOIN_ROUNDS[0], latest=JOIN_ROUNDS[1], given=self.join_round)
        if sorted(e for venue in self.venues for e in venue) != sorted(self.entrants):
            raise DrawError("venue_list")
        place = {entrant: position for position, entrant in enumerate(self.entrants)}
        for number, venue in enumerate(self.venues, start=1):
            if [place[e] for e in venue] != sorted(place[e] for e in venue):
                raise DrawError("venue_list")
            if len(venue) < MINIMUM_FIELD:
                raise DrawError("venue_too_small", venue=number, count=len(venue), least=MINIMUM_FIELD)

    def venue_of(self, game: Game | Pairing) -> int:
        """The place (0: the first) a game is played at, as the program names it: before the joining
        round its first player's, from it the first place."""
        if not self.venues or game.round >= self.join_round:
            return 0
        return next(number for number, venue in enumerate(self.venues) if game.first in venue)

    def _check_seeds(self) -> None:
        most = LATE_SEEDS[-1] if self.format == Format.CHAMPIONSHIP else 0
        if len(self.seeds) > most or len(set(self.seeds)) != len(self.seeds):
            raise DrawError("seed_count", most=most, seeds=len(self.seeds))
        for seed in self.seeds:
            if seed not in self.entrants:
                raise DrawError("seed_not_entrant", player=seed)

    def walkovers(self, entrant: int) -> int:
        """The rounds a championship seed skips: 2 for seeds 1-12, 1 for 13-24, else 0."""
        if entrant not in self.seeds:
            return 0
        rank = self.seeds.index(entrant) + 1
        return sum(1 for last in LATE_SEEDS if rank <= last)

    @property
    def cup_lots(self) -> tuple[int, ...]:
        return self.lots or self.entrants

    @property
    def single_loss_from(self) -> int:
        """The first round in which a single loss puts a player out."""
        if self.format == Format.DOUBLE_LOSS_THEN_KNOCKOUT:
            assert self.knockout_from is not None
            return self.knockout_from
        if self.format == Format.TWO_ROUNDS_THEN_CUP:
            return CUP_FIRST_ROUND
        return NEVER


@dataclass(frozen=True)
class Pairing:
    """A game the draw gives, its players as the program lists them (the one in the lower own
    round first, then the one higher in the list; in the cup, the higher seat). `second` None: a
    cup walk-over, decided without a game. `slot`: a cup game's seat number in its round."""

    first: int
    second: int | None
    round: int
    first_round: int
    second_round: int
    slot: int | None = None

    @property
    def walkover(self) -> bool:
        return self.second is None


@dataclass(frozen=True)
class Game:
    """A drawn game; `winner` None while it is being played. Points are the Kaisa scores (a winner of
    a shoot-out may have fewer, K-11.4), used by the placings and the cup's seeding only. A cup
    walk-over has no `second` and is won by `first`; `slot` is a cup game's seat in its round."""

    first: int
    second: int | None
    round: int
    first_round: int
    second_round: int
    winner: int | None = None
    first_points: int = 0
    second_points: int = 0
    slot: int | None = None

    @property
    def played(self) -> bool:
        return self.winner is not None

    @property
    def loser(self) -> int | None:
        if self.winner is None:
            return None
        return self.second if self.winner == self.first else self.first

    @property
    def players(self) -> tuple[int, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)

    def has(self, entrant: int) -> bool:
        return entrant in (self.first, self.second)

    def points_of(self, entrant: int) -> int:
        return self.first_points if entrant == self.first else self.second_points

    @classmethod
    def drawn(cls, pairing: Pairing) -> Game:
        """The game as drawn: a walk-over is won at once."""
        winner = pairing.first if pairing.second is None else None
        return cls(
            pairing.first,
            pairing.second,
            pairing.round,
            pairing.first_round,
            pairing.second_round,
            winner,
            slot=pairing.slot,
        )


@dataclass
class Record:
    """One player's line of the draw."""

    entrant: int
    position: int
    games: int = 0
    losses: int = 0
    wins: int = 0
    points: int = 0
    pending: int = 0
    pending_single_loss: int = 0
    out_after: int = 0
    opponents: list[int] = field(default_factory=list)
    cup_games: int = 0

    @property
    def out(self) -> bool:
        return self.out_after > 0

    @property
    def surely_in(self) -> bool:
        """In, whatever his games in progress end in: the only players the draw pairs while results
        are awaited (a player who may be out must not be given a table)."""
        return not self.out and self.pending_single_loss == 0 and self.pending + self.losses <= 1


@dataclass(frozen=True)
class DrawState:
    event: Event
    games: tuple[Game, ...] = ()

    def __post_init__(self) -> None:
        records(self)  # validates

    def with_game(self, game: Game) -> DrawState:
        return DrawState(self.event, (*self.games, game))


def records(state: DrawState) -> dict[int, Record]:
    """Every entrant's record, validating the games in order: each names two different entrants who
    are both still in, in the right rounds, and a result names one of them. A game may follow one of
    its players' games still in progress (the opening's round 2 is drawn before round 1 is played,
    and a search gives a game that every result of those games would give); it is played after it.
    The opening's games (rounds 1 and 2) are drawn from the list before any result, so a player put
    out in round 2 (a knockout from round 2) still plays the opening game drawn for him; in the cup
    format the two opening losses do not put a player out by themselves: the cup seats by rank and
    may take him (double_loss_cup.py); a loss in the cup does."""
    event = state.event
    cup = event.format == Format.TWO_ROUNDS_THEN_CUP
    table = {entrant: Record(entrant, position) for position, entrant in enumerate(event.entrants)}
    for number, game in enumerate(state.games, start=1):
        where = {"game": number, "first": game.first, "second": game.second}
        _check_players(game, table, where, cup=cup, late=event.walkovers(game.first) >= game.round)
        seats: tuple[tuple[int | None, int], ...] = ((game.first, game.first_round), (game.second, game.second_round))
        for seat, own_round in seats:
            if seat is not None:
                _check_seat(game, table[seat], own_round, where, cup=cup)
        if game.round < max(game.first_round, game.second_round):
            raise DrawError("round_before_own", **where)
        if game.winner is not None and game.winner not in game.players:
            raise DrawError("winner_not_player", **where, winner=game.winner)
        for entrant in game.players:
            _count(table[entrant], game, event.single_loss_from, cup)
    return table


def _check_players(
    game: Game, table: dict[int, Record], where: dict[str, int | None], *, cup: bool, late: bool
) -> None:
    """Both players in the list and not the same; a walk-over only in the cup or for a championship
    seed's rounds before he enters (`late`), won by its one player."""
    for entrant in game.players:
        if entrant not in table:
            raise DrawError("not_in_list", **where, player=entrant)
    if game.first == game.second:
        raise DrawError("with_himself", **where)
    if game.second is None and not (cup and game.round >= CUP_FIRST_ROUND) and not late:
        raise DrawError("walk_over_outside_cup", **where)
    if game.second is None and game.winner not in (None, game.first):
        raise DrawError("walk_over_winner", **where)


def _check_seat(game: Game, record: Record, own_round: int, where: dict[str, int | None], *, cup: bool) -> None:
    """A player still in (or in a game of the opening, drawn before any result; or not yet seated in
    the cup), playing his next own round."""
    entrant = record.entrant
    opening = game.round < CUP_FIRST_ROUND  # drawn from the list before any result
    if record.out and not opening and not (cup and not record.cup_games):
        third = game.played and game.winner != entrant and record.losses >= 2 and not cup
        code = "third_loss" if third else "already_out"
        raise DrawError(code, **where, player=entrant, out_after=record.out_after)
    if own_round != record.games + 1:
        raise DrawError("own_round", **where, player=entrant, expected=record.games + 1, given=own_round)


def _count(record: Record, game: Game, single_loss_from: int, cup: bool) -> None:
    record.games += 1
    if game.second is not None:
        record.opponents.append(game.second if record.entrant == game.first else game.first)
    if cup and game.round >= CUP_FIRST_ROUND:
        if not record.cup_games:
            record.out_after = 0  # seated in the cup: in, whatever the opening gave
        record.cup_games += 1
    if not game.played:
        record.pending += 1
        if game.round >= single_loss_from:
            record.pending_single_loss += 1
        return
    if game.second is None:
        if not cup:
            record.wins += 1  # a seed's walk-over counts as a win, as the program's standings count it
        return  # a walk-over: a game, no points
    record.points += game.points_of(record.entrant)
    if game.winner == record.entrant:
        record.wins += 1
        return
    record.losses += 1
    if (record.losses == 2 or game.round >= single_loss_from) and not record.out:
        record.out_after = record.games


def pending_games(state: DrawState) -> list[Game]:
    return [game for game in state.games if not game.played]
