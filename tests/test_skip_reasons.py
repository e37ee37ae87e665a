"""A skipped test says how to run it, and the README's set-up says how to get the environment back."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_without_the_reference_lists_the_skip_names_the_variable_the_files_and_the_doc(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "CARDKIT_REFERENCE_DIR"}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "tests/test_catalogue_import.py",
         "-k", "reimporting_the_real_reference_list"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    skips = [line for line in result.stdout.splitlines() if line.startswith("SKIPPED")]
    assert result.returncode == 0 and skips, result.stdout
    for line in skips:
        assert "CARDKIT_REFERENCE_DIR" in line and "berserk-tcg-cardlist.csv" in line and "docs/catalogue.md" in line


def test_the_readme_runs_the_tests_with_skip_reasons_and_says_to_activate_again_in_a_new_shell() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "python3 -m pytest -q -rs -n auto\n" in readme
    assert "python3 -m pytest -q -rs -n auto\n" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "in a new one, run `. .venv/bin/activate` again" in readme
    assert "CARDKIT_REFERENCE_DIR" in readme and "#reference-card-lists" in readme
    assert "### Reference card lists" in (ROOT / "docs" / "catalogue.md").read_text(encoding="utf-8")
