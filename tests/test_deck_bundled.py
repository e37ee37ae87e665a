"""The bundled decks validate as their comments say: `# legal[, warnings: ...]` or `# illegal: CODE`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardkit.decks import read_deck, validate_deck
from cardkit.games.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent
DECKS = sorted(p for p in (ROOT / "decks").glob("*/*") if p.name.endswith((".deck", ".deck.json")))
_EXPECT = re.compile(r"^#\s*(?P<verdict>legal|illegal)\s*(?:[:,]\s*(?:warnings:\s*)?(?P<codes>[A-Z_, ]+))?\s*$", re.MULTILINE)


def expectation(path: Path) -> tuple[bool, set[str]]:
    """(legal?, codes) from a text deck's `# legal ...` / `# illegal: ...` comment or a JSON deck's `note`."""
    if path.suffix == ".json":
        import json

        note = json.loads(path.read_text(encoding="utf-8"))["note"]
        return note == "legal", set()
    m = _EXPECT.search(path.read_text(encoding="utf-8"))
    assert m, f"{path.name} has no `# legal` / `# illegal: CODE` comment"
    codes = {c.strip() for c in (m.group("codes") or "").split(",") if c.strip()}
    return m.group("verdict") == "legal", codes


@pytest.mark.parametrize("game", GAMES)
def test_every_game_bundles_three_legal_and_two_illegal_decks(game: str) -> None:
    mine = [p for p in DECKS if p.parent.name == game]
    illegal = [p for p in mine if p.name.startswith("illegal-")]
    assert len(mine) - len(illegal) >= 3 and len(illegal) >= 2


@pytest.mark.parametrize("path", DECKS, ids=[f"{p.parent.name}/{p.name}" for p in DECKS])
def test_bundled_deck_validates_as_its_comment_says(path: Path) -> None:
    legal, codes = expectation(path)
    assert legal == (not path.name.startswith("illegal-")), "file name and comment disagree"
    deck = read_deck(path)
    assert deck.game == path.parent.name
    problems = validate_deck(deck)
    errors = {p.code for p in problems if p.is_error}
    warnings = {p.code for p in problems if not p.is_error}
    if legal:
        assert errors == set() and warnings == codes
    else:
        assert errors == codes
