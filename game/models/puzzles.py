"""Shot puzzles from real matches: the puzzles, who was served which, and the puzzle
ratings of players.

Kept in its own module (game/models/__init__.py imports it at its end, so Django registers these with
the app). A puzzle's position and answer are plain JSON made by the pure engine
(game/engine/analysis/puzzles.py); the domain's writes are game/puzzles/services.py. Puzzle ratings are
Glicko-2 (game/common/glicko2.py) but apart from match ratings: a puzzle and a player each have their
own, and solving moves only these.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from game.common.glicko2 import INITIAL_DEVIATION, INITIAL_RATING, INITIAL_VOLATILITY


class Puzzle(models.Model):
    """A position of a rated match where the engine's robust best shot was worth clearly more than the
    shot played: "score at least ``target`` points from here". A starter puzzle, shipped with the site
    so that a fresh install has some (game/puzzles/starter_puzzles.json, made from computer matches),
    has no stored match: its ``starter`` number says which of the shipped ones it is."""

    match = models.ForeignKey(
        "game.Match", on_delete=models.CASCADE, related_name="puzzles", verbose_name=_("match"), null=True, blank=True
    )
    #: The analysed shot's place in the match's list of shots (from 0): one puzzle per shot at most.
    shot_index = models.PositiveIntegerField(_("shot index"))
    #: A starter puzzle's number in the shipped set (None: made from a stored match); loaded once.
    starter = models.PositiveSmallIntegerField(_("starter puzzle"), null=True, blank=True, unique=True)
    #: The position as a hand-written snapshot, the solver named "player" (engine/analysis/puzzles.py).
    snapshot = models.JSONField(_("position"))
    target = models.PositiveSmallIntegerField(_("points to score"))
    #: The engine's best call and strike: played exactly, they score ``target``.
    call = models.JSONField(_("best call"))
    strike = models.JSONField(_("best strike"))
    #: Codes of engine.analysis.puzzles.THEMES.
    themes = models.JSONField(_("themes"), default=list)
    best_expected = models.FloatField(_("best shot's expected points"))
    played_expected = models.FloatField(_("played shot's expected points"))
    success = models.FloatField(_("best shot's success probability"))
    rating = models.FloatField(_("puzzle rating"), default=INITIAL_RATING)
    deviation = models.FloatField(_("puzzle rating deviation"), default=INITIAL_DEVIATION)
    volatility = models.FloatField(_("puzzle rating volatility"), default=INITIAL_VOLATILITY)
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    solved_count = models.PositiveIntegerField(_("solves"), default=0)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("puzzle")
        verbose_name_plural = _("puzzles")
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "shot_index"], name="one_puzzle_per_shot"),
            models.CheckConstraint(
                condition=models.Q(match__isnull=False) | models.Q(starter__isnull=False), name="puzzle_has_a_source"
            ),
        ]

    def __str__(self) -> str:
        if self.match_id is None:
            return f"Puzzle {self.id} (starter {self.starter})"
        return f"Puzzle {self.id} (match {self.match_id}, shot {self.shot_index})"


class PuzzleRating(models.Model):
    """A player's puzzle rating (Glicko-2, apart from the match rating on Profile)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_rating", verbose_name=_("user")
    )
    rating = models.FloatField(_("puzzle rating"), default=INITIAL_RATING)
    deviation = models.FloatField(_("puzzle rating deviation"), default=INITIAL_DEVIATION)
    volatility = models.FloatField(_("puzzle rating volatility"), default=INITIAL_VOLATILITY)
    solved = models.PositiveIntegerField(_("puzzles solved"), default=0)
    missed = models.PositiveIntegerField(_("puzzles missed"), default=0)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("puzzle rating")
        verbose_name_plural = _("puzzle ratings")

    def __str__(self) -> str:
        return f"Puzzle rating of {self.user_id}"


class PuzzleServing(models.Model):
    """One puzzle served to one viewer (a user, or a guest's session): the only thing an answer may be
    for. Its ``token`` travels with the page; an answer names it, is accepted once, and is judged
    against this row's puzzle, so nobody answers a puzzle he was not shown."""

    class Mode(models.TextChoices):
        SINGLE = "single", _("Puzzle")
        DAILY = "daily", _("Daily puzzle")
        STREAK = "streak", _("Streak")

    token = models.CharField(_("token"), max_length=32, unique=True)
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="servings", verbose_name=_("puzzle"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="puzzle_servings",
        verbose_name=_("user"),
    )
    #: A guest's session key (guests solve without a rating); blank for a user.
    session_key = models.CharField(_("session key"), max_length=64, blank=True, default="")
    mode = models.CharField(_("mode"), max_length=8, choices=Mode.choices, default=Mode.SINGLE)
    #: Puzzles solved in a row before this one, in streak mode.
    streak = models.PositiveIntegerField(_("streak"), default=0)
    served_at = models.DateTimeField(_("served at"), auto_now_add=True)
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)
    solved = models.BooleanField(_("solved"), null=True, blank=True)
    points = models.IntegerField(_("points scored"), null=True, blank=True)
    answer = models.JSONField(_("answer"), null=True, blank=True)
    rating_before = models.FloatField(_("rating before"), null=True, blank=True)
    rating_after = models.FloatField(_("rating after"), null=True, blank=True)

    class Meta:
        verbose_name = _("served puzzle")
        verbose_name_plural = _("served puzzles")
        indexes = [models.Index(fields=["user", "puzzle"]), models.Index(fields=["session_key", "puzzle"])]

    def __str__(self) -> str:
        return f"Puzzle {self.puzzle_id} served ({self.mode})"
