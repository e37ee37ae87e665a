"""The one place where library exceptions become messages and exit codes.

Exit codes: 0 success (legal), 1 a finding (illegal deck, catalogue problems,
no such card), 2 usage error or unreadable input, 130 interrupted.
"""

from __future__ import annotations

import functools
import sys
from typing import Callable, ParamSpec, TypeVar

import typer

from cardkit.errors import CardkitError
from cardkit.visible import visible

P = ParamSpec("P")
R = TypeVar("R")

EXIT_OK = 0
EXIT_FINDING = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def fail(message: str, code: int = EXIT_USAGE) -> typer.Exit:
    """Print `message` (made visible: it quotes file names and file text) on stderr and return the exit to raise."""
    typer.echo(f"error: {visible(message)}", err=True)
    return typer.Exit(code)


def guarded(command: Callable[P, R]) -> Callable[P, R]:
    """Wrap a command so that cardkit errors print one line and exit with their code."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except CardkitError as exc:
            raise fail(exc.message, exc.exit_code) from None
        except KeyboardInterrupt:
            raise fail("interrupted", EXIT_INTERRUPTED) from None
        except BrokenPipeError:
            sys.stderr.close()
            raise typer.Exit(EXIT_OK) from None

    return wrapper
