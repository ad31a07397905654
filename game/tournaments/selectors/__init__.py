"""Reads of tournaments: their pages, standings and brackets."""
