"""The API's docs page (/api/docs) in a real Chromium: django-ninja's Swagger UI, served
from this server's static files, draws every endpoint with no Content Security Policy
violation (the policy allows no CDN, no inline script)."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")

# Chromium reports every refusal as a securitypolicyviolation event.
LISTEN = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(event.violatedDirective + " " + (event.blockedURI || "inline"));
});
"""


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    # Debian's Chromium, as tests/browser/conftest.py launches it: no browser is downloaded.
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"],
    }


def test_the_docs_page_draws_every_endpoint_under_the_policy(live_server, page: Page):
    console: list[str] = []
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    page.on("pageerror", lambda error: console.append(f"pageerror: {error}"))
    page.add_init_script(LISTEN)
    response = page.goto(live_server.url + "/api/docs")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    for path in (
        "/api/characters/",
        "/api/characters/{character_id}/",
        "/api/campaigns/{campaign_id}/rolls/",
        "/api/characters/{character_id}/rollables/",
        "/api/characters/{character_id}/odds/",
        "/api/characters/{character_id}/rolls/",
    ):
        expect(page.get_by_text(path, exact=True).first).to_be_visible()
    expect(page.get_by_role("button", name="Authorize")).to_be_visible()
    assert page.evaluate("window.__violations") == []
    assert not [line for line in console if line.startswith("pageerror")]
