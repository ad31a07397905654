"""HTTP views, one module per area: site (home, health), play (accounts, lobby, match pages),
community (players, clubs, leaderboards, watch, replays)."""
