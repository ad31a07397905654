"""What a new player still tripped on, on a phone (both orientations, driven by touch) and on a
laptop: every control in the viewport, none over another, every target at least 44 px, the call's words
in view while aiming, the names readable; pockets named as the table is drawn, in English and Finnish;
the shot list with rows on your turn at 1366×860.

The match is played by the real engine in-process (harness.py); the page under test only through taps.
Screenshots: test-artifacts/phone-layout-*.jpg.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from tests.e2e import driver, pages, steered
from tests.e2e.harness import ROOT, EngineMatch, open_page, wait_idle
from tests.support.services import PAGE_POLL_MS

pytestmark = pytest.mark.browser

ARTIFACTS = ROOT / "test-artifacts"
PORTRAIT = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}
LAPTOP = {"width": 1366, "height": 860}
#: Guest names as the site gives them (the issue saw them cut to "Gue…").
GUESTS = ("Guest 48213", "Guest 77120")

#: Every visible control of the match page (a checkbox's box is its label) and the call's words: the
#: box, whether it is a tap target, and whether the element under its centre is itself (not covered).
CONTROLS = """() => {
  const seen = (el) => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'; };
  const out = [];
  const sel = ['button', 'input', 'a', '.kz-spin-pad', '.kz-call-text'].map((s) => '#kaiza-match ' + s).join(', ');
  for (const el of document.querySelectorAll(sel)) {
    if (!seen(el)) continue;
    const box = (el.type === 'checkbox' && el.closest('label')) || el;
    const r = box.getBoundingClientRect();
    const under = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    out.push({name: (el.className.baseVal ?? el.className) || el.tagName, target: !el.matches('.kz-call-text'),
              sheet: Boolean(el.closest('.kz-panel > :not(.kz-controls)')),
              left: r.left, top: r.top, right: r.right, bottom: r.bottom, w: r.width, h: r.height,
              covered: !(under && (box.contains(under) || under.contains(box)))});
  }
  return out;
}"""


def _strike(speed: float) -> dict[str, Any]:
    return {"strike": {"angle": 0.0, "speed": speed, "side": 0, "height": 0}}


def _to_shoot(chromium: Any, viewport: dict[str, int], language: str | None = None, touch: bool = True) -> Any:
    """The first player's page, with the lag, the choice and both placements played: her shot."""
    match = EngineMatch(players=GUESTS)
    me, other = GUESTS
    page = open_page(
        chromium,
        match,
        me,
        "player",
        viewport=viewport,
        device_scale_factor=3 if touch else 1,
        touch=touch,
        language=language,
    )
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    driver.wait_ready(page)
    match.play(me, "lag", _strike(2.5), None)
    match.play(other, "lag", _strike(2.8), None)
    match.play(me, "choose_break", {"take": True}, None)
    x, y = driver.free_spot(match.state(), other, opening=True)
    match.play(other, "place", {"ball": "white2", "x": x, "y": y}, None)
    x, y = driver.free_spot(match.state(), me, opening=False)
    match.play(me, "place", {"ball": "white1", "x": x, "y": y}, None)
    page.wait_for_function(
        "() => (document.querySelector('#kaiza-match').dataset.actions || '').includes('shoot')", polling=PAGE_POLL_MS
    )
    wait_idle(page)
    page.match = match
    return page


def _overlap(a: dict[str, Any], b: dict[str, Any]) -> float:
    w = min(a["right"], b["right"]) - max(a["left"], b["left"])
    h = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return max(0.0, w) * max(0.0, h)


