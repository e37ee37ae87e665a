"""Shared fixtures."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from console import Ran, run_entry
from hypothesis import settings
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"

# Every property test draws the same examples on every run and machine, so CI is deterministic:
# derandomize seeds each test from its own source, no example database carries state between
# runs, and no deadline makes a test's verdict depend on how fast the machine is. A test's own
# @settings(...) inherits these unless it names them.
# The `cardkit` profile (loaded here, the README's test command) draws a quarter of each test's full
# count of examples (sampling.examples) to keep the suite quick; `--hypothesis-profile=thorough`
# draws every test's full count.
settings.register_profile("thorough", derandomize=True, database=None, deadline=None, max_examples=100)
settings.register_profile("cardkit", settings.get_profile("thorough"), max_examples=25)
settings.load_profile("cardkit")


# Every Python the tests start (the xdist workers, the commands run as processes, the docs sessions) reads
# and writes bytecode in one throwaway folder, compiling each module once per run: where
# PYTHONDONTWRITEBYTECODE is set, each of those processes would otherwise compile all of cardkit again (about
# 0.1 s of a 0.3 s start-up), and without a prefix the bytecode would go into the checkout. Set here, in the
# process that starts the workers, before it starts them; a prefix of the user's own is kept.
# A process the tests put under a resource limit writes none there (tests/limits.py): it could leave a .pyc cut
# short, which would break every later import of that module.
if "PYTHONPYCACHEPREFIX" not in os.environ:
    _PYCACHE = tempfile.mkdtemp(prefix="cardkit-test-pycache-")
    atexit.register(shutil.rmtree, _PYCACHE, True)
    os.environ["PYTHONPYCACHEPREFIX"] = _PYCACHE
    os.environ["CARDKIT_TEST_PYCACHE"] = _PYCACHE
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# A worker started under that throwaway prefix goes back to the installed libraries' own bytecode, which pip
# wrote at install: under the prefix each worker compiled pandas, matplotlib and Datasette again, about 4 CPU
# seconds apiece. It writes no bytecode itself, so nothing goes into the checkout.
if sys.pycache_prefix is not None and sys.pycache_prefix == os.environ.get("CARDKIT_TEST_PYCACHE"):
    sys.pycache_prefix = None
    sys.dont_write_bytecode = True


# Some modules read their data files on import, during collection, before any fixture runs, and note the
# files as checked in the cache folder: until `cache_dir` below takes over, that is a throwaway folder.
_IMPORT_CACHE = tempfile.mkdtemp(prefix="cardkit-test-cache-")
atexit.register(shutil.rmtree, _IMPORT_CACHE, True)
os.environ["CARDKIT_CACHE_DIR"] = _IMPORT_CACHE


@pytest.fixture(scope="session", autouse=True)
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """What cardkit builds (the default database, the checked-format notes) goes to a temporary folder.

    Set in the environment, so the commands tests run as processes build there too: no test writes
    into the checkout's build/. Each xdist worker has its own, built once on first use.
    """
    folder = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CARDKIT_CACHE_DIR", str(folder))
        patch.delenv("CARDKIT_DB", raising=False)
        yield folder


@pytest.fixture(scope="session")
def catalogue_db(tmp_path_factory: pytest.TempPathFactory, cache_dir: Path) -> Path:
    """The bundled catalogue built once per test process (each xdist worker), for tests that only read it.

    A copy of the default database in the cache folder, which the commands build on first use anyway (a
    build is about 3.6 s of CPU): one build serves both, and no rebuild of the default touches this copy.
    """
    from cardkit.db.build import ensure_database

    path = tmp_path_factory.mktemp("catalogue") / "cardkit.db"
    shutil.copyfile(ensure_database(cache_dir / "cardkit.db"), path)
    return path


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def cardkit_main(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Callable[..., Ran]:
    """Run `cardkit ARGS` in this process through the console script's own entry point (cardkit.cli.main:main),
    from the repository root: the same usage-error and exit-code handling as `python -m cardkit`, without
    paying a new interpreter's start-up. Tests of what needs a real process (the console script itself, a
    terminal, a signal) still start one."""
    from cardkit.cli.main import main

    monkeypatch.chdir(ROOT)

    def run(*args: str) -> Ran:
        return run_entry(main, list(args), capsys, monkeypatch)

    return run


REFERENCE_HOWTO = ("the raw reference card lists are not in the repository: put berserk-tcg-cardlist.csv, "
                   "berserk-ccg-cards.json, berserk-online-cards.json and berserker-fleet-game.en.txt in one folder "
                   "and set CARDKIT_REFERENCE_DIR to it (docs/catalogue.md, 'Reference card lists')")


@pytest.fixture
def reference_dir() -> Path:
    """The raw reference card lists, if this machine has them (CARDKIT_REFERENCE_DIR)."""
    value = os.environ.get("CARDKIT_REFERENCE_DIR")
    if not value:
        pytest.skip(f"CARDKIT_REFERENCE_DIR is not set; {REFERENCE_HOWTO}")
    if not Path(value).is_dir():
        pytest.skip(f"CARDKIT_REFERENCE_DIR={value!r} is not a folder; {REFERENCE_HOWTO}")
    return Path(value)
