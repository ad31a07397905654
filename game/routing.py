"""Websocket routes, all under ws/."""

from django.urls import path

from game import consumers

websocket_urlpatterns = [
    path("ws/ping/", consumers.PingConsumer.as_asgi()),
]
