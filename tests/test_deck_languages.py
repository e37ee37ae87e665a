"""Pastes from anywhere: Russian and German headers and section titles, `Name x3`, and files that are not UTF-8."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

from cardkit.cli.main import app
from cardkit.decks import parse_deck, read_deck
from cardkit.decks.parse import parse_text
from cardkit.errors import UnreadableInput

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data" / "decks"


def test_the_deck_words_file_matches_its_schema() -> None:
    schema = json.loads((ROOT / "schemas" / "deck-words.schema.json").read_text(encoding="utf-8"))
    words = json.loads((ROOT / "data" / "deck-words.json").read_text(encoding="utf-8"))
    assert list(Draft202012Validator(schema).iter_errors(words)) == []


def test_a_russian_paste_reads_its_header_sections_and_counts_after_names() -> None:
    deck = read_deck(DATA / "russian-paste.deck")
    assert (deck.game, deck.format, deck.player, deck.name) == ("berserk-ccg", "berserk-ccg", "Анна", "Степные орки")
    assert [(e.section, e.count, e.card) for e in deck.entries] == [
        ("main", 3, "10001"), ("main", 2, "10004"), ("main", 3, "50184"), ("side", 1, "10001")]
    assert [p.code for p in deck.problems] == []


def test_a_german_paste_reads_its_header_and_sections() -> None:
    deck = read_deck(DATA / "german-paste.deck")
    assert (deck.game, deck.player, deck.event) == ("berserk-tcg", "Jörg", "Frühjahr")
    assert deck.main == {"BK1-001": 12, "BK1-012": 3} and deck.side == {"BK1-003": 2}
    assert deck.problems == []


@pytest.mark.parametrize("title", ["Основная колода", "ОСНОВНАЯ КОЛОДА:", "Hauptdeck", "// Основная колода (40 карт)"])
def test_a_main_title_in_any_language_starts_the_main_section(title: str) -> None:
    parsed = parse_text(f"Side\n1 Guts (BK1-012)\n{title}\n3 Casca (BK1-013)\n")
    assert [e.section for e in parsed.entries] == ["side", "main"] and parsed.problems == []


@pytest.mark.parametrize("title", ["Сайд", "Сайдборд:", "сайд-колода", "Nebendeck", "// Nebendeck (15 Karten)"])
def test_a_side_title_in_any_language_starts_the_side_section(title: str) -> None:
    parsed = parse_text(f"3 Guts (BK1-012)\n{title}\n2 Casca (BK1-013)\n")
    assert [e.section for e in parsed.entries] == ["main", "side"] and parsed.problems == []


@pytest.mark.parametrize("line", ["Guts (BK1-012) x3", "Guts (BK1-012) ×3", "Guts (BK1-012) X 3", "Guts (BK1-012) х3"],
                         ids=["x", "times sign", "capital x, spaced", "cyrillic kha"])
def test_a_count_after_the_name_is_the_count(line: str) -> None:
    (entry,) = parse_text(line).entries
    assert (entry.count, entry.text) == (3, "Guts (BK1-012)")


def test_a_count_after_the_name_is_checked_like_any_count() -> None:
    parsed = parse_text("Guts x0\nGuts x20000\n")
    assert [p.message for p in parsed.problems] == ["count 0 is not positive", "count 20000 is over 10000"]


def test_a_line_with_a_count_before_and_after_the_name_is_never_silently_either_count() -> None:
    deck = parse_deck("game: berserk-tcg\n3 Guts (BK1-012) x2\n")
    assert [(e.count, e.text) for e in deck.entries] == [(3, "Guts (BK1-012) x2")]
    assert [p.code for p in deck.problems] == ["UNKNOWN_CARD"]


def test_a_translated_game_key_given_twice_is_a_parse_error() -> None:
    parsed = parse_text("game: berserk-tcg\nИгра: berserk-tcg\n3 BK1-012\n")
    assert [p.message for p in parsed.problems] == ["`game:` given again (first on line 1)"]


def test_plain_berserk_names_no_game_and_asks_for_one(runner: CliRunner, tmp_path: Path) -> None:
    deck = tmp_path / "berserk.deck"
    deck.write_text("game: berserk\n3 Guts (BK1-012)\n", encoding="utf-8")
    result = runner.invoke(app, ["validate", str(deck)])
    assert result.exit_code == 2 and "unknown game 'berserk'" in result.stderr


def test_a_windows_1251_file_is_named_with_the_iconv_line_that_converts_it(runner: CliRunner) -> None:
    with pytest.raises(UnreadableInput) as exc:
        read_deck(DATA / "cp1251.deck")
    path = str(DATA / "cp1251.deck")
    assert exc.value.terminal_message == (
        f"{path}: not UTF-8 (byte 20); it reads as Windows-1251 (Cyrillic) text ('3 Кочевник'): save it as UTF-8 "
        f"(convert it with `iconv -f CP1251 -t UTF-8 {path} > {path[:-5]}.utf8.deck` and use the new file)")


def test_standard_input_in_windows_1251_is_told_to_go_through_iconv(runner: CliRunner) -> None:
    result = runner.invoke(app, ["validate", "-"], input="game: berserk-ccg\n3 Кочевник\n".encode("cp1251"))
    assert result.exit_code == 2
    assert "reads as Windows-1251 (Cyrillic) text" in result.stderr and "pipe it through `iconv -f CP1251 -t UTF-8` first" in result.stderr


# Deck lines as players write them: card names in Russian, capitalised or in capitals.
RUSSIAN_DECKS = [
    "game: berserk-ccg\n3 Кочевник\n",
    "player: Борис Петров\n3 Ящер\n2 Лесной страж\n1 Гном-воин\n",
    "# моя колода для турнира\n3 Щит\n3 Кочевник\n",
    "game: berserk-ccg\nplayer: Ирина\n2 Болотный тролль\n2 Эльфийский лучник\n",
]


@pytest.mark.parametrize("text", RUSSIAN_DECKS)
@pytest.mark.parametrize("codec, name", [("cp1251", "CP1251"), ("koi8_r", "KOI8-R")])
def test_a_cyrillic_file_is_named_in_the_encoding_its_iconv_line_reads_right(tmp_path: Path, text: str, codec: str,
                                                                            name: str) -> None:
    path = tmp_path / "deck.deck"
    path.write_bytes(text.encode(codec))
    with pytest.raises(UnreadableInput) as exc:
        read_deck(path)
    label = {"cp1251": "Windows-1251", "koi8_r": "KOI8-R"}[codec]
    assert f"it reads as {label} (Cyrillic) text" in exc.value.message
    assert f"iconv -f {name} -t UTF-8" in (exc.value.hint or "")
    # The line shown is the file's own text: what the iconv line will give.
    first = next(line.strip() for line in text.splitlines() if any(ord(c) > 127 for c in line))
    assert first[:30] in exc.value.message


def test_cyrillic_in_capitals_is_still_told_by_its_letters(tmp_path: Path) -> None:
    from cardkit.encodinghints import cyrillic_encodings

    text = "ИГРОК: ИВАН ПЕТРОВ\n3 КОЧЕВНИК\n"
    assert [label for _, label, _ in cyrillic_encodings(text.encode("cp1251"))] == ["Windows-1251"]
    assert [label for _, label, _ in cyrillic_encodings(text.encode("koi8_r"))] == ["KOI8-R"]


WORDS = ("Кочевник Лесной страж Гном воин Болотный тролль Эльфийский лучник Щит Ящер Жрица огня Чёрный рыцарь "
         "Хранитель леса Морская змея Царь гор Шаман Юный маг Вождь орков Фея Ворон Дракон Целитель").split()


@pytest.mark.parametrize("seed", range(200))
def test_a_named_cyrillic_encoding_is_never_the_wrong_one(seed: int) -> None:
    import random

    from cardkit.encodinghints import cyrillic_encodings

    rng = random.Random(seed)
    lines = [f"{rng.randint(1, 3)} {' '.join(rng.sample(WORDS, rng.randint(1, 3)))}" for _ in range(rng.randint(1, 6))]
    text = "\n".join(line.upper() if rng.random() < 0.2 else line for line in lines) + "\n"
    for codec, label in (("cp1251", "Windows-1251"), ("koi8_r", "KOI8-R")):
        named = [name for _, name, _ in cyrillic_encodings(text.encode(codec))]
        assert label in named, (text, codec, named)


def test_cyrillic_too_short_to_tell_names_both_encodings(tmp_path: Path) -> None:
    path = tmp_path / "short.deck"
    path.write_bytes("3 ЩИТ\n".encode("cp1251"))  # capitals only: no case to go by, and three letters
    with pytest.raises(UnreadableInput) as exc:
        read_deck(path)
    assert "it reads as Cyrillic text, Windows-1251 ('3 ЩИТ') or KOI8-R (" in exc.value.message
    assert "and its letters don't tell which" in exc.value.message
    assert "iconv -f CP1251 -t UTF-8" in (exc.value.hint or "") and "use `-f KOI8-R` instead" in (exc.value.hint or "")


def test_a_latin_1_file_is_named_latin_1(tmp_path: Path) -> None:
    path = tmp_path / "grün deck.deck"
    path.write_bytes("Spiel: berserk-online\nHauptdeck\n3 Grüner Drache\n".encode("latin-1"))
    with pytest.raises(UnreadableInput) as exc:
        read_deck(path)
    assert "it reads as Latin-1 text ('3 Grüner Drache')" in exc.value.message and "save it as UTF-8" in exc.value.message
    assert f"`iconv -f LATIN1 -t UTF-8 '{path}' > '{tmp_path}/grün deck.utf8.deck'`" in exc.value.hint


def test_bytes_that_read_as_no_script_get_no_guess(tmp_path: Path) -> None:
    path = tmp_path / "noise.deck"
    path.write_bytes(b"game: berserk-tcg\n3 \x81\x82\x83\x84\n")
    with pytest.raises(UnreadableInput) as exc:
        read_deck(path)
    assert exc.value.message.endswith("not UTF-8 (byte 20)")


def test_a_converted_paste_writes_the_english_header(runner: CliRunner) -> None:
    result = runner.invoke(app, ["deck", "convert", str(DATA / "german-paste.deck"), "--to", "text"])
    assert result.exit_code == 0
    assert result.stdout.startswith("game: berserk-tcg\nplayer: Jörg\nevent: Frühjahr\n\nMain\n")
    assert parse_deck(result.stdout).main == read_deck(DATA / "german-paste.deck").main


def test_a_utf_16_file_is_named_utf_16_not_binary(tmp_path: Path) -> None:
    path = tmp_path / "notepad.deck"
    path.write_bytes("game: berserk-ccg\n3 Кочевник\n".encode("utf-16"))
    with pytest.raises(UnreadableInput) as exc:
        read_deck(path)
    assert exc.value.terminal_message == (f"{path}: UTF-16 text, not UTF-8: save it as UTF-8 (convert it with "
                                 f"`iconv -f UTF-16 -t UTF-8 {path} > {tmp_path}/notepad.utf8.deck` and use the new file)")


def test_two_stray_bytes_are_damage_and_get_no_guess(tmp_path: Path) -> None:
    path = tmp_path / "broken.deck"
    path.write_bytes(b"game: berserk-tcg\n3 Guts\n\xff\xfe broken\n")
    with pytest.raises(UnreadableInput) as exc:
        read_deck(path)
    assert exc.value.message.endswith("not UTF-8 (byte 25)")


@pytest.mark.parametrize("order", ["UTF-16LE", "UTF-16BE"])
def test_a_utf_16_file_without_a_byte_order_mark_is_named_with_its_iconv_line_not_called_binary(
        tmp_path: Path, order: str) -> None:
    path = tmp_path / "export.deck"
    path.write_bytes("game: berserk-ccg\r\n3 Кочевник\r\n\t2 Guts\r\n".encode(order.lower()))
    with pytest.raises(UnreadableInput) as exc:
        read_deck(path)
    assert exc.value.terminal_message == (f"{path}: {order} text without a byte-order mark, not UTF-8: "
                                          "save it as UTF-8 (convert it with "
                                 f"`iconv -f {order} -t UTF-8 {path} > {tmp_path}/export.utf8.deck` and use the new file)")


def test_binary_bytes_with_nuls_are_still_called_binary(tmp_path: Path) -> None:
    path = tmp_path / "image.deck"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00")
    with pytest.raises(UnreadableInput) as exc:
        read_deck(path)
    assert exc.value.message.endswith("holds a NUL byte at line 3, column 1 (a binary file?)")


@pytest.mark.parametrize("text", ["game: berserk-tcg\n3 G\x00uts\n", "game: berserk-tcg\n3 G\x00uts\n1 Casca\n",
                                  "game: berserk-tcg\n3 Ёж\x00 \n"])
def test_a_single_nul_byte_in_utf_8_text_is_placed_by_line_and_column_not_called_utf_16(
        tmp_path: Path, text: str) -> None:
    path = tmp_path / "damaged.deck"
    path.write_bytes(text.encode("utf-8"))
    with pytest.raises(UnreadableInput) as exc:
        read_deck(path)
    column = text.split("\n")[1].index("\x00") + 1
    assert exc.value.message == f"{path}: holds a NUL byte at line 2, column {column} (a binary file?)"
    assert exc.value.hint is None


@pytest.mark.parametrize("codec", ["utf-32", "utf-32-be"])
def test_a_utf_32_file_is_named_utf_32_so_its_iconv_line_does_not_garble_it(tmp_path: Path, codec: str) -> None:
    path = tmp_path / "wide.deck"
    text = "game: berserk-ccg\n3 Кочевник\n"
    data = text.encode(codec) if codec == "utf-32" else b"\x00\x00\xfe\xff" + text.encode(codec)
    path.write_bytes(data)
    with pytest.raises(UnreadableInput) as exc:
        read_deck(path)
    assert exc.value.terminal_message == (f"{path}: UTF-32 text, not UTF-8: save it as UTF-8 (convert it with "
                                 f"`iconv -f UTF-32 -t UTF-8 {path} > {tmp_path}/wide.utf8.deck` and use the new file)")


def test_the_iconv_line_for_a_file_named_like_an_option_names_it_as_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("-rf.deck").write_bytes("game: berserk-ccg\n3 Кочевник\n".encode("utf-16"))
    with pytest.raises(UnreadableInput) as exc:
        read_deck("-rf.deck")
    assert "`iconv -f UTF-16 -t UTF-8 ./-rf.deck > ./-rf.utf8.deck`" in exc.value.hint


DECK_WORDS = json.loads((ROOT / "data" / "deck-words.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("layout", DECK_WORDS["layouts"], ids=[layout["line"] for layout in DECK_WORDS["layouts"]])
def test_every_layout_of_the_deck_words_file_reads_as_it_says(layout: dict[str, object]) -> None:
    # After a side-deck title, so that a heading or total visibly leaves the section as it was.
    parsed = parse_text(f"Side\n{layout['line']}\n1 Guts (BK1-012)\n")
    first, *rest = parsed.entries
    if layout["reads"] == "card":
        assert (first.count, first.text, first.section) == (layout["count"], layout["card"], "side")
        assert parsed.problems == [] and len(rest) == 1
    elif layout["reads"] == "not a card line":
        assert [p.code for p in parsed.problems] == ["PARSE_ERROR"] and rest == []
    else:
        section = layout.get("section", "side")
        assert parsed.problems == [] and rest == [] and (first.section, first.text) == (section, "Guts (BK1-012)")


def test_no_heading_or_total_word_is_a_card_name_so_none_hides_a_card() -> None:
    from cardkit.catalogue.store import load_game
    from cardkit.games.registry import GAMES
    from cardkit.textfold import fold

    names = {fold(card["name"]) for game in GAMES for card in load_game(game).cards.values()}
    words = [w for heading in DECK_WORDS["categories"].values() for w in heading] + DECK_WORDS["totals"]
    assert [w for w in words if fold(w) in names] == []


def test_a_russian_forum_list_with_type_headings_and_counts_after_names_reads_every_card() -> None:
    deck = read_deck(DATA / "russian-forum.deck")
    assert (deck.game, deck.player, deck.problems) == ("berserk-ccg", "Павел", [])
    assert deck.main == {"10001": 3, "10002": 3, "10003": 3, "10004": 3, "10013": 3, "30129": 3, "10012": 3,
                         "10014": 3, "20008": 3, "30011": 3}


def test_the_white_hawks_as_a_russian_forum_writes_them_are_the_bundled_white_hawks() -> None:
    from cardkit.decks.canonical import deck_hash

    forum = read_deck(DATA / "russian-forum-white-hawks.deck")
    bundled = read_deck(ROOT / "decks" / "berserk-tcg" / "white-hawks.deck")
    assert forum.problems == [] and (forum.main, forum.side) == (bundled.main, bundled.side)
    assert deck_hash(forum) == deck_hash(bundled)
