"""The two records the pairing and standings functions exchange with their caller."""

from __future__ import annotations

from dataclasses import dataclass

#: Points for a win, a draw and a loss (a bye counts as a win; a double forfeit as two losses).
WIN, DRAW, LOSS = 1.0, 0.5, 0.0


@dataclass(frozen=True)
class Game:
    """One pairing to play: `first` takes seat 0 of the match; `second` None is a bye."""

    first: int
    second: int | None


@dataclass(frozen=True)
class Result:
    """One finished pairing. Points are given, not derived, so a draw (K-11 can end level), a
    forfeit and a double forfeit (both lose) are all one shape; `*_score` are the Kaisa points each
    made (0 for a forfeit), the "frames difference" of the tie-breaks."""

    first: int
    second: int | None
    first_points: float
    second_points: float
    first_score: int = 0
    second_score: int = 0

    @property
    def is_bye(self) -> bool:
        return self.second is None

    def points_of(self, entry: int) -> float:
        return self.first_points if entry == self.first else self.second_points

    def opponent_of(self, entry: int) -> int | None:
        return self.second if entry == self.first else self.first

    def score_difference_of(self, entry: int) -> int:
        if self.second is None:
            return 0
        own, other = (
            (self.first_score, self.second_score) if entry == self.first else (self.second_score, self.first_score)
        )
        return own - other


def decided(first: int, second: int | None, winner: int | None, scores: tuple[int, int] = (0, 0)) -> Result:
    """A Result from a winner (None: a draw; a bye always goes to `first`)."""
    if second is None:
        return Result(first, None, WIN, LOSS)
    if winner is None:
        return Result(first, second, DRAW, DRAW, *scores)
    first_points = WIN if winner == first else LOSS
    return Result(first, second, first_points, WIN - first_points, *scores)
