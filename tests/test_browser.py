"""End to end: `cardkit serve` on a free loopback port, driven by headless Debian Chromium through Playwright.

Needs /usr/bin/chromium (Debian's `chromium` package; `.ci/run` installs it).
Screenshots land in pytest's temporary folder (`browser-shots*`, under `--basetemp` when given) for a human
to look at; nothing is written into the checkout.
"""

from __future__ import annotations

import os
import re
import select
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
EVENT = Path(__file__).resolve().parent.parent / "events" / "spring-open"
CLI = [sys.executable, "-c", "from cardkit.cli.main import main; main()"]
# Never let the browser reach beyond the loopback server: no updates, sync, QUIC or first-run pages.
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
STARTUP_SECONDS = 60

SCREENSHOTS = os.environ.get("CARDKIT_TEST_SCREENSHOTS") == "1"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)"),
]


def _wait_for_url(proc: subprocess.Popen[str]) -> str:
    """The URL `cardkit serve` announces on stderr once its port is open."""
    deadline = time.monotonic() + STARTUP_SECONDS
    seen = ""
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"cardkit serve exited with {proc.returncode}: {seen}{proc.stderr.read()}")  # type: ignore[union-attr]
        ready, _, _ = select.select([proc.stderr], [], [], 0.5)
        if ready:
            line = proc.stderr.readline()  # type: ignore[union-attr]
            seen += line
            match = re.search(r"(http://127\.0\.0\.1:\d+)/cardkit", line)
            if match:
                return match.group(1)
    raise AssertionError(f"cardkit serve did not start within {STARTUP_SECONDS}s: {seen}")


def _wait_until_answering(base: str) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while True:
        try:
            with urllib.request.urlopen(f"{base}/-/versions.json", timeout=5) as response:
                if response.status == 200:
                    return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """(base URL, database file) of a live `cardkit serve` on a free port, with the example event's
    tournament database attached as /spring-open; always stopped afterwards."""
    from cardkit.tournament import check_event
    from cardkit.tournament.database import write_database

    folder = tmp_path_factory.mktemp("browser")
    db = folder / "cardkit.db"
    write_database([check_event([EVENT], registrations=EVENT / "registrations.csv")], folder / "spring-open.db")
    proc = subprocess.Popen([*CLI, "serve", "--db", str(db), "--port", "0", "--host", "127.0.0.1",
                             "--attach", str(folder / "spring-open.db")],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        base = _wait_for_url(proc)
        _wait_until_answering(base)
        yield base, db
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if proc.stderr:
            proc.stderr.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the screenshots go: a temporary folder of pytest's, never the checkout."""
    return tmp_path_factory.mktemp("browser-shots")


@pytest.fixture(scope="module")
def page(server: tuple[str, Path]) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            tab = browser.new_page(viewport={"width": 1400, "height": 1000})
            tab.set_default_timeout(20_000)
            yield tab
        finally:
            browser.close()


def _shot(target: object, path: Path, full_page: bool = False) -> None:
    """A screenshot for a human to look at, taken only when CARDKIT_TEST_SCREENSHOTS=1: no test reads them, and
    rendering a whole page to PNG was a good part of this module's CPU time."""
    if SCREENSHOTS:
        kwargs = {"full_page": full_page} if hasattr(target, "goto") else {}
        target.screenshot(path=str(path), **kwargs)  # type: ignore[attr-defined]


def _count(db: Path, sql: str, *params: object) -> int:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql, params).fetchone()[0]
    finally:
        conn.close()


def _shown_rows(page: object) -> int:
    """The row count Datasette prints above the table ("453 rows ...", "... returning 12 rows")."""
    heading = page.locator("h3", has_text=re.compile(r"[\d,]+ rows?")).first.inner_text()  # type: ignore[attr-defined]
    match = re.search(r"([\d,]+) rows?", heading)
    assert match, heading
    return int(match.group(1).replace(",", ""))


