"""What a language is made of: :class:`Catalogue` (names and one template per code) and :class:`Namer`
(names balls, pockets and phases within one sentence, in the grammatical case the template asks for).

Names are :data:`Forms`: a plain string where a language does not inflect (English), or a mapping from
a case ("nom", "acc", "gen", ... as the language's templates use them) to the word in that case
(Russian and Finnish inflect nouns; a template asks ``w.ball(b, "ill")`` for "into the ball"). A
missing case falls back to "nom", so a template never raises for an unusual case.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

RED_IDS = ("red1", "red2")
CUE_IDS = ("white1", "white2")

#: One word in every case a language's templates use (or one plain string for all of them).
Forms = str | Mapping[str, str]


def both_stopped(params: Mapping[str, Any]) -> bool:
    """A re-lag whose two lags both stopped (K-3.1): they were equal, not both lost."""
    lags = params.get("lags") or []
    return len(lags) == 2 and all(distance is not None for _, distance in lags)


def form(forms: Forms, case: str) -> str:
    """The word in ``case`` ("nom" when the language has no such form)."""
    if isinstance(forms, str):
        return forms
    return forms.get(case) or forms["nom"]


class Namer:
    """Names balls within one sentence: the first red mentioned is "a red" (or "the red" when it is
    the called ball), a different red after it "the other red"; whites by their owners."""

    def __init__(self, cat: Catalogue, owners: Mapping[str, str], cue: str | None, called: str | None) -> None:
        self.cat = cat
        self.owners = owners
        self.cue = cue
        self.first_red: str | None = called if called in RED_IDS else None

    def fresh(self) -> Namer:
        """For sentences that do not name the called ball: the first red is "a red" again."""
        self.first_red = None
        return self

    def ball(self, ball: object, case: str = "nom") -> str:
        b = str(ball)
        cat = self.cat
        if b in RED_IDS:
            if self.first_red is None:
                self.first_red = b
                return form(cat.a_red, case)
            return form(cat.the_red if b == self.first_red else cat.other_red, case)
        if b == "kaisa":
            return form(cat.kaisa, case)
        if b in CUE_IDS:
            owner = self.owners.get(b)
            if owner:
                return form(cat.owned_cue, case).format(owner=owner)
            return form(cat.the_cue if b == self.cue else cat.opponent_cue, case)
        return form(cat.unknown_ball, case)

    def gender(self, ball: object) -> str:
        """The grammatical gender of a ball's name ("m", "f", "n"; languages without genders: "m")."""
        return "f" if str(ball) == "kaisa" else "m"

    def balls(self, balls: Sequence[str], case: str = "nom") -> str:
        if len(balls) == 2 and set(balls) == set(RED_IDS) and self.first_red is None:
            self.first_red = balls[0]
            return form(self.cat.both_reds, case)
        return self.cat.join([self.ball(b, case) for b in balls])

    def phase(self, phase: object, case: str = "nom") -> str:
        return form(self.cat.phases.get(str(phase), self.cat.unknown_phase), case)

    def pocket(self, pocket: object, case: str = "nom") -> str:
        return form(self.cat.pockets.get(str(pocket), self.cat.unknown_pocket), case)


Template = Callable[[Namer, Mapping[str, Any]], str]


@dataclass(frozen=True)
class Catalogue:
    """One language: the names and one template per code.

    ``texts`` are the words the online layer adds around the rules (who chose the break, the K-11
    notices, the result card): made here too, so every sentence a player reads has one home."""

    kaisa: Forms
    a_red: Forms
    the_red: Forms
    other_red: Forms
    both_reds: Forms
    owned_cue: Forms
    the_cue: Forms
    opponent_cue: Forms
    unknown_ball: Forms
    unknown_pocket: Forms
    unknown_phase: Forms
    pockets: Mapping[str, Forms]
    phases: Mapping[str, Forms]
    verdicts: Mapping[str, Template]
    failures: Mapping[str, Template]
    lags: Mapping[str, Callable[[float | None], str]]
    refusals: Mapping[str, Template]
    finishes: Mapping[str, Template]
    texts: Mapping[str, Template] = field(default_factory=dict)
    and_word: str = "and"
    #: The middle pockets as a portrait table draws them (on the left and right long cushions, where
    #: landscape has them at the top and bottom): ``middle_left`` and ``middle_right``.
    side_pockets: Mapping[str, Forms] = field(default_factory=dict)
    #: The sentences for a table drawn upright (a phone held upright: ``<lang>@portrait``), whose banners
    #: over the table have a third of a landscape one's width: a template may say less there.
    upright: bool = False

    def join(self, names: Sequence[str]) -> str:
        if len(names) <= 1:
            return "".join(names)
        return ", ".join(names[:-1]) + f" {self.and_word} " + names[-1]
