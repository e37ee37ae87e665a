"""Random bytes, random JSON and random text fed to every command that reads a file.

Whatever the file holds: no traceback, an exit code the command documents (0, 1 or 2),
and no file changed but the command's own output (the catalogue, for an import that succeeds).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sampling import examples
from typer.testing import CliRunner

from cardkit import paths
from cardkit.catalogue.store import catalogue_hash
from cardkit.cli.main import app

ROOT = Path(__file__).resolve().parent.parent
HAWKS = ROOT / "decks" / "berserk-tcg" / "white-hawks.deck"

# Words the readers look for, so random files get past the first check often enough to reach the later ones.
KEYS = ["main", "side", "card", "count", "game", "format", "player", "name", "squad", "dealt", "seat", "redeals",
        "gold", "silver", "ships", "type", "square", "id", "cards", "set", "cost", "elite"]
WORDS = ["BK1-001", "BK1-012", "Guts", "f_margolok", "10001", "Кочевник", "berserk-tcg", "berserk-online",
         "berserk-ccg", "berserker", "human", "ramship", "a2", "first", "second", "main", "side"]
LINES = ["game: berserk-tcg", "format: berserk-ccg", "format: berserk-online", "redeals: 1", "seat: second", "Main",
         "Sideboard:", "squad:", "dealt:", "3 BK1-003", "12 Mercenary (BK1-001)", "2 x 10001", "f_margolok", "# note",
         "player: Alice", "4 Guts"]

scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.sampled_from(WORDS), st.text(max_size=12))
json_values = st.recursive(
    scalars, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                     st.dictionaries(st.one_of(st.sampled_from(KEYS), st.text(max_size=6)), inner, max_size=5)),
    max_leaves=25)
json_texts = json_values.map(lambda v: json.dumps(v, ensure_ascii=False).encode("utf-8"))
text_files = st.lists(st.one_of(st.sampled_from(LINES), st.text(max_size=30)), max_size=12).map(
    lambda lines: "\n".join(lines).encode("utf-8", "surrogatepass"))
contents = st.one_of(st.binary(max_size=200), json_texts, text_files)

COMMANDS: dict[str, tuple[list[str], tuple[int, ...]]] = {
    "validate": (["validate", "{}"], (0, 1, 2)),
    "deck hash": (["deck", "hash", "{}"], (0, 1, 2)),
    "squad check": (["squad", "check", "{}"], (0, 1, 2)),
    "fleet check": (["fleet", "check", "{}"], (0, 1, 2)),
    "catalogue import berserk-ccg": (["catalogue", "import", "berserk-ccg", "{}"], (0, 2)),
    "catalogue import berserk-tcg": (["catalogue", "import", "berserk-tcg", "{}"], (0, 2)),
    "tournament check": (["tournament", "check", "{}"], (0, 1, 2)),
    "tournament check -r": (["tournament", "check", str(HAWKS), "-r", "{}"], (0, 1, 2)),
}


def snapshot(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def repository_catalogue() -> Iterator[None]:
    """The repository's own catalogue is the same after every random file as before."""
    before = catalogue_hash(ROOT / "data" / "cards")
    yield
    assert catalogue_hash(ROOT / "data" / "cards") == before


@pytest.fixture(scope="module")
def private_cards(tmp_path_factory: pytest.TempPathFactory) -> Path:
    cards = tmp_path_factory.mktemp("catalogue") / "cards"
    shutil.copytree(ROOT / "data" / "cards", cards)
    return cards


@pytest.mark.slow
@pytest.mark.parametrize("command", list(COMMANDS))
@settings(max_examples=examples(30), suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=contents, suffix=st.sampled_from([".deck", ".json", ".deck.json", ".txt", ".csv"]))
def test_no_file_makes_a_reader_crash_or_change_a_file(command: str, data: bytes, suffix: str, private_cards: Path,
                                                       repository_catalogue: None, monkeypatch: pytest.MonkeyPatch) -> Any:
    args, codes = COMMANDS[command]
    monkeypatch.setattr(paths, "CARDS_DIR", private_cards)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"input{suffix}"
        path.write_bytes(data)
        monkeypatch.setenv("CARDKIT_DB", str(Path(folder) / "cardkit.db"))
        inputs, cards = snapshot(Path(folder)), snapshot(private_cards)
        result = CliRunner().invoke(app, [a.replace("{}", str(path)) for a in args])
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        assert result.exit_code in codes and "Traceback" not in result.output, result.output
        assert snapshot(Path(folder)) == inputs
        if result.exit_code != 0 or not command.startswith("catalogue import"):
            assert snapshot(private_cards) == cards
        else:  # a random list that imports cleanly replaced this private copy: put the catalogue back
            shutil.rmtree(private_cards)
            shutil.copytree(ROOT / "data" / "cards", private_cards)
