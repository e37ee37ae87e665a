"""The one place where library exceptions become messages and exit codes.

Exit codes: 0 success (legal), 1 a finding (illegal deck, catalogue problems,
no such card), 2 usage error, unreadable input or standard output that can't be written, 130 interrupted.

With `--json` an error is `{"error": {"code": CODE, "message": TEXT}}` on standard output
instead of the `error:` line, with the same exit code: a script reads one stream, always JSON.
CODE is the exception's `error_code` (schemas/output/error.schema.json lists them).

typer is imported only where an exit is raised for it, so that an interrupt while the console script
is still loading (cardkit/cli/main.py) is reported through `report` without loading it.

The library's exceptions name no option and carry no exit code: `EXIT_CODES` gives each
error code its exit, and `terminal_message` words an exception for the terminal, naming
the option to change where the library names its parameter.
"""

from __future__ import annotations

import functools
import os
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from cardkit.cli._output import Echo, flush_stdout, json_text
from cardkit.errors import (
    BadArgument,
    CardkitError,
    CatalogueError,
    InterruptedAfterWriting,
    LinkReplaced,
    OutputRefused,
    with_hint,
)
from cardkit.visible import quoted, visible

if TYPE_CHECKING:
    import typer

    from cardkit.catalogue.importing import ImportFailsCheck
    from cardkit.decks.canonical import UnresolvedDeck
    from cardkit.games.berserk_tcg.opening.play import TakesOutrunCities
    from cardkit.games.squad_games.squads.read import SquadFormatUnknown

P = ParamSpec("P")
R = TypeVar("R")

EXIT_OK = 0
EXIT_FINDING = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

USAGE = "USAGE"
INTERRUPTED = "INTERRUPTED"
WRITE_FAILED = "WRITE_FAILED"

EXIT_CODES: dict[str, int] = {
    USAGE: EXIT_USAGE, "BAD_ARGUMENT": EXIT_USAGE, "UNREADABLE": EXIT_USAGE, "OUTPUT_REFUSED": EXIT_USAGE,
    "BAD_STATE": EXIT_USAGE, WRITE_FAILED: EXIT_USAGE, "UNKNOWN_GAME": EXIT_USAGE, "UNKNOWN_FORMAT": EXIT_USAGE,
    "UNKNOWN_PLAYER": EXIT_USAGE, "REGISTRY_DAMAGED": EXIT_USAGE, "CATALOGUE": EXIT_USAGE,
    "BAD_FORMAT_FILE": EXIT_USAGE, "BAD_ACTION": EXIT_USAGE, "CHOICE_NEEDED": EXIT_USAGE,
    # Not found is exit 1 everywhere, as `cards show` of an unknown card: an answer about the input, like an illegal
    # deck; so is an action or a placement refused outside `apply`, a finding about the state.
    "NOT_FOUND": EXIT_FINDING, "AMBIGUOUS": EXIT_FINDING, "UNRESOLVED_DECK": EXIT_FINDING,
    "UNFAITHFUL_CONVERSION": EXIT_FINDING, "ILLEGAL_SETUP": EXIT_FINDING, "ILLEGAL_ACTION": EXIT_FINDING,
    "NOT_A_CHARACTER": EXIT_FINDING, INTERRUPTED: EXIT_INTERRUPTED,
}
"""The exit code of each error code, as docs/json.md tables them; an error code not listed exits 2."""

OPTIONS: dict[str, str] = {"format_name": "--format"}
"""The option of a library parameter (`BadArgument.parameter`) not spelled `--` plus its name with `-` for `_`."""


def exit_code_of(exc: CardkitError) -> int:
    """The exit code of a command stopped by `exc`."""
    return EXIT_CODES.get(exc.error_code, EXIT_USAGE)


def option(parameter: str) -> str:
    """`attacker_life` -> `--attacker-life`: the option that gives a library parameter on the command line."""
    return OPTIONS.get(parameter, "--" + parameter.replace("_", "-"))


def _bad_argument(exc: BadArgument) -> str:
    return f"{option(exc.parameter)} {exc.problem}" if exc.parameter else exc.message


def _output_refused(exc: OutputRefused) -> str:
    return f"{exc.path} {exc.reason}; give --force to replace {exc.replaced}" if exc.forcing_replaces else exc.message


def _catalogue_error(exc: CatalogueError) -> str:
    return f"{exc.problem}; run `cardkit catalogue {exc.remedy}`" if exc.remedy else exc.message


