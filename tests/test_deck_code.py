"""Deck codes: one URL-safe line per deck, accepted wherever a deck file is, and safe to decode from anyone."""

from __future__ import annotations

import base64
import json
import re
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sampling import examples
from typer.testing import CliRunner

from cardkit.catalogue.store import load_game
from cardkit.cli.main import app
from cardkit.decks import parse_deck, read_deck
from cardkit.decks.canonical import deck_hash
from cardkit.decks.code import MAX_CODE_CHARS, BadDeckCode, decode_code, encode_deck, read_deck_code
from cardkit.games.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent
HAWKS = ROOT / "decks" / "berserk-tcg" / "white-hawks.deck"
FOUR_GUTS = ROOT / "decks" / "berserk-tcg" / "illegal-four-guts.deck"
URL_SAFE = re.compile(r"^ck1\.[A-Za-z0-9_-]+$")


def _json_deck(game: str, main: dict[str, int], side: dict[str, int]) -> str:
    return json.dumps({"game": game, "main": [{"card": c, "count": n} for c, n in main.items()],
                       "side": [{"card": c, "count": n} for c, n in side.items()]})


def _code_of(payload: object) -> str:
    raw = json.dumps(payload).encode()
    return "ck1." + base64.urlsafe_b64encode(zlib.compress(raw)).decode().rstrip("=")


@st.composite
def decks(draw: st.DrawFn) -> tuple[str, dict[str, int], dict[str, int]]:
    game = draw(st.sampled_from(GAMES))
    ids = list(load_game(game).cards)
    section = st.dictionaries(st.sampled_from(ids), st.integers(1, 10_000), max_size=25)
    return game, draw(section), draw(section)


@settings(max_examples=examples(60))
@given(decks())
def test_a_deck_code_round_trips_to_the_same_cards_counts_and_hash(deck: tuple[str, dict[str, int], dict[str, int]]) -> None:
    game, main, side = deck
    original = parse_deck(_json_deck(game, main, side), json_hint=True)
    code = encode_deck(original)
    assert URL_SAFE.match(code)
    back = read_deck_code("code:" + code)
    assert (back.game, back.format, back.main, back.side) == (original.game, original.format, original.main, original.side)
    assert deck_hash(back) == deck_hash(original)


def test_spelling_and_order_do_not_change_the_code() -> None:
    by_name = parse_deck("game: berserk-tcg\n3 Moonlight Raiders\n2 Judeau (BK1-015)\nSide\n1 Volley Shot\n")
    by_id = parse_deck("game: berserk-tcg\nSB: 1 BK1-34\n2 BK1-15\n3 BK1-3\n")
    assert encode_deck(by_name) == encode_deck(by_id)


def test_the_bundled_deck_fits_a_link_and_keeps_its_format_but_not_its_player() -> None:
    code = encode_deck(read_deck(HAWKS))
    assert len(code) < 250
    payload = decode_code(code)
    assert payload["format"] == "berserk-tcg" and "player" not in payload and "name" not in payload


def test_a_deck_with_an_unresolved_card_has_no_code() -> None:
    from cardkit.decks.canonical import UnresolvedDeck

    with pytest.raises(UnresolvedDeck):
        encode_deck(parse_deck("game: berserk-tcg\n3 Guts\n"))


def test_a_pasted_code_with_padding_and_a_newline_still_reads() -> None:
    code = encode_deck(read_deck(HAWKS))
    assert deck_hash(read_deck_code(f"code:{code}==\n")) == deck_hash(read_deck(HAWKS))


def test_an_id_the_catalogue_no_longer_has_is_an_unknown_card_not_a_crash() -> None:
    deck = read_deck_code(_code_of({"game": "berserk-tcg", "format": "berserk-tcg", "main": [["BK9-999", 3]], "side": []}))
    assert [p.code for p in deck.problems] == ["UNKNOWN_CARD"]


