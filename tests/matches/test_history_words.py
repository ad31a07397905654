"""The words of the shot list and of the K-11 notices (game/matches/selectors/history.py): one function makes
each entry, so the live list, a reload and a late spectator read the same sentence."""

from __future__ import annotations

from typing import Any

from game.engine.bot import apply_move, quick_move
from game.engine.rules import Match, words
from game.matches.selectors.history import _entry_text, history_entry, phase_notices, worded_event_data


def _state(**changes: Any) -> dict[str, Any]:
    snapshot = Match.new(("alice", "bob"), time_limit=3900, now=0.0).snapshot()
    snapshot["players"][0]["cue_ball"], snapshot["players"][1]["cue_ball"] = "white1", "white2"
    snapshot.update(changes)
    return snapshot


def test_k11_notices_are_made_from_the_change_once() -> None:
    before = _state(phase="play")
    warned = _state(phase="play", clock={**before["clock"], "warned": True})
    assert phase_notices(before, warned) == [("time_warning", "Time limit: the last 5 minutes")]
    assert phase_notices(warned, warned) == []
    expired = _state(phase="play", clock={**warned["clock"], "expired": True})
    assert phase_notices(warned, expired) == [
        ("time_up", "Time is up: this round is finished, then each player gets 2 more visits (K-11.1)")
    ]
    extra = _state(phase="extra_visits", clock=expired["clock"], extra_visits=["white1", "white2"] * 2)
    assert phase_notices(expired, extra) == [
        ("extra_visits", "Extra visits: 2 visits each, bob takes the last (K-11.1)")
    ]
    shootout = _state(phase="shootout", clock=expired["clock"], shootout={"stage": "lag", "sudden_death": False})
    assert [kind for kind, _ in phase_notices(extra, shootout)] == ["shootout"]
    sudden = _state(phase="shootout", clock=expired["clock"], shootout={"stage": "shoot", "sudden_death": True})
    assert phase_notices(shootout, sudden)[0][1].startswith("Sudden death: level after 10 visits each")
    finished = _state(phase="finished", clock=expired["clock"])
    assert phase_notices(warned, finished) == []


def test_entries_say_who_did_what_in_words() -> None:
    state = _state(phase="opening_placement")
    choice = history_entry(
        "choice",
        3,
        {
            "player": "Bot-L3",
            "take": False,
            "state": state,
            "verdict": {"reason": "alice breaks with white •; Bot-L3 places white ••"},
        },
    )
    assert choice["text"] == "Bot-L3 passes the break: alice breaks with white •; Bot-L3 places white ••"
    assert choice["kind"] == "choice" and choice["scores"] == [0, 0] and choice["v"] == 3
    lag = history_entry(
        "shot",
        1,
        {
            "kind": "lag",
            "player": "alice",
            "state": state,
            "verdict": {"reason": "alice's lag: 92 mm from the head cushion"},
        },
    )
    assert lag["kind"] == "lag" and lag["rules"] == []
    shot = history_entry(
        "shot",
        5,
        {"kind": "shot", "player": "alice", "state": state, "verdict": {"reason": "not allowed", "rules": ["K-3.4"]}},
    )
    assert shot["rules"] == ["K-3.4"]  # the shot list links each rule id to /rules/#K-3.4
    assert history_entry("started", 1, {"state": state}) is None
    finished = history_entry(
        "finished",
        9,
        {
            "winner": None,
            "state": state,
            "result": {"how": "aborted", "winner": None, "text": "Aborted by bob before the break"},
        },
    )
    assert finished["kind"] == "abort" and finished["player"] is None
    assert finished["text"] == "Aborted by bob before the break"


def test_result_text_names_the_winner_and_no_score() -> None:
    """The score is printed between the names in seat order (score_line); the sentence never carries one,
    so a winner behind on points ("ann won 12–30") or with a negative score reads right."""
    from game.matches.selectors.match_result import result_text, score_line

    text = result_text(how="shootout", winner="ann", loser="ben", scores=[0, -6], reason="", target=60)
    assert text == "ann won in the shoot-out"
    assert score_line(scores=[0, -6], winner_seat=0, how="shootout") == "0v – −6"
    assert result_text(how="resign", winner="ann", loser="ben", scores=[12, 30], reason="", target=60) == (
        "ann won: ben resigned"
    )


def _entry_words_made_again(t: str, data: dict[str, Any], verdict: dict[str, Any], english: str) -> dict[str, str]:
    """The entry's words made from its own sentence in every reading, as before the verdict's were taken."""
    return words.in_every_language(lambda language: _entry_text(t, data, verdict, language) or english, portrait=True)


def test_an_entry_that_says_the_verdict_takes_its_words_from_the_verdict() -> None:
    """The shot list's entry of a shot, a placement or a lag says the verdict's sentence: stored events
    carry it once worded (`worded_event_data`), and the entry's words are those, not made again, yet the
    same in every language and orientation as the entry's own making gives."""
    match = Match.new(("alice", "bob"), time_limit=3900, now=0.0)
    kinds: set[str] = set()
    portrait = 0
    for number in range(40):
        snapshot = match.snapshot()
        if snapshot["phase"] == "finished":
            break
        move = quick_move(snapshot, seed=number)
        outcome = apply_move(match, move)
        verdict = getattr(outcome, "verdict", None)
        if not isinstance(verdict, dict) or move["action"] == "choose_break":
            continue
        t = "placed" if move["action"] == "place" else "shot"
        data = {"kind": move["action"], "player": move["player"], "verdict": verdict, "state": match.snapshot()}
        worded = worded_event_data(t, number + 1, data)
        entry = worded["entry"]
        made = _entry_words_made_again(t, data, verdict, entry["text"])
        assert entry["words"] == made, move
        assert entry["words"]["en"] == worded["verdict"]["words"]["en"] == verdict["reason"]
        kinds.add(t)
        portrait += any(language.endswith(words.PORTRAIT) for language in made)
    assert kinds == {"shot", "placed"} and portrait > 0  # a pocket named: the portrait sentences compared too
