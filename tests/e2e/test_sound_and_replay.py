"""The table's sound and the last-shot replay, in real Chromium against a real daphne.

Sound: the page's AudioContext is replaced (init script) by a recorder that counts the source nodes
started, since headless Chromium has no speakers; the page publishes how many voices of each kind it
started (`data-sound-voices`). Both players and a spectator hear the same real shots; the mute button
silences them and is remembered after a reload. Replay: a spectator and a player replay the last shot
at 1× and ½×; the drawn table changes while it runs, runs at the chosen speed, and returns to the live
state, at once when a live event arrives. Screenshots go to test-artifacts/feel-*.jpg.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import driver, flow, pages
from tests.e2e.harness import EngineMatch, open_page
from tests.support.daphne import DaphneServer
from tests.support.services import PAGE_POLL_MS

pytestmark = pytest.mark.browser

#: A recording AudioContext: every started source node is counted; time runs on the page's clock.
AUDIO_STUB = """(() => {
  const rec = { started: 0, contexts: 0, resumed: 0, kinds: { strike: 0, ball: 0, cushion: 0, pocket: 0 } };
  window.__kzAudio = rec;
  class Param { constructor(v) { this.value = v || 0; this.first = null; }
    setValueAtTime(v) { if (this.first === null) this.first = v; return this; }
    linearRampToValueAtTime() { return this; } exponentialRampToValueAtTime() { return this; } }
  class Node { connect(n) { return n; } disconnect() {} }
  // What a started node sounds like, told by the recorder from the node itself: a noise burst is the
  // strike; an oscillator's pitch tells a click (kHz), a thud (about 100 Hz) and a drop (in between).
  const kindOf = (n) => {
    if (n instanceof Buf) return 'strike';
    const f = n.frequency.first === null ? n.frequency.value : n.frequency.first;
    return f >= 1000 ? 'ball' : f <= 150 ? 'cushion' : 'pocket';
  };
  class Source extends Node { start() { rec.started += 1; rec.kinds[kindOf(this)] += 1; } stop() {} }
  class Osc extends Source { constructor() { super(); this.type = 'sine'; this.frequency = new Param(440); } }
  class Buf extends Source { constructor() { super(); this.buffer = null; } }
  class Gain extends Node { constructor() { super(); this.gain = new Param(1); } }
  class Biquad extends Node {
    constructor() { super(); this.type = 'lowpass'; this.frequency = new Param(350); this.Q = new Param(1); } }
  class Ctx {
    constructor() {
      rec.contexts += 1; this.state = 'suspended'; this.sampleRate = 48000;
      this.destination = new Node(); this.t0 = performance.now();
    }
    get currentTime() { return (performance.now() - this.t0) / 1000; }
    resume() { rec.resumed += 1; this.state = 'running'; return Promise.resolve(); }
    close() { this.state = 'closed'; return Promise.resolve(); }
    createGain() { return new Gain(); } createOscillator() { return new Osc(); }
    createBufferSource() { return new Buf(); } createBiquadFilter() { return new Biquad(); }
    createBuffer(ch, len, rate) {
      const d = new Float32Array(len);
      return { getChannelData: () => d, length: len, sampleRate: rate };
    }
  }
  window.AudioContext = Ctx;
  window.webkitAudioContext = Ctx;
})();"""


def _print(page: Any) -> bytes:
    """A fingerprint of the drawn table: a coarse sample of the canvas pixels."""
    return pages.canvas_sample(page, ".kz-canvas", 97)


def _names_whole(page: Any, players: dict[str, Any]) -> None:
    """Both players' names on the scoreboard, none of either cut off."""
    shown = pages.names_shown(page)
    assert sorted(name for name, _ in shown) == sorted(players) and all(over <= 0 for _, over in shown), shown


def _page(chromium: Any, viewport: dict[str, int]) -> Any:
    context = chromium.new_context(viewport=viewport)
    context.add_init_script(AUDIO_STUB)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def _match(chromium: Any, server: DaphneServer) -> tuple[dict[str, Any], Any]:
    """Two guests and a spectator on one started match, each with the recording AudioContext."""
    alice = _page(chromium, pages.DESKTOP)
    url = pages.create_match(alice, server.url)
    bob = _page(chromium, {"width": 844, "height": 390})
    pages.join(bob, url)
    carol = _page(chromium, pages.PHONE_PORTRAIT)
    pages.watch(carol, url)
    for page in (alice, bob, carol):
        page.wait_for_function(
            "() => document.querySelector('#kaiza-match').dataset.phase === 'lag'", timeout=60000, polling=PAGE_POLL_MS
        )
    players = {driver.root_data(p)["me"]: p for p in (alice, bob)}
    assert len(players) == 2, players
    return players, carol


