"""The Content Security Policy holds in a real Chromium: every system's sheet loads and
takes an htmx edit with no violation reported, and htmx still works under it."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from rulesets.registry import SYSTEMS

pytestmark = pytest.mark.django_db(transaction=True)

# Chromium reports every refusal as a securitypolicyviolation event and a console error.
LISTEN = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(event.violatedDirective + " " + (event.blockedURI || "inline"));
});
"""


@pytest.mark.parametrize("key", sorted(SYSTEMS))
def test_a_sheet_loads_and_edits_without_a_policy_violation(
    live_server, page: Page, player, password, key, open_demo
):
    console: list[str] = []
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    page.on("pageerror", lambda error: console.append(f"pageerror: {error}"))
    page.add_init_script(LISTEN)
    response = page.request.get(live_server.url + "/accounts/login/")
    assert "script-src 'self'" in response.headers["content-security-policy"]

    open_demo(key, 1280)
    version = page.locator("#sheet-version").input_value()
    name = page.locator("#input-character-name")
    name.fill("Renamed under the policy")
    name.press("Tab")
    # htmx ran (no eval, no inline script needed): the version moved without a reload.
    expect(page.locator("#sheet-version")).not_to_have_value(version)
    expect(page).to_have_title("Renamed under the policy · Datapad")
    assert page.evaluate("window.__violations") == []
    refused = [line for line in console if "Content Security Policy" in line or "Refused" in line]
    assert refused == []
    assert not [line for line in console if line.startswith("pageerror")]
    # And the listener does hear a violation: an inline style attribute is refused.
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<p style=\"color:red\">x</p>')")
    # Polled from here: wait_for_function evaluates a string predicate with eval once it has
    # to poll, which this page's policy (no unsafe-eval) refuses.
    for _ in range(50):
        if page.evaluate("window.__violations.length"):
            break
        page.wait_for_timeout(100)
    assert page.evaluate("window.__violations")[0].startswith("style-src")
