"""Players, clubs, leaderboards, the Watch page and replays."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
