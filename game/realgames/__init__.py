"""Games on a club's real tables, scored at the table by a phone: the scorer's taps are inputs to one
server-side game (versioned, idempotent by the tap's key), the points come from the engine's rules
(game/engine/rules/real_table.py), and a club event's game enters its result in the draw when it ends.

Public modules: `services` (writes), `selectors` (`real_game_view`, the one snapshot every page and
socket sends), `consumer` (the scorer's and the spectators' sockets), `coach` (a real position laid
out for the coach)."""
