"""English: the default language (the engine's own ``reason`` and refusal messages are these)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from game.engine.rules.words.catalogue import Catalogue, Namer, Template, both_stopped


# ----------------------------------------------------------------------------------------- English
def _n(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def _points(n: int) -> str:
    return _n(n, "point", "points")


def _won(p: Mapping[str, Any]) -> str:
    won = p.get("won")
    if not won:
        return ""
    return f". {won['winner']} wins the match"  # no score: a score is printed between the names (seat order)


def _pot(w: Namer, p: Mapping[str, Any]) -> str:
    call = p["call"]
    text = f"Potted {w.ball(call['ball'])} in {w.pocket(call['pocket'])}"
    if call.get("cue_cushions"):
        text += f" after {_n(call['cue_cushions'], 'cue-ball cushion', 'cue-ball cushions')}"
    if call.get("object_cushions"):
        text += f" off {_n(call['object_cushions'], 'cushion', 'cushions')}"
    if call.get("via") is not None:
        via = w.ball(call["via"])
        text += f" by a combination from {via}" if p.get("mode") == "combination" else f" by a kiss off {via}"
    if p.get("caroms"):
        text += f" with a carom on {w.balls(p['caroms'])}"
    text += f": {_points(p['points'])}"
    notes = p.get("notes") or ()
    if "carom_left_table" in notes:
        text += "; a carom ball left the table, the visit ends"
    if "plain_white_passes" in notes:
        text += "; a plain white never wins, the turn passes"
    if p.get("others"):
        others = p["others"]
        text += f"; {w.balls(others)} dropped too and {'scores' if len(others) == 1 else 'score'} nothing"
    return text + _won(p)


def _missed(w: Namer, p: Mapping[str, Any]) -> str:
    failure = EN_FAILURES.get(str(p.get("failure")))
    why = failure(w, p) if failure else "the call was not made"
    return f"Call not made: {why}; the visit ends"


def _cue_lost(how: str) -> Template:
    def words(w: Namer, p: Mapping[str, Any]) -> str:
        w.fresh()
        hit = "after hitting no ball" if p.get("first_hit") is None else f"after hitting {w.ball(p['first_hit'])} first"
        return f"Foul: {w.ball(p['cue'])} {how} {hit}: minus {_points(p['penalty'])}"

    return words


def _late(p: Mapping[str, Any]) -> str:
    return f"{p['player']} ran out of the shot clock ({p['count']} of {p['limit']})"


#: Why a lag was lost (K-3.1), in the few words of a lag's verdict.
_LAG_LOST = {
    "lag_pocketed": "pocketed",
    "lag_touched_ball": "it touched a ball",
    "lag_long_cushion": "a long cushion",
    "lag_crossed": "over the centre line",
    "lag_short": "short of the foot cushion",
}


def _lag(w: Namer, p: Mapping[str, Any]) -> str:
    """A lag's verdict (K-3.1), short enough for a banner over a phone's table: a lag alone says its
    distance or why it was lost; the deciding lag names each player once with his distance, the winner
    first. On an upright table (a phone's, its banners a third as wide) who chooses the break is left to
    the phase's own notice, the other's distance follows the winner's without his name, and a number keeps
    its unit on its line."""
    player, why = p["player"], _LAG_LOST.get(p["result"])
    if not p.get("lags"):
        if why:
            return f"Lag by {player}: lost, {why}"
        return f"Lag by {player}: {(p.get('distance') or 0.0) * 1000:.0f} mm from the home cushion"

    def result(name: str, distance: float | None) -> str:
        if distance is not None:
            return f"{name} {distance * 1000:.0f} mm"
        return f"{name} lost ({why})" if name == player and why else f"{name} lost"

    if p.get("winner"):
        (_, won), (loser, lost) = sorted(p["lags"], key=lambda lag: lag[0] != p["winner"])
        if w.cat.upright and lost is not None:
            return f"{p['winner']} wins the lag: {(won or 0.0) * 1000:.0f}\u00a0mm to {lost * 1000:.0f}\u00a0mm"
        text = f"{p['winner']} wins the lag: {(won or 0.0) * 1000:.0f} mm, {result(loser, lost)}"
        return text if w.cat.upright else text + "; the winner chooses who breaks"
    if both_stopped(p):
        return "Lag again: " + ", ".join(result(n, d) for n, d in p["lags"]) + ", equal to within 1 mm"
    return "Lag again: both lost" + (f" ({player}: {why})" if why else "")


def _not_dropped(w: Namer, p: Mapping[str, Any]) -> str:
    """By how much, when the rules measured it (rules/miss.py): left and right as the ball ran."""
    miss = p.get("miss")
    ball = w.ball(p["ball"])
    if not miss:
        return f"{ball} did not drop"
    if miss["at"] == "jaw":
        return f"{ball} hit the {miss['side']} jaw and stayed out"
    return f"{ball} hit the cushion {miss['mm']} mm {miss['side']} of the jaw"


EN_FAILURES: dict[str, Template] = {
    "no_ball_hit": lambda w, p: "the cue ball touched no ball",
    "wrong_first_ball": lambda w, p: f"the cue ball touched {w.ball(p['first'])} first, not {w.ball(p['called'])}",
    "cue_cushions": lambda w, p: (
        f"the cue ball touched {_n(p['counted'], 'cushion', 'cushions')} before the first ball, {p['called']} called"
    ),
    "not_dropped": lambda w, p: _not_dropped(w, p),
    "wrong_pocket": lambda w, p: f"{w.ball(p['ball'])} dropped in {w.pocket(p['pocket'])}, not {w.pocket(p['called'])}",
    "object_cushions": lambda w, p: (
        f"{w.ball(p['ball'])} touched {_n(p['counted'], 'cushion', 'cushions')} before dropping, {p['called']} called"
    ),
    "unexpected_contact": lambda w, p: (
        f"{w.ball(p['ball'])} touched {w.ball(p['other'])} before dropping (no kiss was called)"
    ),
    "kiss_missed": lambda w, p: f"{w.ball(p['ball'])} never touched {w.ball(p['via'])}: the called kiss did not happen",
    "kiss_extra_contact": lambda w, p: f"{w.ball(p['ball'])} touched {w.ball(p['other'])} besides the called kiss",
    "combination_failed": lambda w, p: f"{w.ball(p['via'])} did not drive {w.ball(p['ball'])}: the combination failed",
    "combination_extra_contact": lambda w, p: (
        f"{w.ball(p['ball'])} touched {w.ball(p['other'])} besides the combination"
    ),
    "hand_cushion_in_home": lambda w, p: (
        "from hand the cue ball's first cushion must be beyond the home line, and it was inside the home"
    ),
}

EN_LAGS: dict[str, Callable[[float | None], str]] = {
    "lag_pocketed": lambda d: "the lag ball was pocketed",
    "lag_touched_ball": lambda d: "the lag ball touched another ball",
    "lag_long_cushion": lambda d: "the lag ball touched a long cushion",
    "lag_crossed": lambda d: "the lag ball crossed onto the other player's side",
    "lag_short": lambda d: "the lag ball did not reach the foot cushion",
    "lag_stopped": lambda d: f"the lag ball stopped {(d or 0.0) * 1000:.0f} mm from the home cushion",
}

EN_VERDICTS: dict[str, Template] = {
    "pot": _pot,
    "call_missed": _missed,
    "wrong_cue_ball": lambda w, p: f"Played {w.ball(p['struck'])}, not {w.ball(p['cue'])}: no points, the visit ends",
    "replay_home_line": lambda w, p: "The cue ball did not cross the home line: the shot is replayed",
    "cue_ball_pocketed": _cue_lost("pocketed"),
    "cue_ball_off_table": _cue_lost("off the table"),
    "push_or_double_hit": lambda w, p: "A push or double hit: no points, the visit ends",
    "hand_attack": lambda w, p: (
        f"From hand the cue ball hit {w.fresh().ball(p['ball'])} in the home without first touching a cushion beyond "
        "the home line: no points, the visit ends"
    ),
    "object_jumped": lambda w, p: f"No points: {w.ball(p['ball'])} left the cloth; the visit ends",
    "rolled_along_cushion": lambda w, p: f"No points: {w.ball(p['ball'])} rolled in along a cushion; the visit ends",
    "frozen_to_cushion": lambda w, p: (
        f"No points: {w.ball(p['ball'])} was frozen to a cushion, and a simple pot of a frozen ball scores "
        "nothing; the visit ends"
    ),
    "kiss_off_frozen_ball": lambda w, p: (
        f"A kiss off {w.ball(p['via'])} frozen to a cushion scores nothing, the visit ends"
    ),
    "lag": _lag,
    "break_chosen": lambda w, p: f"{p['breaker']} breaks; {p['placer']} places the cue ball beyond the centre line",
    "shootout_started": lambda w, p: f"{p['starter']} starts the shoot-out",
    "opening_placed": lambda w, p: f"{p['player']} placed the cue ball; {p['breaker']} breaks from the home",
    "hand_placed": lambda w, p: f"{p['player']} placed the cue ball in the home",
    "touch_foul": lambda w, p: (
        f"{p['player']} touched a ball: the visit ends"
        + (f", minus {_points(p['penalty'])}" if p.get("penalty") else "")
        + _won(p)
    ),
    "resigned": lambda w, p: f"{p['loser']} resigned{_won(p) or '. ' + p['winner'] + ' wins'}",
    "forfeit": lambda w, p: f"{p['loser']}: {p['reason']}{_won(p) or '. ' + p['winner'] + ' wins'}",
    "clock": lambda w, p: "Clock updated",
    "aborted": lambda w, p: EN_FINISHES[p["why"]](w, p),
    "shot_clock": lambda w, p: f"{_late(p)}: {p['other']}'s turn",
    "shot_clock_choice": lambda w, p: f"{_late(p)}: {p['other']} chooses",
    "shot_clock_lag": lambda w, p: f"{_late(p)}: the lag is lost",
    "shot_clock_relag": lambda w, p: f"{_late(p)}: the lag is lost; both lags lost: lag again",
    "shot_clock_lag_won": lambda w, p: f"{_late(p)}: the lag is lost; {p['other']} wins the lag and chooses who starts",
    "shot_clock_lost": lambda w, p: EN_FINISHES["shot_clock_lost"](w, p),
}

#: How a game ended (the snapshot's ``finish_reason``, stored with the match).
EN_FINISHES: dict[str, Template] = {
    "target_reached": lambda w, p: "reached the target score",
    "shootout_higher": lambda w, p: "higher score after the shoot-out visits (K-11.4)",
    "sudden_death": lambda w, p: "sudden death (K-11.4)",
    "sudden_death_penalty": lambda w, p: "penalty in the sudden death (K-11.4)",
    "resigned": lambda w, p: f"{p['loser']} resigned",
    "forfeit": lambda w, p: f"{p['loser']}: {p['reason']}",
    "shot_clock_lost": lambda w, p: f"{p['player']} ran out of the shot clock {p['count']} times in a row",
    "aborted_by": lambda w, p: f"aborted by {p['player']} before the break",
    "aborted_shot_clock": lambda w, p: "no shot within the shot clock before the break",
    "aborted_left": lambda w, p: f"{p['player']} left before the break",
    "aborted_both_left": lambda w, p: "both players left",
}

EN_REFUSALS: dict[str, Template] = {
    "game_over": lambda w, p: "the game is over",
    "wrong_phase": lambda w, p: f"not possible in {w.phase(p['phase'])}",
    "no_shots_now": lambda w, p: f"no shots in {w.phase(p['phase'])}",
    "not_your_turn": lambda w, p: f"it is {p['player']}'s turn",
    "not_your_visit": lambda w, p: f"it is {p['player']}'s visit for your team",
    "only_lag_winner_chooses": lambda w, p: "only the lag winner chooses",
    "only_shooter_touch_foul": lambda w, p: "only the shooter can commit a touch foul",
    "already_lagged": lambda w, p: f"{p['player']} has already lagged; waiting for the opponent",
    "shootout_lag_over": lambda w, p: "the shoot-out lag is over",
    "nothing_to_choose": lambda w, p: "nothing to choose now",
    "shootout_not_started": lambda w, p: "the shoot-out has not started",
    "cue_ball_in_hand": lambda w, p: "place your cue ball in the home first",
    "not_in_hand": lambda w, p: "your cue ball is not in hand",
    "only_own_cue_ball": lambda w, p: "only your own cue ball can be placed",
    "own_cue_ball": lambda w, p: "that is your own cue ball: call another ball",
    "own_cue_ball_via": lambda w, p: "your own cue ball cannot be the kiss ball",
    "ball_not_on_table": lambda w, p: f"{w.ball(p['ball'])} is not on the table",
    "shootout_call": lambda w, p: "in the shoot-out only the kaisa into a corner pocket is called (K-11.2)",
    "opening_call": lambda w, p: (
        "the opening shot must call the kaisa or the red on the rear spot into a corner pocket at the far end (K-3.4)"
    ),
    "hand_middle_bank": lambda w, p: "from hand a middle pocket may only be called as a bank (K-7.2)",
    "hand_home_ball": lambda w, p: (
        f"from hand {w.ball(p['ball'])} in the home may only be attacked off a cushion beyond the home line (K-7.2)"
    ),
    "middle_kaisa_twice": lambda w, p: (
        "the kaisa may not be potted directly into a middle pocket twice in a row (K-6.4)"
    ),
    "strike_speed": lambda w, p: f"the cue speed must be above 0 and at most {p['max_speed']:g} m/s",
    "miscue": lambda w, p: (
        f"a miscue: the tip may hit at most {p['max_tip_offset']:g} of the radius away from the ball's centre"
    ),
    "place_beyond_centre": lambda w, p: "the cue ball must be placed beyond the centre line",
    "place_corridor": lambda w, p: (
        f"the ball would block the kaisa's path from the centre spot to {w.pocket(p['pocket'])}"
    ),
    "place_in_home": lambda w, p: "a ball in hand must be placed in the home (up to the home line)",
    "place_on_cloth": lambda w, p: "the ball must lie wholly on the cloth",
    "place_overlapping": lambda w, p: f"the balls would overlap: {w.ball(p['ball'])} and {w.ball(p['other'])}",
    "place_touching": lambda w, p: f"the ball would touch {w.ball(p['ball'])}",
}


def _duration(seconds: float) -> str:
    """ "5 minutes", "1 minute", "5 seconds" (tests use limits of a minute)."""
    if seconds >= 60:
        return _n(round(seconds / 60), "minute", "minutes")
    return _n(max(1, round(seconds)), "second", "seconds")


def _visits(count: int) -> str:
    return _n(count, "visit", "visits")


def score(points: int) -> str:
    """A score as printed: a negative one with a real minus sign (U+2212)."""
    return f"−{-points}" if points < 0 else str(points)


def _choice(w: Namer, p: Mapping[str, Any]) -> str:
    if p.get("shootout"):
        verb = "chooses to start the shoot-out" if p.get("take") else "lets the opponent start the shoot-out"
    else:
        verb = "takes the break" if p.get("take") else "passes the break"
    return f"{p['player']} {verb}"


def _result_won(w: Namer, p: Mapping[str, Any]) -> str:
    how, loser = p["how"], p["loser"]
    words = {
        "target": f"reached {p['target']}",
        "resign": f"{loser} resigned",
        "shot_clock": f"{loser} ran out of the shot clock 3 times in a row",
        "abandoned": f"{loser} left the match",
        "time_limit": "after the time limit",
        "shootout": "in the shoot-out",
    }.get(how, str(how).replace("_", " "))
    joiner = " " if how in ("time_limit", "shootout") else ": "
    # No score in the sentence: pages print it between the two names in seat order ("ann 12 – 30 ben"),
    # which reads right when the winner has fewer points (a resignation, the shoot-out).
    return f"{p['winner']} won{joiner}{words}"


def _result_aborted(w: Namer, p: Mapping[str, Any]) -> str:
    words = p.get("reason") or "the match was aborted"
    if words.startswith("aborted"):
        return "Aborted" + words[len("aborted") :]
    return f"Aborted: {words}"


#: The online layer's sentences (history.py, match_result.py).
EN_TEXTS: dict[str, Template] = {
    "choice": _choice,
    "time_warning": lambda w, p: f"Time limit: the last {_duration(p['seconds'])}",
    "time_up": lambda w, p: (
        f"Time is up: this round is finished, then each player gets "
        f"{p['extra_each']} more visit{'s' if p['extra_each'] != 1 else ''} (K-11.1)"
        if p["extra_each"]
        else "Time is up: this round is finished, then the shoot-out (K-11.1, K-11.2)"
    ),
    "extra_visits": lambda w, p: f"Extra visits: {_visits(p['extra_each'])} each, {p['last']} takes the last (K-11.1)",
    "shootout": lambda w, p: (
        f"Shoot-out: only the kaisa stays; a new lag decides who starts; up to {_visits(p['visits'])} each (K-11.2)"
    ),
    "sudden_death": lambda w, p: (
        f"Sudden death: level after {_visits(p['visits'])} each; the first penalty loses (K-11.4)"
    ),
    "result_won": _result_won,
    "result_aborted": _result_aborted,
}

ENGLISH = Catalogue(
    kaisa="the kaisa",
    a_red="a red",
    the_red="the red",
    other_red="the other red",
    both_reds="both reds",
    owned_cue="{owner}'s cue ball",
    the_cue="the cue ball",
    opponent_cue="the opponent's cue ball",
    unknown_ball="a ball",
    unknown_pocket="a pocket",
    unknown_phase="this phase",
    pockets={
        "home_right": "the bottom left pocket",
        "home_left": "the top left pocket",
        "middle_right": "the bottom middle pocket",
        "middle_left": "the top middle pocket",
        "foot_right": "the bottom right pocket",
        "foot_left": "the top right pocket",
    },
    side_pockets={"middle_left": "the left middle pocket", "middle_right": "the right middle pocket"},
    phases={
        "lag": "the lag for the break",
        "choose_break": "the choice of the break",
        "opening_placement": "the opening placement",
        "play": "play",
        "extra_visits": "the extra visits",
        "shootout": "the shoot-out",
        "finished": "a finished game",
    },
    verdicts=EN_VERDICTS,
    failures=EN_FAILURES,
    lags=EN_LAGS,
    refusals=EN_REFUSALS,
    finishes=EN_FINISHES,
    texts=EN_TEXTS,
)
