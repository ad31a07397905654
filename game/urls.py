"""The game's URLs: each view module owns its own `urlpatterns`."""

from django.urls import path
from django.views.i18n import JavaScriptCatalog

from game.views import bot, community, play, site

urlpatterns = [
    # The JS client's own words in the request's language (djangojs domain; static/game/js/i18n.js).
    path("jsi18n/", JavaScriptCatalog.as_view(domain="djangojs"), name="javascript-catalog"),
    path("", site.home, name="home"),
    path("healthz", site.healthz, name="healthz"),
    path("ratings/", site.ratings_help, name="ratings_help"),
    path("rules/", site.rules, name="rules"),
    *play.urlpatterns,
    *community.urlpatterns,
    *bot.urlpatterns,
]
