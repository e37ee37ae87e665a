"""Problems: findings about an input, returned as data, never raised."""

from __future__ import annotations

import json
from enum import Enum
from typing import Any, Iterable


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"


_FIELDS = ("code", "message", "severity", "card", "line", "limit", "actual", "file", "pointer", "candidates", "count",
           "lines")


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

    Frozen, equal, hashed and printed by its fields, as the frozen dataclass it was: a plain class because
    every command that reads a file loads this one, and a dataclass compiles its generated methods at start-up.
    """

    __slots__ = _FIELDS

    code: str
    message: str
    severity: Severity
    card: str | None
    line: int | None
    limit: Any
    actual: Any
    file: str | None
    pointer: str | None
    candidates: tuple[dict[str, Any], ...] | None
    count: int | None
    lines: tuple[int, ...] | None

    def __init__(self, code: str, message: str, severity: Severity = Severity.ERROR, card: str | None = None,
                 line: int | None = None, limit: Any = None, actual: Any = None, file: str | None = None,
                 pointer: str | None = None, candidates: tuple[dict[str, Any], ...] | None = None,
                 count: int | None = None, lines: tuple[int, ...] | None = None) -> None:
        put = object.__setattr__
        put(self, "code", code)
        put(self, "message", message)
        put(self, "severity", severity)
        put(self, "card", card)
        put(self, "line", line)
        put(self, "limit", limit)
        put(self, "actual", actual)
        put(self, "file", file)
        put(self, "pointer", pointer)
        put(self, "candidates", candidates)
        put(self, "count", count)
        put(self, "lines", lines)

    def _values(self) -> tuple[Any, ...]:
        return (self.code, self.message, self.severity, self.card, self.line, self.limit, self.actual, self.file,
                self.pointer, self.candidates, self.count, self.lines)

    def replaced(self, **changes: Any) -> Problem:
        """This problem with the fields named in `changes` changed (what `dataclasses.replace` did)."""
        values = dict(zip(_FIELDS, self._values()))
        values.update(changes)
        return Problem(**values)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Problem)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return f"Problem({', '.join(f'{name}={value!r}' for name, value in zip(_FIELDS, self._values()))})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt through the constructor: the slot-by-slot state the dataclass pickles took twice as long
        # to load, and a big event's problems come back from the worker processes that way.
        return (Problem, (self.code, self.message, self.severity, self.card, self.line, self.limit, self.actual,
                          self.file, self.pointer, self.candidates, self.count, self.lines))

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