def _unresolved_deck(exc: UnresolvedDeck) -> str:
    return f"{exc.summary}; run `cardkit validate`"


def _takes_outrun_cities(exc: TakesOutrunCities) -> str:
    return f"--takes {exc.why}, so give --cities with at least {exc.cities_needed}"


def _squad_format_unknown(exc: SquadFormatUnknown) -> str:
    return f"{exc.path}: no format; put `format: berserk-online` (or berserk-ccg) in the file or give --format"


def _import_fails_check(exc: ImportFailsCheck) -> str:
    return (f"{exc.source}: importing it would make `cardkit catalogue check` fail: {exc.first_problem}; "
            "nothing written; give --force to import it anyway")


def _option(name: str) -> Callable[[Any], str]:
    return lambda exc: f"{name} {exc.message}"


WORDINGS: dict[str, Callable[[Any], str]] = {
    "cardkit.tournament.errors.FormatsDiffer":
        lambda exc: f"--format {exc.given} differs from the format {quoted(exc.listed)} in {exc.registrations}",
    "cardkit.tournament.errors.PageNotHtml": _option("--out"),
    "cardkit.tournament.errors.TablesNotInAFolder": _option("--csv-dir"),
    "cardkit.tournament.errors.UnsafeCardUrl":
        lambda exc: f"--card-url {exc.base}: give an http:// or https:// address (or a relative path)",
    "cardkit.errors.BadArgument": _bad_argument,
    "cardkit.errors.OutputRefused": _output_refused,
    "cardkit.errors.CatalogueError": _catalogue_error,
    "cardkit.decks.canonical.UnresolvedDeck": _unresolved_deck,
    "cardkit.games.berserk_tcg.opening.play.TakesOutrunCities": _takes_outrun_cities,
    "cardkit.games.squad_games.squads.read.SquadFormatUnknown": _squad_format_unknown,
    "cardkit.catalogue.importing.ImportFailsCheck": _import_fails_check,
}
"""The terminal's wording of each exception class that needs its own (by module and name: the most specific
class of an exception that has one wins); any other is shown as its message. Classes are named, not imported:
a module that was never loaded raised nothing, and loading one to ask would slow every error report."""


def terminal_message(exc: CardkitError) -> str:
    """`exc` as the terminal shows it: options named where the library names its parameters, then its advice."""
    for cls in type(exc).__mro__:
        wording = WORDINGS.get(f"{cls.__module__}.{cls.__qualname__}")
        if wording is not None:
            return with_hint(wording(exc), exc.hint)
    return exc.terminal_message


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
         suggestions: Sequence[str] = ()) -> typer.Exit:
    """`report` through typer's echo; returns the exit to raise."""
    import typer

    return typer.Exit(report(message, code, typer.echo, as_json=as_json, error_code=error_code, suggestions=suggestions))


def handled(exc: BaseException, echo: Echo, as_json: bool) -> int | None:
    """The exit code of a command stopped by `exc`, reported through `echo`; None for an exception that is a bug."""
    if isinstance(exc, CardkitError):
        # A name that matched nothing (a card, a player) carries the close names it may have meant.
        suggestions = getattr(exc, "suggestions", None) or ()
        return report(terminal_message(exc), exit_code_of(exc), echo, as_json=as_json, error_code=exc.error_code,
                      suggestions=suggestions)
    if isinstance(exc, InterruptedAfterWriting):
        # Everything asked for was written: the interrupt only cut short what followed, so the command succeeded.
        echo(f"note: {visible(str(exc))}", err=True)
        return EXIT_OK
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
            # Inside the try: an interrupt while the notes are shown is reported like any other.
            with notes_shown():
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


@contextmanager
def notes_shown() -> Iterator[None]:
    """Show what the library said it did beside what was asked (`LinkReplaced`: a forced write replaced a
    symbolic link) as `note:` lines on stderr once the command ends, however it ends; other warnings as Python shows them."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", LinkReplaced)
        try:
            yield
        finally:
            for said in caught:
                if isinstance(said.message, LinkReplaced):
                    sys.stderr.write(f"note: {visible(str(said.message))}\n")
    for said in caught:
        if not isinstance(said.message, LinkReplaced):
            warnings.showwarning(said.message, said.category, said.filename, said.lineno, said.file, said.line)
