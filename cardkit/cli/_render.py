"""Text rendering shared by the commands: one look for problems and verdicts everywhere.

Verdicts and severities are coloured on a terminal only: never when the output is piped or
redirected, nor with `NO_COLOR` set to anything but the empty string (https://no-color.org),
nor on `TERM=dumb`; `FORCE_COLOR` or `CLICOLOR_FORCE` set to anything but empty or `0`
(https://force-color.org, https://bixense.com/clicolors) colour a pipe or a dumb terminal too,
for a CI log or `less -R`. `NO_COLOR` wins over both: it is the reader saying no. Colour goes on
after padding, so columns line up either way.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

from cardkit.visible import visible

if TYPE_CHECKING:
    from cardkit.problems import Problem


COLOURS: dict[str, str] = {"LEGAL": "green", "legal": "green", "ILLEGAL": "red", "UNREADABLE": "red",
                           "MISSING": "red", "error": "red", "warning": "yellow", "MATCH": "green", "MISMATCH": "red"}
"""The colour of each verdict and severity word."""


def colour_forced() -> bool:
    """Whether the environment asks for colour wherever the output goes (and `NO_COLOR` doesn't forbid it)."""
    if os.environ.get("NO_COLOR"):
        return False
    return any(os.environ.get(name, "") not in ("", "0") for name in ("FORCE_COLOR", "CLICOLOR_FORCE"))


def colour_enabled() -> bool:
    """Whether standard output is a terminal that wants colour, or colour is forced."""
    if colour_forced():
        return True
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):  # no stdout, or a closed one
        return False


def paint(word: str, padded: str | None = None) -> str:
    """`padded` (default `word`) in `word`'s colour when colour is on; unchanged otherwise or for a word with none."""
    import typer

    text = word if padded is None else padded
    colour = COLOURS.get(word)
    if colour is None or not colour_enabled():
        return text
    return typer.style(text, fg=colour, bold=True if word.isupper() else None)


# Candidate lines start under the message column of `problem_line`.
_MESSAGE_COLUMN = " " * 43


# Advice only a terminal can follow, after the message of a problem of that code; the problem itself
# carries its words for any place and its suggestions as data (an ambiguous line's `candidates`).
TERMINAL_HINTS = {"AMBIGUOUS_CARD": "`cardkit deck resolve` asks which",
                  "UNKNOWN_CARD": "`cardkit deck resolve` asks which"}


def problem_line(p: Problem, unit: str = "line") -> str:
    """`  line 12  error    CODE                 message`; pointer or `-` when there is no line.

    `unit` names what `line` counts: `action` for the engines' `apply`, whose problem is at the Nth action
    given, not at a line of any file. A problem with candidates (an ambiguous name) goes on with one line
    per candidate, under the message: its id and what tells it from the others.
    """
    where = f"{unit} {p.line}" if p.line is not None else visible(p.pointer or "-")
    line = f"  {where:>9}  {paint(p.severity.value, f'{p.severity.value:7}')}  {visible(p.code):20} {visible(p.message)}"
    if p.candidates and (hint := TERMINAL_HINTS.get(p.code)):
        line += f" ({hint})"
    if p.count:
        shown = ", ".join(map(str, p.lines or ()))
        line += f" (found alike on {p.count:,} lines: {shown}{', ...' if p.count > len(p.lines or ()) else ''})"
    if not p.candidates:
        return line
    from cardkit.catalogue.candidates import telling_apart

    return "\n".join([line, *(f"{_MESSAGE_COLUMN}{visible(text)}" for text in telling_apart(p.candidates))])


def problem_lines(problems: Iterable[Problem], unit: str = "line") -> list[str]:
    return [problem_line(p, unit) for p in problems]


def tally(errors: int, warnings: int) -> str:
    """`2 error(s), 1 warning(s)`, leaving out a zero; empty when both are zero."""
    return ", ".join(f"{n} {word}(s)" for n, word in ((errors, "error"), (warnings, "warning")) if n)


def verdict(legal: bool, problems: Iterable[Problem]) -> str:
    """`legal`, `legal (2 warnings)` or `ILLEGAL (3 errors, 1 warning)`."""
    items = list(problems)
    errors = sum(p.is_error for p in items)
    warnings = len(items) - errors
    tally = ", ".join(
        f"{n} {word}{'' if n == 1 else 's'}" for n, word in ((errors, "error"), (warnings, "warning")) if n
    )
    head = paint("legal" if legal else "ILLEGAL")
    return f"{head} ({tally})" if tally else head
