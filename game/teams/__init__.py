"""Team matches: the teams, their line-ups and the results of their members."""
