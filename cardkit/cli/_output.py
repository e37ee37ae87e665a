"""Writing a command's lines, with typer's echo or, before typer is loaded (an interrupt at start-up), without it."""

from __future__ import annotations

import json
import sys
from typing import Any, Protocol

from cardkit.visible import visible_json


class Echo(Protocol):
    """`typer.echo`'s shape as the commands use it: one line of text, to stdout or with `err` to stderr."""

    def __call__(self, message: str, *, err: bool = False) -> Any: ...


def plain_echo(message: str, *, err: bool = False) -> None:
    """One line to stdout (stderr with `err`), flushed: what typer's echo does on a UTF-8 stream whenever cardkit's
    text holds colour codes (a terminal, or colour forced) and whenever it holds none."""
    stream = sys.stderr if err else sys.stdout
    stream.write(message + "\n")
    stream.flush()


def flush_stdout() -> None:
    """Flush what a command printed while its errors are still reported: a failure at Python's own flush at exit
    would be a traceback."""
    if sys.stdout is not None:
        sys.stdout.flush()


def json_text(data: Any) -> str:
    """`data` as the indented JSON every `--json` prints, every character `visible` escapes written as `\\uXXXX`."""
    return visible_json(json.dumps(data, ensure_ascii=False, indent=2))