def test_cards_table_facet_and_name_search_show_the_matching_cards(shots: Path, server: tuple[str, Path], page) -> None:
    base, db = server
    page.goto(f"{base}/cardkit/cards")
    assert _shown_rows(page) == _count(db, "select count(*) from cards")
    assert page.locator("#facet-game").is_visible()

    page.locator("#facet-game li a", has_text=re.compile(r"^berserk-tcg$")).click()
    page.wait_for_url(re.compile(r"game=berserk-tcg"))
    assert _shown_rows(page) == _count(db, "select count(*) from cards where game = ?", "berserk-tcg")
    assert set(page.locator("td.col-game").all_inner_texts()) == {"berserk-tcg"}

    page.fill("input#_search", "Guts")
    page.press("input#_search", "Enter")
    page.wait_for_url(re.compile(r"_search=Guts"))
    names = page.locator("td.col-Link").all_inner_texts()
    expected = _count(db, "select count(*) from cards where game = 'berserk-tcg' and name like '%guts%'")
    assert _shown_rows(page) == len(names) == expected > 0
    assert all("guts" in n.lower() for n in names)
    _shot(page, shots / "browser-cards-search.png", full_page=True)


def test_canned_query_takes_its_parameters_from_the_form(shots: Path, server: tuple[str, Path], page) -> None:
    base, db = server
    page.goto(f"{base}/cardkit")
    page.get_by_role("link", name=re.compile("openable at a Level")).click()
    page.wait_for_url(re.compile(r"/cardkit/openable_cards"))
    page.select_option("select[name=level]", "2")
    page.select_option("select[name=colour]", "red")
    page.click("input[type=submit][value='Run SQL']")
    page.wait_for_url(re.compile(r"level=2.*colour=red|colour=red.*level=2"))
    levels = [int(x) for x in page.locator("td.col-level").all_inner_texts()]
    colours = set(page.locator("td.col-colour").all_inner_texts())
    expected = _count(db, """select count(*) from tcg_cards where kind != 'city' and level <= 2
                             and cost_white = 0 and cost_green = 0 and cost_black = 0""")
    assert _shown_rows(page) == len(levels) == expected > 0
    assert max(levels) <= 2 and "red" in colours
    _shot(page, shots / "browser-canned-query.png", full_page=True)


def test_a_canned_query_of_the_attached_tournament_database_shows_the_illegal_deck(shots: Path, server: tuple[str, Path], page) -> None:
    base, _ = server
    page.goto(f"{base}/spring-open")
    page.get_by_role("link", name=re.compile("Decks that are not legal")).click()
    page.wait_for_url(re.compile(r"/spring-open/illegal_decks"))
    assert page.locator("td.col-player").all_inner_texts() == ["Dmitri Sokolov"]
    assert page.locator("td.col-first_error").all_inner_texts() == ["TOO_MANY_COPIES"]
    _shot(page, shots / "browser-tournament-query.png", full_page=True)


def test_the_published_page_sorts_its_decks_by_player_and_asks_for_nothing_outside(shots: Path, page, tmp_path: Path) -> None:
    from cardkit.tournament import check_event
    from cardkit.tournament.publish import write_page

    out = tmp_path / "published.html"
    write_page(check_event([EVENT], registrations=EVENT / "registrations.csv"), out)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(out.as_uri())
    table = page.locator("table.sortable-table")
    players = table.locator("tbody tr td:first-child").all_inner_texts()
    assert players == sorted(players, key=str.casefold)
    table.locator("th", has_text="player").click()
    assert table.locator("tbody tr td:first-child").all_inner_texts() == sorted(players, key=str.casefold, reverse=True)
    table.locator("th", has_text="main").click()
    sizes = [int(x) for x in table.locator("tbody tr td:nth-child(4)").all_inner_texts()]
    assert sizes == sorted(sizes)
    assert page.locator("figure.chart").count() == 3  # the charts are HTML figures of bars (tournament/_charts.html)
    assert requests == [out.as_uri()]  # no script, font, image or style from anywhere else
    _shot(page, shots / "published-page.png", full_page=True)


def test_a_card_of_a_decklist_opens_its_catalogue_row(server: tuple[str, Path], page) -> None:
    base, _ = server
    page.goto(f"{base}/spring-open/deck_cards?card=BK1-012")
    page.locator("td.col-card a", has_text="BK1-012").first.click()
    page.wait_for_url(re.compile(r"/cardkit/cards/berserk-tcg,BK1-012$"))
    assert "Guts" in page.locator("body").inner_text()


