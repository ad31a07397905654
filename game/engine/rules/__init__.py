"""The Kaisa rules (kaisa-rules.md) behind the engine contract of ARCHITECTURE.md section 3.

Pure Python, no Django: a typed state (``state.py``), one module per phase (``phases/``), the match
facade (``match.py``); the words players read are made in the ``words`` package only (en, fi, ru).
"""

from game.engine.rules.calls import Call, CallJudgement, judge_call, parse_call
from game.engine.rules.errors import RuleError
from game.engine.rules.events import HandEvent, ev, hand_events
from game.engine.rules.fouls import FAULTS, FOULS
from game.engine.rules.match import PHASES, Match, Outcome, table_for
from game.engine.rules.ruleset import Ruleset
from game.engine.rules.scoring import call_points, carom_value
from game.engine.rules.simulator import Simulator, physics_simulator
from game.engine.rules.snapshot import upgrade_snapshot
from game.engine.rules.state import MatchState, Phase
from game.engine.rules.strike import StrikeInput, parse_strike
from game.engine.rules.verdict import Verdict, judge_shot

__all__ = [
    "FAULTS",
    "FOULS",
    "PHASES",
    "Call",
    "CallJudgement",
    "HandEvent",
    "Match",
    "MatchState",
    "Outcome",
    "Phase",
    "RuleError",
    "Ruleset",
    "Simulator",
    "StrikeInput",
    "Verdict",
    "call_points",
    "carom_value",
    "ev",
    "hand_events",
    "judge_call",
    "judge_shot",
    "parse_call",
    "parse_strike",
    "physics_simulator",
    "table_for",
    "upgrade_snapshot",
]
