"""Shared fixtures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"


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
