"""Account writes: every user gets a Profile here, guests are created and later converted here.

A guest is a real Django user (with an unusable password) so that matches, shots and seats can point
at it like at anyone else; signing up (allauth, through game/accounts/allauth_adapter.py) converts that same
user, so a guest who registers mid-match keeps the seat, the history and the session.
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from typing import Any

from django.contrib.auth.models import User  # the project's user model (AUTH_USER_MODEL is Django's)
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from game.common.names import look_alike_scripts, name_key, name_normal
from game.models import Profile

DISPLAY_NAME_LEAST, DISPLAY_NAME_MAX = 2, 32
#: What may stand between a name's letters and digits, one at a time: `Sakari-Mäkelä`, `Anna Liisa`.
DISPLAY_NAME_JOINERS = frozenset(" -_")
GUEST_PREFIX = "Guest-"


class AccountError(ValueError):
    """A refused account change, with the field it is about (for forms)."""

    def __init__(self, field: str, message: Any) -> None:
        """`message` is lazy text (gettext_lazy): the form shows it in the reader's language."""
        super().__init__(message)
        self.field = field
        self.message = message


JOINER_WORDS = _("a space, '-' or '_' stands between two letters or digits, one at a time")
CHARACTER_WORDS = _("a display name has letters, digits, spaces, '-' and '_' only")


def display_name_check(*, name: str) -> str:
    """The name as it is kept (game.common.names.name_normal), or a refusal in words.

    Names are shown at the table and stored in snapshots: letters of any alphabet and digits, with a
    single space, hyphen or underscore between two of them (`Sakari-Mäkelä`, `Анна Петрова`), 2 to 32
    characters. No punctuation or invisible characters, which could make two names look alike, and no
    mixing of the alphabets whose letters look alike (game.common.names.LOOK_ALIKE_SCRIPTS); a name
    that never looks like a guest's generated name."""
    name = name_normal(name)
    previous = ""
    for char in name:
        kind = unicodedata.category(char)
        if char in DISPLAY_NAME_JOINERS:
            if not previous or previous in DISPLAY_NAME_JOINERS:
                raise AccountError("display_name", JOINER_WORDS)
        elif kind.startswith("M"):
            if not previous or previous in DISPLAY_NAME_JOINERS:
                raise AccountError("display_name", CHARACTER_WORDS)
        elif not (kind.startswith("L") or kind == "Nd"):
            raise AccountError("display_name", CHARACTER_WORDS)
        previous = char
    if previous in DISPLAY_NAME_JOINERS:
        raise AccountError("display_name", JOINER_WORDS)
    if not DISPLAY_NAME_LEAST <= len(name) <= DISPLAY_NAME_MAX:
        raise AccountError(
            "display_name", _("a display name is 2 to 32 characters: letters, digits, spaces, '-' or '_'")
        )
    if len(look_alike_scripts(name)) > 1:
        raise AccountError(
            "display_name", _("a display name keeps to one alphabet: Latin, Cyrillic and Greek letters do not mix")
        )
    if name_key(name).startswith(name_key(GUEST_PREFIX)):
        raise AccountError("display_name", _("names starting with 'Guest-' are kept for guests"))
    return name


def profile_ensure(*, user: User) -> Profile:
    """The user's profile, created on first need (e.g. a superuser made by createsuperuser)."""
    profile = Profile.objects.filter(user=user).first()
    if profile is not None:
        return profile
    base = re.sub(r"[^A-Za-z0-9_\-]", "", user.get_username())[:24] or "player"
    if base.lower().startswith(GUEST_PREFIX.lower()) or len(base) < 2:
        base = f"player{base}"[:24]
    for attempt in range(50):
        name = base if attempt == 0 else f"{base}-{secrets.randbelow(10_000)}"
        try:
            with transaction.atomic():
                return Profile.objects.create(user=user, display_name=name)
        except IntegrityError:
            existing = Profile.objects.filter(user=user).first()
            if existing is not None:
                return existing
    raise RuntimeError("could not find a free display name")


def display_name_available(*, name: str, user: User | None = None) -> str:
    """The checked display name if nobody else has it (by game.common.names.name_key: whatever the case
    or the form of its letters); `user` may keep its own."""
    name = display_name_check(name=name)
    taken = Profile.objects.filter(name_key=name_key(name))
    if user is not None and user.pk is not None:
        taken = taken.exclude(user=user)
    if taken.exists():
        raise AccountError("display_name", _("that display name is taken"))
    return name


@transaction.atomic
def account_register(*, user: User, display_name: str | None = None) -> Profile:
    """The registered profile of a user who has just signed up (allauth saved the user row).

    A guest's profile is converted in place: it is the same user row, so seats, shots, matches in
    progress and the session stay theirs. Running matches keep the name they started with in their
    snapshot (seats are matched by user, never by name). Anyone else gets a new profile.
    """
    name = display_name_available(name=display_name or user.get_username(), user=user)
    profile = Profile.objects.select_for_update().filter(user=user).first()
    if profile is None:
        return Profile.objects.create(user=user, display_name=name)
    if not profile.is_guest:
        raise AccountError("username", _("this account is already registered"))
    profile.display_name = name
    profile.is_guest = False
    profile.save(update_fields=["display_name", "is_guest"])
    return profile


@transaction.atomic
def user_signup(*, username: str, password: str, display_name: str | None = None) -> User:
    """A new registered user with its profile (scripts and tests; the site signs up through allauth)."""
    if User.objects.filter(username__iexact=username).exists():
        raise AccountError("username", _("that username is taken"))
    display_name_available(name=display_name or username)
    user = User.objects.create_user(username=username, password=password)
    account_register(user=user, display_name=display_name)
    return user


def guest_create() -> User:
    """A guest user named like "Guest-4821": enough to take a seat in a casual match."""
    for attempt in range(100):
        number = secrets.randbelow(9000) + 1000 if attempt < 50 else secrets.randbelow(900_000) + 100_000
        name = f"{GUEST_PREFIX}{number}"
        try:
            with transaction.atomic():
                if User.objects.filter(username__iexact=name).exists():
                    continue
                user = User.objects.create_user(username=name)
                user.set_unusable_password()
                user.save(update_fields=["password"])
                Profile.objects.create(user=user, display_name=name, is_guest=True)
                return user
        except IntegrityError:
            continue
    raise RuntimeError("could not find a free guest name")


def bot_user_for_level(*, level: int) -> User:
    """The computer opponent of a level (1-5): one shared user per level, created on first use."""
    if not 1 <= level <= 5:
        raise AccountError("opponent_bot_level", _("bot levels are 1 to 5"))
    profile = Profile.objects.filter(is_bot=True, bot_level=level).select_related("user").order_by("id").first()
    if profile is not None:
        return profile.user
    name = f"Bot-L{level}"
    with transaction.atomic():
        user, created_user = User.objects.get_or_create(username=name)
        if created_user:
            user.set_unusable_password()
            user.save(update_fields=["password"])
        profile, created = Profile.objects.get_or_create(
            user=user, defaults={"display_name": name, "is_bot": True, "bot_level": level}
        )
        if not created and not profile.is_bot:
            raise RuntimeError(f"user {name} exists and is not a bot")
    return user