def _assert_layout(page: Any, viewport: dict[str, int]) -> list[dict[str, Any]]:
    """Every visible control inside the viewport, none overlapping another, uncovered, targets ≥ 44 px.
    (The open sheet scrolls under the dock: a control of the sheet scrolled under it is not in view.)"""
    assert page.evaluate("() => [window.scrollY, document.documentElement.scrollHeight]") == [0, viewport["height"]]
    found = [c for c in page.evaluate(CONTROLS) if not (c["sheet"] and c["covered"])]
    for c in found:
        assert c["left"] >= -0.5 and c["top"] >= -0.5, c
        assert c["right"] <= viewport["width"] + 0.5 and c["bottom"] <= viewport["height"] + 0.5, c
        assert not c["covered"], c
        if c["target"]:
            assert c["w"] >= 43.9 and c["h"] >= 43.9, c
    for i, a in enumerate(found):
        for b in found[i + 1 :]:
            assert _overlap(a, b) < 1, (a, b)
    return found


def _names(found: list[dict[str, Any]]) -> list[str]:
    return [str(c["name"]) for c in found]


def _tap(page: Any, selector: str, fraction: float = 0.5) -> None:
    box = page.locator(selector).bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] * fraction, box["y"] + box["height"] / 2)


def _tap_power_high(page: Any) -> None:
    """A tap at 95 % of the power slider (about 8 m/s): it sets the power and presses nothing else."""
    shots = sum(1 for e in page.match.events if e["t"] == "shot")
    _tap(page, ".kz-power-input", 0.95)
    steered.settle(page)
    speed = float(page.inner_text(".kz-speed").split()[0])
    assert speed > 6.5, speed
    assert sum(1 for e in page.match.events if e["t"] == "shot") == shots, "the tap on power shot"


def _call(page: Any, ball: str, pocket: str) -> str:
    """Tap a ball, then a pocket; the call's words."""
    at = driver.balls(page)[ball]
    assert at is not None
    page.touchscreen.tap(*driver.to_page(page, at[0], at[1]))
    page.touchscreen.tap(*driver.to_page(page, *driver.mouth_centre(pocket)))
    steered.settle(page)
    return str(page.inner_text(".kz-call-text"))


def _the_call_in_view(page: Any, viewport: dict[str, int]) -> None:
    """A call the opening forbids (K-3.4: its reason shows under it), then the kaisa into a far corner:
    the call's words say each, in the viewport, with nothing overlapping, while aiming."""
    assert "not allowed" in _call(page, "red1", "middle_left")
    assert page.locator(".kz-why").is_visible()
    _assert_layout(page, viewport)
    text = _call(page, "kaisa", "foot_left")
    call = page.locator(".kz-call-text")
    assert call.is_visible() and "→" in text and "not allowed" not in text, text
    assert page.locator(".kz-why").is_hidden()
    box = call.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], box


def _sheet(page: Any, viewport: dict[str, int], shot: str) -> None:
    """The "More" button opens the shots, replay, sound, chat and resign in the table's place; again closes."""
    _tap(page, ".kz-more")
    page.wait_for_selector(".kz-shots li", state="visible")
    found = _assert_layout(page, viewport)
    assert "kz-keep-strike" in _names(found), _names(found)
    page.screenshot(path=str(ARTIFACTS / shot.replace(".png", "-top.jpg")))
    # The sheet scrolls under (portrait) or beside (landscape) the dock: nothing of it shows through the dock.
    dock = page.evaluate(
        "() => { const s = getComputedStyle(document.querySelector('.kz-controls'));"
        " return [s.opacity, s.backgroundColor]; }"
    )
    assert dock[0] == "1" and dock[1].startswith("rgb("), dock  # rgb(): opaque; rgba(): the card's 0.92
    page.locator(".kz-resign").scroll_into_view_if_needed()
    _assert_layout(page, viewport)
    page.screenshot(path=str(ARTIFACTS / shot))
    _tap(page, ".kz-more")
    page.wait_for_selector(".kz-shots", state="hidden")
    assert page.locator(".kz-canvas").is_visible()