@pytest.mark.parametrize("query", ["Koch", "Кочев", "Griffit", "Zolotoy", "(c:red or c:black) -t:city lv<=1"])
def test_the_search_box_finds_what_the_command_line_finds(server: tuple[str, Path], page, query: str) -> None:
    from cardkit.db.search import search_cards

    base, db = server
    # Start from a page that lists no row (rendering every card first costs seconds and is not the point);
    # its form carries _size=max, so the answer lists every hit, none cut off at a page's end.
    page.goto(f"{base}/cardkit/cards?_size=max&_search=zzzzqqq")
    assert _shown_rows(page) == 0
    page.fill("input#_search", query)
    page.press("input#_search", "Enter")
    page.wait_for_url(re.compile(r"_search="))
    shown = set(zip(page.locator("td.col-game").all_inner_texts(), page.locator("td.col-id").all_inner_texts()))
    expected = {(h.game, h.id) for h in search_cards(query, db=db).hits}
    assert shown == expected and expected
    assert _shown_rows(page) == len(expected)


def test_gats_finds_no_unrelated_word(server: tuple[str, Path], page) -> None:
    base, _ = server
    page.goto(f"{base}/cardkit/cards?_search=%D0%93%D0%B0%D1%82%D1%81")
    assert _shown_rows(page) == 0
    assert "Рогач" not in page.content()


@pytest.mark.parametrize(("width", "height"), [(1400, 900), (390, 844)], ids=["desktop", "phone"])
def test_the_search_box_and_the_first_row_are_on_the_first_screen(shots: Path, server: tuple[str, Path], page, width: int, height: int) -> None:
    base, _ = server
    page.set_viewport_size({"width": width, "height": height})
    try:
        page.goto(f"{base}/cardkit/cards")
        search = page.locator("input#_search").bounding_box()
        first = page.locator("table.rows-and-columns tbody tr").first.bounding_box()
        assert search and first and search["y"] + search["height"] <= height and first["y"] + 20 <= height
        assert not page.locator("td.col-search_key").first.is_visible()
        assert not page.locator(".cardkit-column-help dl").is_visible()
        page.locator("summary", has_text="What the columns mean").click()
        assert page.locator(".cardkit-column-help dl").is_visible()
        _shot(page, shots / f"browser-cards-{width}.png")
    finally:
        page.set_viewport_size({"width": 1400, "height": 1000})


def test_canned_queries_with_empty_parameters_mean_any(shots: Path, server: tuple[str, Path], page) -> None:
    base, db = server
    page.goto(f"{base}/cardkit/cost_curve")
    assert "Cost curve" in page.title() and "select" not in page.title()
    counts = [int(x) for x in page.locator("td.col-cards").all_inner_texts()]
    assert sum(counts) == _count(db, "select count(*) from cards where cost is not null") > 0
    page.goto(f"{base}/cardkit/openable_cards")
    assert _shown_rows(page) == _count(db, "select count(*) from cards where game = 'berserk-tcg' and kind != 'city'")
    page.locator("td.col-id a").first.click()
    page.wait_for_url(re.compile(r"/cardkit/cards/berserk-tcg,"))
    _shot(page, shots / "browser-card-from-query.png", full_page=True)


def test_a_pasted_illegal_deck_shows_its_problem_at_its_line(shots: Path, server: tuple[str, Path], page) -> None:
    base, _ = server
    text = (EVENT / "decks" / "dmitri.deck").read_text(encoding="utf-8")
    page.goto(f"{base}/-/deck")
    page.fill("textarea#deck", text)
    page.click("input[type=submit][value='Check the deck']")
    page.wait_for_load_state()
    assert page.locator("h2.verdict").inner_text().startswith("Not legal")
    assert "TOO_MANY_COPIES" in page.locator("tr#line-15").inner_text()
    assert "character (" in page.locator(".cardkit-deck-summary").inner_text()
    _shot(page, shots / "browser-deck.png", full_page=True)


def test_a_card_page_shows_a_tcg_cost_and_an_online_ability_in_words(shots: Path, server: tuple[str, Path], page) -> None:
    base, _ = server
    page.goto(f"{base}/cardkit/cards/berserk-tcg,BK1-011")
    assert page.locator(".cardkit-cost .ball.white").count() >= 1
    # Other printings say what they are and what differs from this card.
    assert "BK1-012 Berserk TCG: set BK1, white, cost 1 white, level 2, power 3, hp 3 — differs in cost, level, power" in \
        page.locator(".cardkit-printings").inner_text()
    page.goto(f"{base}/cardkit/cards/berserk-online,b_afari")
    assert "Regeneration" in page.locator(".cardkit-card").inner_text()
    _shot(page, shots / "browser-card-online.png", full_page=True)