def _gesture(page: Any) -> None:
    """A real click on a card title: the user gesture a browser wants before it plays audio."""
    page.locator(".kz-feel .kz-card-title").click()
    page.wait_for_function("() => window.__kzAudio.resumed > 0", timeout=5000, polling=PAGE_POLL_MS)


def _voices(page: Any) -> dict[str, int]:
    return dict(json.loads(driver.root_data(page).get("soundVoices") or '{"strike":0,"ball":0,"cushion":0,"pocket":0}'))


def _started(page: Any) -> int:
    return int(page.evaluate("() => window.__kzAudio.started"))


def _started_kinds(page: Any) -> dict[str, int]:
    return dict(page.evaluate("() => window.__kzAudio.kinds"))


def _lags(players: dict[str, Any], watcher: Any) -> None:
    """Both players lag (two real shots to the foot cushion and back)."""
    everyone = [*players.values(), watcher]
    for _ in range(10):
        for p in everyone:
            driver.wait_ready(p)
        movers = [(n, p) for n, p in players.items() if "lag" in driver.actions(p)]
        if not movers:
            return
        name, page = movers[0]
        before = driver.version(page)
        driver.take_turn(page, name)
        page.wait_for_function(
            "(v) => Number(document.querySelector('#kaiza-match').dataset.version) > v",
            arg=before,
            timeout=60000,
            polling=PAGE_POLL_MS,
        )
        target = driver.version(page)
        for p in everyone:
            driver.wait_version(p, target)
    raise AssertionError("the lag never ended")


@pytest.mark.slow(36)
def test_sound_follows_the_shot(
    chromium: Any, daphne_factory: Callable[..., DaphneServer], artifacts_dir: Path
) -> None:
    server = daphne_factory()
    players, carol = _match(chromium, server)
    everyone = [*players.values(), carol]
    for page in everyone:
        pages.open_sheet(page)  # bob's landscape phone: sound is behind "More"
        assert pages.visible_text(page, ".kz-mute") == "Sound on"
        _gesture(page)
        pages.close_sheet(page)
        assert _started(page) == 0

    flow.play(players, carol, shots_wanted=1)  # the lags, the opening placements, the break
    time.sleep(0.3)
    heard = [_voices(p) for p in everyone]
    # Every page heard the same shots: the same voices of each kind, and the recorder started exactly them.
    assert heard[0] == heard[1] == heard[2], heard
    for page, counts in zip(everyone, heard, strict=True):
        assert _started_kinds(page) == counts, (counts, _started_kinds(page))
    counts = heard[0]
    assert counts["strike"] == 3, counts  # two lags and the break
    assert counts["cushion"] >= 2, counts  # each lag at least meets the foot cushion
    assert counts["ball"] >= 1, counts  # the break hits the rack
    carol.screenshot(path=str(artifacts_dir / "feel-sound-spectator.jpg"))

    # Mute on a player: the word changes, and a reload keeps it.
    alice = next(iter(players.values()))
    alice.locator(".kz-mute").click()
    assert pages.visible_text(alice, ".kz-mute") == "Sound off"
    assert alice.locator(".kz-mute").get_attribute("aria-pressed") == "true"
    alice.reload()
    alice.wait_for_selector("#kaiza-match[data-version]")
    assert pages.visible_text(alice, ".kz-mute") == "Sound off"
    _gesture(alice)
    # The spectator reloads too: the snapshot's last shot (catch-up) makes no sound.
    carol.reload()
    carol.wait_for_selector("#kaiza-match[data-version]")
    _gesture(carol)
    driver.wait_ready(carol)
    assert _started(carol) == 0

    # The next real shot: the muted player hears nothing, the spectator and the other player do.
    before_bob = _started(everyone[1])
    flow.play(players, carol, shots_wanted=1)
    time.sleep(0.3)
    assert _started(alice) == 0
    assert _started(carol) > 0
    assert _started(everyone[1]) - before_bob == _started(carol), (_started(everyone[1]), before_bob, _started(carol))
    alice.screenshot(path=str(artifacts_dir / "feel-sound-muted.jpg"))
    for page in everyone:
        assert page.errors == [], page.errors
    pages.assert_clean_log(server)


