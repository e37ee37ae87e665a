"""`cardkit tournament check|db`: every deck submission of an event, checked and reported for organizers."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from cardkit.cli._progress import progress_bar, show_progress
from cardkit.cli._render import problem_line, tally
from cardkit.cli._errors import EXIT_FINDING, EXIT_OK, guarded
from cardkit.cli._options import JsonOption, print_json
from cardkit.visible import visible

if TYPE_CHECKING:
    from cardkit.tournament import EventCheck

tournament_app = typer.Typer(
    help="Check an event's deck submissions against its format and registration list; write reports.",
    no_args_is_help=True,
)

InputsArgument = Annotated[list[Path], typer.Argument(
    help="Event folders (searched recursively for .deck and .deck.json files; hidden files skipped) or deck files.",
    show_default=False, metavar="FOLDER_OR_FILE")]
EventFormatOption = Annotated[Optional[str], typer.Option(
    "--format", "-f", help="The event's format: every deck must be in it (default: the registration list's "
                           "`format` column, else each deck is checked against its own format).")]
RegistrationsOption = Annotated[Optional[Path], typer.Option(
    "--registrations", "-r", help="Registration CSV: a `player` column (required), optional `deck` (the "
                                  "submission's file name) and `format` columns; other columns are ignored.",
    show_default=False)]
EventOption = Annotated[Optional[str], typer.Option("--event", help="Event name for reports (default: the folder's name).")]


def _run(inputs: list[Path], format_name: str | None, registrations: Path | None, event: str | None,
         as_json: bool) -> EventCheck:
    from cardkit.tournament import check_event

    with progress_bar("checking decks", show_progress(as_json)) as bar:
        return check_event(inputs, format_name, registrations, event, bar.update if bar else None)


def _print_human(result: EventCheck, details: bool) -> None:
    subs = result.submissions
    # Names and paths come from the players' files: made visible before any width is measured.
    paths = [visible(s.path) or "(no deck)" for s in subs]
    players = [visible(s.player) or "(no player)" for s in subs]
    width = max([len(p) for p in paths] + [len("(no deck)")])
    pwidth = max([len(p) for p in players] + [len("(no player)")])
    for s, path, player in zip(subs, paths, players):
        problems = s.problems
        found = tally(s.errors, s.warnings)
        shown = s.first_problem
        first = f"  {visible(shown.code)}: {visible(shown.message)}" if shown else ""
        what = visible(s.report.format or s.report.game or "-")
        typer.echo(f"{s.verdict.value.upper():10} {path:{width}}  {player:{pwidth}}  "
                   f"{what:15} {found or 'ok'}{first}")
        if details:
            for p in problems:
                if p != shown:
                    typer.echo(problem_line(p))
    for p in result.problems:
        typer.echo(f"{visible(result.registrations)} line {p.line}: {p.severity.value} {visible(p.code)}: {visible(p.message)}")
    c = result.summary()
    typer.echo(f"{visible(result.event)}: {c['rows']} rows: {c['legal']} legal, {c['illegal']} illegal, {c['unreadable']} unreadable, "
               f"{c['missing']} missing; {c['warnings']} warning(s)" + (f"; format {result.format}" if result.format else ""))


@tournament_app.command("check")
@guarded
def check_command(
    inputs: InputsArgument,
    format_name: EventFormatOption = None,
    registrations: RegistrationsOption = None,
    report: Annotated[Optional[Path], typer.Option(
        "--report", help="Also write a report; its suffix picks the kind: .csv (one row per submission), "
                         ".json, or .html (a self-contained page).", show_default=False)] = None,
    event: EventOption = None,
    details: Annotated[bool, typer.Option("--details", help="List every problem under each submission, not just the first.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing --report file even if it is not an "
                                                        "earlier cardkit report (never an input or a special file).")] = False,
    as_json: JsonOption = False,
) -> None:
    """Validate every deck submission, never stopping on a bad file, then check across them.

    Per deck: legality in the event format (a deck of another format is
    WRONG_FORMAT).

    Across decks: NO_PLAYER, DUPLICATE_SUBMISSION, IDENTICAL_DECKS (a warning);
    with --registrations also UNREGISTERED_PLAYER, MISSING_SUBMISSION,
    PLAYER_MISMATCH.

    Exit 0 when every submission is legal (warnings allowed), 1 when any is
    illegal, unreadable or missing, 2 for a usage error (an input that doesn't
    exist, unknown format, unreadable registration list, no submissions, unknown
    report suffix) and for a --report that is an input or a special file, or
    an existing file that is no earlier cardkit report (unless --force).
    """
    from cardkit.outputs import Output
    from cardkit.tournament.reports import REPORT, report_renderer, write_report

    given = _given(inputs, registrations)
    if report is not None:
        # An unknown suffix or a file that may not be replaced is refused before the work, not after.
        report_renderer(report)
        Output(report, REPORT, given, force).check()
    result = _run(inputs, format_name, registrations, event, as_json)
    if report is not None:
        write_report(result, report, given, force)
    if as_json:
        print_json(result.to_dict())
    else:
        _print_human(result, details)
        if report is not None:
            typer.echo(f"report written to {visible(report)}")
    raise typer.Exit(EXIT_OK if result.ok else EXIT_FINDING)


@tournament_app.command("db")
@guarded
def db_command(
    inputs: InputsArgument,
    out: Annotated[Path, typer.Option("--out", "-o", help="SQLite file to write (replaced atomically).")] = Path("tournament.db"),
    format_name: EventFormatOption = None,
    registrations: RegistrationsOption = None,
    event: EventOption = None,
    as_json: JsonOption = False,
) -> None:
    """Check the event like `check` and write events, decks, verdicts and problems tables to a SQLite file.

    Browse it beside the catalogue with `cardkit serve --attach tournament.db`.
    Exit 0 once written, whatever the verdicts (they are in the file); 2 for a
    usage error, and when --out is an input, a special file, or an existing file
    that is not a tournament database cardkit wrote (nothing is written then).
    """
    from cardkit.outputs import Output
    from cardkit.tournament.database import TOURNAMENT_DATABASE, write_database

    given = _given(inputs, registrations)
    Output(out, TOURNAMENT_DATABASE, given).check()
    result = _run(inputs, format_name, registrations, event, as_json)
    counts = write_database([result], out, given)
    if as_json:
        print_json({"path": str(out), "tables": counts, "summary": result.summary()})
    else:
        typer.echo(f"wrote {visible(out)}: " + ", ".join(f"{n} {t}" for t, n in counts.items()))


def _given(inputs: list[Path], registrations: Path | None) -> tuple[Path, ...]:
    """The files the check will read, known before it runs, so an output over one is refused first."""
    from cardkit.errors import CardkitError
    from cardkit.tournament.check import find_submissions

    try:
        found = tuple(f.path for f in find_submissions(inputs) if f.refusal is None)
    except (CardkitError, OSError):
        found = ()  # the check itself says what is wrong with the inputs
    return tuple(inputs) + found + ((registrations,) if registrations is not None else ())


def register(app: typer.Typer) -> None:
    app.add_typer(tournament_app, name="tournament")
