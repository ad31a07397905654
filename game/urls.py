"""The game's URLs: each view module owns its own `urlpatterns`."""

from django.urls import path
from django.utils import timezone
from django.views.decorators.http import last_modified
from django.views.i18n import JavaScriptCatalog

from game.views import bot, challenges, community, learn, play, practice, site, tournaments

#: The JS catalogue changes only with a deploy: browsers revalidate it with If-Modified-Since (a 304).
CATALOGUE_SINCE = timezone.now()

urlpatterns = [
    # The JS client's own words in the request's language (djangojs domain; static/game/js/i18n.js).
    path(
        "jsi18n/",
        last_modified(lambda request, **kwargs: CATALOGUE_SINCE)(JavaScriptCatalog.as_view(domain="djangojs")),
        name="javascript-catalog",
    ),
    path("", site.home, name="home"),
    path("healthz", site.healthz, name="healthz"),
    path("ratings/", site.ratings_help, name="ratings_help"),
    path("rules/", site.rules, name="rules"),
    *play.urlpatterns,
    *challenges.urlpatterns,
    *community.urlpatterns,
    *bot.urlpatterns,
    *tournaments.urlpatterns,
    *learn.urlpatterns,
    *practice.urlpatterns,
]