def test_the_ranked_search_page_puts_the_exact_name_first_and_a_typo_gets_a_suggestion(shots: Path, server: tuple[str, Path], page) -> None:
    base, _ = server
    page.goto(f"{base}/cardkit/cards?_search=Zodd")
    page.get_by_role("link", name="ranked by name").click()
    page.wait_for_url(re.compile(r"/-/search\?q=Zodd"))
    names = page.locator("table.cardkit-hits tr td:first-child a").all_inner_texts()
    assert names[0] == "Zodd" and names.index("Zodd's Entrance") > names.index("Zodd")
    page.fill("input#q", "Гатс")
    page.press("input#q", "Enter")
    page.get_by_role("link", name="Guts").click()
    page.wait_for_url(re.compile(r"q=%22Guts%22"))
    assert page.locator("table.cardkit-hits tr").count() > 0
    _shot(page, shots / "browser-ranked-search.png", full_page=True)


@pytest.mark.parametrize(("path", "search", "column", "expected"), [
    ("cardkit/sets", "voina", "name", ["Война стихий"]),
    ("cardkit/berserker_ships", "ram", "name", ["Ramship"]),
    ("cardkit/formats", "online", "Link", None),
    ("spring-open/verdicts", "dmitri", "player", ["Dmitri Sokolov"]),
    ("spring-open/problems", '"too many"', "code", ["TOO_MANY_COPIES"]),
], ids=["sets", "ships", "formats", "tournament-verdicts", "tournament-problems"])
def test_every_browsable_table_has_a_search_box_that_finds_its_rows(shots: Path, server: tuple[str, Path], page, path: str,
                                                                   search: str, column: str, expected: list[str] | None) -> None:
    base, db = server
    page.goto(f"{base}/{path}")
    box = page.locator("input#_search")
    assert box.is_visible() and box.get_attribute("placeholder").startswith("words in ")
    box.fill(search)
    box.press("Enter")
    page.wait_for_url(re.compile(r"_search="))
    if expected is None:  # formats: keyed by name, which is the row link
        conn = sqlite3.connect(db)
        try:
            expected = [r[0] for r in conn.execute("select name from formats where game = 'berserk-online'")]
        finally:
            conn.close()
        shown = page.locator("td.col-name").all_inner_texts()
    else:
        shown = page.locator(f"td.col-{column}").all_inner_texts()
    assert shown == expected and _shown_rows(page) == len(expected)
    _shot(page, shots / f"browser-search-{path.replace('/', '-')}.png")


def test_a_game_table_searches_with_the_query_language_and_its_ids_open_the_card_page(shots: Path, server: tuple[str, Path], page) -> None:
    from cardkit.db.search import search_cards

    base, db = server
    page.goto(f"{base}/cardkit/ccg_cards?_size=max")
    page.fill("input#_search", "Koch")
    page.press("input#_search", "Enter")
    page.wait_for_url(re.compile(r"_search=Koch"))
    ids = page.locator("td.col-id").all_inner_texts()
    assert set(ids) == {h.id for h in search_cards("Koch", game="berserk-ccg", db=db).hits} and ids
    page.locator("td.col-id a").first.click()
    page.wait_for_url(re.compile(rf"/cardkit/cards/berserk-ccg,{ids[0]}$"))
    assert page.locator(".cardkit-card").is_visible()
    _shot(page, shots / "browser-ccg-id-to-card.png")


def test_the_elements_facet_says_neutral_and_clicking_it_lists_the_neutral_cards(shots: Path, server: tuple[str, Path], page) -> None:
    base, db = server
    page.goto(f"{base}/cardkit/cards")
    facet = page.locator("#facet-elements")
    assert "-" not in facet.locator("li a").all_inner_texts()
    _shot(facet, shots / "browser-elements-facet.png")
    facet.locator("li a", has_text=re.compile(r"^neutral$")).click()
    page.wait_for_url(re.compile(r"elements=(&|$)"))
    assert _shown_rows(page) == _count(db, "select count(*) from cards where elements = ''") > 0
    assert set(page.locator("td.col-elements").all_inner_texts()) == {"neutral"}
    assert page.locator("#facet-elements li").first.inner_text().startswith("neutral")
    _shot(page, shots / "browser-elements-neutral.png")


