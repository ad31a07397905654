"""``{% score_between names scores %}``: a score as every page prints it (the end card, the replay, the
lists, the profiles, the Watch page): the two sides in seat order with their points between them,
"Aino 60 – 41 Eero", as the scoreboard shows them left and right. A sentence saying who won carries no
score of its own; a winner with fewer points (a resignation, the shoot-out) reads right this way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import quote

from django import template
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import SafeString

from game.matches.selectors.match_result import score_line

register = template.Library()


@register.simple_tag
def score_between(
    names: Sequence[Any] | None,
    scores: Sequence[Any] | None,
    winner: str | None = None,
    how: str = "",
    links: bool = False,
) -> SafeString | str:
    """The two names (profile links when ``links``) with the score between them; the winner's name is
    marked (``class="winner"``); the shoot-out's winner carries KaisaKaavio's ``v``, a win when the time
    was up its "on time" mark (K-11.1). Only the score when a name is missing; nothing without both
    scores."""
    if not scores or len(scores) != 2 or any(s is None for s in scores):
        return ""
    seats = [str(n) if n else "" for n in (names or ["", ""])][:2]
    winner_seat = seats.index(winner) if winner and winner in seats else None
    numbers = format_html('<span class="score">{}</span>', score_line(scores=scores, winner_seat=winner_seat, how=how))
    if how == "time_limit" and winner:
        numbers = format_html("{}{}", numbers, render_to_string("game/_won_on_time.html"))
    if len(seats) != 2 or not all(seats):
        return numbers

    def side(i: int) -> SafeString:
        mark = " winner" if winner_seat == i else ""
        if links:
            return format_html(
                '<a class="score-name{}" href="/players/{}/">{}</a>', mark, quote(seats[i], safe=""), seats[i]
            )
        return format_html('<span class="score-name{}">{}</span>', mark, seats[i])

    return format_html('<span class="score-line" data-score-line>{} {} {}</span>', side(0), numbers, side(1))