@pytest.mark.parametrize(("code", "reason"), [
    ("", "a code starts with `ck1.`"),
    ("ck2.eNqrVkpPzE1V", "version 'ck2' is unknown"),
    ("ck1.not base64!", "only letters, digits"),
    ("ck1.AAAA", "damaged"),
    ("ck1.A", "damaged"),
    ("ck1." + "A" * (MAX_CODE_CHARS + 1), "the limit is 16384"),
    ("ck1." + base64.urlsafe_b64encode(zlib.compress(b" " * (10 << 20))).decode().rstrip("="), "inflates past"),
    ("ck1." + base64.urlsafe_b64encode(zlib.compress(b"{}")[:-3]).decode().rstrip("="), "cut short"),
    ("ck1." + base64.urlsafe_b64encode(zlib.compress(b"\xff\xfe")).decode().rstrip("="), "not a deck"),
    ("ck1." + base64.urlsafe_b64encode(zlib.compress(b"[" * 100)).decode().rstrip("="), "not a deck"),
    (_code_of({"game": "chess", "format": "x", "main": [], "side": []}), "game or format"),
    (_code_of({"game": "berserk-tcg", "format": "berserk-tcg", "main": [["BK1-001", 0]], "side": []}), "main section"),
    (_code_of({"game": "berserk-tcg", "format": "berserk-tcg", "main": [["BK1-001", True]], "side": []}), "main section"),
    (_code_of({"game": "berserk-tcg", "format": "berserk-tcg", "main": [], "side": {"a": 1}}), "side section"),
    (_code_of({"game": "berserk-tcg", "format": "berserk-tcg", "main": [], "side": [], "player": "x"}), "not a deck"),
], ids=["empty", "version", "alphabet", "damaged", "one-char", "too-long", "zip-bomb", "truncated", "not-utf8",
        "deep-json", "unknown-game", "zero-count", "bool-count", "side-object", "extra-key"])
def test_a_bad_code_is_one_reason_never_a_crash(code: str, reason: str) -> None:
    with pytest.raises(BadDeckCode, match=re.escape(reason)):
        decode_code("code:" + code)


def test_deck_code_prints_a_code_that_validate_hash_and_convert_take(runner: CliRunner) -> None:
    made = runner.invoke(app, ["deck", "code", str(FOUR_GUTS)])
    assert made.exit_code == 0
    argument = "code:" + made.stdout.strip()
    checked = runner.invoke(app, ["validate", argument])
    assert checked.exit_code == 1 and "ILLEGAL" in checked.stdout and "TOO_MANY_COPIES" in checked.stdout
    hashed = runner.invoke(app, ["deck", "hash", argument])
    assert hashed.stdout == runner.invoke(app, ["deck", "hash", str(FOUR_GUTS)]).stdout
    converted = runner.invoke(app, ["deck", "convert", argument, "--to", "json"])
    assert converted.exit_code == 0 and json.loads(converted.stdout)["game"] == "berserk-tcg"


def test_deck_diff_compares_a_file_with_a_code(runner: CliRunner) -> None:
    code = "code:" + encode_deck(read_deck(HAWKS))
    assert runner.invoke(app, ["deck", "diff", str(HAWKS), code]).stdout == "same cards\n"


def test_a_bad_code_on_the_command_line_is_one_error_line_and_exit_2(runner: CliRunner) -> None:
    result = runner.invoke(app, ["deck", "hash", "code:ck1.AAAA"])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: code:ck1.AAAA: not a deck code")


def test_validate_reports_a_bad_code_beside_the_good_files(runner: CliRunner) -> None:
    result = runner.invoke(app, ["validate", str(HAWKS), "code:ck9.x"])
    assert result.exit_code == 2
    assert result.stdout.splitlines()[-1] == "code:ck9.x: UNREADABLE"


def test_the_library_example_of_docs_decks_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (ROOT / "docs" / "decks.md").read_text(encoding="utf-8")
    block = text.split("## Library", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(ROOT)
    exec(compile(block, "docs/decks.md", "exec"), {})
