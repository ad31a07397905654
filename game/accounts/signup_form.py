"""The extra fields of the sign-up form (settings.ACCOUNT_SIGNUP_FORM_CLASS), kept apart from the adapter.

allauth builds its own `SignupForm` on top of this class when `allauth.account.forms` is first imported,
so this module must not import `allauth.account.forms` itself: were it to (as it did while it lived in
game/accounts/allauth_adapter.py beside `LoginForm`), whichever of the two modules a process imported first
decided whether start-up crashed with a circular import (Django runs its system checks in no fixed
order, so `migrate` failed in some processes only).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from game.accounts.services import AccountError, display_name_available
from game.models import Profile


def signed_in_guest(request: HttpRequest) -> User | None:
    """The request's user if it is a guest (who may sign up and keep the account), else None."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    return user if Profile.objects.filter(user=user, is_guest=True).exists() else None


class SignupExtraForm(forms.Form):
    """Fields allauth's sign-up form lacks (settings.ACCOUNT_SIGNUP_FORM_CLASS): the display name."""

    display_name = forms.CharField(
        max_length=32,
        required=False,
        label=gettext_lazy("Display name"),
        help_text=gettext_lazy("shown at the table; default: your username"),
    )

    def clean_display_name(self) -> str:
        from allauth.core import context

        name = (self.cleaned_data.get("display_name") or "").strip()
        if not name:
            return ""
        try:
            return display_name_available(name=name, user=signed_in_guest(context.request))
        except AccountError as exc:
            raise forms.ValidationError(exc.message) from exc

    def clean(self) -> dict[str, Any]:
        """Without a display name the username is used: it must make a valid, free one."""
        from allauth.core import context

        data = super().clean() or {}
        username = data.get("username")
        if not data.get("display_name") and username and "display_name" not in self.errors:
            try:
                display_name_available(name=username, user=signed_in_guest(context.request))
            except AccountError as exc:
                self.add_error(
                    "display_name",
                    _("%(problem)s (your username would be used: choose a display name)") % {"problem": exc.message},
                )
        return data

    def signup(self, request: HttpRequest, user: User) -> None:
        """allauth's hook for extra fields; the profile is already written by `AccountAdapter.save_user`."""
