"""What a test sees of one run of the console script (tests/conftest.py's cardkit_main runs it)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Ran:
    """What one run of the console script's entry point printed and the code it exited with."""

    returncode: int
    stdout: str
    stderr: str
