"""The scorer's page on a phone at the table, in a real Chromium against a real daphne, in Finnish:
each shot's points and rule ids come back from the server; the club's wifi goes down, the scorer taps
on, the taps are kept on the phone and sent in order when it is back, each stored once."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import pages
from tests.e2e.test_security_pages import VIOLATIONS
from tests.support.daphne import DaphneServer
from tests.support.services import PAGE_POLL_MS

SETUP = """
from game.realgames.services import free_game, scoring_table_add
from tests.support.community_factories import make_club, make_player
club = make_club("Pöytäseura", make_player("Omistaja"))
table = scoring_table_add(club_id=club.pk, number=3, name="Ikkunapöytä")
game = free_game(table=table, names=("Aino", "Bertta"))
result = [table.token, game.pk]
"""

#: The game on the server: its version, scores, and its taps (key, kind) in the order they were stored.
GAME_ROW = """
from game.models.realgames import RealGame
g = RealGame.objects.get(pk={game_id})
result = [g.version, g.first_score, g.second_score,
          [[t.client_key, t.tap["kind"]] for t in g.taps.order_by("seq")]]
"""

KEPT = "(token) => JSON.parse(localStorage.getItem('kaiza.scorer.' + token) || '[]').map((i) => i.d.key)"


def finnish_phone(chromium: Any) -> Any:
    page = pages.new_page(chromium, pages.PHONE_PORTRAIT, scale=2)
    page.context.add_init_script(VIOLATIONS)
    page.set_extra_http_headers({"Accept-Language": "fi"})
    return page


def tap(page: Any, *selectors: str) -> None:
    for selector in selectors:
        page.locator(f"#kaiza-scorer {selector}:visible").first.click()


def wait_version(page: Any, version: int) -> None:
    page.wait_for_function(
        "(v) => Number(document.querySelector('#kaiza-scorer').dataset.version) >= v",
        arg=version,
        timeout=20_000,
        polling=PAGE_POLL_MS,
    )


@pytest.mark.browser
def test_scorer_taps_offline_are_sent_in_order(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    server = daphne_factory()
    token, game_id = pages.django_run(server.env, SETUP)
    phone = finnish_phone(chromium)
    phone.goto(f"{server.url}/tables/{token}/score/")
    phone.wait_for_function(
        "() => document.querySelector('[data-socket-status]').dataset.state === 'live'", polling=PAGE_POLL_MS
    )
    assert pages.visible_text(phone, "[data-socket-status]") == "Suorana"
    assert "Maalattu pallo" in pages.visible_text(phone, "#kaiza-scorer")

    # K-5.3: a red with a carom on the kaisa is 9; the shot shows its points and rule ids.
    tap(phone, "[data-ball=red]", "[data-pocket=foot_left]", "[data-carom=kaisa]", "[data-tap-pot]")
    wait_version(phone, 1)
    first = pages.visible_text(phone, "[data-shots] li")
    assert "+9" in first and "K-5.3" in first and "Punainen" in first, first
    assert phone.locator(".scorer-player[data-seat='0'] .scorer-score").inner_text() == "9"
    assert pages.cut_off(phone, "#kaiza-scorer") == []
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    phone.screenshot(path=str(artifacts_dir / "scorer-phone-fi.png"), full_page=True)

    # The wifi goes: three taps (a kaisa pot, a miss, the other player's red), kept on the phone.
    phone.context.set_offline(True)
    phone.wait_for_function(
        "() => document.querySelector('[data-socket-status]').dataset.state === 'offline'", polling=PAGE_POLL_MS
    )
    tap(phone, "[data-ball=kaisa]", "[data-pocket=foot_right]", "[data-tap-pot]")
    tap(phone, "[data-ball=red]", "[data-tap-miss]")
    tap(phone, "[data-ball=red]", "[data-pocket=home_left]", "[data-tap-pot]")
    kept = phone.evaluate(KEPT, token)
    assert len(kept) == 3
    status = pages.visible_text(phone, "[data-socket-status]")
    assert "3 napautusta säilytetty puhelimessa" in status, status
    assert phone.locator("[data-shots] li.waiting").count() == 3
    phone.screenshot(path=str(artifacts_dir / "scorer-offline-kept-fi.png"), full_page=True)
    version, *_rest = pages.django_run(server.env, GAME_ROW.format(game_id=game_id))
    assert version == 1  # nothing reached the server

    # The wifi is back: sent by themselves, in the order they were tapped, each stored once.
    phone.context.set_offline(False)
    wait_version(phone, 4)
    phone.wait_for_function(
        f"() => JSON.parse(localStorage.getItem('kaiza.scorer.{token}') || '[]').length === 0", polling=PAGE_POLL_MS
    )
    version, first_score, second_score, taps = pages.django_run(server.env, GAME_ROW.format(game_id=game_id))
    assert (version, first_score, second_score) == (4, 15, 3)
    assert [key for key, _kind in taps[1:]] == kept
    assert [kind for _key, kind in taps] == ["pot", "pot", "miss", "pot"]
    assert phone.locator(".scorer-player[data-seat='1'] .scorer-score").inner_text() == "3"

    # A reload sends nothing again; undo takes the last shot back.
    phone.reload()
    wait_version(phone, 4)
    tap(phone, "[data-undo]")
    wait_version(phone, 5)
    version, first_score, second_score, taps = pages.django_run(server.env, GAME_ROW.format(game_id=game_id))
    assert (version, first_score, second_score, len(taps)) == (5, 15, 0, 5)
    assert phone.errors == [] and phone.evaluate("() => window.__csp") == []
    pages.assert_clean_log(server)
