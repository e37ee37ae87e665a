"""The one place where library exceptions become messages and exit codes.

Exit codes: 0 success (legal), 1 a finding (illegal deck, catalogue problems,
no such card), 2 usage error, unreadable input or standard output that can't be written, 130 interrupted.

With `--json` an error is `{"error": {"code": CODE, "message": TEXT}}` on standard output
instead of the `error:` line, with the same exit code: a script reads one stream, always JSON.
CODE is the exception's `error_code` (schemas/output/error.schema.json lists them).

typer is imported only where an exit is raised for it: the engines' fast path
(cardkit/cli/_fast.py) reports errors through `report` and `handled` without loading it.
"""

from __future__ import annotations

import functools
import os
import sys
from typing import TYPE_CHECKING, Any, Callable, ParamSpec, Sequence, TypeVar

from cardkit.cli._output import Echo, flush_stdout, json_text
from cardkit.errors import CardkitError
from cardkit.visible import quoted, visible

if TYPE_CHECKING:
    import typer

P = ParamSpec("P")
R = TypeVar("R")

from cardkit.cli._exits import EXIT_FINDING as EXIT_FINDING, EXIT_INTERRUPTED as EXIT_INTERRUPTED, EXIT_OK as EXIT_OK
from cardkit.cli._exits import EXIT_USAGE as EXIT_USAGE


USAGE = "USAGE"
INTERRUPTED = "INTERRUPTED"
WRITE_FAILED = "WRITE_FAILED"


def _option(name: str) -> Callable[[Any], str]:
    return lambda exc: f"{name} {exc.message}"


# Library errors as the command line words them and exits for them: a refused value named by the option that
# carried it. Keyed by the exception's module and class name, so that the table imports none of them.
CLI_ERRORS: dict[str, tuple[int, Callable[[Any], str]]] = {
    "cardkit.tournament.errors.FormatsDiffer": (EXIT_USAGE, lambda exc: f"--format {exc.given} differs from the format "
                                                                        f"{quoted(exc.listed)} in {exc.registrations}"),
    "cardkit.tournament.errors.PageNotHtml": (EXIT_USAGE, _option("--out")),
    "cardkit.tournament.errors.TablesNotInAFolder": (EXIT_USAGE, _option("--csv-dir")),
    "cardkit.tournament.errors.UnsafeCardUrl": (EXIT_USAGE, lambda exc: f"--card-url {exc.base}: give an http:// or "
                                                                        "https:// address (or a relative path)"),
    "cardkit.tournament.registry.UnknownPlayer": (EXIT_USAGE, lambda exc: exc.terminal_message),
    "cardkit.tournament.registry.RegistryDamaged": (EXIT_USAGE, lambda exc: exc.terminal_message),
}


def cli_error(exc: CardkitError) -> tuple[int, str]:
    """The exit code and message of a library error at the command line: the table's, else the error's own."""
    mapped = CLI_ERRORS.get(f"{type(exc).__module__}.{type(exc).__qualname__}")
    if mapped is None:
        return exc.exit_code, exc.terminal_message
    code, message = mapped
    return code, message(exc)


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
        code, message = cli_error(exc)
        return report(message, code, echo, as_json=as_json, error_code=exc.error_code, suggestions=suggestions)
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
    typer = sys.modules.get("typer")  # not loaded on the engines' fast path, so none of its echoes ran
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
