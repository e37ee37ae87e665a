"""`cardkit tournament check|db|register|deck-check|publish`: an event's submissions checked, recorded and published for organizers."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cardkit.cli._errors import EXIT_FINDING, EXIT_OK, guarded
from cardkit.cli._options import JsonOption, complete_format, print_json
from cardkit.cli._progress import progress_bar, show_progress
from cardkit.cli._render import paint, problem_line, tally
from cardkit.errors import with_hint
from cardkit.visible import shortened, visible

if TYPE_CHECKING:
    from cardkit.tournament import EventCheck

tournament_app = typer.Typer(
    help="Check an event's deck submissions against its format and registration list; write reports; register "
         "decklists and check decks at the table; publish the metagame.",
    no_args_is_help=True,
)

InputsArgument = Annotated[list[Path], typer.Argument(
    help="Event folders (searched recursively for .deck and .deck.json files; hidden files skipped) or deck files.",
    show_default=False, metavar="FOLDER_OR_FILE")]
EventFormatOption = Annotated[str | None, typer.Option(
    "--format", "-f", autocompletion=complete_format, help="The event's format: every deck must be in it (default: the registration list's "
                           "`format` column, else each deck is checked against its own format).")]
RegistrationsOption = Annotated[Path | None, typer.Option(
    "--registrations", "-r", help="Registration CSV: a `player` column (required), optional `deck` (the "
                                  "submission's file name) and `format` columns; other columns are ignored.",
    show_default=False)]
EventOption = Annotated[str | None, typer.Option("--event", help="Event name for reports and pages (default: the "
                                                                    "registration list's `event` column, else the folder's name).")]


@contextmanager
def _progress(as_json: bool) -> Iterator[dict[str, Any]]:
    """A progress bar's callbacks for a workflow (`progress`, `phase`), while the bar is up; none without a bar."""
    with progress_bar("checking decks", show_progress(as_json)) as bar:
        yield {"progress": bar.update, "phase": bar.phase} if bar else {}


IDENTICAL_SHOWN = 10
"""Decks named on a group's line; the JSON and CSV reports name every one."""


