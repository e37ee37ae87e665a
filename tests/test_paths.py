"""One lookup for the data: the package's bundled copy when installed, the checkout otherwise."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from cardkit import paths

ROOT = Path(__file__).resolve().parent.parent
SHOW = "import cardkit.paths as p; print(p.SOURCE); print(p.DATA_DIR); print(p.SCHEMAS_DIR); print(p.default_db_path())"


def where(cwd: Path, pythonpath: Path, **env: str) -> list[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("CARDKIT_HOME", "CARDKIT_DB", "CARDKIT_CACHE_DIR", "PYTHONPATH")}
    done = subprocess.run([sys.executable, "-c", SHOW], capture_output=True, text=True, timeout=60, cwd=cwd,
                          env={**clean, "PYTHONPATH": str(pythonpath), **env})
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_a_checkout_reads_its_own_folders_and_builds_into_build(tmp_path: Path) -> None:
    assert where(tmp_path, ROOT) == ["checkout", str(ROOT / "data"), str(ROOT / "schemas"), str(ROOT / "build" / "cardkit.db")]


def test_an_installed_package_reads_its_bundled_copy_and_builds_into_the_users_cache(tmp_path: Path) -> None:
    site = tmp_path / "site"
    shutil.copytree(ROOT / "cardkit", site / "cardkit", ignore=shutil.ignore_patterns("__pycache__"))
    bundled = site / "cardkit" / "_bundled"
    shutil.copytree(ROOT / "data" / "formats", bundled / "data" / "formats")
    shutil.copytree(ROOT / "schemas", bundled / "schemas")
    cache = tmp_path / "cache"
    found = where(tmp_path, site, XDG_CACHE_HOME=str(cache))
    assert found[:3] == ["bundled", str(bundled / "data"), str(bundled / "schemas")]
    if sys.platform == "linux":  # platformdirs follows XDG_CACHE_HOME here
        assert found[3] == str(cache / "cardkit" / "cardkit.db")


def test_cardkit_home_and_cardkit_db_override_the_lookup(tmp_path: Path) -> None:
    found = where(tmp_path, ROOT, CARDKIT_HOME=str(tmp_path / "home"), CARDKIT_DB=str(tmp_path / "x.db"))
    assert found == ["$CARDKIT_HOME", str(tmp_path / "home" / "data"), str(tmp_path / "home" / "schemas"), str(tmp_path / "x.db")]


def test_this_test_run_reads_the_checkout_and_builds_into_a_temporary_folder(tmp_path: Path) -> None:
    assert paths.SOURCE == "checkout" and not paths.BUNDLED
    assert Path(os.environ["CARDKIT_CACHE_DIR"]).is_relative_to(tmp_path.parent)
    assert paths.cache_dir() == Path(os.environ["CARDKIT_CACHE_DIR"]) != ROOT / "build"


def test_cardkit_cache_dir_moves_the_database_and_the_checked_formats(tmp_path: Path) -> None:
    found = where(tmp_path, ROOT, CARDKIT_CACHE_DIR=str(tmp_path / "cache"))
    assert found == ["checkout", str(ROOT / "data"), str(ROOT / "schemas"), str(tmp_path / "cache" / "cardkit.db")]
