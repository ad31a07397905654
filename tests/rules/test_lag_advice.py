"""K-3.1: the lag a newcomer is offered, and the words that close a lag.

The suggested speed comes from the real physics (game.engine.rules.lag_advice) and must win against
the old default (2.5 m/s); the deciding lag's words give both players' distances.
"""

from __future__ import annotations

import re

from game.engine.rules import Match
from game.engine.rules.lag_advice import lag_distance
from game.engine.rules.words import LANGUAGES, PORTRAIT, lag_words, say
from game.engine.table import kaisa_table

TABLE = kaisa_table()


def colours(match: Match) -> tuple[tuple[str, float, float], ...]:
    balls = match.snapshot()["balls"]
    return tuple((b, p[0], p[1]) for b, p in sorted(balls.items()) if p is not None and b not in ("white1", "white2"))


def test_the_lag_constraints_offer_a_speed_that_stops_near_the_home_cushion_k3_1() -> None:
    match = Match.new(["alice", "bob"])
    for side, name in enumerate(("alice", "bob")):
        advice = match.constraints(name)["lag"]
        assert advice is not None
        speed = advice["speed"]
        distance = lag_distance(TABLE, side, colours(match), speed)
        # A good lag (K-3.1): to the foot cushion and back, within 10 cm of the home cushion ...
        assert distance < 0.10, (speed, distance)
        # ... and far better than the page's old default, which always lost.
        assert lag_distance(TABLE, side, colours(match), 2.5) > 1.0
        # Played as a lag, it is not lost.
        result = Match.from_snapshot(match.snapshot()).lag(
            name, {"angle": 0.0, "speed": speed, "side": 0.0, "height": 0.0}
        )
        assert result.verdict["lag"]["lost"] is False


def test_no_lag_advice_once_the_player_has_lagged_k3_1() -> None:
    match = Match.new(["alice", "bob"])
    match.lag("alice", {"angle": 0.0, "speed": 1.7, "side": 0.0, "height": 0.0})
    assert match.constraints("alice")["lag"] is None
    assert match.constraints("bob")["lag"] is not None


def test_the_deciding_lag_says_both_distances_k3_1() -> None:
    match = Match.new(["alice", "bob"])
    first = match.lag("alice", {"angle": 0.0, "speed": 1.7, "side": 0.0, "height": 0.0})
    assert "bob" not in first.verdict["reason"]  # one lag alone decides nothing
    second = match.lag("bob", {"angle": 0.0, "speed": 1.5, "side": 0.0, "height": 0.0})
    reason = second.verdict["reason"]
    assert reason == "alice wins the lag: 92 mm, bob 579 mm; the winner chooses who breaks", reason


#: The site's guest names (the longest names most players have) and each language's words for the choice
#: the lag's winner makes (K-3.2).
GUESTS = ("Guest 48213", "Guest 77120")
CHOOSES = {"en": "chooses who breaks", "fi": "valitsee aloittajan", "ru": "выбирает, кто разбивает"}


def test_the_deciding_lag_says_each_fact_once_in_few_words_k3_1() -> None:
    """The deciding lag's verdict is laid over the table, on a phone a third of its width: each player and
    each distance once, the winner first, why a lost lag was lost, and (but upright, where the phase's
    notice says it at once) who chooses the break; in every language a player reads. (It said the
    deciding lag's distance twice and each name up to three times: four lines over a phone's table.)"""
    decided = Match.new(GUESTS)
    decided.lag(GUESTS[0], {"angle": 0.0, "speed": 1.7, "side": 0.0, "height": 0.0})
    won = decided.lag(GUESTS[1], {"angle": 0.0, "speed": 1.5, "side": 0.0, "height": 0.0}).verdict
    cushion = Match.new(GUESTS)
    cushion.lag(GUESTS[0], {"angle": 0.0, "speed": 1.7, "side": 0.0, "height": 0.0})
    lost = cushion.lag(GUESTS[1], {"angle": 0.3, "speed": 1.5, "side": 0.0, "height": 0.0}).verdict
    assert won["lag_winner"] == lost["lag_winner"] == GUESTS[0]
    assert lost["params"]["result"] == "lag_long_cushion"
    for language in LANGUAGES:
        for upright in (False, True):
            code = language + PORTRAIT if upright else language
            text = say(won["code"], won["params"], code)
            # Upright, the other's distance follows the winner's without his name.
            assert text.count(GUESTS[0]) == 1 and text.count(GUESTS[1]) == (0 if upright else 1), text
            assert upright or text.index(GUESTS[0]) < text.index(GUESTS[1]), text
            for _name, distance in won["params"]["lags"]:
                assert len(re.findall(rf"(?<!\d){distance * 1000:.0f}(?!\d)", text)) == 1, text
            assert (CHOOSES[language] in text) is not upright, text
            assert len(text) <= (64 if upright else 100), (len(text), text)
            # A lost lag says why (the deciding one's own reason), once.
            text = say(lost["code"], lost["params"], code)
            assert lag_words("lag_long_cushion", None, language) not in text  # the long form, not repeated
            assert all(text.count(name) == 1 for name in GUESTS) and len(text) <= (80 if upright else 120), text


def _default_lag(match: Match, name: str) -> dict[str, float]:
    """The strike a player makes who keeps the power the page starts at: the offered speed, straight."""
    advice = match.constraints(name)["lag"]
    assert advice is not None
    return {"angle": 0.0, "speed": advice["speed"], "side": 0.0, "height": 0.0}


def test_lag_at_default_power_decides() -> None:
    """K-3.1: two players who both press Lag at the power the page offers get a decision, not a re-lag
    (the halves are mirror images: one speed offered to both tied every time), both offered speeds are
    good lags, and neither seat is favoured. Equal lags still re-lag, as the rule says."""
    winners = []
    for n in range(12):
        names = (f"player{n}a", f"player{n}b")
        match = Match.new(names)
        for side, name in enumerate(names):
            speed = _default_lag(match, name)["speed"]
            assert lag_distance(TABLE, side, colours(match), speed) < 0.03, (name, speed)
        match.lag(names[0], _default_lag(match, names[0]))
        decided = match.lag(names[1], _default_lag(match, names[1])).verdict
        assert not decided["relag"] and decided["lag_winner"] in names, decided["reason"]
        distances = [d for _, d in decided["params"]["lags"]]
        assert abs(distances[0] - distances[1]) > 0.001, distances  # more than K-3.1's 1 mm apart
        winners.append(names.index(decided["lag_winner"]))
    assert 0 < sum(winners) < len(winners), winners  # each seat wins some

    # The same speed on both halves stops at the same distance: equal within 1 mm, lag again (K-3.1).
    match = Match.new(("ann", "bea"))
    strike = _default_lag(match, "ann")
    match.lag("ann", strike)
    again = match.lag("bea", strike).verdict
    assert again["relag"] and again["lag_winner"] is None
    # The new round offers speeds that decide again.
    match.lag("ann", _default_lag(match, "ann"))
    assert match.lag("bea", _default_lag(match, "bea")).verdict["lag_winner"] in ("ann", "bea")
