"""The registration list: who plays, optionally which file is their deck and the event's format."""

from __future__ import annotations

import csv
import io
import os
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import PurePosixPath

from cardkit.errors import UnknownFormat, UnreadableInput
from cardkit.problems import Problem, error, warning
from cardkit.textfold import fold
from cardkit.visible import quoted

PlayerKey = str

COLUMNS: tuple[str, ...] = ("player", "deck", "format")
"""`player` is required; `deck` (the submission's file name or path in the event folder) and
`format` (the event's one format) are optional; any other column is kept but not checked
(an `event` column names the event in reports and on the published page)."""


@lru_cache(maxsize=1 << 16)  # an event asks each name's key several times (list, submission, cross-checks)
def player_key(name: str) -> PlayerKey:
    """Names compare with case, accents, spacing and punctuation folded: `alice  archer` is `Alice Archer`."""
    return fold(name) or name.strip()


@dataclass(frozen=True)
class Registration:
    """One row of the registration list; `line` is its line in the file."""

    player: str
    line: int
    deck: str | None = None
    format: str | None = None
    extra: dict[str, str] = field(default_factory=dict)

    @cached_property
    def deck_path(self) -> str | None:
        """The `deck` column as a path inside the event folder: `/` separators, no leading `./`."""
        if not self.deck:
            return None
        written = self.deck.replace("\\", "/")
        if "/" not in written and written != ".":
            return written  # a bare file name, as most rows give it, is its own path (pathlib per row was a third of reading the list)
        return PurePosixPath(written).as_posix().removeprefix("./")

    def names_file(self, relative: str) -> bool:
        """Whether the `deck` column names the submission at `relative` (its path or just its file name)."""
        wanted = self.deck_path
        return wanted is not None and wanted in (relative, PurePosixPath(relative).name)


@dataclass
class Registrations:
    """Every registered player, the event format the list names (if any) and problems of the list itself."""

    path: str
    rows: list[Registration]
    format: str | None = None
    problems: list[Problem] = field(default_factory=list)

    def __post_init__(self) -> None:
        # Indexed once, so matching N submissions to N rows is linear: a scan of the rows per
        # submission made a 5,000-deck event with a `deck` column take a minute.
        self._by_key: dict[PlayerKey, Registration] = {}
        self._by_file: dict[str, tuple[int, Registration]] = {}
        for i, row in enumerate(self.rows):
            self._by_key.setdefault(player_key(row.player), row)
            wanted = row.deck_path
            if wanted is not None:
                self._by_file.setdefault(wanted, (i, row))

    @property
    def event(self) -> str | None:
        """The event's name from an `event` column: the first row that gives one."""
        return next((row.extra["event"] for row in self.rows if row.extra.get("event")), None)

    def find(self, player: str) -> Registration | None:
        return self._by_key.get(player_key(player))

    def for_file(self, relative: str) -> Registration | None:
        """The first row whose `deck` column names the submission at `relative` (its path or just its file name)."""
        by_path = self._by_file.get(relative)
        name = _file_name(relative)
        by_name = self._by_file.get(name) if name != relative else None
        if by_name is None or (by_path is not None and by_path[0] <= by_name[0]):
            return by_path[1] if by_path is not None else None
        return by_name[1]


def _file_name(relative: str) -> str:
    """`PurePosixPath(relative).name`, without building a path for the common `folder/file.deck`."""
    name = relative.rpartition("/")[2]
    return name if name and name != "." else PurePosixPath(relative).name


