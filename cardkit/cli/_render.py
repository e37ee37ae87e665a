"""Text rendering shared by the commands: one look for problems and verdicts everywhere."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from cardkit.visible import visible

if TYPE_CHECKING:
    from cardkit.problems import Problem


def problem_line(p: "Problem") -> str:
    """`  line 12  error    CODE                 message`; pointer or `-` when there is no line."""
    where = f"line {p.line}" if p.line is not None else visible(p.pointer or "-")
    return f"  {where:>9}  {p.severity.value:7}  {visible(p.code):20} {visible(p.message)}"


def problem_lines(problems: Iterable["Problem"]) -> list[str]:
    return [problem_line(p) for p in problems]


def tally(errors: int, warnings: int) -> str:
    """`2 error(s), 1 warning(s)`, leaving out a zero; empty when both are zero."""
    return ", ".join(f"{n} {word}(s)" for n, word in ((errors, "error"), (warnings, "warning")) if n)


def verdict(legal: bool, problems: Iterable["Problem"]) -> str:
    """`legal`, `legal (2 warnings)` or `ILLEGAL (3 errors, 1 warning)`."""
    items = list(problems)
    errors = sum(p.is_error for p in items)
    warnings = len(items) - errors
    tally = ", ".join(
        f"{n} {word}{'' if n == 1 else 's'}" for n, word in ((errors, "error"), (warnings, "warning")) if n
    )
    head = "legal" if legal else "ILLEGAL"
    return f"{head} ({tally})" if tally else head
