"""K-7.3 respotting in order with occupied spots, K-7.4 the kaisa's return, K-3.3/K-7.1 placement."""

from __future__ import annotations

import pytest

from game.engine.rules import table_for
from game.engine.rules.placement import home_placement_error, in_opening_corridor, opening_placement_error
from game.engine.rules.spotting import kaisa_return, respot, spot_position

T = table_for(0.068)
S = T.spots
D = 2 * T.ball_radius


def near(name: str, dx: float = 0.0) -> tuple[float, float]:
    """A point touching the spot ``name`` (closer than one diameter)."""
    return (S[name][0] + dx + D * 0.9, S[name][1])


@pytest.mark.parametrize(
    ("occupied", "expected"),
    [
        ([], "front"),
        (["front"], "rear"),
        (["front", "rear"], "center"),
        (["front", "rear", "center"], "head_cushion"),
        (["front", "rear", "center", "head_cushion"], "foot_cushion"),
    ],
)
def test_k7_3_red_spot_order(occupied: list[str], expected: str) -> None:
    others = {f"x{i}": S[name] for i, name in enumerate(occupied)}
    point, name = spot_position("red1", {"red1": None, **others}, T)
    assert name == expected and point == pytest.approx(S[expected])


@pytest.mark.parametrize(
    ("occupied", "expected"),
    [
        ([], "center"),
        (["center"], "front"),
        (["center", "front"], "rear"),
        (["center", "front", "rear"], "head_cushion"),
    ],
)
def test_k7_3_kaisa_spot_order(occupied: list[str], expected: str) -> None:
    others = {f"x{i}": S[name] for i, name in enumerate(occupied)}
    assert spot_position("kaisa", {"kaisa": None, **others}, T)[1] == expected


def test_k7_3_a_ball_touching_the_spot_makes_it_occupied() -> None:
    assert spot_position("red1", {"red1": None, "kaisa": near("front")}, T)[1] == "rear"
    # One diameter and a bit away: free.
    far = (S["front"][0] + D + 1e-5, S["front"][1])
    assert spot_position("red1", {"red1": None, "kaisa": far}, T)[1] == "front"


def test_k7_3_two_balls_kaisa_first_then_reds_in_id_order() -> None:
    balls = {"white1": S["center"], "white2": (0.3, 0.3), "red1": None, "red2": None, "kaisa": None}
    spotted = respot(["red2", "red1", "kaisa"], balls, T)
    assert spotted == {"kaisa": "front", "red1": "rear", "red2": "head_cushion"}
    assert balls["kaisa"] == pytest.approx(S["front"])


def test_k7_3_no_spot_free_goes_along_the_centre_line_toward_the_foot() -> None:
    balls = {name: S[name] for name in ("front", "rear", "center", "head_cushion")}
    balls["blocker"] = (S["foot_cushion"][0] - 0.01, S["foot_cushion"][1] + 0.0)
    balls["red1"] = None
    point, name = spot_position("red1", balls, T)
    assert name == "line" and point[1] == pytest.approx(T.width / 2)
    assert T.ball_fits(point)
    assert all(
        ((point[0] - p[0]) ** 2 + (point[1] - p[1]) ** 2) ** 0.5 >= D
        for b, p in balls.items()
        if p is not None and b != "red1"
    )


def test_k7_4_kaisa_returns_only_if_unmoved_and_centre_free() -> None:
    balls = {"kaisa": S["front"], "white1": S["center"]}
    assert kaisa_return(dict(balls), S["front"], T) == (False, S["front"])  # centre still taken
    free = {"kaisa": S["front"], "white1": (0.3, 0.3)}
    moved, marker = kaisa_return(free, S["front"], T)
    assert moved and marker is None and free["kaisa"] == pytest.approx(S["center"])
    shifted = {"kaisa": (0.8, 0.7), "white1": (0.3, 0.3)}
    assert kaisa_return(shifted, S["front"], T) == (False, None)  # it moved: the marker is dropped


def test_k3_3_corridor_to_both_foot_corners() -> None:
    assert in_opening_corridor((2.0, 1.0), T, 2.0) == "foot_left"
    assert in_opening_corridor((2.0, 0.42), T, 2.0) == "foot_right"
    assert in_opening_corridor((2.0, 0.71), T, 2.0) is None
    # The edge: one diameter from the line is outside the corridor.
    assert opening_placement_error((2.0, 0.71), {}, T, 2.0, "white2") is None
    assert "beyond the centre" in str(opening_placement_error((1.42, 0.2), {}, T, 2.0, "white2"))
    assert "touch" in str(opening_placement_error((2.0, 0.71), {"red2": (2.05, 0.71)}, T, 2.0, "white2"))


def test_k7_1_home_placement() -> None:
    assert home_placement_error((T.home_line_x, 0.3), {}, T, "white1") is None  # on the line: in the home
    assert home_placement_error((T.home_line_x + 1e-6, 0.3), {}, T, "white1") is not None
    assert home_placement_error((0.01, 0.3), {}, T, "white1") is not None  # not on the cloth
    assert home_placement_error((0.5, 0.5), {"red1": (0.55, 0.5)}, T, "white1") is not None
