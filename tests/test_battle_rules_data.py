"""data/battle/rules.json: the Angriffstabelle and the readings are data, checked by their schema, each beside its text."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cardkit import paths
from cardkit.errors import CatalogueError
from cardkit.games.squad_games.battle import rules

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "data" / "battle" / "rules.json"


def test_the_rules_file_matches_its_schema() -> None:
    from jsonschema import Draft202012Validator

    schema = json.loads((ROOT / "schemas" / "battle-rules.schema.json").read_text(encoding="utf-8"))
    assert list(Draft202012Validator(schema).iter_errors(json.loads(RULES.read_text(encoding="utf-8")))) == []


def test_every_reading_the_code_names_is_in_the_data_with_the_sentence_it_rests_on() -> None:
    named: set[str] = set()
    for source in (ROOT / "cardkit" / "games" / "squad_games" / "battle").glob("*.py"):
        text = source.read_text(encoding="utf-8")
        named |= set(re.findall(r"""reading(?:_value)?\(\s*f?["']([a-z_]+)["']""", text))
    named |= {"aimed_strike", "magic_strike"}  # named as f"{kind}_strike"
    assert len(named) > 5
    ids = {r["id"] for r in rules.rules_data()["readings"]}
    assert named <= ids, named - ids
    for r in rules.rules_data()["readings"]:
        assert r["text"].strip() and r["reading"].strip() and r["question"].endswith("?")


def test_every_reading_is_named_in_the_docs() -> None:
    docs = (ROOT / "docs" / "battle.md").read_text(encoding="utf-8")
    missing = [r["id"] for r in rules.rules_data()["readings"] if f"`{r['id']}`" not in docs]
    assert not missing


def test_a_broken_rules_file_is_a_catalogue_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "battle").mkdir()
    data = json.loads(RULES.read_text(encoding="utf-8"))
    data["attack_table"]["attacker_higher"]["1"] = ["weak", "fatal"]
    (tmp_path / "battle" / "rules.json").write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(paths, "DATA_DIR", tmp_path)
    rules.rules_data.cache_clear()
    try:
        with pytest.raises(CatalogueError, match="attacker_higher"):
            rules.rules_data()
    finally:
        rules.rules_data.cache_clear()


def test_the_docs_library_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardkit.games.squad_games.battle.engine import ENGINE
    from cardkit.games.squad_games.battle.setup import load_side, new_battle

    (tmp_path / "build").mkdir()
    state = new_battle(load_side(ROOT / "squads" / "online-battle-first.json"), load_side(ROOT / "squads" / "online-battle-second.json"))
    ENGINE.write(state, tmp_path / "build" / "battle.json")
    monkeypatch.chdir(tmp_path)
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "battle.md").read_text(encoding="utf-8"), re.S)
    assert blocks
    for code in blocks:
        exec(compile(code, "docs/battle.md", "exec"), {})


def test_the_bundled_battle_placements_are_the_test_ones() -> None:
    # Byte for byte, so that the battle the docs play is the battle the tests play.
    for name in ("first", "second"):
        bundled = ROOT / "squads" / f"online-battle-{name}.json"
        assert bundled.read_bytes() == (ROOT / "tests" / "data" / "battle" / f"online-{name}.json").read_bytes()
