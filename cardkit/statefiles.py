"""Game state files (battles, TCG games, fleet boards): written only through the guarded writer.

A state file may replace only a file that already reads as a state of the same kind, so
`--out` never lands on a deck, a fleet file or anything cardkit did not write.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from cardkit.errors import CardkitError
from cardkit.outputs import Kind, Output


def state_kind(noun: str, read: Callable[[Path], object]) -> Kind:
    """An output kind whose existing files are recognised by reading them back as states."""

    def recognise(path: Path) -> bool:
        try:
            read(path)
        except CardkitError:
            return False
        return True

    return Kind(noun, recognise)


def write_state_file(text: str, out: str | os.PathLike[str], kind: Kind,
                     inputs: Iterable[str | os.PathLike[str]] = ()) -> None:
    """Write `text`, a state's canonical JSON (`jsonio.dumps_canonical`, which the engine's check of it has made
    already), to `out`; `OutputRefused` or `WriteFailed` when it may not or cannot."""
    Output(Path(out), kind, tuple(Path(p) for p in inputs)).write(text)
