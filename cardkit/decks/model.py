"""The deck as read: header, card lines, what each line resolved to, and the problems so far."""

from __future__ import annotations

from dataclasses import dataclass, field

from cardkit.catalogue.store import CardId
from cardkit.problems import Problem

SECTIONS: tuple[str, ...] = ("main", "side")
MAX_COUNT = 10_000


@dataclass(frozen=True)
class Entry:
    """One card line: where it is, what was written, how many, and the card it resolved to.

    A line whose text names several cards has no `card` but its `candidates`, the cards it
    could mean: what they all share still counts (every candidate a Mercenary, one colour).
    """

    section: str
    line: int | None
    text: str
    count: int
    card: CardId | None = None
    pointer: str | None = None
    candidates: tuple[CardId, ...] = ()


@dataclass
class Deck:
    """A deck file read and resolved against its game's catalogue.

    `main`/`side` sum the resolved cards only; `entries` keeps every card line,
    resolved or not; `problems` holds the parse and resolution problems.
    """

    path: str
    game: str
    format: str
    header: dict[str, str]
    entries: list[Entry]
    problems: list[Problem] = field(default_factory=list)
    source: str = "text"

    @property
    def name(self) -> str | None:
        return self.header.get("name")

    @property
    def player(self) -> str | None:
        return self.header.get("player")

    @property
    def event(self) -> str | None:
        return self.header.get("event")

    def section(self, section: str) -> dict[CardId, int]:
        """Resolved card -> total count in `section`, in first-seen order."""
        # A plain dict, not a Counter: a big event asks this of every deck several times.
        counts: dict[CardId, int] = {}
        for e in self.entries:
            if e.section == section and e.card is not None:
                counts[e.card] = counts.get(e.card, 0) + e.count
        return counts

    @property
    def main(self) -> dict[CardId, int]:
        return self.section("main")

    @property
    def side(self) -> dict[CardId, int]:
        return self.section("side")

    def size(self, section: str) -> int:
        """Cards written in `section`, resolved or not."""
        return sum(e.count for e in self.entries if e.section == section)

    def lines_of(self, card: CardId, sections: tuple[str, ...] = SECTIONS) -> list[int]:
        return [e.line for e in self.entries if e.card == card and e.section in sections and e.line is not None]

    @property
    def resolved(self) -> bool:
        """Every line parsed and every card resolved."""
        return not any(p.is_error for p in self.problems)
