"""`cardkit tournament publish`: the metagame as DataFrames, one self-contained page, hostile names escaped."""

from __future__ import annotations

import re
from collections import Counter
import subprocess
import sys
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
    assert len(meta.decks) == len(legal) == 3
    assert meta.mixes["decks"].sum() == 3 and meta.mixes["percent"].sum() == pytest.approx(100, abs=0.2)
    # Two decks are White Hawks: each of its cards is played by two decks, in the same numbers.
    hawks = {c.card: 0 for c in legal[0].cards}
    for s in legal:
        for c in s.cards:
            if c.card in hawks:
                hawks[c.card] += c.copies
    mercenary = meta.cards.set_index("card").loc["BK1-001"]
    assert (mercenary["decks"], mercenary["copies"], mercenary["fewest"], mercenary["most"]) == (2, hawks["BK1-001"], 12, 12)
    assert meta.cards["decks"].is_monotonic_decreasing
    sizes = Counter(s.report.counts["main"] for s in legal)
    assert dict(zip(meta.sizes["main"], meta.sizes["decks"])) == sizes
    assert sorted(v for _, v in meta.unlisted) == ["illegal", "unreadable"]


def test_the_page_escapes_every_name_and_runs_only_its_own_script(page: str) -> None:
    assert HOSTILE_PLAYER not in page and "&lt;script&gt;alert(&quot;p&quot;)&lt;/script&gt;" in page
    assert "<img" not in page and "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&lt;/style&gt;" in page
    assert "<b onmouseover" not in page and "&lt;b onmouseover=alert(2)&gt;Mallory&lt;/b&gt;" in page
    assert page.count("<script>") == 1 and page.count("</style>") == 1
    # A right-to-left override would reverse what follows it on the page: it is shown as an escape instead.
    assert "\u202e" not in page and "Ｃｌａｒａ \\u202eevil" in page


def test_the_page_needs_no_other_file_or_network(page: str) -> None:
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//|file:|[\w./-]+\.(css|js|png|svg))""", page)
    assert "@import" not in page and "url(" not in page
    assert page.count("<svg") == 3  # the charts are drawn into the page


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


def test_pandas_is_imported_only_by_publish() -> None:
    code = ("import sys; from cardkit.cli.main import app; import cardkit.tournament.database, cardkit.tournament.registry;"
            "print('pandas' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "False"


def test_publish_json_counts_what_the_page_shows(runner: CliRunner, tmp_path: Path) -> None:
    import json

    out = tmp_path / "p.html"
    result = runner.invoke(app, ["tournament", "publish", str(EVENT), "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    meta = metagame(check_event([EVENT]))
    assert json.loads(result.stdout) == {"path": str(out), "decks": len(meta.decks), "mixes": len(meta.mixes),
                                         "cards": len(meta.cards), "not_published": len(meta.unlisted)}
