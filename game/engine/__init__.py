"""The Kaisa engine: table, balls, physics and rules in pure Python.

Nothing here may import Django, Channels or asyncio (tests/engine/test_purity.py enforces it), so the
engine runs the same in a web process, a worker, a benchmark or a notebook.

``ENGINE_VERSION`` (ARCHITECTURE 3) names the physics and the rules together and is recorded with every
stored replay: bump ``RULES_VERSION`` when a rules change alters a verdict for the same inputs (the
recorded corpus, tests/rules/test_corpus.py, says when), the physics bumps its own.
"""

from game.engine.physics.simulate import ENGINE_VERSION as PHYSICS_VERSION

#: The rules' part of the engine version (typed state, words, the K-6.2/K-7.2 fixes).
RULES_VERSION = "kaiza-rules-2"
ENGINE_VERSION = f"{PHYSICS_VERSION}+{RULES_VERSION}"

__all__ = ["ENGINE_VERSION", "PHYSICS_VERSION", "RULES_VERSION"]
