"""The contact-time solver: earliest approaching root of a quartic or quadratic gap function."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from game.engine.physics.quartic import cubic_roots_unit, earliest_contact2, earliest_contact4


def poly_from_roots(roots: list[float], lead: float = 1.0) -> list[float]:
    coeffs = [lead]
    for r in roots:
        nxt = [*coeffs, 0.0]
        for i, c in enumerate(coeffs):
            nxt[i + 1] -= r * c
        coeffs = nxt
    return coeffs


@pytest.mark.parametrize("seed", range(50))
def test_quartic_first_downward_root(seed: int) -> None:
    rng = random.Random(seed)
    roots = sorted(rng.uniform(0.01, 5.0) for _ in range(4))
    if min(b - a for a, b in itertools.pairwise(roots)) < 1e-3:
        return
    c4, c3, c2, c1, c0 = poly_from_roots(roots, rng.uniform(0.1, 10))
    t = earliest_contact4(c4, c3, c2, c1, c0, 10.0)
    assert t == pytest.approx(roots[0], abs=1e-9)
    # The window ends before the first root: nothing.
    assert earliest_contact4(c4, c3, c2, c1, c0, roots[0] * 0.99) == math.inf


def test_quartic_degrades_to_quadratic_and_linear() -> None:
    # (t - 1)(t - 3) with zero quartic and cubic terms.
    assert earliest_contact4(0.0, 0.0, 1.0, -4.0, 3.0, 10.0) == pytest.approx(1.0, abs=1e-12)
    assert earliest_contact4(0.0, 0.0, 0.0, -2.0, 1.0, 10.0) == pytest.approx(0.5, abs=1e-12)
    assert earliest_contact4(0.0, 0.0, 0.0, 0.0, 1.0, 10.0) == math.inf


def test_touching_bodies_count_only_while_approaching() -> None:
    # f(0) = 0: approaching (f' < 0) is a contact now, separating is none (https://github.com/ekiefl/pooltool/pull/354).
    assert earliest_contact4(0.0, 0.0, 1.0, -1.0, 0.0, 5.0) == 0.0
    assert earliest_contact4(0.0, 0.0, 1.0, 1.0, 0.0, 5.0) == math.inf
    assert earliest_contact2(0.0, -1.0, 0.0, 5.0) == 0.0
    assert earliest_contact2(0.0, 1.0, 0.0, 5.0) == math.inf
    # Slightly overlapping but separating, then coming back: contact where the gap closes again.
    t = earliest_contact2(-1.0, 1.0, -1e-9, 5.0)
    assert t == pytest.approx(1.0, abs=1e-8)
    # Overlapping, separating but turning back before the gap opens: contact when it turns.
    t = earliest_contact2(-1.0, 1e-5, -1e-9, 5.0)
    assert t == pytest.approx(5e-6, abs=1e-12)


def test_grazing_double_root_is_found() -> None:
    # (t - 2)^2 (t + 1)(t + 2): touches zero at t = 2 without crossing; a tiny dip below must be found.
    c4, c3, c2, c1, c0 = poly_from_roots([2.0, 2.0, -1.0, -2.0])
    c0 -= 1e-9
    t = earliest_contact4(c4, c3, c2, c1, c0, 5.0)
    assert abs(t - 2.0) < 1e-4


def test_deep_back_side_is_ignored() -> None:
    assert earliest_contact2(0.0, -1.0, -0.5, 5.0, deep=0.005) == math.inf


def test_cubic_roots_in_unit_interval() -> None:
    roots = cubic_roots_unit(*poly_from_roots([0.2, 0.5, 0.9]))
    assert roots == pytest.approx([0.2, 0.5, 0.9], abs=1e-12)
    assert cubic_roots_unit(0.0, 1.0, -0.6, 0.05) == pytest.approx([0.1, 0.5], abs=1e-12)
