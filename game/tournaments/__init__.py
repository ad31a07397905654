"""Tournament logic without Django: pairings (round robin, single and double elimination, Swiss) and
standings with their tie-breaks.

Entries are plain ints (the caller's entry ids), always given in seed order (the first is the top
seed), so every function here is a deterministic function of its arguments: lists and sorted keys,
never the iteration order of a set. The services (game/tournaments/services/) store what these return
and feed the results back.
"""

from game.tournaments.pairing.results import Game, Result

__all__ = ["Game", "Result"]
