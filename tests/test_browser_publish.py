"""The published page in real headless Chromium (Playwright): on a phone, nothing scrolls sideways, chart labels
stay readable, the cards-played table fits, and each decklist's copy button copies the deck text.

Needs /usr/bin/chromium (Debian's `chromium` package). With CARDKIT_TEST_SCREENSHOTS=1, screenshots land in pytest's temporary folder, never the checkout."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from test_browser import CHROMIUM, CHROMIUM_ARGS, EVENT, _shot

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)"),
]

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from cardkit.tournament import check_event
    from cardkit.tournament.publish import write_page

    out = tmp_path_factory.mktemp("published") / "spring-open.html"
    write_page(check_event([EVENT], registrations=EVENT / "registrations.csv"), out,
               card_url="http://127.0.0.1:8001/cardkit")
    return out


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


def test_on_a_phone_the_page_never_scrolls_sideways_and_its_charts_and_card_table_are_readable(
        browser, published: Path, tmp_path: Path) -> None:
    tab = browser.new_page(viewport=PHONE)  # type: ignore[attr-defined]
    requests: list[str] = []
    tab.on("request", lambda r: requests.append(r.url))
    try:
        tab.goto(published.as_uri())
        assert tab.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        sizes = tab.evaluate("Array.from(document.querySelectorAll('.bars .label, .bars .value'))"
                             ".map(e => parseFloat(getComputedStyle(e).fontSize))")
        assert len(sizes) > 20 and min(sizes) >= 11
        # Every cell of the cards-played table lies inside the screen: stacked, not cut off.
        right = tab.evaluate("Math.max(...Array.from(document.querySelectorAll('table.stack td'))"
                             ".map(e => e.getBoundingClientRect().right))")
        assert right <= PHONE["width"]
        assert tab.locator("table.stack td[data-label='decks']").first.is_visible()
        # Screenshots for a human to look at (CARDKIT_TEST_SCREENSHOTS=1) go to pytest's temporary folder, never the checkout.
        _shot(tab, tmp_path / "published-page-390.png", full_page=False)
        tab.locator("table.stack").scroll_into_view_if_needed()
        _shot(tab, tmp_path / "published-page-390-cards.png", full_page=False)
        tab.locator(".decklist").first.scroll_into_view_if_needed()
        _shot(tab, tmp_path / "published-page-390-decklist.png", full_page=False)
        assert requests == [published.as_uri()]
    finally:
        tab.close()


def test_a_decklist_s_copy_button_copies_its_text_in_the_deck_format(browser, published: Path) -> None:
    context = browser.new_context(viewport=PHONE)  # type: ignore[attr-defined]
    tab = context.new_page()
    try:
        tab.goto(published.as_uri())
        # Catch what the page puts on the clipboard, whichever way the browser lets it copy.
        tab.evaluate("""() => { window.copied = null;
            if (navigator.clipboard) { navigator.clipboard.writeText = t => { window.copied = t; return Promise.resolve(); }; }
            document.addEventListener('copy', () => { window.copied = document.getSelection().toString()
                || (document.activeElement && document.activeElement.value); }); }""")
        button = tab.locator(".decklist button.copy").first
        assert button.is_visible()
        button.click()
        tab.wait_for_function("window.copied !== null")
        copied = tab.evaluate("window.copied")
        shown = tab.locator(".decklist pre").first.text_content()
        assert copied == shown and "\nMain\n" in copied and copied.startswith("game: berserk-tcg\n")
        assert button.inner_text() == "Copied"
    finally:
        context.close()


def test_without_javascript_there_is_no_dead_button_and_the_text_is_there_to_select(browser, published: Path) -> None:
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)  # type: ignore[attr-defined]
    tab = context.new_page()
    try:
        tab.goto(published.as_uri())
        assert not tab.locator(".decklist button.copy").first.is_visible()
        tab.locator(".decklist details summary").first.click()
        assert tab.locator(".decklist pre").first.is_visible()
        assert tab.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        context.close()


@pytest.fixture(scope="module")
def hostile_published(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from cardkit.tournament import check_event
    from cardkit.tournament.publish import write_page

    folder = tmp_path_factory.mktemp("hostile-event")
    sent = (EVENT / "decks" / "alice-white-hawks.deck").read_text(encoding="utf-8")
    players = ['<script>alert("p")</script>', '"><img src=x onerror=alert(2)>', "Bob\u202etxt.exe", "W" * 300,
               "=HYPERLINK(\"http://evil\")", "\uff1dSUM(1)", "Team #1 // A"]
    for i, player in enumerate(players):
        (folder / f"{i}.deck").write_text(sent.replace("player: Alice Archer", f"player: {player}")
                                          .replace("name: White Hawks", f"name: {player}"), encoding="utf-8")
    out = tmp_path_factory.mktemp("hostile-published") / "hostile.html"
    write_page(check_event([folder]), out, card_url="http://127.0.0.1:8001/cardkit")
    return out


@pytest.mark.parametrize("width", [390, 1366], ids=["phone", "laptop"])
def test_a_page_of_hostile_names_runs_nothing_fetches_nothing_and_never_scrolls_sideways(
        browser, hostile_published: Path, tmp_path: Path, width: int) -> None:
    tab = browser.new_page(viewport={"width": width, "height": 844})  # type: ignore[attr-defined]
    dialogs: list[str] = []
    requests: list[str] = []
    tab.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    tab.on("request", lambda r: requests.append(r.url))
    try:
        tab.goto(hostile_published.as_uri())
        assert tab.locator(".decklist").count() == 7
        assert tab.evaluate("document.documentElement.scrollWidth") <= width
        assert tab.evaluate("document.querySelectorAll('img, script:not(:last-of-type)').length") == 0
        _shot(tab, tmp_path / f"hostile-{width}.png", full_page=False)
        assert dialogs == [] and requests == [hostile_published.as_uri()]
    finally:
        tab.close()


def test_without_javascript_each_hostile_decklist_s_text_opens_and_reads_back_as_the_deck_sent(
        browser, hostile_published: Path, tmp_path: Path) -> None:
    from cardkit.decks import read_deck
    from cardkit.decks.canonical import deck_hash

    sent = deck_hash(read_deck(EVENT / "decks" / "alice-white-hawks.deck"))
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)  # type: ignore[attr-defined]
    tab = context.new_page()
    try:
        tab.goto(hostile_published.as_uri())
        for i, summary in enumerate(tab.locator(".decklist details summary").all()):
            summary.click()
            block = tab.locator(".decklist pre").nth(i)
            assert block.is_visible()
            copied = tmp_path / f"copied-{i}.deck"
            copied.write_text(block.text_content() or "", encoding="utf-8")
            assert deck_hash(read_deck(copied)) == sent
        assert tab.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        context.close()


def test_one_very_long_name_does_not_push_the_deck_table_s_other_columns_out_of_sight(
        browser, hostile_published: Path) -> None:
    tab = browser.new_page(viewport={"width": 1366, "height": 844})  # type: ignore[attr-defined]
    try:
        tab.goto(hostile_published.as_uri())
        box = tab.locator(".scroll:has(table.sortable-table)")
        assert box.evaluate("b => b.scrollWidth <= b.clientWidth")
        # Ordinary words stay whole: a short name is on one line.
        heights = tab.evaluate("Array.from(document.querySelectorAll('table.sortable-table tbody tr'))"
                               ".map(r => r.getBoundingClientRect().height)")
        assert sorted(heights)[0] < 40
    finally:
        tab.close()