def test_phone_portrait_no_overlap(chromium: Any) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page = _to_shoot(chromium, PORTRAIT)
    assert page.evaluate("() => document.querySelector('#kaiza-match').dataset.orientation") == "portrait"
    _the_call_in_view(page, PORTRAIT)
    found = _assert_layout(page, PORTRAIT)
    # The call's words, its cushion steppers and via, spin, power and Shoot are all in view while aiming.
    names = _names(found)
    for want in ("kz-call-text", "kz-step", "kz-via", "kz-clear-call", "kz-spin-pad", "kz-power-input", "kz-shoot"):
        assert any(want in n for n in names), (want, names)
    # The table stays whole and the full width above the dock.
    table = page.evaluate(
        "() => { const t = JSON.parse(document.querySelector('.kz-canvas').dataset.transform);"
        " return Math.abs(t.b) * 1.764; }"  # the drawn width: (W + 2 × RAIL) × scale in portrait
    )
    assert table >= 0.85 * PORTRAIT["width"], table
    _tap_power_high(page)
    _assert_layout(page, PORTRAIT)
    page.screenshot(path=str(ARTIFACTS / "phone-layout-portrait.jpg"))
    _sheet(page, PORTRAIT, "phone-layout-portrait-sheet.png")
    assert not page.errors, page.errors


def test_phone_landscape_in_view(chromium: Any) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page = _to_shoot(chromium, LANDSCAPE)
    assert page.evaluate("() => document.querySelector('#kaiza-match').dataset.orientation") == "landscape"
    _the_call_in_view(page, LANDSCAPE)
    found = _assert_layout(page, LANDSCAPE)
    names = _names(found)
    for want in ("kz-call-text", "kz-step", "kz-via", "kz-spin-pad", "kz-power-input", "kz-shoot"):
        assert any(want in n for n in names), (want, names)
    power = page.locator(".kz-power-input").bounding_box()
    assert power["width"] >= 150 and power["height"] >= 44, power
    # The names read whole: nothing cut to "Gue…".
    page.screenshot(path=str(ARTIFACTS / "phone-layout-landscape.jpg"))
    cut = pages.names_shown(page)
    assert [name for name, _ in cut] == list(GUESTS) and all(over <= 0 for _, over in cut), cut
    _tap_power_high(page)
    _assert_layout(page, LANDSCAPE)
    page.screenshot(path=str(ARTIFACTS / "phone-layout-landscape.jpg"))
    _sheet(page, LANDSCAPE, "phone-layout-landscape-sheet.png")
    assert not page.errors, page.errors


def _top_left_pocket(page: Any) -> str:
    """The pocket drawn nearest the table's top left corner, found from the page's own transform."""
    at = {p: driver.to_page(page, *driver.mouth_centre(p)) for p in driver.TABLE.pockets}
    return min(at, key=lambda p: at[p][0] + at[p][1])


@pytest.mark.parametrize(
    ("language", "viewport", "words"),
    [
        ("en", PORTRAIT, "top left"),
        ("fi", PORTRAIT, "vasen yläkulma"),
        ("en", LANDSCAPE, "top left"),
        ("fi", LANDSCAPE, "vasen yläkulma"),
    ],
)
def test_pocket_names_follow_the_orientation(
    chromium: Any, language: str, viewport: dict[str, int], words: str
) -> None:
    page = _to_shoot(chromium, viewport, language=language)
    pocket = _top_left_pocket(page)
    portrait = viewport is PORTRAIT
    # In portrait the foot is at the top (the home at the bottom): the top-left pocket is foot_left,
    # which landscape draws top right; in landscape it is home_left.
    assert pocket == ("foot_left" if portrait else "home_left"), pocket
    text = _call(page, "kaisa", pocket)
    assert words in text, (pocket, text)
    view = "portrait" if portrait else "landscape"
    page.screenshot(path=str(ARTIFACTS / f"phone-layout-pocket-{language}-{view}.jpg"))
    assert not page.errors, page.errors


