"""The match pages: the lobby's play forms and the match page, the computer opponent, watch and replays."""
