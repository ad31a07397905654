"""Top-level URL map: the admin, accounts (django-allauth behind our sign-up guard) and the game app.

The error handlers render the site's own pages; allauth answers its rate limits with `handler429`
too (it looks for it here), so every 429 is the same page.
"""

from django.contrib import admin
from django.urls import include, path

from game.accounts import language
from game.accounts import views as accounts

urlpatterns = [
    path("admin/", admin.site.urls),
    # The header's language switcher: Django's set_language, then the profile keeps the choice.
    path("i18n/setlang/", language.set_language, name="set_language"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/", include("allauth.urls")),
    path("", include("game.urls")),
]

handler404 = "game.site.views.pages.not_found"
handler500 = "game.site.views.pages.server_error"
handler429 = "game.common.ratelimit.too_many_requests"
