"""Content-Security-Policy in a real Chromium against a real daphne under DEBUG=false:
every page loads without a CSP violation, an injected inline script or style does not apply, and the
account and error pages (404, 429) look like the site (screenshots: test-artifacts/security-*.jpg)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import pages
from tests.support.community_factories import DEMO_PASSWORD
from tests.support.daphne import DaphneServer

VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""


def visible_text(page: Any) -> str:
    return page.locator("main").inner_text()


def non_blank(page: Any, selector: str) -> bool:
    """The region is drawn: its screenshot has more than one colour."""
    from io import BytesIO

    png = page.locator(selector).first.screenshot()
    try:
        from PIL import Image
    except ImportError:  # no Pillow: fall back to the PNG's size (a blank region compresses to little)
        return len(png) > 2000
    image = Image.open(BytesIO(png)).convert("RGB")
    return len(set(image.getdata())) > 8


@pytest.mark.browser
@pytest.mark.slow(45)
def test_csp_blocks_inline_script(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    # No club may be created: submitting the form shows the 429 page (the limit is the real one, set to 0).
    server = daphne_factory(DEBUG="false", KAIZA_RATE_LIMITS='{"club_create": {"user": [0, 3600]}}')
    ids = pages.django_run(
        server.env,
        "result = seed_demo()\n"
        "from django.contrib.auth import get_user_model\n"
        "get_user_model().objects.create_superuser('root', 'root@kaiza.invalid', DEMO_PASSWORD)",
        factories=True,
    )
    context = chromium.new_context(viewport={"width": 1280, "height": 860})
    context.add_init_script(VIOLATIONS)
    console: list[str] = []
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("console", lambda msg: console.append(msg.text) if msg.type == "error" else None)
        page.on("pageerror", lambda exc: errors.append(str(exc)))

        def visit(path: str, name: str | None = None, status: int = 200) -> None:
            response = page.goto(f"{server.url}{path}")
            assert response is not None and response.status == status, path
            csp = response.headers.get("content-security-policy", "")
            assert "script-src 'self'" in csp and "unsafe-inline" not in csp, path
            page.wait_for_load_state("networkidle")
            found = page.evaluate("window.__csp")
            assert found == [], f"{path}: {found}"
            if name:
                page.screenshot(path=str(artifacts_dir / f"security-{name}.jpg"), full_page=True)

        anonymous = [
            ("/", None),
            ("/lobby/", None),
            ("/watch/", None),
            ("/clubs/", None),
            ("/clubs/helsinki/", None),
            ("/leaderboard/", None),
            ("/players/Aino/", None),
            (f"/m/{ids['live']}/", None),
            (f"/m/{ids['finished']}/replay/", None),
            ("/ratings/", "ratings"),
            ("/accounts/login/", "login"),
            ("/accounts/signup/", "signup"),
            ("/accounts/password/reset/", "password-reset"),
        ]
        for path, name in anonymous:
            visit(path, name)
        visit("/no/such/page/", "404", status=404)
        assert "Page not found" in visible_text(page)

        # The injected inline script does not run; an injected style attribute does not apply.
        page.goto(f"{server.url}/")
        ran = page.evaluate(
            """() => { const s = document.createElement('script');
                s.textContent = 'window.__pwned = 1;'; document.body.appendChild(s);
                const d = document.createElement('div'); d.id = 'styled'; d.textContent = 'x';
                d.setAttribute('style', 'color: rgb(255, 0, 0)'); document.body.appendChild(d);
                return [window.__pwned === 1, getComputedStyle(d).color]; }"""
        )
        assert ran[0] is False and ran[1] != "rgb(255, 0, 0)", ran
        blocked = page.evaluate("window.__csp")
        assert any(v.startswith("script-src") for v in blocked), blocked
        assert any(v.startswith("style-src") for v in blocked), blocked
        console.clear()

        # A guest plays at once, then signs up from the header and keeps the account.
        page.goto(f"{server.url}/")
        page.locator('form[action="/play/computer/"] button[type=submit]').first.click()
        page.wait_for_url("**/m/*/")
        page.goto(f"{server.url}/accounts/signup/")
        assert "Keep your guest account" in visible_text(page)
        page.screenshot(path=str(artifacts_dir / "security-signup-guest.jpg"), full_page=True)
        page.fill("#id_username", "kaisafan")
        page.fill("#id_display_name", "KaisaFan")
        page.fill("#id_password1", "kaisa-pw-2024")
        page.fill("#id_password2", "kaisa-pw-2024")
        page.locator("main form button[type=submit]").click()
        page.wait_for_url("**/lobby/")
        assert "KaisaFan" in page.locator(".site-user").inner_text()
        page.evaluate("() => { window.__csp = window.__csp || []; }")

        # Logged in as a registered player: the account pages.
        page.goto(f"{server.url}/accounts/logout/")
        page.locator("main form button[type=submit]").click()
        page.goto(f"{server.url}/accounts/login/")
        page.fill("#id_login", "aino")
        page.fill("#id_password", "wrong")
        page.locator("main form button[type=submit]").click()
        assert "not correct" in visible_text(page)
        page.screenshot(path=str(artifacts_dir / "security-login-error.jpg"), full_page=True)
        page.fill("#id_password", DEMO_PASSWORD)
        page.locator("main form button[type=submit]").click()
        page.wait_for_url("**/lobby/")
        for path, name in [
            ("/accounts/password/change/", "password-change"),
            ("/accounts/email/", "email"),
            ("/clubs/new/", None),
            ("/lobby/", None),
        ]:
            visit(path, name)
        page.goto(f"{server.url}/clubs/new/")
        page.fill("#id_name", "Kallio Cue")
        page.fill("#id_slug", "kallio-cue")
        page.locator("main form button[type=submit]").click()
        page.wait_for_load_state("networkidle")
        assert "Slow down a little" in visible_text(page)
        assert page.evaluate("window.__csp") == []
        page.screenshot(path=str(artifacts_dir / "security-429.jpg"), full_page=True)
        assert non_blank(page, "header.site-header")

        # The admin works under the same policy: its list filter and the resign-farming view.
        page.goto(f"{server.url}/accounts/logout/")
        page.locator("main form button[type=submit]").click()
        page.goto(f"{server.url}/admin/login/")
        page.fill("#id_username", "root")
        page.fill("#id_password", DEMO_PASSWORD)
        page.locator("input[type=submit]").click()
        page.wait_for_url("**/admin/")
        for path, name in [
            ("/admin/", None),
            ("/admin/game/profile/?resign_farm=yes", "admin-profiles"),
            ("/admin/game/profile/resign-farming/", "admin-farming"),
            ("/admin/game/matchresult/", None),
            (f"/admin/game/match/{ids['live']}/change/", None),
        ]:
            visit(path, name)
        assert not [line for line in console if "Content Security Policy" in line], console
        assert not errors, errors
    finally:
        context.close()
