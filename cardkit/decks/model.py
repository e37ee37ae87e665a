"""The deck as read: header, card lines, what each line resolved to, and the problems so far."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from cardkit.catalogue.store import CardId
from cardkit.problems import Problem

SECTIONS: tuple[str, ...] = ("main", "side")
MAX_COUNT = 10_000


class Entry(NamedTuple):
    """One card line: where it is, what was written, how many, and the card it resolved to.

    A line whose text names several cards has no `card` but its `candidates`, the cards it
    could mean: what they all share still counts (every candidate a Mercenary, one colour).
    A tuple, not a frozen dataclass: as immutable, and a big event makes a few hundred
    thousand of them, which a frozen dataclass's `__init__` made five times slower.
    """

    section: str
    line: int | None
    text: str
    count: int  # type: ignore[assignment]  # the field, not tuple.count: every reader says `entry.count`
    card: CardId | None = None
    pointer: str | None = None
    candidates: tuple[CardId, ...] = ()


@dataclass(frozen=True)
class Tally:
    """A deck's counts, made in one pass over its lines and kept with the deck.

    `sections`: resolved card -> total count, per section, in first-seen order; `sizes`: cards
    written per section, resolved or not; `first`: the line (None in JSON decks) of the first
    line of each (section, card) resolved, in the order written.
    """

    sections: dict[str, dict[CardId, int]]
    sizes: dict[str, int]
    first: dict[tuple[str, CardId], int | None]


def tally(entries: list[Entry]) -> Tally:
    sections: dict[str, dict[CardId, int]] = {s: {} for s in SECTIONS}
    sizes: dict[str, int] = dict.fromkeys(SECTIONS, 0)
    first: dict[tuple[str, CardId], int | None] = {}
    # Unpacked, not read by field name: a NamedTuple's names are descriptor calls, and this runs per line.
    for section, line, _, count, card, _, _ in entries:
        sizes[section] = sizes.get(section, 0) + count
        if card is None:
            continue
        counts = sections.get(section)
        if counts is None:
            counts = sections[section] = {}
        counts[card] = counts.get(card, 0) + count
        first.setdefault((section, card), line)
    return Tally(sections, sizes, first)


@dataclass
class Deck:
    """A deck file read and resolved against its game's catalogue.

    `main`/`side` sum the resolved cards only; `entries` keeps every card line,
    resolved or not; `problems` holds the parse and resolution problems. A deck's
    entries are never edited in place (`choose` makes a new deck), so its counts are
    made once, on first use, for the validation, the hash and the reports alike.
    """

    path: str
    game: str
    format: str
    header: dict[str, str]
    entries: list[Entry]
    problems: list[Problem] = field(default_factory=list)
    source: str = "text"
    _tally: tuple[list[Entry], int, Tally] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def name(self) -> str | None:
        return self.header.get("name")

    @property
    def player(self) -> str | None:
        return self.header.get("player")

    @property
    def event(self) -> str | None:
        return self.header.get("event")

    def tally(self) -> Tally:
        """The deck's counts (see `Tally`); shared, not copied: read them, don't change them."""
        kept = self._tally
        # Checked against the list itself, should a caller swap `entries` for another list after all.
        if kept is None or kept[0] is not self.entries or kept[1] != len(self.entries):
            kept = self._tally = (self.entries, len(self.entries), tally(self.entries))
        return kept[2]

    def section(self, section: str) -> dict[CardId, int]:
        """Resolved card -> total count in `section`, in first-seen order (a copy the caller may change)."""
        return dict(self.tally().sections.get(section, {}))

    @property
    def main(self) -> dict[CardId, int]:
        return self.section("main")

    @property
    def side(self) -> dict[CardId, int]:
        return self.section("side")

    def size(self, section: str) -> int:
        """Cards written in `section`, resolved or not."""
        return self.tally().sizes.get(section, 0)

    def lines_of(self, card: CardId, sections: tuple[str, ...] = SECTIONS) -> list[int]:
        return [e.line for e in self.entries if e.card == card and e.section in sections and e.line is not None]

    @property
    def resolved(self) -> bool:
        """Every line parsed and every card resolved."""
        return not any(p.is_error for p in self.problems)
