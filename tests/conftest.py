"""Shared fixtures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"

# Every property test draws the same examples on every run and machine, so CI is deterministic:
# derandomize seeds each test from its own source, no example database carries state between
# runs, and no deadline makes a test's verdict depend on how fast the machine is. A test's own
# @settings(...) inherits these unless it names them.
settings.register_profile("cardkit", derandomize=True, database=None, deadline=None)
settings.load_profile("cardkit")


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def reference_dir() -> Path:
    """The raw reference card lists, if this machine has them (CARDKIT_REFERENCE_DIR)."""
    value = os.environ.get("CARDKIT_REFERENCE_DIR")
    if not value or not Path(value).is_dir():
        pytest.skip("set CARDKIT_REFERENCE_DIR to the folder of raw reference card lists to run this test")
    return Path(value)
