"""The real moment's page (`/practice/real/`): lay out a position met at a real table and open it on the
practice table or in "Ask the engine". Thin: the form is read by :mod:`game.realgames.coach`; a scored
game's players, turn and whites in hand (`?game=<id>`) by :mod:`game.realgames.stats`."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import URLPattern, path
from django.utils.translation import gettext_lazy

from game.engine.physics.aim import table_for_client
from game.engine.table import kaisa_table
from game.realgames.coach import PositionRefused, RealMoment, layout_fields, practice_link, real_position_from
from game.realgames.stats import real_moment_of

#: The balls as the form names them (players read words, never ids).
BALL_NAMES = {
    "white1": gettext_lazy("the white with one dot"),
    "white2": gettext_lazy("the white with two dots"),
    "red1": gettext_lazy("a red"),
    "red2": gettext_lazy("a red"),
    "kaisa": gettext_lazy("the kaisa"),
}


def _moment(request: HttpRequest) -> tuple[RealMoment, int | None]:
    """Who was at the table: the scored game's (``?game=<id>``), else nobody named (the page's own words
    for the two whites)."""
    game = request.GET.get("game", "")
    game_id = int(game) if game.isdigit() and len(game) < 12 else None
    moment = real_moment_of(game_id=game_id) if game_id is not None else None
    return (moment or RealMoment()), (game_id if moment is not None else None)


def real_position(request: HttpRequest) -> HttpResponse:
    """GET /practice/real/[?game=<id>]: the drawing of the table with the balls on their spots, the game's
    players (the one to shoot chosen, the whites in hand marked) when it names a scored game."""
    moment, game_id = _moment(request)
    return _page(request, moment, game_id)


def real_position_open(request: HttpRequest) -> HttpResponse:
    """GET /practice/real/open/?…: the laid-out position on the practice table (with the engine's answer
    for ``open=ask``), or the page again with why not (400; nothing opens)."""
    read = real_position_from(request.GET)
    if isinstance(read, PositionRefused):
        moment, game_id = _moment(request)
        return _page(request, moment, game_id, refusal=read.words, status=400)
    position, opens = read
    return HttpResponseRedirect(practice_link(position, opens))


def _page(
    request: HttpRequest, moment: RealMoment, game_id: int | None, *, refusal: str = "", status: int = 200
) -> HttpResponse:
    balls = layout_fields(moment)
    if refusal:  # the layout as it was typed, so nothing typed is lost
        for ball in balls:
            ball_id = str(ball["id"])
            ball["x"] = request.GET.get(f"{ball_id}_x", str(ball["x"]))[:12]
            ball["y"] = request.GET.get(f"{ball_id}_y", str(ball["y"]))[:12]
            ball["in_hand"] = request.GET.get(f"{ball_id}_hand") == "1"
    for ball in balls:
        ball["name"] = BALL_NAMES[str(ball["id"])]
    shooter = request.GET.get("shooter", moment.shooter) if refusal else moment.shooter
    return render(
        request,
        "game/realgames/position.html",
        {
            "balls": balls,
            "moment": moment,
            "game_id": game_id,
            "shooter": shooter,
            "refusal": refusal,
            "table": table_for_client(kaisa_table()),
        },
        status=status,
    )


urlpatterns: list[URLPattern] = [
    path("practice/real/", real_position, name="real_position"),
    path("practice/real/open/", real_position_open, name="real_position_open"),
]
