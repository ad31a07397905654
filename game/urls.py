"""The game's URLs: each view module owns its own `urlpatterns`."""

from django.urls import path

from game.views import bot, community, play, site

urlpatterns = [
    path("", site.home, name="home"),
    path("healthz", site.healthz, name="healthz"),
    *play.urlpatterns,
    *community.urlpatterns,
    *bot.urlpatterns,
]
