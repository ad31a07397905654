"""Shot puzzles from real matches.

- What makes a puzzle, its target and themes, and whether an answer solves it: the pure engine,
  game/engine/analysis/puzzles.py.
- The rows: game/models/puzzles.py (Puzzle, PuzzleServing, PuzzleRating).
- Writes: game/puzzles/services.py. ``puzzles_from_analysis(match, report)`` is the hook the stored
  match analysis calls when an analysis is done (a plain public service: connect it to the analysis's
  "done" signal in game/apps.py); ``python manage.py make_puzzles`` calls it for past matches.
- Reads: game/puzzles/selectors.py (the daily puzzle, the next one of a streak, a player's rating).
- Pages: game/puzzles/views.py, the template game/puzzle.html and static/game/js/pages/puzzle.js.
"""