def _replay(page: Any, rate: str, artifacts: Path, name: str, *, stop: bool = False) -> None:
    """Replay the last shot at `rate`; the drawn table changes at that speed and returns to the live state:
    at the shot's end, or (`stop`) at once when the person presses the same button again.

    Any versioned message ends a replay at once (that is the design), and on a loaded machine one can
    come mid-sample (a reconnect's snapshot after a stalled socket): such an attempt is started again,
    at most three times; the samples of one uninterrupted replay are judged."""
    driver.wait_ready(page)
    live = _print(page)
    button = page.locator(f".kz-replay-last[data-rate='{rate}']")
    samples: list[tuple[float, float, bytes]] = []
    for _attempt in range(3):
        # On a phone the replay buttons are behind "More"; a tap on one closes the sheet so that the
        # replay is seen on the table.
        sheet = pages.open_sheet(page)
        assert button.is_enabled()
        button.click()
        if sheet:
            page.wait_for_selector("#kaiza-match[data-sheet='closed']", timeout=5000)
            assert page.locator(".kz-canvas").is_visible()
        page.wait_for_function(
            "() => document.querySelector('#kaiza-match').dataset.replayT !== undefined",
            timeout=5000,
            polling=PAGE_POLL_MS,
        )
        assert button.get_attribute("aria-pressed") == "true"
        samples = []
        wall0 = time.monotonic()
        for _ in range(4):
            data = driver.root_data(page)
            if data.get("replay") != rate:
                break
            samples.append((time.monotonic() - wall0, float(data.get("replayT") or 0), _print(page)))
            time.sleep(0.25)
        if len(samples) == 4 and samples[0][2] != samples[-1][2]:
            break  # a whole uninterrupted replay whose drawn table moved (a starved frame loop draws none)
        page.wait_for_function(
            "() => document.querySelector('#kaiza-match').dataset.replay === ''", timeout=30000, polling=PAGE_POLL_MS
        )
        driver.wait_ready(page)
        live = _print(page)
    assert len(samples) == 4, f"no replay at {rate}x ran through four samples in three attempts"
    page.screenshot(path=str(artifacts / f"feel-replay-{name}.jpg"))
    # The balls move: the drawn table differs between samples, and from the live (resting) table.
    assert samples[0][2] != samples[-1][2]
    assert any(s[2] != live for s in samples)
    # Shot time runs at the chosen speed (generous bounds: a busy machine drops frames).
    speed = (samples[-1][1] - samples[0][1]) / (samples[-1][0] - samples[0][0])
    assert 0.45 * float(rate) < speed < 1.35 * float(rate), speed
    if stop:
        # The pressed button again: the replay stops mid-shot (a lag at ½× runs about 14 s otherwise).
        pages.open_sheet(page)
        assert button.get_attribute("aria-pressed") == "true"
        button.click()
        page.wait_for_function(
            "() => document.querySelector('#kaiza-match').dataset.replay === ''", timeout=2000, polling=PAGE_POLL_MS
        )
    else:
        page.wait_for_function(
            "() => document.querySelector('#kaiza-match').dataset.replay === ''", timeout=30000, polling=PAGE_POLL_MS
        )
    time.sleep(0.3)
    assert _print(page) == live
    assert button.get_attribute("aria-pressed") == "false"