def test_laptop_shot_list_has_rows_on_your_turn(chromium: Any) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page = _to_shoot(chromium, LAPTOP, touch=False)
    assert page.evaluate("() => document.querySelector('#kaiza-match').dataset.mode") == "shoot"
    shots = page.locator(".kz-shots").bounding_box()
    assert shots["height"] >= 120 and shots["y"] + 120 <= LAPTOP["height"], shots
    rows = page.locator(".kz-shots li")
    # A row for each input (both lags, the break choice, both placements), the newest on top in the server's words.
    entries = [e["d"]["entry"] for e in page.match.events if e["d"].get("entry")]
    assert rows.count() == len(entries) == 5, (rows.count(), entries)
    first = rows.first.bounding_box()
    assert first["y"] >= shots["y"] - 0.5 and first["y"] + first["height"] <= LAPTOP["height"], (first, shots)
    newest = rows.first.inner_text()
    assert entries[-1]["kind"] == "place" and entries[-1]["words"]["en"] in newest, (newest, entries[-1])
    page.screenshot(path=str(ARTIFACTS / "phone-layout-laptop.jpg"))
    assert not page.errors, page.errors


#: The boxes of the words laid over the table (the verdict, a phase's notice, the pull's power) while
#: shown, and of every ball and the called pocket as drawn (the canvas's transform, the shown balls).
OVER_THE_TABLE = """([radius, pocket]) => {
  const root = document.querySelector('#kaiza-match');
  const canvas = root.querySelector('.kz-canvas');
  const c = canvas.getBoundingClientRect();
  const m = JSON.parse(canvas.dataset.transform);
  const at = ([x, y]) => [c.left + m.a * x + m.c * y + m.e, c.top + m.b * x + m.d * y + m.f];
  const scale = Math.hypot(m.a, m.b);
  const circles = Object.entries(JSON.parse(root.dataset.balls || '{}')).filter(([, p]) => p)
    .map(([id, p]) => { const [x, y] = at(p); return {id, x, y, r: radius * scale}; });
  if (pocket) { const [x, y] = at(pocket); circles.push({id: 'called pocket', x, y, r: radius * scale}); }
  const boxes = ['.kz-verdict', '.kz-notice', '.kz-pullmeter'].map((s) => root.querySelector(s))
    .filter((el) => el && !el.hidden && el.offsetParent !== null)
    .map((el) => { const r = el.getBoundingClientRect();
      return {name: el.className, text: el.innerText, left: r.left, top: r.top, right: r.right, bottom: r.bottom}; });
  return {circles, boxes, viewport: [innerWidth, innerHeight]};
}"""


def _covered(page: Any, pocket: str | None = None) -> tuple[list[str], list[str]]:
    """The banners shown, and which of them cover a ball or the called pocket (or leave the screen)."""
    mouth = list(driver.mouth_centre(pocket)) if pocket else None
    found = page.evaluate(OVER_THE_TABLE, [driver.R, mouth])
    width, height = found["viewport"]
    shown, problems = [], []
    for box in found["boxes"]:
        shown.append(box["name"])
        if box["left"] < 0 or box["top"] < 0 or box["right"] > width or box["bottom"] > height:
            problems.append(f"{box['name']} leaves the screen: {box}")
        for c in found["circles"]:
            nx, ny = min(max(c["x"], box["left"]), box["right"]), min(max(c["y"], box["top"]), box["bottom"])
            if math.hypot(c["x"] - nx, c["y"] - ny) < c["r"]:
                problems.append(f"{box['name']} ({box['text']!r}) covers {c['id']}")
    return shown, problems


