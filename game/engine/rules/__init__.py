"""The Kaisa rules (kaisa-rules.md) behind the engine contract of ARCHITECTURE.md section 3.

Pure Python, no Django: the match reads the physics' event list and returns frozen verdicts.
"""

from game.engine.rules.calls import Call, CallJudgement, judge_call, parse_call
from game.engine.rules.errors import RuleError
from game.engine.rules.events import HandEvent, ev, hand_events
from game.engine.rules.fouls import FAULTS, FOULS
from game.engine.rules.match import PHASES, Match, Outcome, table_for
from game.engine.rules.ruleset import Ruleset
from game.engine.rules.scoring import call_points, carom_value
from game.engine.rules.verdict import Verdict, judge_shot

__all__ = [
    "FAULTS",
    "FOULS",
    "PHASES",
    "Call",
    "CallJudgement",
    "HandEvent",
    "Match",
    "Outcome",
    "RuleError",
    "Ruleset",
    "Verdict",
    "call_points",
    "carom_value",
    "ev",
    "hand_events",
    "judge_call",
    "judge_shot",
    "parse_call",
    "table_for",
]
