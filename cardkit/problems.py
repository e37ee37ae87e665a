"""Problems: findings about an input, returned as data, never raised."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input, with a stable `code`.

    `card` is the card id (or the text as written when it did not resolve),
    `line` the 1-based line of the input it comes from, `limit`/`actual` the
    bound broken and the value found. `file` and `pointer` (a JSON pointer)
    locate problems in JSON files such as the catalogue. `candidates` are the
    cards an ambiguous name could mean (cardkit/catalogue/candidates.py), so the
    problem is a choice; None for every other problem, whose JSON leaves the key out.
    A problem found alike on several lines (see `fold_repeats`) has `count`, how many, and `lines`, the first of
    their lines.
    """

    code: str
    message: str
    severity: Severity = Severity.ERROR
    card: str | None = None
    line: int | None = None
    limit: Any = None
    actual: Any = None
    file: str | None = None
    pointer: str | None = None
    candidates: tuple[dict[str, Any], ...] | None = None
    count: int | None = None
    lines: tuple[int, ...] | None = None

    def replaced(self, **changes: Any) -> Problem:
        """This problem with the fields named in `changes` changed (what `dataclasses.replace` did)."""
        return replace(self, **changes)

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "card": self.card,
            "line": self.line,
            "limit": self.limit,
            "actual": self.actual,
            "file": self.file,
            "pointer": self.pointer,
        }
        if self.candidates is not None:
            out["candidates"] = [dict(c) for c in self.candidates]
        if self.count is not None:
            out["count"] = self.count
            out["lines"] = list(self.lines or ())
        return out


def error(code: str, message: str, **where: Any) -> Problem:
    return Problem(code=code, message=message, severity=Severity.ERROR, **where)


def warning(code: str, message: str, **where: Any) -> Problem:
    return Problem(code=code, message=message, severity=Severity.WARNING, **where)


def has_errors(problems: Iterable[Problem]) -> bool:
    return any(p.is_error for p in problems)


FOLDED_LINES = 20
"""How many of a folded problem's lines it lists (`lines`); `count` says how many there were."""


# Values whose JSON text is equal exactly when (type, value) is: compared as they are, not dumped per problem.
_PLAIN_TYPES = (type(None), bool, int, str)


def _plain(value: Any) -> Any:
    if type(value) in _PLAIN_TYPES:
        return (type(value), value)
    return json.dumps(value, sort_keys=True, default=str)


def _fold_key(p: Problem) -> tuple[Any, ...]:
    return (p.code, p.severity, p.message, p.card, _plain(p.limit), _plain(p.actual), p.file)


def fold_repeats(problems: Iterable[Problem]) -> list[Problem]:
    """Problems that differ only in their line (or pointer) as one problem, in the place of the first:
    with `count` (how many) and `lines` (the first `FOLDED_LINES` of them).

    A pasted list of 100,000 copies of one bad line is one problem, not 100,000 alike, so a report
    stays readable and its size follows what is wrong, not how often. Problems of no line or pointer
    (deck-wide ones) are never folded.
    """
    kept: list[Problem] = []
    groups: dict[tuple[Any, ...], list[Problem]] = {}
    for p in problems:
        if p.line is None and p.pointer is None:
            kept.append(p)
            continue
        key = _fold_key(p)
        group = groups.get(key)
        if group is None:
            groups[key] = group = []
            kept.append(p)
        group.append(p)
    out = []
    for p in kept:
        group = groups.get(_fold_key(p)) if (p.line is not None or p.pointer is not None) else None
        if group is not None and len(group) > 1 and group[0] is p:
            lines = tuple(q.line for q in group if q.line is not None)[:FOLDED_LINES]
            p = p.replaced(count=len(group), lines=lines)
        out.append(p)
    return out

