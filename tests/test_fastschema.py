"""fastjsonschema's quick yes is given only where jsonschema says yes, and it is given for the files cardkit ships."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from sampling import examples

from cardkit import fastschema
from cardkit.fastschema import passes

ROOT = Path(__file__).resolve().parent.parent
# schemas/output/ documents what commands print; cardkit never checks a file against those, quickly or not
# (tests/test_json_schemas.py checks the outputs against them with jsonschema).
SCHEMA_TEXTS = {p.relative_to(ROOT / "schemas").as_posix(): p.read_text(encoding="utf-8")
                for p in sorted((ROOT / "schemas").rglob("*.schema.json")) if p.parent.name != "output"}
SCHEMAS = {name: json.loads(text) for name, text in SCHEMA_TEXTS.items()}
VALIDATORS = {name: Draft202012Validator(schema) for name, schema in SCHEMAS.items()}
SQUAD_FILES = sorted([*(ROOT / "squads").glob("*.json"), *(ROOT / "tests" / "data" / "squads").glob("*.json")])
QUICK = ["squad.schema.json", "placement.schema.json", "battle-state.schema.json", "tcg-state.schema.json",
         "fleet-state.schema.json"]


def schema_of(path: Path) -> str:
    # Placements are not always named so (online-battle-first.json); a placement is the file that places cards.
    data = json.loads(path.read_text(encoding="utf-8"))
    return "placement.schema.json" if "placement" in path.name or "cards" in data else "squad.schema.json"


@pytest.mark.parametrize("name", QUICK)
def test_the_schemas_of_files_read_on_every_run_are_compiled_for_the_quick_check(name: str) -> None:
    assert fastschema._compiled(SCHEMA_TEXTS[name]) is not None


def test_a_schema_is_compiled_once_per_content() -> None:
    text = SCHEMA_TEXTS["squad.schema.json"]
    assert fastschema._compiled(text) is fastschema._compiled("".join(text))


@pytest.mark.smoke
@pytest.mark.parametrize("path", SQUAD_FILES, ids=[p.name for p in SQUAD_FILES])
def test_every_bundled_squad_and_placement_file_passes_the_quick_check(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    name = schema_of(path)
    assert list(VALIDATORS[name].iter_errors(data)) == []
    assert passes(SCHEMA_TEXTS[name], data)


TEXT = st.sampled_from(["", "a", "first", "second", "third", "berserk-online", "Berserk Online", "b2", "F3", "a4",
                        "x" * 201, "Аспид", "1", "a\n"])
SCALAR = st.one_of(TEXT, st.integers(-2, 1002), st.sampled_from([0.0, 1.0, 2.5, True, False, None]))


def guided(schema: Any, root: dict[str, Any], depth: int = 0) -> st.SearchStrategy[Any]:
    """Documents shaped by `schema` (so many pass), with wrong values mixed in (so many don't)."""
    shaped = _shaped(schema, root, depth)
    return st.one_of(*[shaped] * 7, SCALAR)  # seven in eight keep the shape


def _shaped(schema: Any, root: dict[str, Any], depth: int) -> st.SearchStrategy[Any]:
    if not isinstance(schema, dict) or depth > 4:
        return SCALAR
    ref = schema.get("$ref", "")
    if ref.startswith("#/$defs/"):
        return _shaped(root["$defs"][ref.split("/")[-1]], root, depth + 1)
    for key in ("oneOf", "anyOf"):
        if key in schema:
            rest = {k: v for k, v in schema.items() if k != key}
            return st.one_of(*(_shaped({**rest, **s}, root, depth + 1) if isinstance(s, dict) else SCALAR
                               for s in schema[key]))
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "const" in schema:
        return st.just(schema["const"])
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        props = schema.get("properties", {})
        required = [k for k in schema.get("required", []) if k in props]
        values = {k: guided(v, root, depth + 1) for k, v in props.items()}
        plain = st.fixed_dictionaries({k: values[k] for k in required},
                                      optional={k: v for k, v in values.items() if k not in required})
        odd = st.fixed_dictionaries({k: values[k] for k in required},
                                    optional={**{k: v for k, v in values.items() if k not in required}, "surprise": SCALAR})
        return st.one_of(plain, plain, odd)
    if kind == "array":
        return st.lists(guided(schema.get("items", {}), root, depth + 1), max_size=4)
    if kind == "integer":
        low, high = schema.get("minimum", -5), schema.get("maximum", 1005)
        return st.integers(low - 1, high + 1)
    return TEXT if kind == "string" else SCALAR


@pytest.mark.parametrize("name", sorted(SCHEMAS))
@settings(max_examples=examples(60))
@given(data=st.data())
def test_a_quick_yes_is_always_jsonschemas_yes(name: str, data: st.DataObject) -> None:
    document = data.draw(guided(SCHEMAS[name], SCHEMAS[name]))
    before = json.dumps(document, sort_keys=True)
    if passes(SCHEMA_TEXTS[name], document):
        assert list(VALIDATORS[name].iter_errors(document)) == [], document
    assert json.dumps(document, sort_keys=True) == before  # no default written into the document


@pytest.mark.smoke
@pytest.mark.parametrize(
    "document",
    [
        {"squad": ["a"], "redeals": 1.5},
        {"squad": ["a"], "redeals": True},
        {"squad": [], "seat": "third"},
        {"dealt": ["a"] * 201},
        {"format": "berserk-online"},
        {"squad": ["a"], "extra": 1},
    ],
    ids=["fractional-count", "bool-count", "bad-seat", "too-many", "no-cards", "unknown-key"],
)
def test_documents_jsonschema_refuses_at_the_edges_of_the_squad_schema_get_no_quick_yes(document: dict[str, Any]) -> None:
    assert list(VALIDATORS["squad.schema.json"].iter_errors(document)) != []
    assert not passes(SCHEMA_TEXTS["squad.schema.json"], document)


def test_a_schema_with_a_keyword_draft_7_reads_otherwise_or_a_remote_ref_is_never_compiled() -> None:
    tuple_schema = {"type": "array", "prefixItems": [{"type": "integer"}], "items": {"type": "string"}}
    assert not passes(json.dumps(tuple_schema), ["x"])
    assert not passes(json.dumps({"$ref": "https://example.invalid/other.json"}), {})
    assert not passes(json.dumps({"$schema": "http://json-schema.org/draft-04/schema#", "type": "object"}), {})
    assert passes(json.dumps({"type": "array", "maxItems": 2}), [1, 2])
    assert not passes(json.dumps({"type": "array", "maxItems": 2}), [1, 2, 3])


def test_a_compiled_schema_is_remembered_between_runs_and_answers_as_a_fresh_compile() -> None:
    text = SCHEMA_TEXTS["battle-state.schema.json"]
    key = fastschema._key(text)
    assert key is not None
    fastschema._compiled.cache_clear()
    fresh = fastschema._compiled(text)
    about = fastschema._about(json.loads(text))
    assert about and fastschema._remembered(key, about) is not None  # the next process loads this instead of compiling
    fastschema._compiled.cache_clear()
    loaded = fastschema._compiled(text)
    assert fresh is not None and loaded is not None and loaded is not fresh
    from cardkit.games.squad_games.battle.setup import load_side, new_battle

    battle = ROOT / "tests" / "data" / "battle"
    state = new_battle(load_side(battle / "online-first.json"), load_side(battle / "online-second.json")).to_dict()
    for document in [{}, [], {"format": "cardkit-battle"}, state, {**state, "turn": 0}]:
        assert passes(text, document) == (list(VALIDATORS["battle-state.schema.json"].iter_errors(document)) == [])


@pytest.mark.parametrize("garbage", [b"", b"x", b"validate 3\nabc", b"validate 99999\n"], ids=["empty", "text", "other-key", "short"])
def test_a_damaged_note_of_compiled_code_is_ignored_and_replaced(garbage: bytes) -> None:
    text = json.dumps({"type": "array", "maxItems": 2, "$comment": garbage.hex()})
    key = fastschema._key(text)
    assert key is not None
    note = fastschema._note("")
    note.parent.mkdir(parents=True, exist_ok=True)
    note.write_bytes(garbage)
    fastschema._compiled.cache_clear()
    assert passes(text, [1, 2]) and not passes(text, [1, 2, 3])
    assert fastschema._remembered(key, "") is not None


def test_the_code_of_an_edited_schema_replaces_the_code_of_the_schema_before(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardkit import paths

    monkeypatch.setattr(paths, "cache_dir", lambda: tmp_path / "cache")
    about = "https://cardkit.invalid/edited.json"
    texts = [json.dumps({"$id": about, "type": "array", "maxItems": n}) for n in range(6)]
    for n, text in enumerate(texts):
        fastschema._compiled.cache_clear()
        assert passes(text, [0] * n) and not passes(text, [0] * (n + 1))
    assert [p.name for p in (tmp_path / "cache" / "compiled").iterdir()] == [fastschema._note(about).name]
    remembered = [fastschema._remembered(fastschema._key(text) or b"", about) for text in texts]
    assert [found is not None for found in remembered] == [False] * 5 + [True]


@pytest.mark.parametrize("name", QUICK)
def test_the_compiled_code_leaves_the_decimal_module_unloaded(name: str) -> None:
    found = fastschema._generated(SCHEMAS[name], None)
    assert found is not None and "decimal" not in found[1].co_names


@pytest.mark.parametrize("key", ["gold", "redeals"])
def test_a_decimal_where_a_number_goes_is_answered_as_fastjsonschema_answers_it(key: str) -> None:
    import decimal

    import fastjsonschema

    own = fastjsonschema.compile(SCHEMAS["squad.schema.json"], use_default=False, use_formats=False)
    squad = json.loads((ROOT / "squads" / "online-squad.json").read_text(encoding="utf-8"))
    answers = []
    for value in (decimal.Decimal(3), decimal.Decimal("-1"), decimal.Decimal("2.5"), decimal.Decimal(10**6), "3", 3, 3.0):
        document = {**squad, key: value}
        try:
            own(document)
            theirs = True
        except fastjsonschema.JsonSchemaException:
            theirs = False
        assert passes(SCHEMA_TEXTS["squad.schema.json"], document) is theirs, value
        answers.append(theirs)
    assert True in answers and False in answers
