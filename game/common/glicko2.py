"""Glicko-2 rating arithmetic, pure Python: no Django, no I/O.

Implements Mark Glickman, "Example of the Glicko-2 system" (2013), steps 1-8, with the
Illinois-algorithm volatility update of step 5. The worked example of that paper (a 1500/200/0.06
player against 1400/30, 1550/100 and 1700/300 with results 1, 0, 0 -> 1464.06 / 151.52 / 0.05999) is
the test in tests/ratings/test_ratings.py (test_glicko2_matches_glickmans_worked_example).

Choices for Kaiza (documented here because they shape every number a player sees):

- A new player starts at ``INITIAL_RATING`` 1500 with ``INITIAL_DEVIATION`` 350 and
  ``INITIAL_VOLATILITY`` 0.06: Glickman's recommended defaults. We did not take lichess's 500
  because Kaisa has a small player base whose matches are long (first to 60): with 500 the first few
  results swing a rating by several hundred points, which a small community reads as noise.
- ``TAU`` 0.5 constrains how fast volatility may change; Glickman suggests 0.3-1.2, and 0.5 is
  a middle choice that fits a game with luck in it (a pocket barely wider than a ball).
- Each rated match is its own rating period (as lichess does): ratings move after every match,
  not in weekly batches, which is what players expect of an online game.
- A rating is *provisional* (shown with "?") while its deviation exceeds ``PROVISIONAL_DEVIATION``
  110, lichess's threshold: below it, the 95% interval is roughly ±220 points, narrow enough to rank.
- Deviation never rises above ``INITIAL_DEVIATION`` and never falls below ``MIN_DEVIATION`` 45, so a
  player who has not played for ages is not *less* certain than a newcomer, and a regular still moves.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

INITIAL_RATING = 1500.0
INITIAL_DEVIATION = 350.0
INITIAL_VOLATILITY = 0.06
TAU = 0.5
PROVISIONAL_DEVIATION = 110.0
MIN_DEVIATION = 45.0
MAX_DEVIATION = INITIAL_DEVIATION

#: Glicko-2 scale factor between the public scale (1500-centred) and the internal one (0-centred).
SCALE = 173.7178
#: Convergence tolerance of the volatility iteration (Glickman's epsilon).
EPSILON = 0.000001


@dataclass(frozen=True)
class Rating:
    """A player's Glicko-2 state on the public scale."""

    rating: float = INITIAL_RATING
    deviation: float = INITIAL_DEVIATION
    volatility: float = INITIAL_VOLATILITY

    @property
    def provisional(self) -> bool:
        return is_provisional(self.deviation)


@dataclass(frozen=True)
class Result:
    """One game inside a rating period: the opponent's rating *before* the period, and the score
    (1 win, 0.5 draw, 0 loss)."""

    opponent: Rating
    score: float


def is_provisional(deviation: float) -> bool:
    """Whether a rating is still too uncertain to be shown without "?" (see module docstring)."""
    return deviation > PROVISIONAL_DEVIATION


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the root of f(x) by the Illinois algorithm, as in Glickman's paper."""
    a = math.log(sigma * sigma)
    delta2 = delta * delta
    phi2 = phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a = f(big_a)
    f_b = f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, results: Sequence[Result], *, tau: float = TAU, clamp: bool = True) -> Rating:
    """The player's rating after one rating period with these results.

    With no results only the deviation grows (step 6 alone), as the paper prescribes. `clamp` keeps the
    deviation inside [MIN_DEVIATION, MAX_DEVIATION]; the paper's example runs with `clamp=False`.
    """
    mu = (player.rating - INITIAL_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        deviation = phi_star * SCALE
        if clamp:
            deviation = min(max(deviation, MIN_DEVIATION), MAX_DEVIATION)
        return Rating(player.rating, deviation, sigma)

    opponents = [((r.opponent.rating - INITIAL_RATING) / SCALE, r.opponent.deviation / SCALE, r.score) for r in results]
    v_inverse = 0.0
    improvement = 0.0
    for mu_j, phi_j, score in opponents:
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        v_inverse += g * g * e * (1.0 - e)
        improvement += g * (score - e)
    v = 1.0 / v_inverse
    delta = v * improvement

    sigma_new = _new_volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement

    deviation = phi_new * SCALE
    if clamp:
        deviation = min(max(deviation, MIN_DEVIATION), MAX_DEVIATION)
    return Rating(mu_new * SCALE + INITIAL_RATING, deviation, sigma_new)


def rate_match(first: Rating, second: Rating, *, first_score: float) -> tuple[Rating, Rating]:
    """Both players' ratings after one match between them, as its own rating period each.

    Both updates use the ratings from *before* the match, so the order of the players is irrelevant.
    """
    return (
        rate(first, [Result(second, first_score)]),
        rate(second, [Result(first, 1.0 - first_score)]),
    )


def team_mean(team: Sequence[Rating]) -> Rating:
    """A team as one opponent: the mean rating and the root-mean-square deviation of its members (the
    uncertainty of an average player of the team; the volatility is not read for an opponent)."""
    n = len(team)
    rating = sum(r.rating for r in team) / n
    deviation = math.sqrt(sum(r.deviation * r.deviation for r in team) / n)
    return Rating(rating, deviation)


def rate_team_match(
    first: Sequence[Rating], second: Sequence[Rating], *, first_score: float
) -> tuple[list[Rating], list[Rating]]:
    """Every member's rating after one team match (docs/teams.md): each member plays one
    Glicko-2 period with one game against the other team's :func:`team_mean`, scored by the team's
    result. Ratings stay per player, a strong member of a weak team gains little from a win over a
    weaker side's mean and loses more; all updates read the ratings from before the match."""
    first_mean, second_mean = team_mean(first), team_mean(second)
    return (
        [rate(member, [Result(second_mean, first_score)]) for member in first],
        [rate(member, [Result(first_mean, 1.0 - first_score)]) for member in second],
    )


def rating_label(*, rating: float, deviation: float) -> str:
    """The rating as players read it: whole points, with "?" while provisional (`is_provisional`)."""
    return f"{round(rating)}{'?' if is_provisional(deviation) else ''}"
