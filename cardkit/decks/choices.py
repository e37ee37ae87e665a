"""Lines that name several cards as choices, and the deck written once they are made.

`cardkit deck resolve` asks a player which card each such name means (once for every line that
names the same cards: `questions`); the deck is then
written as `deck convert` writes it, every resolved line `N Name (ID)`, read back before
it is returned, so the written file means exactly the cards chosen.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from cardkit.catalogue.candidates import Candidate, candidates
from cardkit.catalogue.store import CardId, load_game
from cardkit.decks.model import Deck, Entry
from cardkit.errors import BadArgument
from cardkit.problems import Problem
from cardkit.visible import quoted

# A line naming no card of the deck's game: no answer resolves it, so the player must be told, as `validate` tells.
NO_CARD_CODES = frozenset({"UNKNOWN_CARD", "WRONG_GAME"})
# The problems of a line that offers candidates: a name several cards share, or a misspelling of one.
CHOICE_CODES = frozenset({"AMBIGUOUS_CARD", "UNKNOWN_CARD"})


@dataclass(frozen=True, slots=True)
class Choice:
    """One card line whose text names several cards: where it is, as written, and the cards it could mean.

    `index` is the line's place in `Deck.entries`, the key `choose` takes.
    """

    index: int
    section: str
    line: int | None
    pointer: str | None
    text: str
    count: int
    candidates: tuple[Candidate, ...]

    @property
    def where(self) -> str:
        return f"line {self.line}" if self.line is not None else (self.pointer or self.section)


def open_choices(deck: Deck) -> list[Choice]:
    """Every line of `deck` that names several cards, in file order."""
    catalogue = load_game(deck.game)
    # A pasted list of 140,000 lines names a few cards: each line's candidates are made once per set of
    # cards and shared, not made again per line (15 dicts a line was five times `validate`'s memory).
    made: dict[tuple[CardId, ...], tuple[Candidate, ...]] = {}
    out: list[Choice] = []
    for i, e in enumerate(deck.entries):
        if e.card is None and e.candidates:
            shared = made.get(e.candidates)
            if shared is None:
                shared = made[e.candidates] = candidates(catalogue, e.candidates)
            out.append(Choice(i, e.section, e.line, e.pointer, e.text, e.count, shared))
    return out


def no_card_lines(deck: Deck) -> list[Problem]:
    """The problems of `deck`'s lines that name no card of its game and offer no choice (`UNKNOWN_CARD`
    with its close names, `WRONG_GAME`), exactly as `validate` reports them, in file order."""
    return [p for p in deck.problems if p.code in NO_CARD_CODES and not p.candidates]


def questions(choices: list[Choice]) -> list[list[Choice]]:
    """The choices asked as one question each: lines that could mean exactly the same cards (the same
    name in the main deck and the side deck, or twice) are one question, whose answer is every such line's.

    In the order of each question's first line; a pasted list of 500 `1 Guts` lines is one question, not 500.
    """
    asked: dict[tuple[str, ...], list[Choice]] = {}
    # Lines of one name share one candidates tuple (`open_choices`): its ids are read once, not once a line.
    keys: dict[int, tuple[str, ...]] = {}
    for choice in choices:
        key = keys.get(id(choice.candidates))
        if key is None:
            key = keys[id(choice.candidates)] = tuple(str(c["id"]) for c in choice.candidates)
        asked.setdefault(key, []).append(choice)
    return list(asked.values())


def choose(deck: Deck, chosen: Mapping[int, CardId]) -> Deck:
    """`deck` with the card chosen for each line (`Choice.index` -> id); a line not chosen stays as written.

    `BadArgument` for an index that is no open choice or an id that is not one of its candidates.
    """
    entries = list(deck.entries)
    settled: set[tuple[int | None, str | None]] = set()
    for index, card in chosen.items():
        entry = entries[index] if 0 <= index < len(entries) else None
        if entry is None or entry.card is not None or not entry.candidates:
            raise BadArgument(f"{deck.path}: card line {index} names no choice to make")
        if card not in entry.candidates:
            raise BadArgument(f"{deck.path}: {quoted(card)} is not one of the cards {quoted(entry.text)} could mean "
                              f"({', '.join(entry.candidates)})")
        entries[index] = Entry(entry.section, entry.line, entry.text, entry.count, card, entry.pointer)
        settled.add((entry.line, entry.pointer))
    # A misspelt line offered the cards of its closest name (UNKNOWN_CARD with candidates) is settled alike.
    problems = [p for p in deck.problems
                if not (p.code in CHOICE_CODES and p.candidates and (p.line, p.pointer) in settled)]
    return Deck(path=deck.path, game=deck.game, format=deck.format, header=dict(deck.header), entries=entries,
                problems=problems, source=deck.source)


def resolved_deck(deck: Deck, chosen: Mapping[int, CardId]) -> str:
    """The deck with the choices made, in its own form (JSON stays JSON), every resolved line `N Name (ID)`.

    Raises what `convert` raises: a deck whose lines don't parse, or that would not read back the same.
    """
    from cardkit.decks.canonical import convert

    return convert(choose(deck, chosen), "json" if deck.source == "json" else "text")
