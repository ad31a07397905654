"""Websocket routes, all under ws/."""

from django.urls import path, re_path

from game import consumers

websocket_urlpatterns = [
    path("ws/ping/", consumers.PingConsumer.as_asgi()),
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
    # Match ids are short lowercase strings (game.models.new_match_id); the pattern keeps channel-layer
    # group names valid whatever a client puts in the URL.
    re_path(r"^ws/match/(?P<match_id>[a-z0-9]{1,16})/$", consumers.MatchConsumer.as_asgi()),
]