def read_registrations(path: str | os.PathLike[str]) -> Registrations:
    """The registration CSV at `path` (UTF-8, first line the column names, `player` required).

    Raises `UnreadableInput` for a file that is not such a list, or whose `format`
    column names an unknown format or more than one format.
    """
    from cardkit.formats import load_format
    from cardkit.jsonio import read_text_input

    text = _line_ends(path, read_text_input(path))
    text, delimiter = _delimiter(text)
    # Only LF and CRLF end a line (the reader has made CRLF LF), but the csv module also ends a row at a
    # lone CR; it stands in as NUL, which text input never holds, and each cell gets its CR back.
    reader = csv.reader(io.StringIO(text.replace("\r", "\x00"), newline=""), delimiter=delimiter)
    last_line = text.count("\n") + (0 if text.endswith("\n") else 1)
    try:
        header = next(reader, None)
        while header is not None and not any(c.strip() for c in header):
            header = next(reader, None)
        if header is None:
            raise UnreadableInput(path, "empty registration list; the first line must name the columns, e.g. player,deck")
        columns = [c.replace("\x00", "\r").strip().lower() for c in header]
        if "player" not in columns:
            raise UnreadableInput(path, f"line {reader.line_num}: no `player` column (columns: {', '.join(columns)}); "
                                        "the first line must name the columns, e.g. player,deck (separated by "
                                        "commas, semicolons or tabs, the same on every line)")
        rows: list[Registration] = []
        problems: list[Problem] = []
        seen: dict[PlayerKey, int] = {}
        event_format: tuple[str, int] | None = None
        repeated = [col for col, n in Counter(c for c in columns if c).items() if n > 1]
        if repeated:
            # Which of two `player` (or `deck`) columns is meant can't be known; reading either would be a guess.
            names = ", ".join(f"`{col}`" for col in repeated)
            return Registrations(path=str(path), rows=[], format=None, problems=[error(
                "BAD_REGISTRATION", f"line {reader.line_num}: column {names} named more than once (names are read "
                                    "in any case); no row was read", line=reader.line_num, file=str(path))])
        end = reader.line_num
        text_lines: list[str] = []  # split once, at the first row over several lines
        for cells in reader:
            # A row is told at the line it starts on: a quoted value may run over several lines, and the
            # reader counts to the last of them.
            line, end = end + 1, reader.line_num
            cells = [c.replace("\x00", "\r") for c in cells]
            # Only a line with nothing on it is no row; a player name of spaces is a row without a player.
            if not any(cells):
                continue
            values = {col: (cells[i].strip() if i < len(cells) else "") for i, col in enumerate(columns) if col}
            player = values.get("player", "")
            where = {"line": line, "file": str(path)}
            if end > line or end >= last_line:
                # A quoted value may hold line breaks (a spreadsheet's note; a name, which reports show escaped),
                # but one never closed would swallow every later row into one value (on the last line, the
                # rest of it and its line break).
                text_lines = text_lines or text.split("\n")
                opened, closed = _quote_span(text_lines, line, end)
                if not closed:
                    raise UnreadableInput(path, f"line {opened}: a `\"` opened here is never closed, so the rest of the "
                                                f"file ({end - opened + 1} line{'s' if end > opened else ''}) would be one value; close it, or write "
                                                '`""` for a quote inside a value')
            if any(c.strip() for c in cells[len(columns):]):
                # `Smith, John` under a lone `player` header: reading the first cell would register `Smith`.
                sep = {"\t": "tab"}.get(delimiter, repr(delimiter))
                problems.append(error("BAD_REGISTRATION", f"line {line}: {len(cells)} values but the first line names "
                                      f"{len(columns)} column(s); quote a value that holds the separator {sep}, "
                                      'e.g. "Smith, John"; the row was not read', **where))
                continue
            if not player:
                problems.append(error("BAD_REGISTRATION", f"line {line}: no player name", **where))
                continue
            fmt = values.get("format") or None
            if fmt:
                if event_format is None:
                    try:
                        load_format(fmt)
                    except UnknownFormat as exc:
                        raise UnreadableInput(path, f"line {line}: {exc.message}") from None
                    event_format = (fmt, line)
                elif fmt != event_format[0]:
                    raise UnreadableInput(path, f"line {line}: format {quoted(fmt)} differs from {quoted(event_format[0])} on line "
                                                f"{event_format[1]}; an event has one format")
            key = player_key(player)
            if key in seen:
                problems.append(warning("DUPLICATE_REGISTRATION",
                                        f"line {line}: {quoted(player)} is already registered on line {seen[key]}",
                                        **where))
                continue
            seen[key] = line
            extra = {k: v for k, v in values.items() if k not in COLUMNS}
            rows.append(Registration(player=player, line=line, deck=values.get("deck") or None, format=fmt, extra=extra))
    except csv.Error as exc:
        raise UnreadableInput(path, f"line {reader.line_num}: not CSV ({exc})") from None
    problems.extend(_lookalike_rows(rows, str(path)))
    return Registrations(path=str(path), rows=rows, format=event_format[0] if event_format else None, problems=problems)


