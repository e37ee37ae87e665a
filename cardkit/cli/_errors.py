"""The one place where library exceptions become messages and exit codes.

Exit codes: 0 success (legal), 1 a finding (illegal deck, catalogue problems,
no such card), 2 usage error or unreadable input, 130 interrupted.

With `--json` an error is `{"error": {"code": CODE, "message": TEXT}}` on standard output
instead of the `error:` line, with the same exit code: a script reads one stream, always JSON.
CODE is the exception's `error_code` (schemas/output/error.schema.json lists them).
"""

from __future__ import annotations

import functools
import sys
from typing import Any, Callable, ParamSpec, Sequence, TypeVar

import typer

from cardkit.errors import CardkitError
from cardkit.visible import visible

P = ParamSpec("P")
R = TypeVar("R")

EXIT_OK = 0
EXIT_FINDING = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


USAGE = "USAGE"
INTERRUPTED = "INTERRUPTED"


def error_document(error_code: str, message: str, suggestions: Sequence[str] = ()) -> dict[str, dict[str, Any]]:
    """The JSON an error is under `--json`; `suggestions` (close names the user may have meant) only when there are some."""
    document: dict[str, Any] = {"code": error_code, "message": message}
    if suggestions:
        document["suggestions"] = list(suggestions)
    return {"error": document}


def fail(message: str, code: int = EXIT_USAGE, *, as_json: bool = False, error_code: str = USAGE,
         suggestions: Sequence[str] = ()) -> typer.Exit:
    """Report `message` and return the exit to raise: an `error:` line on stderr (made visible: it quotes
    file names and file text), or with `as_json` the error document on stdout."""
    if as_json:
        from cardkit.cli._options import print_json

        print_json(error_document(error_code, message, suggestions))
    else:
        typer.echo(f"error: {visible(message)}", err=True)
    return typer.Exit(code)


def guarded(command: Callable[P, R]) -> Callable[P, R]:
    """Wrap a command so that cardkit errors print one line (one JSON object with `--json`) and exit with their code."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        # typer passes every parameter by name; a command's --json is its `as_json`.
        as_json = kwargs.get("as_json") is True
        try:
            return command(*args, **kwargs)
        except CardkitError as exc:
            # A name that matched nothing (a card, a player) carries the close names it may have meant.
            suggestions = getattr(exc, "suggestions", None) or ()
            raise fail(exc.terminal_message, exc.exit_code, as_json=as_json, error_code=exc.error_code,
                       suggestions=suggestions) from None
        except KeyboardInterrupt:
            raise fail("interrupted", EXIT_INTERRUPTED, as_json=as_json, error_code=INTERRUPTED) from None
        except BrokenPipeError:
            sys.stderr.close()
            raise typer.Exit(EXIT_OK) from None

    return wrapper
