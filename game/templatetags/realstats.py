"""The club page's box of real play's records (the season's highest run and best average) without the
club's view knowing about real games: one read of game.realgames.stats."""

from __future__ import annotations

from django import template
from django.utils import timezone

from game.models import Club
from game.realgames.stats import SeasonBest, club_season_best, season_of

register = template.Library()


@register.simple_tag
def club_season_records(club: Club) -> SeasonBest:
    """The club's records of the season now on its calendar."""
    return club_season_best(club=club, season=season_of(timezone.now(), club.zone))
