"""Kaiza's hooks into django-allauth: guests keep their account when they sign up, every account gets
its profile (display name), and redirects stay on our own site.

allauth runs sign-up, login, logout, password change and reset, e-mail verification and their rate
limits. What it lacks is our guest: a visitor plays at once as a real user ("Guest-4821", unusable
password) and may sign up later, mid-match. allauth's documented adapter hooks carry that:

- `new_user` hands the signup form the logged-in guest instead of a blank user, so allauth's own
  `save_user` fills in the username, e-mail and password of that same row (same primary key: seats,
  shots and matches stay);
- `save_user` then registers the profile through `game.accounts.services.account_register`, in the
  same transaction (the display name chosen on the form, a guest's profile converted in place).
"""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.forms import LoginForm as AllauthLoginForm
from django import forms
from django.contrib.auth.models import User
from django.db import transaction
from django.forms import BaseForm
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from game.accounts.services import GUEST_PREFIX, AccountError, account_register
from game.accounts.signup_form import signed_in_guest
from kaiza_site.server.allauth_login_key import LoginKeyByAddress


class LoginForm(AllauthLoginForm):
    """allauth's login form (settings.ACCOUNT_FORMS) with the field named as players know it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["login"].label = _("Username or e-mail")


class AccountAdapter(LoginKeyByAddress, DefaultAccountAdapter):
    """Failed logins are counted per name and address (kaiza_site.server.allauth_login_key)."""

    def new_user(self, request: HttpRequest) -> User:
        """A guest who signs up becomes the account: the same user row, filled in by `save_user`."""
        guest = signed_in_guest(request)
        return guest if guest is not None else super().new_user(request)

    def clean_username(self, username: str, shallow: bool = False) -> str:
        if username.lower().startswith(GUEST_PREFIX.lower()):
            raise forms.ValidationError(_("names starting with 'Guest-' are kept for guests"))
        return super().clean_username(username, shallow=shallow)

    @transaction.atomic
    def save_user(self, request: HttpRequest, user: User, form: BaseForm, commit: bool = True) -> User:
        user = super().save_user(request, user, form, commit=commit)
        if commit:
            data: dict[str, Any] = form.cleaned_data
            try:
                account_register(user=user, display_name=data.get("display_name") or None)
            except AccountError as exc:
                # A name taken between the form's check and here: nothing is kept (the transaction).
                raise forms.ValidationError(exc.message) from exc
        return user
