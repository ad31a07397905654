"""Puzzle reads: which puzzle is the day's, which comes next in a streak, what a page shows of one.

Nothing here writes; serving a puzzle and judging an answer are game/puzzles/services.py.
"""

from __future__ import annotations

import datetime
import hashlib
from dataclasses import dataclass
from typing import Any

from django.db.models import F, Func
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from game.common.glicko2 import Rating
from game.engine.analysis.puzzles import SOLVER, THEMES
from game.matches.selectors.match_state import state_of
from game.models import Puzzle, PuzzleRating, PuzzleServing
from game.practice.selectors.positions import position_code

#: The themes as players read them (codes of engine.analysis.puzzles.THEMES).
THEME_WORDS: dict[str, Promise] = {
    "bank": _("bank"),
    "carom": _("carom"),
    "kaisa": _("kaisa"),
    "two_balls": _("two balls"),
    "from_hand": _("from hand"),
}
assert set(THEME_WORDS) == set(THEMES)


@dataclass(frozen=True)
class Viewer:
    """Who is solving: a user (``rated`` unless a guest account, game.accounts), or a visitor known by
    the session only. Guests solve, but have no puzzle rating and move none."""

    user: Any
    session_key: str
    rated: bool = False

    @property
    def signed_in(self) -> bool:
        return self.user is not None and bool(getattr(self.user, "is_authenticated", False))

    def owns(self, serving: PuzzleServing) -> bool:
        """Was ``serving`` made for this viewer?"""
        if self.signed_in:
            return serving.user_id == self.user.pk
        return serving.user_id is None and bool(self.session_key) and serving.session_key == self.session_key


def viewer_for(*, user: Any, session_key: str | None) -> Viewer:
    """The viewer of a request: its user (rated when his account is not a guest's) and session key."""
    signed_in = user is not None and bool(getattr(user, "is_authenticated", False))
    profile = getattr(user, "profile", None) if signed_in else None
    rated = signed_in and not (profile is not None and profile.is_guest)
    return Viewer(user=user if signed_in else None, session_key=session_key or "", rated=rated)


def puzzle_rating_of(*, viewer: Viewer) -> Rating | None:
    """A rated viewer's puzzle rating (the initial one before his first answer); None for a guest."""
    if not viewer.rated:
        return None
    row = PuzzleRating.objects.filter(user=viewer.user).first()
    if row is None:
        return Rating()
    return Rating(row.rating, row.deviation, row.volatility)


def daily_puzzle(*, day: datetime.date) -> Puzzle | None:
    """The day's puzzle: chosen by a SHA-256 of the date among the puzzles made before that day (all of
    them when none is older), so every visitor gets the same one all day, on every server process."""
    older = Puzzle.objects.filter(created_at__date__lt=day)
    pool = older if older.exists() else Puzzle.objects.all()
    count = pool.count()
    if count == 0:
        return None
    index = int.from_bytes(hashlib.sha256(day.isoformat().encode("ascii")).digest()[:8], "big") % count
    return pool.order_by("id")[index]


def solved_by(*, viewer: Viewer) -> set[int]:
    """Ids of the puzzles this viewer has solved."""
    servings = PuzzleServing.objects.filter(solved=True)
    if viewer.signed_in:
        servings = servings.filter(user=viewer.user)
    elif viewer.session_key:
        servings = servings.filter(user=None, session_key=viewer.session_key)
    else:
        return set()
    return set(servings.values_list("puzzle_id", flat=True))


def next_streak_puzzle(*, viewer: Viewer, rating: Rating | None) -> Puzzle | None:
    """The next puzzle of a streak: one the viewer has not solved, the nearest in rating to his own
    (to 1500 for a guest), the oldest first among equals; None when he has solved them all."""
    target = rating.rating if rating is not None else Rating().rating
    distance = Func(F("rating") - target, function="ABS")
    return (
        Puzzle.objects.exclude(id__in=solved_by(viewer=viewer)).annotate(distance=distance).order_by("distance", "id")
    ).first()


def streak_after(*, viewer: Viewer, token: str | None) -> int:
    """The streak count after the viewer's own solved streak serving ``token``; 0 for anything else."""
    if not token:
        return 0
    previous = PuzzleServing.objects.filter(token=token[:64], mode=PuzzleServing.Mode.STREAK, solved=True).first()
    return previous.streak + 1 if previous is not None and viewer.owns(previous) else 0


def puzzle_themes(*, puzzle: Puzzle) -> list[str]:
    """The puzzle's themes in words."""
    return [str(THEME_WORDS[theme]) for theme in puzzle.themes if theme in THEME_WORDS]


def puzzle_practice_code(*, puzzle: Puzzle) -> str:
    """The practice table's code of the puzzle's position (the solver's white, the balls where they
    lie), for "Open on the practice table"."""
    snapshot = puzzle.snapshot
    turn = int(snapshot.get("turn", 0))
    cue = snapshot["players"][turn].get("cue_ball") or "white1"
    balls = {ball: (tuple(at) if at is not None else None) for ball, at in snapshot["balls"].items()}
    return position_code(balls, cue)


def puzzle_start(*, puzzle: Puzzle) -> dict[str, Any]:
    """What the page's module draws: the match socket's ``state`` of the position (the solver is the
    free table's "player")."""
    return {"state": state_of(dict(puzzle.snapshot)), "target": puzzle.target, "player": SOLVER}
