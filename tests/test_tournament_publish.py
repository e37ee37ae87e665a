"""`cardkit tournament publish`: the metagame tables, one self-contained page, hostile names escaped."""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardkit.cli.main import app
from cardkit.tournament import check_event
from cardkit.tournament.publish import metagame, render_page

ROOT = Path(__file__).resolve().parent.parent
EVENT = ROOT / "events" / "spring-open"
HAWKS = ROOT / "decks" / "berserk-tcg" / "white-hawks.deck"
APOSTLES = ROOT / "decks" / "berserk-tcg" / "red-apostles.deck"
ILLEGAL = ROOT / "decks" / "berserk-tcg" / "illegal-four-guts.deck"

HOSTILE_PLAYER = '<script>alert("p")</script>'
HOSTILE_DECK = '"><img src=x onerror=alert(1)></style>'
HOSTILE_ILLEGAL = "<b onmouseover=alert(2)>Mallory</b>"


def deck(folder: Path, file: str, source: Path, player: str, name: str | None = None) -> None:
    lines = [ln for ln in source.read_text(encoding="utf-8").splitlines() if not ln.startswith(("player:", "name:"))]
    header = [f"player: {player}"] + ([f"name: {name}"] if name else [])
    (folder / file).write_text("\n".join(header + lines) + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def hostile_event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hostile-open")
    deck(folder, "a.deck", HAWKS, HOSTILE_PLAYER, HOSTILE_DECK)
    deck(folder, "b.deck", APOSTLES, "Boris =SUM(A1)")
    deck(folder, "c.deck", HAWKS, "Ｃｌａｒａ \u202eevil")
    deck(folder, "m.deck", ILLEGAL, HOSTILE_ILLEGAL)
    (folder / "broken.deck").write_bytes(b"\xff\xfe not a deck")
    return folder


@pytest.fixture(scope="module")
def page(hostile_event: Path) -> str:
    return render_page(check_event([hostile_event]))


def test_the_metagame_counts_legal_decks_mixes_and_cards(hostile_event: Path) -> None:
    result = check_event([hostile_event])
    meta = metagame(result)
    legal = [s for s in result.submissions if s.verdict.value == "legal"]
    mixes, cards = meta.records("mixes"), meta.records("cards")
    assert meta.count("decks") == len(legal) == 3
    assert sum(m["decks"] for m in mixes) == 3 and sum(m["percent"] for m in mixes) == pytest.approx(100, abs=0.2)
    # Two decks are White Hawks: each of its cards is played by two decks, in the same numbers.
    hawks = {c.card: 0 for c in legal[0].cards}
    for s in legal:
        for c in s.cards:
            if c.card in hawks:
                hawks[c.card] += c.copies
    mercenary = next(c for c in cards if c["card"] == "BK1-001")
    assert (mercenary["decks"], mercenary["copies"], mercenary["fewest"], mercenary["most"]) == (2, hawks["BK1-001"], 12, 12)
    assert [c["decks"] for c in cards] == sorted((c["decks"] for c in cards), reverse=True)
    sizes = Counter(s.report.counts["main"] for s in legal)
    assert {r["main"]: r["decks"] for r in meta.records("sizes")} == sizes
    assert sorted(v for _, v in meta.unlisted) == ["illegal", "unreadable"]


def test_the_page_escapes_every_name_and_runs_only_its_own_script(page: str) -> None:
    assert HOSTILE_PLAYER not in page and "&lt;script&gt;alert(&#34;p&#34;)&lt;/script&gt;" in page
    assert "<img" not in page and "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;&lt;/style&gt;" in page
    assert "<b onmouseover" not in page and "&lt;b onmouseover=alert(2)&gt;Mallory&lt;/b&gt;" in page
    # The page's own script and its two style sheets (the web UI's and the page's), nothing a name brought in.
    assert page.count("<script>") == 1 and page.count("</style>") == 2
    # A right-to-left override would reverse what follows it on the page: it is shown as an escape instead.
    assert "\u202e" not in page and "Ｃｌａｒａ \\u202eevil" in page


def test_the_page_needs_no_other_file_or_network(page: str) -> None:
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//|file:|[\w./-]+\.(css|js|png|svg))""", page)
    assert "@import" not in page and "url(" not in page
    assert page.count('<figure class="chart">') == 3  # the charts are drawn into the page


def test_illegal_and_unreadable_submissions_are_named_but_not_listed(page: str) -> None:
    not_published = page.split("<h2>Not published</h2>")[1]
    assert "Mallory" in not_published and "broken.deck" in not_published
    # The illegal deck's four Guts are not shown anywhere: only legal lists are published.
    assert "4 Guts" not in page and page.count('class="decklist"') == 3


@pytest.mark.smoke
def test_publish_writes_one_page_and_says_what_it_holds(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "spring.html"
    result = runner.invoke(app, ["tournament", "publish", str(EVENT), "-r", str(EVENT / "registrations.csv"),
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "published 4 legal deck(s)" in result.output and out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    bad = runner.invoke(app, ["tournament", "publish", str(EVENT), "--out", str(tmp_path / "page.txt")])
    assert bad.exit_code == 2 and not (tmp_path / "page.txt").exists()
    # An earlier page is replaced; a file cardkit did not publish, or an input, only with --force or never.
    again = runner.invoke(app, ["tournament", "publish", str(EVENT), "--out", str(out)])
    assert again.exit_code == 0, again.output
    notes = tmp_path / "notes.html"
    notes.write_text("<p>my notes</p>", encoding="utf-8")
    refused = runner.invoke(app, ["tournament", "publish", str(EVENT), "--out", str(notes)])
    assert refused.exit_code == 2 and "--force" in refused.output and notes.read_text(encoding="utf-8") == "<p>my notes</p>"
    forced = runner.invoke(app, ["tournament", "publish", str(EVENT), "--out", str(notes), "--force"])
    assert forced.exit_code == 0 and "Metagame" in notes.read_text(encoding="utf-8")
    deck = EVENT / "decks" / "erik.deck"
    before = deck.read_bytes()
    over_input = runner.invoke(app, ["tournament", "publish", str(EVENT), "--out", str(deck), "--force"])
    assert over_input.exit_code == 2 and deck.read_bytes() == before


def test_publishing_a_page_and_writing_a_database_import_no_pandas(tmp_path: Path) -> None:
    code = ("import sys; from cardkit.tournament import check_event; from cardkit.tournament.database import write_database;"
            "from cardkit.tournament.publish import write_page; result = check_event([sys.argv[1]]);"
            "write_page(result, sys.argv[2]); write_database([result], sys.argv[3]); print('pandas' in sys.modules)")
    run = subprocess.run([sys.executable, "-c", code, str(EVENT), str(tmp_path / "p.html"), str(tmp_path / "e.db")],
                         capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "False" and (tmp_path / "p.html").is_file() and (tmp_path / "e.db").is_file()


def test_publish_json_counts_what_the_page_shows(runner: CliRunner, tmp_path: Path) -> None:
    import json

    out = tmp_path / "p.html"
    result = runner.invoke(app, ["tournament", "publish", str(EVENT), "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    meta = metagame(check_event([EVENT]))
    assert json.loads(result.stdout) == {"path": str(out), "decks": meta.count("decks"), "mixes": meta.count("mixes"),
                                         "cards": meta.count("cards"), "not_published": len(meta.unlisted)}


# --- one table of deck cards, one page style, links, the deck text, CSV tables


@pytest.mark.parametrize("registrations, event, title", [
    ("player,deck,event\nAlice Archer,a.deck,Autumn Cup 2026\n", None, "Autumn Cup 2026"),
    ("player,deck,event\nAlice Archer,a.deck,Autumn Cup 2026\n", "Club Night", "Club Night"),
    ("player,deck\nAlice Archer,a.deck\n", None, "cup-folder"),
], ids=["event-column", "event-option-first", "folder-name"])
def test_the_page_title_is_the_event_option_else_the_event_column_else_the_folder(
        tmp_path: Path, registrations: str, event: str | None, title: str) -> None:
    folder = tmp_path / "cup-folder"
    folder.mkdir()
    deck(folder, "a.deck", HAWKS, "Alice Archer")
    (tmp_path / "players.csv").write_text(registrations, encoding="utf-8")
    page = render_page(check_event([folder], registrations=tmp_path / "players.csv", event=event))
    assert f"<title>{title}: decklists and metagame</title>" in page and f"<h1>{title}: decklists and metagame</h1>" in page


def test_an_event_given_as_files_is_named_after_its_registration_list_s_folder_else_the_files_folder(tmp_path: Path) -> None:
    folder = tmp_path / "autumn-cup"
    (folder / "decks").mkdir(parents=True)
    deck(folder / "decks", "a.deck", HAWKS, "Alice Archer")
    (folder / "players.csv").write_text("player,deck\nAlice Archer,a.deck\n", encoding="utf-8")
    files = [folder / "decks" / "a.deck"]
    assert check_event(files, registrations=folder / "players.csv").event == "autumn-cup"
    assert "<title>autumn-cup: decklists and metagame</title>" in render_page(
        check_event(files, registrations=folder / "players.csv"))
    assert check_event(files).event == "decks"


def test_card_names_link_to_the_served_catalogue_or_an_address_template_else_to_nothing(hostile_event: Path) -> None:
    result = check_event([hostile_event])
    served = render_page(result, card_url="http://127.0.0.1:8001/cardkit/")
    assert '<a href="http://127.0.0.1:8001/cardkit/cards/berserk-tcg,BK1-012">Guts</a>' in served
    other = render_page(result, card_url="https://cards.example/{game}/{id}?lang=en")
    assert '<a href="https://cards.example/berserk-tcg/BK1-012?lang=en">Guts</a>' in other
    plain = render_page(result)
    assert ">Guts</a>" not in plain and "3 Guts <small>(BK1-012)</small>" in plain


def test_the_served_catalogue_links_encode_ids_as_datasette_does() -> None:
    from datasette.utils import tilde_encode as datasette_tilde_encode

    from cardkit.tournament.pages import tilde_encode

    for key in ("BK1-012", "b_lak-nak", "a b/c.d~é", "Ｃ"):
        assert tilde_encode(key) == datasette_tilde_encode(key)


def test_a_card_url_that_is_not_http_is_refused_before_anything_is_written(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "page.html"
    result = runner.invoke(app, ["tournament", "publish", str(EVENT), "--out", str(out), "--card-url", "javascript:alert(1)//{id}"])
    assert result.exit_code == 2 and "--card-url" in result.output and not out.exists()


def test_each_decklist_s_text_reads_back_as_the_deck_that_was_sent(hostile_event: Path, tmp_path: Path) -> None:
    import html

    from cardkit.decks import read_deck
    from cardkit.decks.canonical import deck_hash

    result = check_event([hostile_event])
    page = render_page(result)
    blocks = re.findall(r'<pre id="deck-(\d+)-text">(.*?)</pre>', page, re.S)
    legal = sorted((s for s in result.submissions if s.verdict.value == "legal"), key=lambda s: ((s.player or "").casefold(), s.path))
    assert len(blocks) == len(legal) == 3
    assert page.count('<button type="button" class="copy" data-copy="deck-') == 3
    for (number, text), sent in zip(blocks, legal):
        path = tmp_path / f"copied-{number}.deck"
        path.write_text(html.unescape(text), encoding="utf-8")
        copied = read_deck(path)
        assert deck_hash(copied) == sent.hash
        assert copied.player == sent.player or "\\u" in (copied.player or "")  # a bidi override is shown escaped


def test_the_templates_escape_everything_and_only_their_own_html_is_markup() -> None:
    from cardkit.tournament.pages import environment, render

    assert environment().autoescape("publish.html") and environment().autoescape("report.html")
    text = render("_charts.html") + environment().get_template("_charts.html").module.bar_chart(
        "<t>", [{"label": "<b>\u202e", "value": 1, "fill": None}])
    assert "<b>" not in text and "&lt;b&gt;\\u202e" in text and "&lt;t&gt;" in text


def test_the_deck_cards_table_has_one_row_per_deck_section_and_card(hostile_event: Path) -> None:
    from cardkit.tournament.metagame import CARD_COLUMNS, metagame

    result = check_event([hostile_event])
    meta = metagame(result)
    legal = [s for s in result.submissions if s.verdict.value == "legal"]
    rows = meta.records("deck_cards")
    assert all(tuple(r) == CARD_COLUMNS for r in rows)
    assert len(rows) == sum(len(s.cards) for s in legal)
    assert len({(r["deck"], r["section"], r["card"]) for r in rows}) == len(rows)
    assert sum(r["count"] for r in rows) == sum(c.copies for s in legal for c in s.cards)
    # The cards table is the deck cards grouped: a card's copies are its rows' counts added up.
    guts = [r for r in rows if r["card"] == "BK1-012"]
    row = next(c for c in meta.records("cards") if c["card"] == "BK1-012")
    assert row["copies"] == sum(r["count"] for r in guts) and row["decks"] == len({r["deck"] for r in guts})


def test_the_tables_grouped_from_the_deck_cards_are_what_counting_each_deck_gives() -> None:
    """On a seeded random field with ties, two games, a card in both sections and percentages that round on a half."""
    import random
    from collections import Counter

    from cardkit.tournament.metagame import metagame_of

    rng = random.Random(7)
    decks, cards = [], []
    for i in range(rng.randint(60, 90)):
        game = "berserk-tcg" if i < 40 else rng.choice(["berserk-tcg", "berserk-ccg"])
        if i < 40:  # 43 copies in 40 decks: 1.075 per deck, which rounds down scaled and up unscaled
            cards.append((i, f"P{i}", game, "main", "C99", "Half", "kind", 2 if i < 3 else 1, None))
        decks.append((i, f"P{i}", "", f"{i}.deck", game, rng.choice(["white", "black", "white+red", ""]), rng.randint(38, 42), 0))
        for card in rng.sample(range(30), rng.randint(3, 8)):
            for section in ("main", "side") if card % 7 == 0 else ("main",):
                cards.append((i, f"P{i}", game, section, f"C{card:02d}", f"Card {card % 20}", "kind", rng.randint(1, 3), None))
    meta = metagame_of(cards, decks)

    def rounded(value: float, digits: int) -> float:  # scaled, half to even, scaled back
        return round(value * 10.0 ** digits) / 10.0 ** digits

    field = Counter(d[4] for d in decks)
    mixes = sorted(((g, m, n, rounded(100 * n / field[g], 1)) for (g, m), n in Counter((d[4], d[5]) for d in decks).items()),
                   key=lambda r: (r[0], -r[2], r[1]))
    per_deck: Counter[tuple[str, str, str, str, int]] = Counter()
    for c in cards:
        per_deck[(c[2], c[4], c[5], c[6], c[0])] += c[7]
    played: dict[tuple[str, str, str, str], list[int]] = {}
    for (g, card, name, kind, _deck), n in sorted(per_deck.items()):
        played.setdefault((g, card, name, kind), []).append(n)
    table = sorted(((*k, len(v), rounded(100 * len(v) / field[k[0]], 1), sum(v), rounded(sum(v) / len(v), 2), min(v), max(v))
                    for k, v in played.items()), key=lambda r: (-r[4], -r[6], r[2], r[1], r[0]))
    sizes = sorted((g, m, n) for (g, m), n in Counter((d[4], d[6]) for d in decks).items())
    assert meta.rows("mixes") == mixes and meta.rows("cards") == table and meta.rows("sizes") == sizes
    assert meta.rows("deck_cards") == cards and meta.rows("decks") == decks


def test_the_database_summary_tables_are_the_published_page_s_tables(runner: CliRunner, tmp_path: Path) -> None:
    import sqlite3

    from cardkit.tournament.metagame import COLUMNS, metagame

    out = tmp_path / "event.db"
    assert runner.invoke(app, ["tournament", "db", str(EVENT), "--out", str(out)]).exit_code == 0
    meta = metagame(check_event([EVENT]))
    with sqlite3.connect(out) as conn:
        for name in ("mixes", "cards", "sizes"):
            rows = conn.execute(f"SELECT {', '.join(COLUMNS[name])} FROM metagame_{name} ORDER BY rowid").fetchall()
            assert rows == meta.rows(name) and rows
    conn.close()


def test_csv_dir_writes_every_metagame_table_as_the_metagame_holds_it(runner: CliRunner, tmp_path: Path) -> None:
    import csv

    from cardkit.tournament.metagame import COLUMNS, TABLES, metagame

    out, tables = tmp_path / "page.html", tmp_path / "tables"
    result = runner.invoke(app, ["tournament", "publish", str(EVENT), "--out", str(out), "--csv-dir", str(tables)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tables.iterdir()) == sorted(f"{t}.csv" for t in TABLES)
    meta = metagame(check_event([EVENT]))
    for name in TABLES:
        rows = list(csv.reader((tables / f"{name}.csv").open(encoding="utf-8")))
        assert rows[0] == list(COLUMNS[name]) and len(rows) == meta.count(name) + 1
    cards = list(csv.DictReader((tables / "cards.csv").open(encoding="utf-8")))
    top = meta.records("cards")[0]
    assert cards[0]["name"] == top["name"] and float(cards[0]["percent"]) == top["percent"]
    # Again: cardkit's own tables are replaced.
    assert runner.invoke(app, ["tournament", "publish", str(EVENT), "--out", str(out), "--csv-dir", str(tables)]).exit_code == 0


def test_csv_tables_guard_formulas_and_show_hidden_characters(tmp_path: Path) -> None:
    import csv

    from cardkit.tournament.metagame import metagame
    from cardkit.tournament.publish import write_tables

    folder = tmp_path / "event"
    folder.mkdir()
    deck(folder, "a.deck", HAWKS, '=HYPERLINK("http://x")', "@SUM(A1)")
    deck(folder, "b.deck", APOSTLES, "Clara \u202eevil")
    write_tables(metagame(check_event([folder])), tmp_path / "tables")
    decks = list(csv.DictReader((tmp_path / "tables" / "decks.csv").open(encoding="utf-8")))
    assert [d["player"] for d in decks] == ["'=HYPERLINK(\"http://x\")", "Clara \\u202eevil"]
    assert decks[0]["name"] == "'@SUM(A1)"
    players = {r["player"] for r in csv.DictReader((tmp_path / "tables" / "deck_cards.csv").open(encoding="utf-8"))}
    assert players == {"'=HYPERLINK(\"http://x\")", "Clara \\u202eevil"}


def test_csv_dir_over_a_file_cardkit_did_not_write_is_refused_before_any_work(runner: CliRunner, tmp_path: Path) -> None:
    tables = tmp_path / "tables"
    tables.mkdir()
    (tables / "cards.csv").write_text("my,own\nnotes,here\n", encoding="utf-8")
    out = tmp_path / "page.html"
    result = runner.invoke(app, ["tournament", "publish", str(EVENT), "--out", str(out), "--csv-dir", str(tables)])
    assert result.exit_code == 2 and "--force" in result.output
    assert not out.exists() and [p.name for p in tables.iterdir()] == ["cards.csv"]
    assert (tables / "cards.csv").read_text(encoding="utf-8") == "my,own\nnotes,here\n"
    afile = tmp_path / "afile"
    afile.write_text("x", encoding="utf-8")
    refused = runner.invoke(app, ["tournament", "publish", str(EVENT), "--out", str(out), "--csv-dir", str(afile)])
    assert refused.exit_code == 2 and not out.exists() and afile.read_text(encoding="utf-8") == "x"


@pytest.mark.parametrize(("name", "player"), [("Hawks x3", "Ann"), ("Hawks", "Zed x 2"), ("Team #1", "Ann // B")],
                         ids=["a deck name like a card line", "a player like a card line", "names with comment marks"])
def test_a_decklist_s_text_reads_back_as_the_same_deck_when_its_names_look_like_card_lines_or_comments(
        tmp_path: Path, name: str, player: str) -> None:
    import html
    import json

    from cardkit.decks import read_deck
    from cardkit.decks.canonical import deck_hash

    sent = json.loads((EVENT / "decks" / "clara-black-forest.deck.json").read_text(encoding="utf-8"))
    (tmp_path / "event").mkdir()
    (tmp_path / "event" / "d.deck.json").write_text(json.dumps({**sent, "name": name, "player": player}), encoding="utf-8")
    result = check_event([tmp_path / "event"])
    [(text,)] = [(t,) for t in re.findall(r'<pre id="deck-\d+-text">(.*?)</pre>', render_page(result), re.S)]
    path = tmp_path / "copied.deck"
    path.write_text(html.unescape(text), encoding="utf-8")
    copied = read_deck(path)
    assert deck_hash(copied) == result.submissions[0].hash
    # A name the deck format can't hold as a header is kept as a comment for the reader, never as another value.
    assert copied.player in (player, None) and copied.header.get("name") in (name, None)
    assert f"{name}" in text and html.escape(player, quote=True) in text


def test_a_decklist_s_text_names_the_deck_s_own_format_when_the_event_has_none(tmp_path: Path) -> None:
    result = check_event([EVENT / "decks" / "clara-black-forest.deck.json"])
    assert result.format is None
    assert "\nformat: berserk-tcg\n" in render_page(result)


def test_a_csv_dir_under_a_file_is_refused_before_anything_is_written_not_even_the_page(
        runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a folder\n", encoding="utf-8")
    out = tmp_path / "page.html"
    result = runner.invoke(app, ["tournament", "publish", str(EVENT), "--out", str(out),
                                 "--csv-dir", str(tmp_path / "notes.txt" / "tables")])
    assert result.exit_code == 2 and "notes.txt" in result.output
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


@pytest.mark.parametrize("csv_dir", ["page.html", "page.html/tables"], ids=["the-page-itself", "under-the-page"])
def test_a_csv_dir_where_the_page_goes_is_refused_and_nothing_is_written(
        runner: CliRunner, tmp_path: Path, csv_dir: str) -> None:
    out = tmp_path / "event" / "page.html"
    result = runner.invoke(app, ["tournament", "publish", str(EVENT), "--out", str(out),
                                 "--csv-dir", str(tmp_path / "event" / csv_dir)])
    assert result.exit_code == 2 and "can't be both a file to write and the folder of" in result.output
    assert list(tmp_path.rglob("*")) in ([], [tmp_path / "event"])


def test_in_an_event_of_two_games_each_most_played_card_s_label_names_its_game() -> None:
    from cardkit.tournament.pages import card_labels

    cards = [{"game": "berserk-tcg", "card": "BK1-001", "name": "Mercenary"},
             {"game": "berserk-online", "card": "f_luana", "name": "Luana"},
             {"game": "berserk-tcg", "card": "BK1-081", "name": "Mercenary"}]
    assert card_labels(cards) == ["berserk-tcg: Mercenary (BK1-001)", "berserk-online: Luana",
                                  "berserk-tcg: Mercenary (BK1-081)"]
    assert card_labels(cards[:1]) == ["Mercenary"]


def test_a_decks_mix_follows_the_catalogue_it_is_read_from_not_one_remembered_from_before(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from cardkit.catalogue.store import GameCatalogue
    from cardkit.tournament import metagame

    def catalogue(colour: str) -> GameCatalogue:
        return GameCatalogue(game="berserk-tcg", cards={"X-1": {"id": "X-1", "colour": colour}}, sets=[], source={})

    first, second = catalogue("red"), catalogue("white")
    monkeypatch.setattr(metagame, "load_game", lambda game: first)
    assert metagame.mix("berserk-tcg", ["X-1", "NOT-A-CARD"]) == "red"
    assert metagame.mix("berserk-tcg", ["NOT-A-CARD"]) == "colourless"
    monkeypatch.setattr(metagame, "load_game", lambda game: second)
    assert metagame.mix("berserk-tcg", ["X-1"]) == "white"


def test_an_event_file_the_command_line_already_names_is_not_added_to_the_outputs_inputs_again() -> None:
    from cardkit.tournament.reports import new_inputs

    assert new_inputs([Path("event/a.deck"), "regs.csv"], ["event/a.deck", "regs.csv", "event/b.deck"]) == ["event/b.deck"]


def test_a_disk_that_fills_while_the_csv_tables_are_written_leaves_the_earlier_page_and_tables_as_they_were(
        runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno
    import os

    out, tables = tmp_path / "page.html", tmp_path / "tables"
    first = runner.invoke(app, ["tournament", "publish", str(EVENT), "--out", str(out), "--csv-dir", str(tables)])
    assert first.exit_code == 0, first.output
    before = {p.name: p.read_bytes() for p in [out, *tables.iterdir()]}
    synced: list[int] = []
    real_fsync = os.fsync

    def fills_up(fd: int) -> None:
        # The page and the first two tables reach the disk; the third table finds it full.
        if len(synced) == 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        synced.append(fd)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fills_up)
    result = runner.invoke(app, ["tournament", "publish", str(EVENT), "--event", "Another title", "--out", str(out),
                                 "--csv-dir", str(tables)])
    assert result.exit_code == 2 and "the disk is full" in result.output and "nothing written" in result.output
    assert {p.name: p.read_bytes() for p in [out, *tables.iterdir()]} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["page.html", "tables"]