def test_an_online_card_page_words_the_abilities_the_rules_text_names_and_marks_the_others_unexplained(
        shots: Path, server: tuple[str, Path], page) -> None:
    from cardkit.catalogue.store import load_game
    from cardkit.web.cardpage import glossary

    terms = glossary()
    card = next(c for c in load_game("berserk-online").cards.values()
                if "counter" in c["abilities"] and any(a not in terms for a in c["abilities"]))
    base, _ = server
    page.goto(f"{base}/cardkit/cards/berserk-online,{card['id']}")
    shown = page.locator(".cardkit-card").inner_text()
    assert "Spielmarke" in shown and terms["counter"]["gloss"] in shown
    unexplained = [a for a in card["abilities"] if a not in terms]
    for code in unexplained:
        assert f"{code} (not explained by the rules text)" in shown
    assert page.locator(".cardkit-unexplained").count() == len(unexplained)
    _shot(page, shots / "browser-card-online-glossary.png", full_page=True)


def test_an_uploaded_deck_file_is_checked_without_javascript(shots: Path, server: tuple[str, Path], page) -> None:
    base, _ = server
    context = page.context.browser.new_context(java_script_enabled=False, viewport={"width": 1400, "height": 1000})
    try:
        tab = context.new_page()
        tab.goto(f"{base}/-/deck")
        tab.set_input_files("input#deck-file", str(EVENT / "decks" / "dmitri.deck"))
        tab.click("input[type=submit][value='Check the deck']")
        tab.wait_for_load_state()
        assert tab.locator("h2.verdict").inner_text().startswith("Not legal")
        assert "TOO_MANY_COPIES" in tab.locator("tr#line-15").inner_text()
        assert tab.locator("textarea#deck").input_value() == (EVENT / "decks" / "dmitri.deck").read_text(encoding="utf-8")
        _shot(tab, shots / "browser-deck-upload-no-js.png", full_page=True)
    finally:
        context.close()


SIZES = [(1366, 768), (390, 844)]
SIZE_IDS = ["desktop", "phone"]

# Every visible piece of text, and every button, whose colour is below 4.5:1 on the background behind it (3:1
# for large text), as WCAG computes contrast; backgrounds are composited up the tree, text over an image is not judged.
LOW_CONTRAST_JS = """
() => {
  const parse = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(',').map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const over = (top, under) => { const a = top[3]; return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat([1]); };
  const background = (el) => { const layers = [];
    for (let e = el; e; e = e.parentElement) { const s = getComputedStyle(e);
      if (s.backgroundImage !== 'none' && !s.backgroundImage.startsWith('linear-gradient')) return null;
      const c = parse(s.backgroundColor); if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; } }
    let bg = [255, 255, 255, 1]; for (const l of layers.reverse()) bg = over(l, bg); return bg; };
  const failures = [];
  const judge = (el, label) => { const s = getComputedStyle(el); const bg = background(el); const fg = parse(s.color);
    if (!bg || !fg) return; const text = over(fg, bg); const [hi, lo] = [lum(text), lum(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05); const size = parseFloat(s.fontSize); const bold = parseInt(s.fontWeight) >= 700;
    const needed = (size >= 24 || (bold && size >= 18.66)) ? 3 : 4.5;
    if (ratio < needed) failures.push(`${label.slice(0, 40)} (${s.color} on rgb(${bg.slice(0, 3).map(Math.round)}): ${ratio.toFixed(2)})`); };
  for (const b of document.querySelectorAll('input[type=submit], input[type=button]'))
    if (b.getClientRects().length && !b.closest('details:not([open]) > :not(summary)')) judge(b, b.value);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  while (walker.nextNode()) { const node = walker.currentNode; const el = node.parentElement;
    if (!node.textContent.trim() || !el || seen.has(el)) continue; seen.add(el);
    const rects = el.getClientRects(); if (!rects.length) continue;
    const s = getComputedStyle(el); if (s.visibility === 'hidden' || parseFloat(s.opacity) === 0) continue;
    if (el.closest('details:not([open]) > :not(summary)') || el.closest('[hidden]')) continue;
    judge(el, node.textContent.trim());
  }
  return failures;
}
"""

HEADINGS_JS = "() => [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => Number(h.tagName[1]))"

