"""Reads of a match's stored shot analysis (issue 29) for its pages: the status and progress, and once
done, per player the figures and beside every shot the engine's best shot in words.

Players read words, never ids: the call is said with the rules' own ball and pocket names
(game.engine.rules.words, in the reader's language) and the strike as speed, direction and tip.
"""

from __future__ import annotations

import math
from typing import Any

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from game.engine.rules import words
from game.models import Match, MatchAnalysis, Shot

#: A tip offset nearer the centre than this (a fraction of the radius) is said as a centre-ball hit.
CENTRE_TIP = 0.05


def call_words(call: dict[str, Any], language: str) -> str:
    """ "the kaisa into the top right pocket, off 1 cushion" in the reader's language."""
    said = _("%(ball)s into %(pocket)s") % {
        "ball": words.ball_name(str(call.get("ball")), language=language),
        "pocket": words.pocket_name(str(call.get("pocket")), language),
    }
    cushions = int(call.get("object_cushions") or 0) + int(call.get("cue_cushions") or 0)
    if cushions:
        said += ", " + ngettext("off %(n)s cushion", "off %(n)s cushions", cushions) % {"n": cushions}
    return said


def strike_words(strike: dict[str, Any]) -> str:
    """ "2.4 m/s at 35°, follow and right side": the cue's speed, its direction on the table (0° along
    the table's length, counter-clockwise) and where the tip meets the ball."""
    side, height = float(strike.get("side") or 0.0), float(strike.get("height") or 0.0)
    tips = []
    if height > CENTRE_TIP:
        tips.append(pgettext("cue tip", "follow"))
    elif height < -CENTRE_TIP:
        tips.append(pgettext("cue tip", "draw"))
    if side > CENTRE_TIP:
        tips.append(pgettext("cue tip", "right side"))
    elif side < -CENTRE_TIP:
        tips.append(pgettext("cue tip", "left side"))
    if len(tips) == 2:
        tip = _("%(first)s and %(second)s") % {"first": tips[0], "second": tips[1]}
    else:
        tip = tips[0] if tips else pgettext("cue tip", "centre ball")
    degrees = math.degrees(float(strike.get("angle") or 0.0)) % 360
    return _("%(speed)s m/s at %(angle)s°, %(tip)s") % {
        "speed": formats.number_format(float(strike.get("speed") or 0.0), 1),
        "angle": f"{degrees:.0f}",
        "tip": tip,
    }


def _shot_view(shot: dict[str, Any], language: str) -> dict[str, Any]:
    best, played = shot["best"], shot["played"]
    return {
        "best_is_played": shot["best_is_played"],
        "best_call": call_words(best["call"], language),
        "best_strike": strike_words(best["strike"]),
        "best_points": best["expected_points"],
        "played_points": played["expected_points"],
        "points_lost": shot["points_lost"],
        # The bar: the played shot's expected points against the best's (a shot worth nothing or less,
        # a foul's penalty counted, shows an empty bar; the words beside it say the figures).
        "bar_max": max(best["expected_points"], played["expected_points"], 0.0) or 1.0,
        "bar_value": max(0.0, played["expected_points"]),
    }


def match_analysis_view(*, match: Match, language: str = "en") -> dict[str, Any] | None:
    """The page's view of the analysis: None when nobody asked; else ``status``, ``done``, ``total``,
    and when done ``players`` (the report's per-player figures), ``noise`` and ``samples`` (the model,
    stated on the page) and ``by_seq`` (stored shot seq -> that shot's analysis in words)."""
    analysis = MatchAnalysis.objects.filter(match=match).first()
    if analysis is None:
        return None
    view: dict[str, Any] = {"status": analysis.status, "done": analysis.done_shots, "total": analysis.total_shots}
    report = analysis.report if analysis.status == MatchAnalysis.Status.DONE else None
    if not isinstance(report, dict):
        return view
    # The report's shots are the match's `shoot` inputs in order (game.engine.replay.record_shots).
    seqs = list(Shot.objects.filter(match=match, kind="shoot").order_by("seq").values_list("seq", flat=True))
    shots = report.get("shots") or []
    noise = report.get("noise") or {}
    view.update(
        players=[
            {**p, "accuracy_percent": round(100 * p["accuracy"]), "points_lost": round(p["points_lost"], 1)}
            for p in report.get("players") or []
        ],
        by_seq={seq: _shot_view(shot, language) for seq, shot in zip(seqs, shots, strict=False)},
        samples=report.get("samples"),
        margin=report.get("accuracy_margin"),
        angle_mrad=round(1000 * float(noise.get("angle_rad") or 0.0), 2),
        speed_percent=round(100 * float(noise.get("speed_fraction") or 0.0), 1),
        tip_percent=round(100 * float(noise.get("tip_fraction") or 0.0), 1),
    )
    return view
