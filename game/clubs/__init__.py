"""Clubs: their members and roles, their matches and leaderboards."""
