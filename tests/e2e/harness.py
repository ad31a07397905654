"""A browser harness for the match page that needs no server: Playwright serves the page and the static
files itself and answers the match websocket with a small in-process match running the real engine.

It speaks the wire format of docs/protocol.md, so the client can be looked at, screenshotted and timed
while (or without) the real server runs. The e2e tests against daphne live in test_match_e2e.py; this
harness backs the visual checks and bench/scripts/bench_frames.py.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.support.daphne import E2E_ANIMATION_RATE
from tests.support.services import PAGE_POLL_MS

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"
ORIGIN = "http://kaiza.test"
CONTENT_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png"}


def render_match_page(match_id: str, me: str, role: str, language: str | None = None, animation_rate: float = 1) -> str:
    """The real match template, rendered with the context the view gives it (in `language`; shots rolled
    `animation_rate` times faster, as a test server's settings.KAIZA_ANIMATION_RATE does)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kaiza_site.settings")
    import django

    django.setup()
    from django.template.loader import render_to_string
    from django.utils import translation

    if language:
        with translation.override(language):
            return render_match_page(match_id, me, role, animation_rate=animation_rate)

    from game.engine.physics.aim import table_for_client
    from game.engine.table import kaisa_table

    return render_to_string(
        "game/match.html",
        {
            "match_id": match_id,
            "ws_path": f"/ws/match/{match_id}/",
            "me": me,
            "role": role,
            "table": table_for_client(kaisa_table()),
            "animation_rate": animation_rate,
        },
    )


def js_catalogue(language: str) -> str:
    """The JS client's catalogue in `language`, from the site's own view (/jsi18n/<lang>/)."""
    from django.test import RequestFactory

    from game.site.views.catalogue import catalogue_in

    response = catalogue_in(RequestFactory().get(f"/jsi18n/{language}/"), lang=language)
    return str(response.content.decode())


@dataclass
class Client:
    route: Any
    name: str
    role: str


@dataclass
class EngineMatch:
    """One match played by the real engine, fanned out to every connected page as versioned events."""

    players: tuple[str, str] = ("alice", "bob")
    match_id: str = "preview"
    version: int = 1
    events: list[dict[str, Any]] = field(default_factory=list)
    clients: list[Client] = field(default_factory=list)
    shot_sizes: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        from game.engine.rules import Match

        self.match = Match.new(players=self.players, ruleset=None, time_limit=None)

    # -- wire ---------------------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        """The state as the server sends it (game/matches/services.py ``state_of``): the snapshot, who may
        act, and each player's constraints from the engine, so the page draws legality from them."""
        snap = self.match.snapshot()
        snap["pending"] = [list(p) for p in self.match.pending()]
        snap["constraints"] = {name: self.match.constraints(name) for name in self.players}
        return snap

    def snapshot(self, client: Client) -> dict[str, Any]:
        seat = self.players.index(client.name) if client.name in self.players else None
        return {
            "t": "snapshot",
            "v": self.version,
            "d": {
                "state": self.state(),
                "match": {
                    "id": self.match_id,
                    "status": "playing",
                    "rated": False,
                    "players": [{"name": n, "rating": 1500} for n in self.players],
                    "time_limit": None,
                    "shot_clock": None,
                },
                "you": {"name": client.name, "role": client.role, "seat": seat},
            },
        }

    def presence(self) -> dict[str, Any]:
        names = {c.name for c in self.clients if c.role == "player"}
        return {
            "t": "presence",
            "d": {
                "players": [{"name": n, "connected": n in names} for n in self.players],
                "spectators": sum(1 for c in self.clients if c.role == "spectator"),
            },
        }

    def broadcast(self, message: dict[str, Any], skip: Client | None = None) -> None:
        text = json.dumps(message, separators=(",", ":"))
        for c in list(self.clients):
            if c is not skip:
                try:
                    c.route.send(text)
                except Exception:  # a closed page
                    self.clients.remove(c)

    def emit(self, t: str, d: dict[str, Any]) -> dict[str, Any]:
        """Send an event as the server stores and sends it: its verdict's words in every language and
        its shot-list entry made by the server's own function (game.matches.selectors.history)."""
        from game.matches.selectors.history import worded_event_data

        self.version += 1
        event = {"t": t, "v": self.version, "d": worded_event_data(t, self.version, d)}
        self.events.append(event)
        if t == "shot":
            self.shot_sizes.append(len(json.dumps(event, separators=(",", ":"))))
        self.broadcast(event)
        return event

    def connect(self, route: Any, name: str, role: str) -> None:
        client = Client(route, name, role)
        self.clients.append(client)
        route.on_message(lambda text: self.receive(client, text))
        route.on_close(lambda *_: self.clients.remove(client) if client in self.clients else None)
        route.send(json.dumps(self.snapshot(client)))
        self.broadcast(self.presence())

    def receive(self, client: Client, text: str | bytes) -> None:
        from game.engine.rules import RuleError

        msg = json.loads(text)
        t, d, ack = msg.get("t"), msg.get("d") or {}, msg.get("ack")
        if t == "ping":
            client.route.send(json.dumps({"t": "pong", "d": {}}))
            return
        if t == "hello":
            missed = [e for e in self.events if e["v"] > d.get("v", 0)]
            for e in missed:
                client.route.send(json.dumps(e))
            return
        if t == "aim":
            self.broadcast({"t": "aim", "d": {"player": client.name, **d}}, skip=client)
            return
        try:
            self.play(client.name, t, d, ack)
        except RuleError as err:
            client.route.send(json.dumps({"t": "error", "d": {"code": err.code, "message": str(err), "ack": ack}}))

    def play(self, name: str, t: str | None, d: dict[str, Any], ack: int | None) -> None:
        m = self.match
        if t == "lag":
            out = m.lag(name, d["strike"])
            self.emit(
                "shot",
                {
                    "kind": "lag",
                    "player": name,
                    "ack": ack,
                    "call": None,
                    "strike": d["strike"],
                    "segments": out.shot.segments,
                    "verdict": out.verdict,
                    "state": self.state(),
                },
            )
        elif t == "choose_break":
            out = m.choose_break(name, d["take"])
            verdict = getattr(out, "verdict", None)
            self.emit(
                "choice", {"player": name, "take": d["take"], "ack": ack, "verdict": verdict, "state": self.state()}
            )
        elif t == "place":
            out = m.place(name, d["ball"], (d["x"], d["y"]))
            verdict = getattr(out, "verdict", None)
            self.emit(
                "placed",
                {
                    "player": name,
                    "ball": d["ball"],
                    "x": d["x"],
                    "y": d["y"],
                    "ack": ack,
                    "verdict": verdict,
                    "state": self.state(),
                },
            )
        elif t == "shoot":
            out = m.shoot(name, d["call"], d["strike"])
            self.emit(
                "shot",
                {
                    "kind": "shot",
                    "player": name,
                    "ack": ack,
                    "call": d["call"],
                    "strike": d["strike"],
                    "segments": out.shot.segments,
                    "verdict": out.verdict,
                    "state": self.state(),
                },
            )
        elif t == "resign":
            m.resign(name)
        if m.phase == "finished" and not any(e["t"] == "finished" for e in self.events):
            self.emit(
                "finished",
                {
                    "winner": m.winner,
                    "reason": self.state().get("finish_reason"),
                    "rating_changes": None,
                    "state": self.state(),
                },
            )


def open_page(
    browser: Any,
    match: EngineMatch,
    name: str,
    role: str,
    viewport: dict[str, int] | None = None,
    device_scale_factor: float = 1,
    init_script: str | None = None,
    touch: bool = False,
    language: str | None = None,
    animation_rate: float = E2E_ANIMATION_RATE,
) -> Any:
    """A new browser context showing the match as `name` (player or spectator); `init_script` runs in
    the page before its own scripts (e.g. a recording AudioContext); `touch` makes it a phone's (a touch
    screen, mobile viewport rules); `language` renders the page in that language; `animation_rate` as a
    test server's (1 rolls shots in real time, as bench/scripts/bench_frames.py measures them)."""
    context = browser.new_context(
        viewport=viewport or {"width": 1400, "height": 860},
        device_scale_factor=device_scale_factor,
        has_touch=touch,
        is_mobile=touch,
    )
    if init_script:
        context.add_init_script(init_script)
    html = render_match_page(match.match_id, name, role, language, animation_rate=animation_rate)

    def serve(route: Any) -> None:
        path = route.request.url[len(ORIGIN) :].split("?")[0]
        if path.startswith("/static/"):
            file = STATIC / path[len("/static/") :]
            if file.is_file():
                route.fulfill(
                    body=file.read_bytes(),
                    headers={"content-type": CONTENT_TYPES.get(file.suffix, "application/octet-stream")},
                )
                return
            route.fulfill(status=404, body="")
            return
        if path.startswith("/jsi18n/"):
            # The page asks for /jsi18n/<its language>/ (game/site/views/catalogue.py).
            asked = path[len("/jsi18n/") :].strip("/") or (language or "en")
            route.fulfill(body=js_catalogue(asked), headers={"content-type": "text/javascript"})
            return
        route.fulfill(body=html, headers={"content-type": "text/html; charset=utf-8"})

    context.route(f"{ORIGIN}/**", serve)
    context.route_web_socket(f"ws://kaiza.test/ws/match/{match.match_id}/", lambda ws: match.connect(ws, name, role))
    page = context.new_page()
    page.goto(f"{ORIGIN}/m/{match.match_id}/")
    page.wait_for_selector("#kaiza-match[data-version]")
    return page


def wait_idle(page: Any, timeout: float = 30.0) -> None:
    """Wait until no animation runs on the page."""
    page.wait_for_function(
        "() => document.querySelector('#kaiza-match').dataset.animating === 'no'",
        timeout=timeout * 1000,
        polling=PAGE_POLL_MS,
    )


def chromium_launch(playwright: Any) -> Any:
    from tests.support.services import CHROMIUM_ARGS, CHROMIUM_PATH

    return playwright.chromium.launch(executable_path=CHROMIUM_PATH, args=CHROMIUM_ARGS, headless=True)


if __name__ == "__main__":
    # Preview: play the lag, the choice and the opening through the engine, screenshot three views.
    from playwright.sync_api import sync_playwright

    out = ROOT / "test-artifacts"
    out.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = chromium_launch(pw)
        match = EngineMatch()
        alice = open_page(browser, match, "alice", "player")
        bob = open_page(browser, match, "bob", "player", viewport={"width": 844, "height": 390}, device_scale_factor=2)
        watcher = open_page(
            browser, match, "carol", "spectator", viewport={"width": 390, "height": 844}, device_scale_factor=2
        )
        alice.screenshot(path=str(out / "preview-lag.jpg"))
        match.play("alice", "lag", {"strike": {"angle": 0.0, "speed": 2.2, "side": 0, "height": 0}}, None)
        match.play("bob", "lag", {"strike": {"angle": 0.0, "speed": 2.6, "side": 0, "height": 0}}, None)
        time.sleep(0.1)
        for p in (alice, bob, watcher):
            wait_idle(p)
        alice.screenshot(path=str(out / "preview-choice.jpg"))
        browser.close()
