"""`cardkit deck hash|diff|convert`: the same deck however it is written."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cardkit.cli._errors import EXIT_FINDING, guarded
from cardkit.cli._options import FormatOption, GameOption, JsonOption, print_json, stdin_once
from cardkit.errors import CardkitError
from cardkit.visible import quoted, visible

if TYPE_CHECKING:
    from cardkit.decks.choices import Choice
    from cardkit.decks.model import Deck

deck_app = typer.Typer(help="Hash, compare, convert, encode and resolve deck files; list deck formats.", no_args_is_help=True)


class ChoicesNeeded(CardkitError):
    """Lines name several cards and `deck resolve` can't ask which: standard input is not a terminal, or is the deck itself.

    The library leaves the choices open (`open_choices`); only a command that asks on a terminal stops here."""

    error_code = "CHOICE_NEEDED"

    def __init__(self, deck: Deck, choices: list[Choice], deck_on_stdin: bool = False) -> None:
        self.deck = deck
        self.choices = choices
        shown = "; ".join(f"{c.where}: {quoted(c.text)} is {len(c.candidates)} cards" for c in choices[:5])
        more = f" (+{len(choices) - 5} more)" if len(choices) > 5 else ""
        if deck_on_stdin:
            # On a terminal too: standard input holds the deck, so no answer can be typed there.
            super().__init__(f"{deck.path}: {len(choices)} line(s) name several cards, and questions can't be asked "
                             f"while the deck itself comes from standard input, where the answers would be typed: "
                             f"{shown}{more}; save the deck to a file and run `cardkit deck resolve FILE` on a "
                             "terminal, or write `N Name (ID)` on those lines")
            return
        # Standard input is what is not a terminal (a pipe, a file, a job's nothing): the output may well be one.
        super().__init__(f"{deck.path}: {len(choices)} line(s) name several cards, and questions are answered on "
                         f"standard input, which is not a terminal: {shown}{more}; run `cardkit deck resolve` with "
                         "standard input from a terminal, or write `N Name (ID)` on those lines")


DeckArgument = Annotated[Path, typer.Argument(help="A deck file (.deck text or .json), - for standard input, or code:CODE.", show_default=False, metavar="DECK")]


@deck_app.command("hash")
@guarded
def hash_command(deck: DeckArgument, format_name: FormatOption = None, as_json: JsonOption = False) -> None:
    """Print the SHA-256 of DECK's resolved cards and counts per section.

    Names or ids, any order, any spelling: the same cards give the same hash.
    Exit 1 if a line doesn't parse or a card doesn't resolve. --json prints
    {path, game, format, hash}.
    """
    from cardkit.decks import read_deck
    from cardkit.decks.canonical import deck_hash, hash_to_json

    stdin_once(deck)
    read = read_deck(deck, format_name)
    if as_json:
        print_json(hash_to_json(read))
    else:
        typer.echo(deck_hash(read))


@deck_app.command("code")
@guarded
def code_command(deck: DeckArgument, format_name: FormatOption = None, as_json: JsonOption = False) -> None:
    """Print DECK as a deck code: one URL-safe line holding its game, format, cards and counts.

    Any command takes the code where a deck file goes, as `code:CODE`
    (`cardkit validate code:ck1.…`). The deck's name, player and event are
    left out. Exit 1 if a line doesn't parse or a card doesn't resolve.
    --json prints {path, game, format, code}.
    """
    from cardkit.decks import read_deck
    from cardkit.decks.code import code_to_json, encode_deck

    stdin_once(deck)
    read = read_deck(deck, format_name)
    if as_json:
        print_json(code_to_json(read))
    else:
        typer.echo(encode_deck(read))


@deck_app.command("diff")
@guarded
def diff_command(
    a: Annotated[Path, typer.Argument(help="The deck before (.deck text or .json; - reads standard input; or code:CODE).", show_default=False, metavar="A")],
    b: Annotated[Path, typer.Argument(help="The deck after, of the same game.", show_default=False, metavar="B")],
    as_json: JsonOption = False,
) -> None:
    """Print the card-count differences from deck A to deck B, per section.

    Names or ids, any order: only the resolved cards and counts are compared.
    Exit 0 when the decks hold the same cards, 1 when they differ (or a card
    doesn't resolve), 2 when a deck can't be read or the games differ.
    --json prints {before: {path}, after: {path}, changes: [...]}.
    """
    from cardkit.decks import read_deck
    from cardkit.decks.canonical import diff_decks, diff_to_json

    stdin_once(a, b)
    before, after = read_deck(a), read_deck(b)
    changes = diff_decks(before, after)
    if as_json:
        print_json(diff_to_json(before, after, changes))
    elif not changes:
        typer.echo("same cards")
    else:
        section = None
        for c in changes:
            if c.section != section:
                section = c.section
                typer.echo(f"{section}:")
            typer.echo(f"  {c.delta:+4d}  {visible(c.name)} ({visible(c.card)})  {c.before} -> {c.after}")
    if changes:
        raise typer.Exit(EXIT_FINDING)


@deck_app.command("convert")
@guarded
def convert_command(
    deck: DeckArgument,
    to: Annotated[str, typer.Option("--to", help="Output form: json or text.", case_sensitive=False)],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write here (atomically) instead of to stdout.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing --out file even if it is not a deck "
                                                        "cardkit converted (never the input or a special file).")] = False,
) -> None:
    """Write DECK in the other deck form; resolved cards are written `NAME (ID)`.

    The result is read back before it is written: converting back gives the
    same header and card lines, or nothing is written (exit 1). The input is
    never modified; an existing --out file is replaced only if it is a deck in
    the exact form convert writes, or with --force. Exit 1 if a line doesn't
    parse or the deck can't be written faithfully; 2 when the deck can't be
    read or --out can't be written.
    """
    from cardkit.decks import read_deck
    from cardkit.decks.canonical import CONVERTED_DECK, convert
    from cardkit.errors import BadArgument
    from cardkit.jsonio import is_stdin
    from cardkit.outputs import Output

    if to.lower() not in ("json", "text"):
        raise BadArgument(f"--to must be json or text, not {quoted(to)}")
    target = Output(out, CONVERTED_DECK, () if is_stdin(deck) else (deck,), force) if out is not None else None
    if target is not None:
        target.check()
    stdin_once(deck)
    text = convert(read_deck(deck), to.lower())
    if target is None:
        typer.echo(text, nl=False)
        return
    target.write(text)


def _deck_on_stdin(deck: Path) -> bool:
    """Whether DECK is standard input: `-`, or a name of it (`/dev/stdin`, `/dev/fd/0`) or of the file it reads."""
    import os
    import sys

    from cardkit.jsonio import is_stdin

    if is_stdin(deck):
        return True
    try:
        return sys.stdin is not None and os.path.samestat(os.stat(deck), os.fstat(sys.stdin.fileno()))
    except (OSError, ValueError, AttributeError):  # no descriptor (a test's input), or no such file
        return False


def _can_ask(deck: Path) -> bool:
    """Whether a player can answer questions: standard input is a terminal and not the deck itself."""
    import sys

    return not _deck_on_stdin(deck) and sys.stdin is not None and sys.stdin.isatty()


def _ask(same: list[Choice], number: int, of: int) -> str | None:
    """The id the player picks for the lines `same`, which name the same cards (on standard error, so the deck
    alone goes to stdout); None to skip them."""
    from cardkit.catalogue.candidates import telling_apart
    from cardkit.errors import BadArgument
    from cardkit.problems import FOLDED_LINES

    choice = same[0]
    if len(same) == 1:
        typer.echo(f"\n({number}/{of}) {choice.where}: {choice.count} {visible(choice.text)} is "
                   f"{len(choice.candidates)} cards; which one?", err=True)
    else:
        wheres = ", ".join(str(c.line) if c.line is not None else c.where for c in same[:FOLDED_LINES])
        more = ", …" if len(same) > FOLDED_LINES else ""
        typer.echo(f"\n({number}/{of}) lines {wheres}{more}: {visible(choice.text)} is {len(choice.candidates)} "
                   f"cards; which one? (applies to {len(same):,} lines)", err=True)
    for k, text in enumerate(telling_apart(choice.candidates), start=1):
        typer.echo(f"  {k:>2}  {visible(text)}", err=True)
    while True:
        try:
            answer = typer.prompt(f"number 1-{len(choice.candidates)}, or 0 to leave the line as it is",
                                  default="", show_default=False, err=True).strip()
        except typer.Abort as stop:
            # click turns both Ctrl-C and end of input into Abort; only Ctrl-C is an interrupt.
            if isinstance(stop.__context__, EOFError):
                raise BadArgument("no answer given (end of input); nothing was written") from None
            raise KeyboardInterrupt from None
        # ASCII digits only, as counts in a deck: str.isdigit also takes "٢" and "１".
        if answer.isascii() and answer.isdigit() and int(answer) <= len(choice.candidates):
            return str(choice.candidates[int(answer) - 1]["id"]) if int(answer) else None
        typer.echo(f"{quoted(answer)} is not a number from 0 to {len(choice.candidates)}", err=True)


@deck_app.command("resolve")
@guarded
def resolve_command(
    deck: DeckArgument,
    out: Annotated[Path | None, typer.Option("--out", "-o", metavar="PATH",
                                                help="Write here (atomically) instead of to stdout.")] = None,
    format_name: FormatOption = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing --out file even if it is not a deck "
                                                        "cardkit wrote (never the input or a special file).")] = False,
) -> None:
    """Ask which card each line of DECK that names several cards means; write the deck with ids.

    One numbered question per such name (`3 Guts` is 15 cards: set, colour,
    cost, Level, power, hp tell them apart), whose answer is every line's that
    names the same cards (the prompt says how many); the deck is then written as
    `deck convert` writes it, every resolved line `N Name (ID)`, to --out or
    stdout, never over DECK. Answers are typed on standard input: when it is
    not a terminal (or holds DECK) the lines and their cards are listed and the
    exit is 2. Answer 0 to leave a line as written. A line that names no card
    (UNKNOWN_CARD, with the close names `validate` suggests) is listed first
    and left as written, and the exit is 1.
    """
    from cardkit.cli._render import problem_line
    from cardkit.decks import read_deck
    from cardkit.decks.canonical import CONVERTED_DECK
    from cardkit.decks.choices import CHOICE_CODES, NO_CARD_CODES, no_card_lines, open_choices, questions, resolved_deck
    from cardkit.errors import BadArgument
    from cardkit.jsonio import is_stdin
    from cardkit.outputs import Output
    from cardkit.problems import fold_repeats

    target = Output(out, CONVERTED_DECK, () if is_stdin(deck) else (deck,), force) if out is not None else None
    if target is not None:
        target.check()
    stdin_once(deck)
    read = read_deck(deck, format_name)
    choices = open_choices(read)
    no_card = no_card_lines(read)
    asking = bool(choices) and _can_ask(deck)
    lines = set() if asking else {(c.line, c.pointer) for c in choices}
    # Told before any question, in file order, folded as `validate` folds them: 500 lines of `1 Guts` list
    # the 15 cards once, not 500 times.
    for p in fold_repeats(p for p in read.problems if (p.code in NO_CARD_CODES and not p.candidates)
                          or (p.code in CHOICE_CODES and p.candidates and (p.line, p.pointer) in lines)):
        typer.echo(problem_line(p), err=True)
    if choices and not asking:
        raise ChoicesNeeded(read, choices, deck_on_stdin=_deck_on_stdin(deck))
    chosen: dict[int, str] = {}
    asked = questions(choices)
    for number, same in enumerate(asked, start=1):
        card = _ask(same, number, len(asked))
        if card is not None:
            chosen.update((choice.index, card) for choice in same)
    text = resolved_deck(read, chosen)
    left = len(choices) - len(chosen)
    if left:
        typer.echo(f"{left} line(s) left as written", err=True)
    if target is None:
        typer.echo(text, nl=False)
    else:
        try:
            target.write(text)
        except OSError as exc:
            raise BadArgument(f"can't write {out}: {exc.strerror or exc}") from None
    if no_card:
        # The deck is written (those lines as written), but it names cards that don't exist: a finding, as in `validate`.
        raise typer.Exit(EXIT_FINDING)


@deck_app.command("formats")
@guarded
def formats_command(game: GameOption = None, as_json: JsonOption = False) -> None:
    """List the deck formats of data/formats/ (of GAME only, with --game) and their main rules."""
    from cardkit.formats import list_formats

    formats = list_formats(game)
    if as_json:
        print_json([f.to_dict() for f in formats])
        return
    for f in formats:
        low, high = f.bounds("main")
        size = f"{low or 0}-{high}" if high is not None else (f"{low}+" if low else "any")
        _, side = f.bounds("side")
        side_text = "no side" if side == 0 else (f"side <= {side}" if side is not None else "side any")
        per = "per name" if f.copies_by == "name" else "copies"
        copies = f"<= {f.copies['limit']} {per}" if f.copies else ("fixed list" if f.composition else "no copy limit")
        mark = "*" if f.is_default else " "
        typer.echo(f"{mark} {f.name:20} {f.game:15} main {size:6} {side_text:12} {copies:15} {f.title}")


def register(app: typer.Typer) -> None:
    app.add_typer(deck_app, name="deck")
