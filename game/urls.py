"""The game's URLs: each view module owns its own `urlpatterns`."""

from django.conf import settings
from django.urls import path

from game.clubs import register_views, series_views
from game.clubs import views as clubs
from game.lobby import views as challenges
from game.puzzles import views as puzzles
from game.realgames import coach_views as real_coach
from game.realgames import pages as real_pages
from game.realgames import views as real_games
from game.site.views import catalogue, computer, learn, play, players, practice, real_records, watch
from game.site.views import pages as site
from game.tournaments import announce_views as announcements
from game.tournaments import club_views as club_events
from game.tournaments import ranking_views
from game.tournaments import screen_views as club_screens
from game.tournaments import views as tournaments

urlpatterns = [
    # The JS client's own words, the page's language in the URL (djangojs domain; static/game/js/i18n.js).
    *catalogue.urlpatterns,
    path("", site.home, name="home"),
    path("healthz", site.healthz, name="healthz"),
    path("ratings/", site.ratings_help, name="ratings_help"),
    path("rules/", site.rules, name="rules"),
    *play.urlpatterns,
    *challenges.urlpatterns,
    *watch.urlpatterns,
    *players.urlpatterns,
    *clubs.urlpatterns,
    *series_views.urlpatterns,
    *register_views.urlpatterns,
    *real_records.urlpatterns,
    *computer.urlpatterns,
    *tournaments.urlpatterns,
    *club_events.urlpatterns,
    *announcements.urlpatterns,
    *ranking_views.urlpatterns,
    *club_screens.urlpatterns,
    *learn.urlpatterns,
    *practice.urlpatterns,
    *real_coach.urlpatterns,
    *real_games.urlpatterns,
    *puzzles.urlpatterns,
    *real_pages.urlpatterns,
]

if settings.KAIZA_TEST_CLOCK:
    # Test servers only: the game clock moved by the test (game/site/views/test_clock.py).
    from game.site.views import test_clock

    urlpatterns += test_clock.urlpatterns
