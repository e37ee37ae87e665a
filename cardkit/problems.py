"""Problems: findings about an input, returned as data, never raised."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Iterable


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with an input, with a stable `code`.

    `card` is the card id (or the text as written when it did not resolve),
    `line` the 1-based line of the input it comes from, `limit`/`actual` the
    bound broken and the value found. `file` and `pointer` (a JSON pointer)
    locate problems in JSON files such as the catalogue. `candidates` are the
    cards an ambiguous name could mean (cardkit/catalogue/candidates.py), so the
    problem is a choice; None for every other problem, whose JSON leaves the key out.
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
        return out


def error(code: str, message: str, **where: Any) -> Problem:
    return Problem(code=code, message=message, severity=Severity.ERROR, **where)


def warning(code: str, message: str, **where: Any) -> Problem:
    return Problem(code=code, message=message, severity=Severity.WARNING, **where)


def has_errors(problems: Iterable[Problem]) -> bool:
    return any(p.is_error for p in problems)
