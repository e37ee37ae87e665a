"""Every imported module is a declared dependency with a tested lower bound; constraints.txt pins them all."""

from __future__ import annotations

import ast
import re
import sys
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import constraints  # noqa: E402

pytestmark = pytest.mark.smoke


def imported_top_level_modules(folder: Path) -> set[str]:
    found: set[str] = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
    return found


def distributions_of(modules: set[str]) -> dict[str, set[str]]:
    """Each third-party module's distributions (normalised names); cardkit's own and the standard library's left out."""
    owners = packages_distributions()
    # Sub-folders too: tests/rules/ has helper modules of its own, imported by name as pytest puts their folder on the path.
    local = {p.stem for folder in ("tests", "scripts", "benchmarks") for p in (ROOT / folder).rglob("*.py")}
    third_party = modules - set(sys.stdlib_module_names) - local - {"cardkit"}
    return {m: {constraints.normalised(d) for d in owners.get(m, [m])} for m in sorted(third_party)}


def declared_names(requirements: list[str]) -> set[str]:
    return {constraints.lower_bound(r)[0] for r in requirements}


def project_dependencies() -> list[str]:
    import tomllib

    return list(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"])


def test_every_module_cardkit_imports_is_a_declared_dependency() -> None:
    declared = declared_names(project_dependencies())
    undeclared = {m: d for m, d in distributions_of(imported_top_level_modules(ROOT / "cardkit")).items() if not d & declared}
    assert undeclared == {}


@pytest.mark.parametrize("folder", ["tests", "scripts", "benchmarks"])
def test_every_module_the_tests_scripts_and_benchmarks_import_is_declared_with_the_test_extra(folder: str) -> None:
    declared = declared_names(constraints.declared())
    undeclared = {m: d for m, d in distributions_of(imported_top_level_modules(ROOT / folder)).items() if not d & declared}
    assert undeclared == {}


def test_every_declared_dependency_has_one_lower_bound_for_the_minimum_run() -> None:
    pins = constraints.minimum_pins()
    assert len(pins) == len(constraints.declared())
    assert all(re.fullmatch(r"[a-z0-9-]+==[0-9][0-9a-z.]*", pin) for pin in pins), pins
    with pytest.raises(ValueError, match="needs exactly one lower bound"):
        constraints.lower_bound("typer<0.30")


def release(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version.split("+")[0])[:3])


def test_the_lock_pins_every_declared_dependency_at_or_above_its_lower_bound() -> None:
    lines = (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines()
    locked = dict(line.split("==") for line in lines if line and not line.startswith("#"))
    for requirement in constraints.declared():
        name, lowest = constraints.lower_bound(requirement)
        assert name in locked, f"{name} is declared but not in constraints.txt: run python scripts/constraints.py lock"
        assert release(locked[name]) >= release(lowest), (name, locked[name], lowest)