@pytest.mark.slow(56)
def test_last_shot_replay(chromium: Any, daphne_factory: Callable[..., DaphneServer], artifacts_dir: Path) -> None:
    server = daphne_factory()
    players, carol = _match(chromium, server)
    # A spectator's phone shows no shooting dock (the phone layout's grid once showed it over `hidden`).
    assert carol.locator(".kz-controls").is_hidden() and carol.locator(".kz-shoot").is_hidden()
    assert carol.locator(".kz-replay-last").first.is_disabled()  # nothing to replay yet
    # Both players' names read whole on the spectator's phone (both were cut to "Guest-…", alike).
    _names_whole(carol, players)
    carol.set_viewport_size({"width": 844, "height": 390})  # the phone turned: the names still read whole
    carol.wait_for_function(
        "() => document.querySelector('#kaiza-match').dataset.orientation === 'landscape'", polling=PAGE_POLL_MS
    )
    _names_whole(carol, players)
    carol.screenshot(path=str(artifacts_dir / "feel-spectator-phone-landscape.jpg"))
    carol.set_viewport_size(pages.PHONE_PORTRAIT)
    carol.wait_for_function(
        "() => document.querySelector('#kaiza-match').dataset.orientation === 'portrait'", polling=PAGE_POLL_MS
    )
    _lags(players, carol)

    assert pages.visible_text(carol, ".kz-feel").lower().startswith("replay the last shot")
    _replay(carol, "1", artifacts_dir, "spectator-1x")
    _replay(carol, "0.5", artifacts_dir, "spectator-half", stop=True)
    chooser_name, chooser = next((n, p) for n, p in players.items() if "choose_break" in driver.actions(p))
    other = next(p for n, p in players.items() if n != chooser_name)
    _replay(other, "1", artifacts_dir, "player-1x", stop=True)

    # A live event during a replay ends it at once: the lag winner takes the break while the spectator replays.
    driver.wait_ready(carol)
    live = _print(carol)
    carol.locator(".kz-replay-last[data-rate='0.5']").click()
    carol.wait_for_function(
        "() => document.querySelector('#kaiza-match').dataset.replay === '0.5'", polling=PAGE_POLL_MS
    )
    time.sleep(0.4)
    assert _print(carol) != live
    chooser.click(".kz-take-break")
    started = time.monotonic()
    carol.wait_for_function(
        "() => document.querySelector('#kaiza-match').dataset.replay === ''", timeout=5000, polling=PAGE_POLL_MS
    )
    assert time.monotonic() - started < 3.0
    assert driver.root_data(carol)["phase"] != "lag"
    carol.screenshot(path=str(artifacts_dir / "feel-replay-ended.jpg"))
    for page in [*players.values(), carol]:
        assert page.errors == [], page.errors
    pages.assert_clean_log(server)


#: The replay card's words and buttons as laid out: each one's text, how many lines its text takes, its box.
FEEL_CARD = """() => {
  const card = document.querySelector('.kz-feel').getBoundingClientRect();
  const items = [...document.querySelectorAll('.kz-feel .kz-card-title, .kz-feel button')]
    .filter((el) => el.offsetParent !== null)
    .map((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const r = el.getBoundingClientRect();
      return {name: el.className, text: el.textContent.trim(), button: el.tagName === 'BUTTON',
              lines: new Set([...range.getClientRects()].map((b) => Math.round(b.top))).size,
              left: r.left, top: r.top, right: r.right, bottom: r.bottom};
    });
  return {card: {left: card.left, right: card.right}, items};
}"""


def test_the_replay_card_keeps_each_button_on_one_line(chromium: Any, artifacts_dir: Path) -> None:
    """The "Replay the last shot" card of a player's page on a laptop: the speeds under the title, sound and
    the turn alert side by side on the last line, each button's words on one line and inside the card, in
    English, Finnish and Russian, down to the 280 px panel of a 1024 px screen (the turn alert fell alone
    onto a line of its own)."""
    match = EngineMatch(players=("Guest 48213", "Guest 77120"))
    for language, viewport in (
        ("en", pages.DESKTOP),
        ("fi", pages.DESKTOP),
        ("ru", pages.DESKTOP),
        ("ru", {"width": 1024, "height": 768}),
    ):
        page = open_page(chromium, match, "Guest 48213", "player", viewport=viewport, language=language)
        driver.wait_ready(page)
        page.locator(".kz-turn-alert").wait_for(state="visible")
        found = page.evaluate(FEEL_CARD)
        page.locator(".kz-feel").screenshot(path=str(artifacts_dir / f"replay-card-{language}-{viewport['width']}.png"))
        buttons = {item["name"].split()[-1]: item for item in found["items"] if item["button"]}
        assert set(buttons) >= {"kz-replay-last", "kz-mute", "kz-turn-alert"}, buttons
        for item in found["items"]:
            assert not item["button"] or item["lines"] == 1, (language, item)
            assert found["card"]["left"] <= item["left"] and item["right"] <= found["card"]["right"], (language, item)
        mute, alert = buttons["kz-mute"], buttons["kz-turn-alert"]
        assert abs(mute["top"] - alert["top"]) < 1 and mute["right"] <= alert["left"], (language, mute, alert)
        page.context.close()
