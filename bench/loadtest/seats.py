"""How a load client gets a seat, as a browser does: a guest session over HTTP (the lobby's create
form, then the match's join form, each with its CSRF cookie), whose cookie the websocket then carries."""

from __future__ import annotations

import http.cookiejar
import re
import urllib.parse
import urllib.request
from dataclasses import dataclass


class HttpSession:
    """A cookie jar and an opener: what a browser keeps between the lobby and the match page."""

    def __init__(self, base: str) -> None:
        self.base = base.rstrip("/")
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)

    def header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=30) as response:
            return str(response.geturl())

    def post(self, path: str, fields: dict[str, str]) -> str:
        fields = {**fields, "csrfmiddlewaretoken": self.cookie("csrftoken") or ""}
        body = urllib.parse.urlencode(fields).encode()
        request = urllib.request.Request(self.base + path, data=body, method="POST")
        with self.opener.open(request, timeout=30) as response:
            return str(response.geturl())


MATCH_URL = re.compile(r"/m/([A-Za-z0-9]+)/?$")


def create_match(base: str) -> tuple[str, HttpSession]:
    session = HttpSession(base)
    session.get("/lobby/")
    landed = session.post("/lobby/create/", {"opponent": "human", "time_limit": "", "shot_clock": ""})
    found = MATCH_URL.search(urllib.parse.urlparse(landed).path)
    if found is None:
        raise RuntimeError(f"creating a match landed on {landed}")
    return found.group(1), session


def join_match(base: str, match_id: str) -> HttpSession:
    session = HttpSession(base)
    session.get(f"/m/{match_id}/")
    session.post(f"/m/{match_id}/join/", {})
    if session.cookie("sessionid") is None:
        raise RuntimeError("joining gave no session")
    return session


@dataclass(frozen=True)
class SeatedMatch:
    """A match with both seats taken: its id, and what each player's socket shows to be that player
    (the session's cookie header; against the bare relay, the seat in the URL's query). Plain strings:
    the command seats the featured match and hands it to the client processes it spawns
    (`LoadConfig.seated`)."""

    match_id: str
    cookies: tuple[str | None, str | None] = (None, None)
    queries: tuple[str, str] = ("", "")


def seat_match(urls: list[str], index: int, bare: bool) -> SeatedMatch:
    """Seat match `index` of a run, as two browsers would: created on one server, joined on the next
    (the pages go round-robin). The bare relay has no seats to take: a seat in each socket's URL."""
    if bare:
        return SeatedMatch(f"bare{index}", queries=("?seat=0", "?seat=1"))
    match_id, first = create_match(urls[index % len(urls)])
    second = join_match(urls[(index + 1) % len(urls)], match_id)
    return SeatedMatch(match_id, cookies=(first.header(), second.header()))
