"""Issue 10, family 7: `deck convert` never writes what doesn't read back as the same deck."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cardkit.cli.main import app
from cardkit.decks import parse_deck
from cardkit.decks.canonical import UnfaithfulConversion, convert

ROOT = Path(__file__).resolve().parent.parent
HAWKS = ROOT / "decks" / "berserk-tcg" / "white-hawks.deck"
LEGAL_MAIN = [{"card": "Mercenary (BK1-001)", "count": 45}]


def json_deck(tmp_path: Path, main: list[dict[str, Any]], **header: Any) -> Path:
    path = tmp_path / "hostile.deck.json"
    path.write_text(json.dumps({"game": "berserk-tcg", **header, "main": main, "side": []}), encoding="utf-8")
    return path


HOSTILE_JSON: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]] = {
    # An unknown card whose text, written as a text line, reads back as a legal card.
    "comment-hides-the-rest": ({}, LEGAL_MAIN + [{"card": "Guts (BK1-012) # smuggled", "count": 1}]),
    "slashes-hide-the-rest": ({}, LEGAL_MAIN + [{"card": "Nobody // of this name", "count": 1}]),
    "newline-makes-a-second-card-line": ({}, LEGAL_MAIN + [{"card": "Nobody\n3 Guts (BK1-012)", "count": 1}]),
    "carriage-return-makes-a-second-card-line": ({}, LEGAL_MAIN + [{"card": "Nobody\r3 Mercenary", "count": 1}]),
    "newline-in-a-header-starts-the-side-deck": ({"player": "Mallory\nSide\n3 Guts (BK1-012)"}, LEGAL_MAIN),
    "header-key-that-is-no-header-line": ({"my key!": "x"}, LEGAL_MAIN),
}


@pytest.mark.parametrize("case", HOSTILE_JSON)
def test_a_json_deck_that_text_cannot_say_is_refused_and_nothing_is_written(
    runner: CliRunner, tmp_path: Path, case: str
) -> None:
    header, main = HOSTILE_JSON[case]
    deck = json_deck(tmp_path, main, **header)
    out = tmp_path / "out.deck"
    result = runner.invoke(app, ["deck", "convert", str(deck), "--to", "text", "--out", str(out)])
    assert result.exit_code == 1 and result.output.startswith("error: ") and result.output.count("\n") == 1, result.output
    assert "so that it reads back the same" in result.output and not out.exists()
    stdout = runner.invoke(app, ["deck", "convert", str(deck), "--to", "text"])
    assert stdout.exit_code == 1 and stdout.stdout == ""


def test_a_text_header_key_json_reserves_is_refused(tmp_path: Path) -> None:
    deck = parse_deck("game: berserk-tcg\nmain: my favourite\n\nMain\n45 Mercenary\n")
    with pytest.raises(UnfaithfulConversion, match="header 'main'"):
        convert(deck, "json")


def test_spacing_inside_names_survives_both_ways_instead_of_being_squeezed(tmp_path: Path) -> None:
    deck = json_deck(tmp_path, LEGAL_MAIN + [{"card": "No  Such\tCard", "count": 2}], player="Alice  Archer")
    original = parse_deck(deck.read_text(encoding="utf-8"), json_hint=True)
    as_text = parse_deck(convert(original, "text"))
    assert as_text.header["player"] == "Alice  Archer"
    assert [e.text for e in as_text.entries][-1] == "No  Such\tCard"
    assert convert(parse_deck(convert(as_text, "json"), json_hint=True), "text") == convert(original, "text")


def test_every_bundled_deck_still_converts_both_ways() -> None:
    for path in sorted((ROOT / "decks").rglob("*.deck")) + sorted((ROOT / "decks").rglob("*.deck.json")):
        deck = parse_deck(path.read_text(encoding="utf-8"), path=str(path), json_hint=path.suffix == ".json")
        if any(p.code == "PARSE_ERROR" for p in deck.problems):
            continue
        for form in ("json", "text"):
            convert(deck, form)
