"""A real game at a club's table, scored shot by shot, and what is learnt from real play."""
