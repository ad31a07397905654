"""A club's player register (writes): the people who play the club's events at its tables, walk-ins
included (game/models/register.py). Here is what makes two typings one player: a name's key
(game.common.names.register_key: "olli tuominen" is "Olli Tuominen", an accent or a look-alike letter
aside). The tournaments ask through the finder game.apps hands them
(game.tournaments.services.walk_ins); joining a player to an account is theirs too (it makes the
player's entries the account's): `club_player_link`.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from game.common.names import name_clean, register_key
from game.models import ClubPlayer

#: A key is longer than its name when folding expands a letter (ß to ss): room for that.
KEY_LENGTH = 160
NAME_LENGTH = 80


def club_player_for_name(*, club_id: int, name: str) -> ClubPlayer:
    """The club's player named `name` (any typing of it), added to the register if the club has none;
    a concurrent first typing of the same name gives the same player (the key is unique per club)."""
    shown = name_clean(name)[:NAME_LENGTH]
    key = register_key(shown)[:KEY_LENGTH]
    player = ClubPlayer.objects.filter(club_id=club_id, name_key=key).first()
    if player is not None:
        return player
    try:
        with transaction.atomic():
            return ClubPlayer.objects.create(club_id=club_id, name=shown, name_key=key)
    except IntegrityError:
        return ClubPlayer.objects.get(club_id=club_id, name_key=key)
