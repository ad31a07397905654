"""Polynomial roots for times of contact.

Every contact time in the engine is the first time ``t`` in a window ``[0, t_max]`` at which a gap function
``f`` (a quartic for ball-ball and ball-jaw, a quadratic for straight segments and capture lines) becomes
``<= 0`` while decreasing, i.e. while the bodies approach. A general closed-form quartic (Ferrari) loses
roots near tangency, exactly the grazing contacts that matter on a table with 4 mm pockets, so we instead:

1. find the critical points of ``f`` in the window: the real roots of the cubic ``f'`` in closed form
   (Cardano / trigonometric), each polished by Newton steps on ``f'`` itself. The cubic degrades to a
   quadratic or linear equation when its leading coefficients vanish (measured after scaling the window
   to [0, 1], so the test is unit-free);
2. walk the monotone pieces in time order and take the first decreasing piece whose end is ``<= 0``;
3. polish the root inside that piece with safeguarded Newton steps on the original polynomial (bisection
   whenever Newton leaves the bracket), which cannot miss it because the bracket has a sign change.

A piece that starts already ``<= 0`` and decreasing is a contact "now" (touching bodies that approach):
that is how overlaps left by rounding are caught instead of letting bodies pass through each other. Bodies
that touch but separate are not in contact (https://github.com/ekiefl/pooltool/pull/354).
``deep`` bounds how far below zero such a start may be: a straight segment seen from its back side is
far below zero and must not count.
``graze`` (in units of f, a nanometre of penetration) ignores a piece whose lowest value only grazes zero
by rounding, e.g. a ball rolling along a cushion past the tangent jaw tip of a middle pocket: such a
"contact" has no approach speed and would only add a spurious event.
"""

from __future__ import annotations

import math

_INF = math.inf
_TWO_PI_3 = 2.0 * math.pi / 3.0


def _cbrt(x: float) -> float:
    return math.copysign(abs(x) ** (1.0 / 3.0), x)


def cubic_roots_unit(a: float, b: float, c: float, d: float) -> list[float]:
    """Real roots in (0, 1) of a s^3 + b s^2 + c s + d, sorted; the coefficients are already scaled.

    Leading coefficients below 1e-12 of the largest one are treated as zero (degrading to quadratic or
    linear). Each root is polished by two Newton steps on the cubic.
    """
    scale = max(abs(a), abs(b), abs(c), abs(d))
    if scale == 0.0:
        return []
    eps = 1e-12 * scale
    roots: list[float]
    if abs(a) > eps:
        roots = [_newton_polished(a, b, c, d, s) for s in _cubic_roots(a, b, c, d)]
    elif abs(b) > eps:
        roots = _quadratic_roots(b, c, d)
    elif abs(c) > eps:
        roots = [-d / c]
    else:
        return []
    return sorted(s for s in roots if 0.0 < s < 1.0)


def _cubic_roots(a: float, b: float, c: float, d: float) -> list[float]:
    """Real roots of a true cubic in closed form: Cardano's formula for one real root, the trigonometric
    form for three (Cardano would take cube roots of complex numbers there)."""
    B, C, D = b / a, c / a, d / a
    p = C - B * B / 3.0
    q = 2.0 * B * B * B / 27.0 - B * C / 3.0 + D
    shift = -B / 3.0
    disc = q * q / 4.0 + p * p * p / 27.0
    if disc > 0.0:
        sq = math.sqrt(disc)
        return [_cbrt(-q / 2.0 + sq) + _cbrt(-q / 2.0 - sq) + shift]
    if p == 0.0:
        return [shift]
    r = math.sqrt(-p / 3.0)
    arg = -q / (2.0 * r * r * r)
    arg = 1.0 if arg > 1.0 else (-1.0 if arg < -1.0 else arg)
    phi = math.acos(arg) / 3.0
    return [2.0 * r * math.cos(phi - k * _TWO_PI_3) + shift for k in (0, 1, 2)]


def _newton_polished(a: float, b: float, c: float, d: float, s: float) -> float:
    """Two Newton steps on the cubic from ``s``: the closed forms lose digits to cancellation."""
    for _ in range(2):
        fp = (3.0 * a * s + 2.0 * b) * s + c
        if fp == 0.0:
            break
        s -= (((a * s + b) * s + c) * s + d) / fp
    return s


def _quadratic_roots(b: float, c: float, d: float) -> list[float]:
    """Real roots of b s^2 + c s + d (b not zero), none when they are complex."""
    disc = c * c - 4.0 * b * d
    if disc < 0.0:
        return []
    sq = math.sqrt(disc)
    # Numerically stable pair of roots (no cancellation).
    qq = -0.5 * (c + math.copysign(sq, c))
    roots = [qq / b]
    if qq != 0.0:
        roots.append(d / qq)
    return roots


