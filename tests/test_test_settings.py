"""The test suite's own settings: property tests are reproducible and never timed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st


@settings(max_examples=5)
@given(st.integers())
def _a_property_with_its_own_settings(value: int) -> None:
    pass


def test_property_tests_are_derandomized_keep_no_example_database_and_have_no_deadline() -> None:
    for active in (settings.default, _a_property_with_its_own_settings._hypothesis_internal_use_settings):  # type: ignore[attr-defined]
        assert active.derandomize is True
        assert active.database is None
        assert active.deadline is None


def test_both_profiles_are_derandomized_and_the_default_one_draws_a_quarter_of_each_full_count() -> None:
    from sampling import FULL, examples

    assert settings.get_profile("thorough").max_examples == FULL
    assert settings.get_profile("cardkit").max_examples == FULL // 4
    for name in ("cardkit", "thorough"):
        assert settings.get_profile(name).derandomize is True and settings.get_profile(name).database is None
    share = settings.default.max_examples / FULL
    assert examples(200) == round(200 * share) and examples(1) == 5


def test_every_resource_limit_a_test_sets_goes_through_the_one_helper_that_writes_no_bytecode() -> None:
    # A limited process that writes bytecode can leave a truncated .pyc in the folder every test's Python
    # shares (tests/limits.py says why); only the helper there sets limits, and it turns bytecode writing off.
    tests = Path(__file__).resolve().parent
    setting = re.compile(r"setrlimit|prlimit|RLIMIT_|ulimit\s+-\w+\s+\d")
    offenders = sorted(str(path.relative_to(tests)) for path in tests.rglob("*.py")
                       if path.name not in ("limits.py", Path(__file__).name)
                       and setting.search(path.read_text(encoding="utf-8")))
    assert offenders == []


def test_a_child_under_a_file_size_limit_leaves_no_bytecode_that_breaks_the_next_import(tmp_path: Path) -> None:
    from limits import file_size_limited_child

    (tmp_path / "big.py").write_text(f"x = {list(range(3000))!r}\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(tmp_path / "cache"), "PYTHONPATH": str(tmp_path)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    limited_env, limit = file_size_limited_child(env, 1024)
    first = subprocess.run([sys.executable, "-c", "import big"], env=limited_env, preexec_fn=limit, timeout=60,
                           capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    assert not list((tmp_path / "cache").rglob("big*.pyc"))
    then = subprocess.run([sys.executable, "-c", "import big"], env=env, timeout=60, capture_output=True, text=True)
    assert then.returncode == 0, then.stderr
