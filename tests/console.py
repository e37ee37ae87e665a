"""What a test sees of one run of the console script (tests/conftest.py's cardkit_main runs it)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass

import pytest


@dataclass
class Ran:
    """What one run of the console script's entry point printed and the code it exited with."""

    returncode: int
    stdout: str
    stderr: str


def run_entry(entry: Callable[[], None], args: list[str], capsys: pytest.CaptureFixture[str],
              monkeypatch: pytest.MonkeyPatch) -> Ran:
    """Call a console entry point in this process as `cardkit ARGS`: what it printed and its exit code."""
    capsys.readouterr()
    monkeypatch.setattr(sys, "argv", ["cardkit", *args])
    try:
        entry()
        code = 0
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    out, err = capsys.readouterr()
    return Ran(code, out, err)