@pytest.mark.parametrize("viewport", [PORTRAIT, LANDSCAPE], ids=["portrait", "landscape"])
def test_phone_banners_cover_no_ball(chromium: Any, viewport: dict[str, int]) -> None:
    """On a phone the table fills the stage, so the words over it are placed where they cover nothing
    (issue: the verdict on the kaisa at the foot, "The break" on the rear red one may call, the power
    on the called pocket): "The break" at the break, the power while the cue is pulled back with a
    foot pocket called, and the verdict of the shot once the balls stop."""
    ARTIFACTS.mkdir(exist_ok=True)
    view = "portrait" if viewport is PORTRAIT else "landscape"
    page = _to_shoot(chromium, viewport)
    shown, problems = _covered(page)
    assert any("kz-notice" in name for name in shown), shown  # "The break"
    page.screenshot(path=str(ARTIFACTS / f"phone-banners-{view}-break.png"))
    assert not problems, problems

    # The power while the cue is pulled back, the kaisa called into a foot pocket (drawn at the top in
    # portrait, at the right in landscape: where the power was shown).
    _call(page, "kaisa", "foot_left")
    me = GUESTS[0]
    cue = driver.balls(page)[driver.my_cue_ball(page.match.state(), me) or "white1"]
    assert cue is not None
    sx, sy = driver.to_page(page, cue[0], cue[1])
    page.mouse.move(sx, sy)
    page.mouse.down()
    page.wait_for_selector(".kz-pullmeter:not([hidden])", timeout=5000)
    page.wait_for_timeout(100)  # the next frame places it
    shown, problems = _covered(page, "foot_left")
    assert any("kz-pullmeter" in name for name in shown), shown
    page.screenshot(path=str(ARTIFACTS / f"phone-banners-{view}-pull.png"))
    page.mouse.up()  # let go at zero power: no shot
    assert not problems, problems

    # The verdict of the break once the balls are at rest.
    call, angle, speed = steered.find_strike(page.match.state(), me, "nothing")
    page.match.play(
        me, "shoot", {"call": call, "strike": {"angle": angle, "speed": speed, "side": 0, "height": 0}}, None
    )
    page.wait_for_function(
        "() => document.querySelector('#kaiza-match').dataset.animating === 'yes'", polling=PAGE_POLL_MS
    )
    wait_idle(page)
    page.wait_for_selector(".kz-verdict:not([hidden])")
    page.wait_for_timeout(100)
    shown, problems = _covered(page)
    assert any("kz-verdict" in name for name in shown), shown
    page.screenshot(path=str(ARTIFACTS / f"phone-banners-{view}-verdict.png"))
    assert not problems, problems
    assert not page.errors, page.errors


def test_phone_lag_verdict_is_a_short_banner(chromium: Any) -> None:
    """The deciding lag's verdict (K-3.1: each player's distance, the winner, who chooses) over an upright
    phone's table in English, Finnish and Russian: two lines at most, covering no ball (it was four and
    more, each distance said twice)."""
    ARTIFACTS.mkdir(exist_ok=True)
    match = EngineMatch(players=GUESTS)
    me, other = GUESTS
    shown = {}
    for language in ("en", "fi", "ru"):
        page = open_page(
            chromium, match, me, "player", viewport=PORTRAIT, device_scale_factor=3, touch=True, language=language
        )
        page.errors = []
        page.on("pageerror", lambda e, page=page: page.errors.append(str(e)))
        driver.wait_ready(page)
        shown[language] = page
    match.play(me, "lag", _strike(2.5), None)
    match.play(other, "lag", _strike(2.8), None)
    decided = match.events[-1]["d"]["verdict"]
    assert decided["lag_winner"] in GUESTS, decided["reason"]
    distances = [f"{d * 1000:.0f}" for _, d in decided["params"]["lags"]]
    for language, page in shown.items():
        banner = page.locator(".kz-verdict")
        page.wait_for_function(
            "(ds) => { const v = document.querySelector('.kz-verdict');"
            " return !v.hidden && ds.every((d) => v.textContent.includes(d)); }",
            arg=distances,
            timeout=15000,
            polling=PAGE_POLL_MS,
        )
        page.wait_for_timeout(100)  # the next frame places it
        # The lines its words take: the distinct tops of the text's boxes.
        lines = banner.evaluate(
            "(el) => { const r = document.createRange(); r.selectNodeContents(el);"
            " return new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size; }"
        )
        page.screenshot(path=str(ARTIFACTS / f"phone-lag-verdict-{language}.png"))
        assert lines <= 2, (language, lines, banner.inner_text())
        _shown, problems = _covered(page)
        assert not problems, (language, problems)
        assert not page.errors, page.errors
