"""The one place where library exceptions become messages and exit codes.

Exit codes: 0 success (legal), 1 a finding (illegal deck, catalogue problems,
no such card), 2 usage error, unreadable input or standard output that can't be written, 130 interrupted.

With `--json` an error is `{"error": {"code": CODE, "message": TEXT}}` on standard output
instead of the `error:` line, with the same exit code: a script reads one stream, always JSON.
CODE is the exception's `error_code` (schemas/output/error.schema.json lists them).

typer is imported only where an exit is raised for it, so that an interrupt while the console script
is still loading (cardkit/cli/main.py) is reported through `report` without loading it.
"""

from __future__ import annotations

import functools
import os
import sys
from typing import TYPE_CHECKING, Any, Callable, ParamSpec, Sequence, TypeVar

from cardkit.cli._output import Echo, flush_stdout, json_text
from cardkit.errors import CardkitError
from cardkit.visible import visible

if TYPE_CHECKING:
    import typer

P = ParamSpec("P")
R = TypeVar("R")

EXIT_OK = 0
EXIT_FINDING = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

USAGE = "USAGE"
INTERRUPTED = "INTERRUPTED"
WRITE_FAILED = "WRITE_FAILED"


def error_document(error_code: str, message: str, suggestions: Sequence[str] = ()) -> dict[str, dict[str, Any]]:
    """The JSON an error is under `--json`; `suggestions` (close names the user may have meant) only when there are some."""
    document: dict[str, Any] = {"code": error_code, "message": message}
    if suggestions:
        document["suggestions"] = list(suggestions)
    return {"error": document}


def report(message: str, code: int, echo: Echo, *, as_json: bool = False, error_code: str = USAGE,
           suggestions: Sequence[str] = ()) -> int:
    """Report `message` through `echo` and return `code`: an `error:` line on stderr (made visible: it quotes
    file names and file text), or with `as_json` the error document on stdout."""
    if as_json:
        echo(json_text(error_document(error_code, message, suggestions)))
    else:
        echo(f"error: {visible(message)}", err=True)
    return code


def fail(message: str, code: int = EXIT_USAGE, *, as_json: bool = False, error_code: str = USAGE,
         suggestions: Sequence[str] = ()) -> "typer.Exit":
    """`report` through typer's echo; returns the exit to raise."""
    import typer

    return typer.Exit(report(message, code, typer.echo, as_json=as_json, error_code=error_code, suggestions=suggestions))


def handled(exc: BaseException, echo: Echo, as_json: bool) -> int | None:
    """The exit code of a command stopped by `exc`, reported through `echo`; None for an exception that is a bug."""
    if isinstance(exc, CardkitError):
        # A name that matched nothing (a card, a player) carries the close names it may have meant.
        suggestions = getattr(exc, "suggestions", None) or ()
        return report(exc.terminal_message, exc.exit_code, echo, as_json=as_json, error_code=exc.error_code,
                      suggestions=suggestions)
    if isinstance(exc, KeyboardInterrupt):
        return report("interrupted", EXIT_INTERRUPTED, echo, as_json=as_json, error_code=INTERRUPTED)
    if isinstance(exc, BrokenPipeError):
        sys.stderr.close()
        return EXIT_OK
    if isinstance(exc, OSError) and writing_stdout(exc):
        from cardkit.outputs import os_write_reason

        silence_stdout()

        def to_stderr(message: str, *, err: bool = False) -> None:
            echo(message, err=True)

        # Standard output is what failed, so even the error document of --json can only go to stderr.
        return report(f"can't write standard output: {os_write_reason(exc)}", EXIT_USAGE, to_stderr,
                      as_json=as_json, error_code=WRITE_FAILED)
    return None


def writing_stdout(exc: OSError) -> bool:
    """Whether `exc` was raised writing a command's output: by an echo to stdout, or the last flush (`flush_stdout`).

    Told by where it was raised, as an OSError carries no stream: any other one reaching here is a bug to show."""
    from cardkit.cli._output import flush_stdout, plain_echo

    writers = {plain_echo.__code__, flush_stdout.__code__}
    typer = sys.modules.get("typer")  # not loaded when Ctrl-C came before the commands were, so none of its echoes ran
    if typer is not None:
        writers.add(typer.echo.__code__)
    tb, writer = exc.__traceback__, None
    while tb is not None:
        if tb.tb_frame.f_code in writers:
            writer = tb.tb_frame
        tb = tb.tb_next
    return writer is not None and not writer.f_locals.get("err", False)


def silence_stdout() -> None:
    """Point standard output at the null device, so that Python's own flush at exit does not fail over again."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, ValueError, OSError):
        return  # not a file (a test's capture): nothing is flushed to a descriptor at exit
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, fd)
    os.close(null)


def guarded(command: Callable[P, R]) -> Callable[P, R]:
    """Wrap a command so that cardkit errors print one line (one JSON object with `--json`) and exit with their code."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        # typer passes every parameter by name; a command's --json is its `as_json`.
        as_json = kwargs.get("as_json") is True
        try:
            result = command(*args, **kwargs)
            flush_stdout()
            return result
        except (CardkitError, KeyboardInterrupt, OSError) as exc:
            import typer

            code = handled(exc, typer.echo, as_json)
            if code is None:
                raise
            raise typer.Exit(code) from None

    return wrapper