def earliest_contact4(
    c4: float, c3: float, c2: float, c1: float, c0: float, t_max: float, deep: float = _INF, graze: float = 0.0
) -> float:
    """First t in [0, t_max] where f = c4 t^4 + c3 t^3 + c2 t^2 + c1 t + c0 is <= 0 and decreasing.

    Returns ``inf`` when there is none. See the module docstring for the method, ``deep`` and ``graze``.
    """
    if t_max < 0.0:
        return _INF
    T = t_max
    if T > 0.0:
        T2 = T * T
        crit = cubic_roots_unit(4.0 * c4 * T2 * T, 3.0 * c3 * T2, 2.0 * c2 * T, c1)
    else:
        crit = []
    p = 0.0
    fp = c0
    for s in [*crit, 1.0]:
        q = s * T
        fq = (((c4 * q + c3) * q + c2) * q + c1) * q + c0
        m = 0.5 * (p + q)
        dm = ((4.0 * c4 * m + 3.0 * c3) * m + 2.0 * c2) * m + c1
        decreasing = dm < 0.0 if q > p else c1 < 0.0
        if decreasing and (fq <= -graze or (fq <= 0.0 and s == 1.0) or fp <= -graze):
            if fp <= 0.0:
                if fp >= -deep:
                    return p
            elif fq <= 0.0:
                return _bracket4(c4, c3, c2, c1, c0, p, fp, q, fq)
        p, fp = q, fq
    return _INF


def _bracket4(
    c4: float, c3: float, c2: float, c1: float, c0: float, lo: float, flo: float, hi: float, fhi: float
) -> float:
    """Root of a decreasing quartic piece with f(lo) > 0 >= f(hi); returns a time with f >= 0 (just
    before contact) unless the root is exact."""
    t = lo + flo * (hi - lo) / (flo - fhi)
    for _ in range(60):
        ft = (((c4 * t + c3) * t + c2) * t + c1) * t + c0
        if ft > 0.0:
            lo = t
        elif ft < 0.0:
            hi = t
        else:
            return t
        if hi - lo <= 1e-13 * (1.0 + hi):
            break
        d = ((4.0 * c4 * t + 3.0 * c3) * t + 2.0 * c2) * t + c1
        nt = t - ft / d if d != 0.0 else lo
        t = nt if lo < nt < hi else 0.5 * (lo + hi)
    return lo


def earliest_contact2(c2: float, c1: float, c0: float, t_max: float, deep: float = _INF, graze: float = 0.0) -> float:
    """First t in [0, t_max] where f = c2 t^2 + c1 t + c0 is <= 0 and decreasing (``inf`` if none)."""
    if t_max < 0.0:
        return _INF
    pieces: tuple[float, ...]
    if c2 != 0.0:
        tc = -c1 / (2.0 * c2)
        pieces = (tc, t_max) if 0.0 < tc < t_max else (t_max,)
    else:
        pieces = (t_max,)
    p = 0.0
    fp = c0
    for q in pieces:
        fq = (c2 * q + c1) * q + c0
        m = 0.5 * (p + q)
        decreasing = (2.0 * c2 * m + c1) < 0.0
        if decreasing and (fq <= -graze or (fq <= 0.0 and q == t_max) or fp <= -graze):
            if fp <= 0.0:
                if fp >= -deep:
                    return p
            elif fq <= 0.0:
                return _root2(c2, c1, c0, p, fp, q, fq)
        p, fp = q, fq
    return _INF


def _root2(c2: float, c1: float, c0: float, lo: float, flo: float, hi: float, fhi: float) -> float:
    """Root of a decreasing quadratic piece: the stable closed form, then Newton-checked into the
    bracket (bisection fallback), returning a time with f >= 0 unless exact."""
    if c2 == 0.0:
        t = -c0 / c1
    else:
        disc = c1 * c1 - 4.0 * c2 * c0
        disc = disc if disc > 0.0 else 0.0
        qq = -0.5 * (c1 + math.copysign(math.sqrt(disc), c1))
        r1 = qq / c2
        r2 = c0 / qq if qq != 0.0 else r1
        t = r1 if lo <= r1 <= hi else r2
    if not lo <= t <= hi:
        t = lo + flo * (hi - lo) / (flo - fhi)
    for _ in range(60):
        ft = (c2 * t + c1) * t + c0
        if ft > 0.0:
            lo = t
        elif ft < 0.0:
            hi = t
        else:
            return t
        if hi - lo <= 1e-13 * (1.0 + hi):
            break
        d = 2.0 * c2 * t + c1
        nt = t - ft / d if d != 0.0 else lo
        t = nt if lo < nt < hi else 0.5 * (lo + hi)
    return lo