def _line_ends(path: str | os.PathLike[str], text: str) -> str:
    """`text` (CRLF already made LF) with a list saved with CR line ends (classic Mac OS) read as universal newline
    mode reads it; `UnreadableInput` for a CR that ends lines in the header while LF ends others, which no one
    reading could tell from a CR inside a name. A lone CR in a row of an LF list stays in its cell, shown escaped."""
    if "\r" not in text:
        return text
    if "\n" not in text:
        return text.replace("\r", "\n")
    lines = text.split("\n")
    number = next((i for i, line in enumerate(lines, start=1) if line.strip()), None)
    if number is not None and "\r" in lines[number - 1]:
        raise UnreadableInput(path, f"line {number}: a carriage return (CR) ends a line inside the first line, while line "
                                    "feeds end others; save the list with one kind of line end (LF or CRLF)")
    return text


def _quote_span(lines: list[str], first: int, last: int) -> tuple[int, bool]:
    """For a row on lines `first`-`last` (1-based) of a file's `lines`: the line where its value that runs past a
    line break opened its quote, and whether that quote is closed by `last` (an odd count of `"` never is)."""
    inside, opened = False, first
    for number, line in enumerate(lines[first - 1:last], start=first):
        if line.count('"') % 2:
            inside = not inside
            if inside:
                opened = number
    return opened, not inside


DELIMITERS: tuple[str, ...] = (",", ";", "\t")
"""What may separate the columns: commas, or semicolons as a spreadsheet in a European locale writes, or tabs."""


def _delimiter(text: str) -> tuple[str, str]:
    """The list's text with an Excel `sep=X` first line blanked, and the delimiter: that X, else the one of
    `DELIMITERS` that gives the first line a `player` column.

    Only the header decides, never a guess over the rows: a comma inside a player's name must not make a
    semicolon list read as commas. A header that has no `player` column either way reads as commas.
    """
    lines = text.split("\n")
    at = next((i for i, line in enumerate(lines) if line.strip()), None)
    if at is None:
        return text, ","
    declared = lines[at].rstrip(" ")  # not strip(): `sep=` and a tab is a declaration too
    if declared.lower().startswith("sep=") and len(declared) == 5 and declared[4] in DELIMITERS:
        # Blanked, not removed: every problem keeps the line number the organizer sees in an editor.
        lines[at] = ""
        return "\n".join(lines), declared[4]
    header = lines[at]
    for delimiter in DELIMITERS:
        try:
            cells = next(csv.reader([header], delimiter=delimiter), [])
        except csv.Error:
            continue
        if any(c.strip().lower() == "player" for c in cells):
            return text, delimiter
    return text, ","


def _lookalike_rows(rows: list[Registration], path: str) -> list[Problem]:
    """A `CONFUSABLE_PLAYER` warning for each row whose name only looks like an earlier row's."""
    from cardkit.tournament.confusables import LookalikeIndex, confusable_message

    out: list[Problem] = []
    seen = LookalikeIndex()
    lines: dict[str, int] = {}
    for row in rows:
        other = seen.confused_with(row.player)
        if other is not None:
            out.append(warning("CONFUSABLE_PLAYER", f"line {row.line}: " + confusable_message(
                row.player, other, f"the player of line {lines[other]}, "), line=row.line, file=path))
        seen.add(row.player)
        lines.setdefault(row.player, row.line)
    return out