def _print_human(result: EventCheck, details: bool) -> None:
    subs = result.submissions
    # Names and paths come from the players' files: made visible before any width is measured, and a name
    # shortened as messages quote user text, so one 900,000-character `player:` line can't pad every row.
    paths = [visible(s.path) or "(no deck)" for s in subs]
    players = [shortened(visible(s.player)) or "(no player)" for s in subs]
    width = max([len(p) for p in paths] + [len("(no deck)")])
    pwidth = max([len(p) for p in players] + [len("(no player)")])
    # A deck sent by many players would name them all on every row: the rows name the group, one line lists it.
    groups = result.identical_groups()
    group_of = {id(s): number for number, group in enumerate(groups, start=1) for s in group}
    for s, path, player in zip(subs, paths, players):
        problems = s.problems
        found = tally(s.errors, s.warnings)
        shown = s.first_problem
        # The terminal's own advice for an unreadable file (a command to run, an option) is shown here only.
        first = ""
        if shown:
            message = with_hint(shown.message, s.report.failure_hint) if shown.code == "UNREADABLE" else shown.message
            if shown.code == "IDENTICAL_DECKS" and id(s) in group_of:
                message = f"the same cards as {(shown.actual or 2) - 1} other deck(s): group {group_of[id(s)]} below"
            first = f"  {visible(shown.code)}: {visible(message)}"
        what = visible(s.report.format or s.report.game or "-")
        typer.echo(f"{s.verdict.value.upper():10} {path:{width}}  {player:{pwidth}}  "
                   f"{what:15} {found or 'ok'}{first}")
        if details:
            for p in problems:
                if p != shown:
                    typer.echo(problem_line(p))
    for number, group in enumerate(groups, start=1):
        members = [f"{visible(s.path)} ({shortened(visible(s.player)) or 'no player'})" for s in group[:IDENTICAL_SHOWN]]
        more = f" and {len(group) - IDENTICAL_SHOWN} more" if len(group) > IDENTICAL_SHOWN else ""
        typer.echo(f"identical decks, group {number}: {', '.join(members)}{more}")
    for s, p in result.must_show():
        if details or p != s.first_problem:
            typer.echo(f"{visible(s.path) or '(no deck)'}: {p.severity.value} {visible(p.code)}: {visible(p.message)}")
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
    report: Annotated[Path | None, typer.Option(
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
    from cardkit.tournament.workflows import check_and_report

    with _progress(as_json) as told:
        result = check_and_report(inputs, report, format_name=format_name, registrations=registrations, event=event,
                                  force=force, **told)
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
    """Check the event like `check` and write events, decks with their lists, verdicts and problems to SQLite.

    Browse it beside the catalogue with `cardkit serve --attach tournament.db`.
    Exit 0 once written, whatever the verdicts (they are in the file); 2 for a
    usage error, and when --out is an input, a special file, or an existing file
    that is not a tournament database cardkit wrote (nothing is written then).
    """
    from cardkit.tournament.workflows import write_event_database

    with _progress(as_json) as told:
        written = write_event_database(inputs, out, format_name=format_name, registrations=registrations, event=event,
                                       **told)
    if as_json:
        print_json(written.to_dict())
    else:
        typer.echo(f"wrote {visible(out)}: " + ", ".join(f"{n} {t}" for t, n in written.tables.items()))


@tournament_app.command("publish")
@guarded
def publish_command(
    inputs: InputsArgument,
    out: Annotated[Path, typer.Option("--out", "-o", help="HTML file to write: one self-contained page.",
                                      show_default=False)],
    format_name: EventFormatOption = None,
    registrations: RegistrationsOption = None,
    event: EventOption = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing --out even if it is not a page cardkit "
                                                        "published (never an input or a special file).")] = False,
    card_url: Annotated[str | None, typer.Option(
        "--card-url", metavar="URL", help="Link each card name to its page: the catalogue `cardkit serve` shows "
                                          "(http://HOST:PORT/cardkit), or any address with {id} (and {game}) in it.",
        show_default=False)] = None,
    csv_dir: Annotated[Path | None, typer.Option(
        "--csv-dir", metavar="DIR", help="Also write the metagame tables as CSV files in DIR (mixes, cards, sizes, "
                                         "decks, deck_cards), for spreadsheets.", show_default=False)] = None,
    as_json: JsonOption = False,
) -> None:
    """Publish the event: the metagame with charts, then every legal deck's list, in one HTML page.

    Decks per colour or element mix, the most played cards (how many decks,
    in what numbers), deck sizes; every legal list grouped by kind, sortable
    by player, with a copy button and its text in the deck format. Illegal,
    unreadable and missing submissions are named only. Exit 0 once written,
    2 for a usage error and for an --out (or a --csv-dir file) that is an
    input, a special file or a file cardkit did not write (unless --force).
    """
    from cardkit.tournament.workflows import publish_event

    with _progress(as_json) as told:
        published = publish_event(inputs, out, format_name=format_name, registrations=registrations, event=event,
                                  force=force, card_url=card_url, csv_dir=csv_dir, **told)
    summary = published.to_dict()
    if as_json:
        print_json(summary)
    else:
        typer.echo(f"{visible(published.result.event)}: published {summary['decks']} legal deck(s), {summary['mixes']} "
                   f"mix(es), {summary['cards']} different card(s); {summary['not_published']} submission(s) named only")
        typer.echo(f"wrote {visible(out)}")
        if published.tables:
            typer.echo(f"wrote {len(published.tables)} CSV table(s) in {visible(csv_dir)}: "
                       + ", ".join(p.name for p in published.tables))


ForceOption = Annotated[bool, typer.Option("--force", help="Replace an existing registry (it is the record of what "
                                                           "players registered, so it is kept unless you say so).")]