PAGES_FOR_EVERYONE = ["/", "/cardkit", "/cardkit/cards", "/cardkit/cards?_search=colour%3Apurple", "/cardkit/tcg_cards",
                      "/cardkit/cards/berserk-tcg,BK1-011", "/cardkit/cards/berserk-ccg,10001", "/-/search?q=Koch",
                      "/-/search?q=e%3Afire", "/-/syntax", "/-/deck", "/cardkit/openable_cards", "/spring-open",
                      "/spring-open/verdicts"]


def _check_page_for_everyone(page: object, where: str) -> None:
    """lang="en", one <main>, headings in order from one <h1>, every text readable (contrast >= 4.5:1), and
    nothing wider than the screen (a wide table scrolls in its own box)."""
    assert page.locator("html").get_attribute("lang") == "en", where  # type: ignore[attr-defined]
    width = page.evaluate("window.innerWidth")  # type: ignore[attr-defined]
    assert page.evaluate("document.documentElement.scrollWidth") <= width, where  # type: ignore[attr-defined]
    assert page.locator("main").count() == 1, where  # type: ignore[attr-defined]
    levels = page.evaluate(HEADINGS_JS)  # type: ignore[attr-defined]
    assert levels and levels[0] == 1 and levels.count(1) == 1, (where, levels)
    assert all(b <= a + 1 for a, b in zip(levels, levels[1:])), (where, levels)
    assert page.evaluate(LOW_CONTRAST_JS) == [], where  # type: ignore[attr-defined]


@pytest.mark.parametrize(("width", "height"), SIZES, ids=SIZE_IDS)
def test_every_page_says_its_language_has_one_main_headings_in_order_readable_text_and_fits_the_screen(
        shots: Path, server: tuple[str, Path], page, width: int, height: int) -> None:
    base, _ = server
    page.set_viewport_size({"width": width, "height": height})
    try:
        for path in PAGES_FOR_EVERYONE:
            page.goto(base + path)
            _check_page_for_everyone(page, f"{path} at {width}px")
        page.goto(f"{base}/cardkit/cards/berserk-ccg,10001")
        assert page.locator('h1 [lang="ru"]').inner_text() == "Кочевник"
        _shot(page, shots / f"everyone-card-ru-{width}.png", full_page=True)
    finally:
        page.set_viewport_size({"width": 1400, "height": 1000})


def test_a_sortable_heading_is_reached_by_keyboard_and_says_how_it_sorts(server: tuple[str, Path], page) -> None:
    base, _ = server
    page.goto(f"{base}/cardkit/tcg_cards")
    page.locator("input#_search").focus()
    for _ in range(60):
        page.keyboard.press("Tab")
        focused = page.evaluate("() => document.activeElement.closest('th') ? document.activeElement.textContent.trim() : ''")
        if focused.startswith("level"):
            break
    else:
        raise AssertionError("Tab never reached the level heading")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"_sort=level"))
    assert page.locator('th[data-column="level"]').get_attribute("aria-sort") == "ascending"
    assert page.locator("th[aria-sort]").count() == 1


@pytest.mark.parametrize(("width", "height"), SIZES, ids=SIZE_IDS)
def test_a_search_with_an_unknown_value_says_why_on_the_first_screen(shots: Path, server: tuple[str, Path], page,
                                                                    width: int, height: int) -> None:
    base, _ = server
    page.set_viewport_size({"width": width, "height": height})
    try:
        for path, why in (("/cardkit/cards?_search=colour%3Apurple", "known values: black, green, red, white"),
                          ("/cardkit/cards?_search=e%3Afire", "known values: darkness, forest"),
                          ("/-/search?q=e%3Afire", "known values: darkness, forest")):
            page.goto(base + path)
            reason = page.locator(".cardkit-search-why")
            box = reason.bounding_box()
            assert why in reason.inner_text() and box and box["y"] + box["height"] <= height, path
            assert why not in page.title() and why not in " ".join(page.locator("h1, h2").all_inner_texts())
        _shot(page, shots / f"search-why-{width}.png")
    finally:
        page.set_viewport_size({"width": 1400, "height": 1000})


def test_order_sorts_the_table_page(server: tuple[str, Path], page) -> None:
    base, _ = server
    page.goto(f"{base}/cardkit/cards?_size=max")
    page.fill("input#_search", "c:red order:-cost")
    page.press("input#_search", "Enter")
    page.wait_for_url(re.compile(r"_search="))
    costs = [int(x) for x in page.locator("td.col-cost").all_inner_texts()]
    assert costs == sorted(costs, reverse=True) and len(set(costs)) > 1


