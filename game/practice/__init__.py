"""The practice table: any position, any call, judged by the server's engine, nothing stored.

`selectors.positions` holds a position and its shareable code, `selectors.free_table` the judging of
one input on a table no match owns (the practice page, the tutorial, the engine board and the puzzles
all stand on it).
"""
