"""HTTP views, one module per area: site (home, health), play (accounts, lobby, match pages),
community (players, clubs, leaderboards, watch, replays)."""

from game.common import converters  # noqa: F401  (the URL parameters' converters, before any urlpatterns)