def test_the_home_page_searches_and_its_syntax_page_runs_each_example(shots: Path, server: tuple[str, Path], page) -> None:
    base, _ = server
    page.goto(base + "/")
    page.fill("input#q", "Zodd")
    page.press("input#q", "Enter")
    page.wait_for_url(re.compile(r"/-/search\?q=Zodd"))
    assert page.locator("table.cardkit-hits tr td:first-child a").first.inner_text() == "Zodd"
    page.goto(base + "/")
    page.get_by_role("link", name="How to search").click()
    page.wait_for_url(re.compile(r"/-/syntax$"))
    _shot(page, shots / "syntax.png", full_page=True)
    page.locator("#field-element a", has_text="e:forest elite:yes").click()
    page.wait_for_url(re.compile(r"/-/search\?q=e%3Aforest"))
    assert page.locator("table.cardkit-hits tr").count() > 0


AMBIGUOUS_DECK = "game: berserk-tcg\n3 Guts\n3 Gutz\n3 Cavalry On Alrt\n" + "\n".join(f"3 BK1-0{n:02d}" for n in range(20, 34)) + "\n"


@pytest.mark.parametrize(("width", "height"), SIZES, ids=SIZE_IDS)
def test_the_deck_page_answers_first_and_an_ambiguous_line_is_a_choice_without_javascript(
        shots: Path, server: tuple[str, Path], page, width: int, height: int) -> None:
    base, _ = server
    context = page.context.browser.new_context(java_script_enabled=False, viewport={"width": width, "height": height})
    try:
        tab = context.new_page()
        tab.goto(f"{base}/-/deck")
        tab.fill("textarea#deck", AMBIGUOUS_DECK)
        tab.click("input[type=submit][value='Check the deck']")
        tab.wait_for_load_state()
        verdict = tab.locator("h2.verdict").bounding_box()
        problems = tab.locator("#problems").bounding_box()
        assert verdict and problems and problems["y"] < height, "the problems start on the first screen"
        _check_page_for_everyone(tab, f"deck page at {width}px")
        _shot(tab, shots / f"deck-answers-{width}.png")
        _shot(tab, shots / f"deck-answers-{width}-full.png", full_page=True)
        tab.locator(".cardkit-problems a[href='#line-2']").click()
        assert tab.url.endswith("#line-2")
        tab.check("input[name=card-2][value='Guts (BK1-011)']")
        tab.locator("fieldset button.cardkit-check-again").first.click()
        tab.wait_for_load_state()
        assert tab.locator("textarea#deck").input_value().split("\n")[1] == "3 Guts (BK1-011)"
        # A misspelling of a name several cards share is the same choice as the name itself.
        tab.check("input[name=card-3][value='Guts (BK1-012)']")
        tab.locator("fieldset button.cardkit-check-again").first.click()
        tab.wait_for_load_state()
        assert tab.locator("textarea#deck").input_value().split("\n")[2] == "3 Guts (BK1-012)"
        # A misspelling of one card's name is one button.
        tab.locator("button.cardkit-fix").first.click()
        tab.wait_for_load_state()
        assert tab.locator("textarea#deck").input_value().split("\n")[3] == "3 Cavalry On Alert (BK1-007)"
        summary = tab.locator(".cardkit-deck-summary").inner_text()
        assert "unresolved" not in summary
    finally:
        context.close()


@pytest.mark.parametrize(("width", "height"), SIZES, ids=SIZE_IDS)
def test_a_pasted_line_thousands_of_characters_long_wraps_on_the_deck_page_rather_than_widening_it(
        shots: Path, server: tuple[str, Path], page, width: int, height: int) -> None:
    base, _ = server
    page.set_viewport_size({"width": width, "height": height})
    try:
        page.goto(f"{base}/-/deck")
        page.eval_on_selector("textarea#deck", "(e, v) => { e.value = v; }",
                              "game: berserk-tcg\n1 " + "A" * 5000 + "\n" + "x" * 5000 + "\n40 BK1-001\n")
        page.click("input[type=submit][value='Check the deck']")
        page.wait_for_load_state()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        _shot(page, shots / f"deck-long-line-{width}.png")
    finally:
        page.set_viewport_size({"width": 1400, "height": 1000})
