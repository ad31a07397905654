"""Reads of a match's stored shot analysis for its pages: the status and progress, and once
done, per player the figures and beside every shot the engine's best shot in words.

Players read words, never ids: the call is said with the rules' own ball and pocket names
(game.engine.rules.words, in the reader's language) and the strike as speed, direction and tip.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
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


#: Expected points below this read as none (two decimals shown: "0.00" is no more than this).
NO_POINTS = 0.005


def _shot_view(shot: dict[str, Any], language: str) -> dict[str, Any]:
    best, played = shot["best"], shot["played"]
    lost = max(0.0, float(best["expected_points"]) - float(played["expected_points"]))
    return {
        # What the line says: "best" (the played shot was the engine's best), "nothing" (no shot the
        # engine found was expected to score anything), or "lost" (the best was worth more).
        "verdict": (
            "nothing"
            if max(best["expected_points"], played["expected_points"]) < NO_POINTS
            else "best"
            if shot["best_is_played"] or lost < NO_POINTS
            else "lost"
        ),
        # The engine's shot is offered beside every analysed shot: its stored motion, or for an analysis
        # stored before the motions were kept (no "best_motion" at all) one made when asked
        # (engine_shot_wanted); not when the rules refused to play it (stored as None).
        "offers_engine_shot": "best_motion" not in shot or isinstance(shot.get("best_motion"), dict),
        "best_is_played": shot["best_is_played"],
        "best_call": call_words(best["call"], language),
        "best_strike": strike_words(best["strike"]),
        "best_points": best["expected_points"],
        "played_points": played["expected_points"],
        "points_lost": lost,
        # The bar: the played shot's expected points against the best's (a shot worth nothing or less,
        # a foul's penalty counted, shows an empty bar; the words beside it say the figures).
        "bar_max": max(best["expected_points"], played["expected_points"], 0.0) or 1.0,
        "bar_value": max(0.0, played["expected_points"]),
    }


def match_analysis_view(
    *, match: Match, language: str = "en", steps: list[dict[str, Any]] | None = None
) -> dict[str, Any] | None:
    """The page's view of the analysis: None when nobody asked; else ``status``, ``done``, ``total``,
    and when done ``players`` (the report's per-player figures), ``noise`` and ``samples`` (the model,
    stated on the page), ``by_seq`` (stored shot seq -> that shot's analysis in words) and ``graph``
    (:func:`match_graph` over the replay's ``steps``, game.matches.selectors.replays.match_replay_steps)."""
    analysis = MatchAnalysis.objects.filter(match=match).first()
    if analysis is None:
        return None
    view: dict[str, Any] = {"status": analysis.status, "done": analysis.done_shots, "total": analysis.total_shots}
    report = analysis.report if analysis.status == MatchAnalysis.Status.DONE else None
    if not isinstance(report, dict):
        return view
    # The report's shots are the match's `shoot` inputs in order (game.engine.replay.record_shots).
    stored = list(Shot.objects.filter(match=match, kind="shoot").order_by("seq").values_list("seq", "verdict"))
    seqs = [seq for seq, _ in stored]
    shots = report.get("shots") or []
    noise = report.get("noise") or {}
    names = [p["player"] for p in report.get("players") or []]
    view.update(
        players=player_figures(shots, [verdict for _, verdict in stored], names),
        by_seq={seq: _shot_view(shot, language) for seq, shot in zip(seqs, shots, strict=False)},
        graph=(
            match_graph(steps, seqs, shots, [p["player"] for p in report.get("players") or []])
            if steps is not None
            else None
        ),
        samples=report.get("samples"),
        margin=report.get("accuracy_margin"),
        angle_mrad=round(1000 * float(noise.get("angle_rad") or 0.0), 2),
        speed_percent=round(100 * float(noise.get("speed_fraction") or 0.0), 1),
        tip_percent=round(100 * float(noise.get("tip_fraction") or 0.0), 1),
    )
    return view


def player_figures(shots: list[dict[str, Any]], verdicts: list[Any], players: list[str]) -> list[dict[str, Any]]:
    """Each player's figures over the analysed shots, defined so that they add up on the page:

    - accuracy: the calls made out of the shots played (the verdicts), None without a shot ("—");
    - points: what those shots scored, penalties taken off;
    - expected: what the shots played were worth on average under the stroke noise (the report's);
    - best: what the engine's best shots in the same positions were worth;
    - lost: best minus expected, of the figures as shown (one decimal), so expected + lost = best.
    """
    figures = []
    for name in players:
        own = [(shot, verdict) for shot, verdict in zip(shots, verdicts, strict=False) if shot.get("player") == name]
        said = [v if isinstance(v, dict) else {} for _, v in own]
        count = len(own)
        made = sum(1 for v in said if v.get("scored"))
        expected = round(sum(float(shot["played"]["expected_points"]) for shot, _ in own), 1)
        best = round(sum(float(shot["best"]["expected_points"]) for shot, _ in own), 1)
        figures.append(
            {
                "player": name,
                "shots": count,
                "made": made,
                "accuracy_percent": round(100 * made / count) if count else None,
                "points": sum(int(v.get("points") or 0) - int(v.get("penalty") or 0) for v in said),
                "expected": expected,
                "best": best,
                "lost": round(best - expected, 1),
            }
        )
    return figures


def _analysed_shot(match: Match, seq: int) -> tuple[MatchAnalysis, int, dict[str, Any]] | None:
    """The done analysis, the index of stored shot ``seq`` among the analysed shots and its report."""
    analysis = MatchAnalysis.objects.filter(match=match, status=MatchAnalysis.Status.DONE).first()
    report = analysis.report if analysis is not None else None
    if analysis is None or not isinstance(report, dict):
        return None
    seqs = list(Shot.objects.filter(match=match, kind="shoot").order_by("seq").values_list("seq", flat=True))
    if seq not in seqs:
        return None
    shots = report.get("shots") or []
    index = seqs.index(seq)
    if index >= len(shots):
        return None
    return analysis, index, shots[index]


def engine_shot(*, match: Match, seq: int, language: str = "en") -> dict[str, Any] | None:
    """The engine's best shot beside stored shot ``seq``, as the replay page draws and plays it: the
    call (ball and pocket ids for the drawing, and in words), the strike, the cue ball and the exact
    motion segments stored with the analysis (the engine is deterministic: what it played when it
    analysed). None when the analysis is not done, ``seq`` is not an analysed shot, or its motion is
    not stored (:func:`engine_shot_wanted` says whether it can be made)."""
    found = _analysed_shot(match, seq)
    if found is None:
        return None
    shot = found[2]
    motion = shot.get("best_motion")
    if not isinstance(motion, dict) or not isinstance(motion.get("segments"), dict):
        return None
    best = shot["best"]
    return {
        "seq": seq,
        "call": {key: best["call"].get(key) for key in ("ball", "pocket", "via")},
        "strike": best["strike"],
        "cue_ball": motion.get("cue_ball"),
        "segments": motion["segments"],
        "words": call_words(best["call"], language),
        "expected_points": best["expected_points"],
    }


@dataclass(frozen=True)
class MotionWanted:
    """An analysed shot whose best shot's motion was never stored (an analysis made before the motions
    were kept): what the engine pool needs to make it (game.engine.analysis.motion_in_record)."""

    analysis_id: int
    index: int
    call: dict[str, Any]
    strike: dict[str, Any]


def engine_shot_wanted(*, match: Match, seq: int) -> MotionWanted | None:
    """The motion to make for stored shot ``seq``, or None: not an analysed shot, or its motion is
    stored already (a motion the rules refused is stored as None and not asked again)."""
    found = _analysed_shot(match, seq)
    if found is None or "best_motion" in found[2]:
        return None
    analysis, index, shot = found
    return MotionWanted(analysis.pk, index, dict(shot["best"]["call"]), dict(shot["best"]["strike"]))


#: The graph's drawing box (SVG user units; the page scales it to its width, a phone's included).
GRAPH_WIDTH = 320
GRAPH_HEIGHT = 180
GRAPH_PAD = {"left": 30, "right": 8, "top": 10, "bottom": 22}


def shot_visits(steps: list[dict[str, Any]], seqs: list[int], players_of: list[Any]) -> list[list[int]]:
    """The analysed shots grouped into visits (a player's turn at the table: one or more shots, K-6.1),
    as lists of indices into ``seqs``. A visit ends where the rules passed the turn (the shot's verdict
    ``turn_passes``) or where the next shot is another player's; a shot without a stored verdict ends
    its visit only at a change of player."""
    verdicts = {step["seq"]: step.get("verdict") for step in steps}
    visits: list[list[int]] = []
    open_visit = False
    for index, seq in enumerate(seqs):
        if not (open_visit and visits and players_of[visits[-1][-1]] == players_of[index]):
            visits.append([])
        visits[-1].append(index)
        verdict = verdicts.get(seq)
        open_visit = not (isinstance(verdict, dict) and verdict.get("turn_passes", False))
    return visits


def _graph_rows(
    visits: list[list[int]],
    seqs: list[int],
    shots: list[dict[str, Any]],
    *,
    seat: dict[str, int],
    scores_after: dict[int, Any],
) -> tuple[list[list[float]], list[list[float]]]:
    """Per visit (and the start), the two players' scores after it and the running sums of the
    expected points of their shots as played."""
    score_rows: list[list[float]] = [[0.0, 0.0]]
    expected_rows: list[list[float]] = [[0.0, 0.0]]
    for visit in visits:
        scores = scores_after.get(seqs[visit[-1]]) or score_rows[-1]
        score_rows.append([float(scores[0]), float(scores[1])])
        running = list(expected_rows[-1])
        for index in visit:
            if shots[index].get("player") in seat:
                running[seat[shots[index]["player"]]] += float(shots[index]["played"]["expected_points"])
        expected_rows.append(running)
    return score_rows, expected_rows


def match_graph(
    steps: list[dict[str, Any]], seqs: list[int], shots: list[dict[str, Any]], players: list[str]
) -> dict[str, Any] | None:
    """The match over its analysed shots visit by visit (:func:`shot_visits`), as an inline SVG's
    geometry (the template draws it; no script, no inline style, so the page's CSP holds): per player
    the score after each visit and the running sum of the expected points of that player's shots as
    played. Where the score runs above its dashed line the player scored more than the strokes were
    worth under the noise (luck or a noise model too harsh); below it, less. x: visit 0 (the start) to
    V; y: points. Per visit, not per shot: a break of five pots is one step up, as a player sees it.

    ``steps`` are the replay's (``seq``, ``verdict`` and ``scores`` after each input), ``seqs`` the
    analysed shots' seqs in order and ``shots`` the report's shots in the same order. None without a
    shot."""
    count = min(len(seqs), len(shots))
    if count == 0 or len(players) != 2:
        return None
    seqs, shots = seqs[:count], shots[:count]
    scores_after = {step["seq"]: step.get("scores") or [0, 0] for step in steps}
    seat = {name: i for i, name in enumerate(players)}
    visits = shot_visits(steps, seqs, [shot.get("player") for shot in shots])
    score_rows, expected_rows = _graph_rows(visits, seqs, shots, seat=seat, scores_after=scores_after)
    steps_x = len(visits)
    values = [v for row in score_rows + expected_rows for v in row]
    low, high = min(0.0, min(values)), max(1.0, max(values))
    step_y = _nice_step((high - low) / 4)
    low, high = math.floor(low / step_y) * step_y, math.ceil(high / step_y) * step_y
    left, top = GRAPH_PAD["left"], GRAPH_PAD["top"]
    inner_w = GRAPH_WIDTH - left - GRAPH_PAD["right"]
    inner_h = GRAPH_HEIGHT - top - GRAPH_PAD["bottom"]

    def x_of(k: int) -> float:
        return left + inner_w * k / steps_x

    def y_of(v: float) -> float:
        return top + inner_h * (high - v) / (high - low)

    def line(rows: list[list[float]], i: int) -> str:
        return " ".join(f"{x_of(k):.1f},{y_of(row[i]):.1f}" for k, row in enumerate(rows))

    ticks_y = []
    value = low
    while value <= high + 1e-9:
        ticks_y.append({"y": round(y_of(value), 1), "label": f"{value:g}"})
        value += step_y
    step_x = max(1, int(_nice_step(steps_x / 5)))
    ticks_x = [{"x": round(x_of(k), 1), "label": str(k)} for k in range(0, steps_x + 1, step_x)]
    return {
        "width": GRAPH_WIDTH,
        "height": GRAPH_HEIGHT,
        "left": left,
        "right": GRAPH_WIDTH - GRAPH_PAD["right"],
        "top": top,
        "bottom": round(top + inner_h, 1),
        "shots": count,
        "visits": steps_x,
        "series": [
            {
                "seat": i,
                "player": name,
                "score": line(score_rows, i),
                "expected": line(expected_rows, i),
                "final_score": round(score_rows[-1][i]),
                "final_expected": round(expected_rows[-1][i], 1),
            }
            for i, name in enumerate(players)
        ],
        "ticks_y": ticks_y,
        "ticks_x": ticks_x,
    }


def _nice_step(raw: float) -> float:
    """1, 2 or 5 times a power of ten, at least ``raw`` (axis ticks a reader counts at a glance)."""
    if raw <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return float(factor * power)
    return float(10 * power)  # pragma: no cover - the loop always returns
