"""Ratings: Glicko-2's arithmetic and the rules that make a result rated."""