@tournament_app.command("register")
@guarded
def register_command(
    inputs: InputsArgument,
    out: Annotated[Path, typer.Option("--out", "-o", help="Registry JSON file to write (schemas/registry.schema.json).",
                                      show_default=False)],
    format_name: EventFormatOption = None,
    registrations: RegistrationsOption = None,
    event: EventOption = None,
    force: ForceOption = False,
    as_json: JsonOption = False,
) -> None:
    """Record each player's registered decklist: file, canonical hash, resolved list, verdict, time, catalogue.

    Checks the event like `check`, then writes every readable deck that names
    its player to --out. An existing --out is refused unless --force. Exit 0
    once written (the verdicts are in the file), 2 for a usage error.
    """
    from cardkit.tournament.workflows import register_event

    with _progress(as_json) as told:
        registered = register_event(inputs, out, format_name=format_name, registrations=registrations, event=event,
                                    force=force, **told)
    if as_json:
        print_json(registered.to_dict())
    else:
        illegal = registered.decks - registered.legal
        typer.echo(f"{visible(registered.registry['event'])}: registered {registered.decks} deck(s): {registered.legal} "
                   f"legal, {illegal} illegal; {registered.not_registered} row(s) with no list to register "
                   "(unreadable, no player or missing)")
        typer.echo(f"wrote {visible(out)}")


@tournament_app.command("deck-check")
@guarded
def deck_check_command(
    registry: Annotated[Path, typer.Argument(help="The registry `tournament register` wrote.", show_default=False)],
    player: Annotated[str, typer.Argument(help="The player, as registered (case, accents and spacing ignored).",
                                          show_default=False)],
    presented: Annotated[Path, typer.Argument(help="The deck the player presents, typed as a deck file.",
                                              show_default=False, metavar="PRESENTED_DECK")],
    as_json: JsonOption = False,
) -> None:
    """Does the deck a player presents match the one they registered?

    Lists every difference per card and section: missing, extra, moved between
    main and side. Exit 0 match, 1 mismatch (a deck problem), 2 for an unknown
    player or an unreadable registry or deck.
    """
    from cardkit.tournament.registry import deck_check, read_registry

    result = deck_check(read_registry(registry), player, presented, str(registry))
    if as_json:
        print_json(result.to_dict())
    elif result.match:
        typer.echo(f"{paint('MATCH', 'MATCH    ')} {visible(result.player)}: {visible(result.presented_file)} is the registered deck "
                   f"({visible(result.registered_file)}, hash {(result.registered_hash or result.presented_hash)[:12]})")
    else:
        typer.echo(f"{paint('MISMATCH')}  {visible(result.player)}: {visible(result.presented_file)} differs from the registered deck "
                   f"{visible(result.registered_file)} in {len(result.differences)} place(s)")
        if result.registration_unresolved:
            typer.echo(f"  the registration itself was unresolved: {visible(result.registered_file)} had card lines that named "
                       "no card (see `tournament check`), so the registry holds only the lines that resolved")
        # Card names come from the registry file, which anyone could have edited: visible before measured.
        labels = [visible(f"{d.name} ({d.card})") for d in result.differences]
        width = max(map(len, labels)) if labels else 0
        for d, label in zip(result.differences, labels):
            typer.echo(f"  {d.section:4}  {label:{width}}  registered {d.registered}, "
                       f"presented {d.presented}: {d.describe()}")
        if not result.differences:
            typer.echo("  the same cards as the lines that resolved")
    if not as_json:
        # Not differences: a reprint is the same card when a deck names it, but a judge may want to see the swap.
        for n in result.printings:
            typer.echo(f"  note  {n.section:4}  {visible(n.name)}: {n.describe()}")
    raise typer.Exit(EXIT_OK if result.match else EXIT_FINDING)


def register(app: typer.Typer) -> None:
    app.add_typer(tournament_app, name="tournament")
