"""Reads: one module per area (matches, players, clubs); views and consumers call these."""
