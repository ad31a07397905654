"""Reads of matches: their state and clocks, the shot list, results, the live list, replays."""
