"""Squad and fleet files refuse what deck files refuse: a line break other programs show (U+2028, U+0085...)
or a bidi control in a name, through the deck reader's own check, not stripped away as whitespace."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardkit.errors import UnreadableInput
from cardkit.games.berserker.game.setup import check_fleet
from cardkit.games.squad_games.squads.read import read_squad_file

HIDDEN = ["\x85", "\u2028", "\u2029", "\x0b", "\x0c"]
BIDI = ["\u202e", "\u2066", "\u200f"]


@pytest.mark.parametrize("hidden", HIDDEN + BIDI)
def test_a_squad_text_line_holding_a_hidden_break_or_bidi_control_is_refused_at_its_line(tmp_path: Path, hidden: str) -> None:
    path = tmp_path / "squad.txt"
    path.write_text(f"format: berserk-ccg\nsquad:\nКшар{hidden}\n", encoding="utf-8")
    with pytest.raises(UnreadableInput, match=rf"line 3: .*U\+{ord(hidden):04X}"):
        read_squad_file(path)


@pytest.mark.parametrize("hidden", HIDDEN + BIDI)
def test_a_squad_json_card_holding_a_hidden_break_or_bidi_control_is_refused_at_its_pointer(tmp_path: Path, hidden: str) -> None:
    path = tmp_path / "squad.json"
    path.write_text(f'{{"format": "berserk-ccg", "squad": ["Кшар\\u{ord(hidden):04x}"]}}', encoding="utf-8")
    with pytest.raises(UnreadableInput, match=rf"/squad/0: .*U\+{ord(hidden):04X}"):
        read_squad_file(path)


@pytest.mark.parametrize("hidden", HIDDEN + BIDI)
@pytest.mark.parametrize("field", ["type", "square"])
def test_a_fleet_ship_whose_type_or_square_holds_a_hidden_break_or_bidi_control_is_a_parse_error(hidden: str, field: str) -> None:
    ship = {"type": "Berserker", "square": "d8"}
    ship[field] += hidden
    report = check_fleet({"side": "berserker", "ships": [ship]})
    assert not report.legal
    (problem,) = [p for p in report.problems if p.code == "PARSE_ERROR"]
    assert problem.pointer == "/ships/0" and f"U+{ord(hidden):04X}" in problem.message
