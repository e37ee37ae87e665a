"""The audit is complete: every rule of the index has a test citing it or a reason it is not implemented,
every test of the audit cites rules the index knows, and quotes its sentence under the section it names."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
INDEX = json.loads((HERE / "index.json").read_text(encoding="utf-8"))
MODULES = {t["module"]: t for t in INDEX["texts"].values()}
RULES = {r["id"]: r for r in INDEX["rules"]}


def _cited_by_test() -> dict[str, list[tuple[str, str, str]]]:
    """Rule id -> (module, test, docstring) of every test function of the audit modules that cites it."""
    cited: dict[str, list[tuple[str, str, str]]] = {}
    for module in MODULES:
        tree = ast.parse((HERE / module).read_text(encoding="utf-8"))
        for node in tree.body:
            if not (isinstance(node, ast.FunctionDef) and node.name.startswith("test_")):
                continue
            ids = [arg.value for dec in node.decorator_list if isinstance(dec, ast.Call)
                   and isinstance(dec.func, ast.Attribute) and dec.func.attr == "rule"
                   for arg in dec.args if isinstance(arg, ast.Constant)]
            assert ids, f"{module}::{node.name} cites no rule (@pytest.mark.rule)"
            for rid in ids:
                cited.setdefault(str(rid), []).append((module, node.name, ast.get_docstring(node) or ""))
    return cited


CITED = _cited_by_test()


def test_every_rule_id_is_unique_and_belongs_to_a_text_of_the_index() -> None:
    ids = [r["id"] for r in INDEX["rules"]]
    assert len(ids) == len(set(ids))
    for rule in INDEX["rules"]:
        assert rule["text"] in INDEX["texts"], rule["id"]
        assert rule["id"].startswith(INDEX["texts"][rule["text"]]["prefix"] + "-"), rule["id"]


def test_the_index_holds_references_and_short_summaries_never_the_texts() -> None:
    for rule in INDEX["rules"]:
        assert set(rule) <= {"id", "text", "section", "about", "status", "reason", "reading"}, rule["id"]
        assert len(rule["about"]) <= 90 and len(rule["section"]) <= 40, rule["id"]


def test_every_rule_the_project_implements_has_a_test_citing_it() -> None:
    missing = [r["id"] for r in INDEX["rules"] if r["status"] == "tested" and r["id"] not in CITED]
    assert not missing, f"rules of the index without a test: {missing}"


def test_every_rule_the_project_does_not_implement_says_why() -> None:
    for rule in INDEX["rules"]:
        assert rule["status"] in ("tested", "not-implemented"), rule["id"]
        if rule["status"] == "not-implemented":
            assert len(rule.get("reason", "")) > 20, f"{rule['id']} is not implemented without a reason"


def test_every_test_of_the_audit_cites_only_rules_of_its_own_text() -> None:
    for rid, tests in CITED.items():
        assert rid in RULES, f"{tests[0][1]} cites {rid}, which the index lacks"
        text = INDEX["texts"][RULES[rid]["text"]]
        assert all(module == text["module"] for module, _, _ in tests), rid


@pytest.mark.parametrize("rid", sorted(CITED))
def test_every_test_quotes_its_sentence_under_the_section_the_index_gives(rid: str) -> None:
    for _module, name, doc in CITED[rid]:
        assert RULES[rid]["section"] in doc, f"{name}: docstring does not name {RULES[rid]['section']}"
        assert doc.count("\"") >= 2 or "«" in doc or "„" in doc, f"{name}: docstring quotes no sentence"
        where = RULES[rid].get("reading")
        if where:
            assert where.partition("#")[0] in doc, f"{name}: the reading is kept in {where}; the docstring should say so"


def test_every_reading_the_index_names_is_kept_as_data() -> None:
    from cardkit.games.readings import load_readings

    root = HERE.parent.parent
    for rule in INDEX["rules"]:
        where = rule.get("reading")
        if where is None:
            continue
        path, _, key = where.partition("#")
        assert (root / path).is_file(), f"{rule['id']}: {path} does not exist"
        if path.startswith("data/rules/") and key:
            assert key in load_readings(Path(path).stem), f"{rule['id']}: no reading {key} in {path}"
        elif key:
            ids = {r["id"] for r in json.loads((root / path).read_text(encoding="utf-8"))["readings"]}
            assert key in ids, f"{rule['id']}: no reading {key} in {path}"


def test_the_docs_list_every_rule_read_one_way_and_every_rule_not_implemented() -> None:
    text = (HERE.parent.parent / "docs" / "rules-audit.md").read_text(encoding="utf-8")
    for rule in INDEX["rules"]:
        if rule["status"] == "not-implemented" or "#" in rule.get("reading", ""):
            assert f"`{rule['id']}`" in text, f"{rule['id']} is not in docs/rules-audit.md"
        if rule["status"] == "not-implemented":
            assert rule["reason"] in text, f"docs/rules-audit.md gives another reason for {rule['id']}"


@pytest.mark.slow  # it runs the fleet text's tests once more
def test_the_audit_script_lists_every_rule_of_a_text_with_its_tests_outcome() -> None:
    # A process of its own: a pytest run inside this one would import tests/conftest.py a second time, whose
    # module-level set-up points this worker's cache folder elsewhere for every test that comes after.
    done = subprocess.run([sys.executable, str(HERE.parent.parent / "scripts" / "rules_audit.py"), "berserker", "--json"],
                          capture_output=True, text=True, encoding="utf-8", timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = json.loads(done.stdout)
    fleet = [r["id"] for r in INDEX["rules"] if r["text"] == "berserker"]
    assert sorted({r["id"] for r in rows}) == sorted(fleet)
    assert {r["outcome"] for r in rows} == {"passed", "not implemented"}
    assert all(r["test"] for r in rows if r["outcome"] == "passed")


def test_the_audit_script_names_the_texts_when_asked_for_one_the_index_has_not(capsys: pytest.CaptureFixture[str]) -> None:
    sys.path.insert(0, str(HERE.parent.parent / "scripts"))
    try:
        import rules_audit
    finally:
        sys.path.pop(0)
    assert rules_audit.main(["bogus"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no text 'bogus'") and all(text in err for text in INDEX["texts"])
