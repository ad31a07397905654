"""The pure pairing arithmetic of every tournament format: no Django, deterministic for a given list."""
