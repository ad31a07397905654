"""Websocket routes, all under ws/; any other path is closed with 4404 (NotFoundConsumer)."""

from django.urls import path, re_path

from game.common.converters import MATCH_ID_PATTERN
from game.lobby.consumer import LobbyConsumer
from game.matches import consumer as consumers
from game.realgames.consumer import RealGameConsumer, TableScorerConsumer
from game.realgames.follow import EventFollowConsumer, TableFollowConsumer
from game.tournaments.consumer import TournamentConsumer

websocket_urlpatterns = [
    path("ws/ping/", consumers.PingConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    # The match id pattern (game.models) keeps channel-layer group names valid whatever a client puts
    # in the URL; an id that does not fit it is an unknown path.
    re_path(rf"^ws/match/(?P<match_id>{MATCH_ID_PATTERN})/$", consumers.MatchConsumer.as_asgi()),
    re_path(r"^ws/tournament/(?P<tournament_id>[0-9]{1,9})/$", TournamentConsumer.as_asgi()),
    re_path(r"^ws/tables/(?P<token>[A-Za-z0-9_-]{8,40})/$", TableScorerConsumer.as_asgi()),
    re_path(r"^ws/realgame/(?P<game_id>[0-9]{1,9})/$", RealGameConsumer.as_asgi()),
    re_path(r"^ws/realtable/(?P<table_id>[0-9]{1,9})/$", TableFollowConsumer.as_asgi()),
    re_path(r"^ws/realevent/(?P<tournament_id>[0-9]{1,9})/$", EventFollowConsumer.as_asgi()),
    re_path(r"", consumers.NotFoundConsumer.as_asgi()),
]
