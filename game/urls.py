"""The game's URLs: each view module owns its own `urlpatterns`."""

from django.urls import path

from game.views import bot, community, learn, play, site, tournaments

urlpatterns = [
    path("", site.home, name="home"),
    path("healthz", site.healthz, name="healthz"),
    path("ratings/", site.ratings_help, name="ratings_help"),
    path("rules/", site.rules, name="rules"),
    *play.urlpatterns,
    *community.urlpatterns,
    *bot.urlpatterns,
    *tournaments.urlpatterns,
    *learn.urlpatterns,
]
