"""Reading squad and deal files: JSON (schemas/squad.schema.json) or a short text form.

Text form: `key: value` header lines (format, seat, redeals, gold, silver),
then `dealt:` and `squad:` section lines, each followed by one card per line
(`b_aspid`, `Аспид`, `2 x Aspid`, `2 Aspid`); `#` starts a comment. Card
lines before any section belong to the squad.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

from cardkit.catalogue.store import CardId
from cardkit.errors import BadArgument, UnreadableInput
from cardkit.jsonio import input_name, read_text_input, whole_number
from cardkit.problems import Problem, error
from cardkit.schemacheck import parse_checked_json
from cardkit.visible import bidi_control, hidden_break, misleading, quoted

HEADER_KEYS: tuple[str, ...] = ("format", "seat", "redeals", "gold", "silver")
SECTIONS: tuple[str, ...] = ("dealt", "squad")
MAX_COPIES = 50
MAX_CARDS = 200
"""Most cards in one section, as `maxItems` in the schema: a deal is 15, so more is a wrong file."""
MAX_SUGGESTED = 20
"""Unknown spellings that get close-name suggestions; past these, looking further only costs time."""
SHOWN_TEXT = 80
CardText = tuple[str, int | None, str | None]
"""A card as written: its text, and where it stands (a text line number, or a JSON pointer)."""
_COUNT = re.compile(r"^(?P<n>[0-9]+)\s*[xх×]?\s+(?P<card>\S.*)$", re.IGNORECASE)
_HEADER = re.compile(r"^(?P<key>[A-Za-z]+)\s*:\s*(?P<value>.*)$")


class SquadFormatUnknown(BadArgument):
    """A squad file that names no format, read without one given: its game, and so its cards, can't be told."""

    def __init__(self, path: str) -> None:
        self.path = path
        super().__init__(f"{path}: no format; put `format: berserk-online` (or berserk-ccg) in the file or give format_name")


@dataclass(frozen=True)
class CardRef:
    """One card as written, and the id it resolved to (None when it did not)."""

    text: str
    card: CardId | None
    line: int | None = None
    pointer: str | None = None


@dataclass
class SquadFile:
    """A squad or deal file as read: settings, card references and resolution problems."""

    path: str
    format: str | None
    seat: str = "first"
    redeals: int = 0
    gold: int | None = None
    silver: int | None = None
    dealt: list[CardRef] | None = None
    squad: list[CardRef] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def deal(self) -> list[CardRef]:
        """The cards to recruit from: `dealt`, else the squad list."""
        return self.dealt if self.dealt is not None else self.squad


@dataclass
class _Raw:
    settings: dict[str, Any]
    cards: dict[str, list[CardText]]


def _parse_json(path: str, text: str) -> _Raw:
    data = parse_checked_json(path, text, "squad.schema.json", "squad file")
    cards: dict[str, list[CardText]] = {s: [(t, None, f"/{s}/{i}") for i, t in enumerate(data[s])] for s in SECTIONS if s in data}
    for refs in cards.values():
        for card, _, pointer in refs:
            # The deck reader's check: stripped as whitespace, `Кшар\u2028` would read as the card it hides.
            reason = misleading(card)
            if reason:
                raise UnreadableInput(path, f"not a squad file: {pointer}: the card text holds {reason}: {quoted(card)}")
    return _Raw({k: data[k] for k in HEADER_KEYS if k in data}, cards)


def _parse_text(path: str, text: str) -> _Raw:
    settings: dict[str, Any] = {}
    cards: dict[str, list[CardText]] = {}
    section = "squad"
    for n, raw in enumerate(text.split("\n"), start=1):
        # As in deck files: `.strip()` would drop U+2028 or U+0085, which other programs show as a line break.
        hidden = hidden_break(raw)
        if hidden:
            raise UnreadableInput(path, f"line {n}: the line holds {hidden}; put each card on a line of its own")
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.rstrip(":").casefold() in SECTIONS and line.endswith(":"):
            section = line[:-1].strip().casefold()
            cards.setdefault(section, [])
            continue
        m = _HEADER.match(line)
        if m and m.group("key").casefold() in HEADER_KEYS:
            key, value = m.group("key").casefold(), m.group("value").strip()
            if key in ("redeals", "gold", "silver"):
                try:
                    number = whole_number(value)
                except ValueError:
                    number = -1
                if not 0 <= number <= 1000:
                    raise UnreadableInput(path, f"line {n}: {key} must be a whole number from 0 to 1000; got {quoted(value, 24)}")
                settings[key] = number
            elif key == "seat" and value.casefold() not in ("first", "second"):
                raise UnreadableInput(path, f"line {n}: seat must be first or second; got {quoted(value)}")
            else:
                settings[key] = value.casefold()
            continue
        count, card = 1, line
        m = _COUNT.match(line)
        if m:
            card = m.group("card").strip()
            try:
                count = whole_number(m.group("n"))
            except ValueError:
                count = -1
            if not 1 <= count <= MAX_COPIES:
                raise UnreadableInput(path, f"line {n}: a count must be from 1 to {MAX_COPIES}; got {m.group('n')[:24]}")
        bidi = bidi_control(card)
        if bidi:
            raise UnreadableInput(path, f"line {n}: the card text holds {bidi}")
        cards.setdefault(section, []).extend([(card, n, None)] * count)
        if len(cards[section]) > MAX_CARDS:
            raise UnreadableInput(path, f"line {n}: more than {MAX_CARDS} cards in `{section}:`; a deal is 15 cards")
    if not cards:
        raise UnreadableInput(path, "no cards: give a `squad:` or `dealt:` list")
    return _Raw(settings, cards)


def _is_json(path: str | os.PathLike[str], text: str) -> bool:
    """A `.json` name or a JSON-looking start; a `[...]` or `null` file then fails as JSON, not as a card list."""
    return str(path).lower().endswith(".json") or text.lstrip().startswith(("{", "["))


def read_squad_file(path: str | os.PathLike[str], format_name: str | None = None) -> SquadFile:
    """Read and resolve a squad or deal file; `format_name` overrides the file's format."""
    text = read_text_input(path)
    name = input_name(path)
    if _is_json(path, text):
        raw = _parse_json(name, text)
    else:
        from cardkit.filekinds import refuse_other_kind

        # A text deck reads as a squad of its header lines; named as a deck, it says which command it is for.
        refuse_other_kind(name, text, "squad.schema.json", "squad file")
        raw = _parse_text(name, text)
    return resolve(name, raw.settings, raw.cards, format_name)


def resolve(path: str, settings: dict[str, Any], cards: dict[str, list[CardText]],
            format_name: str | None = None) -> SquadFile:
    """Resolve card texts against the format's game, collecting UNKNOWN_CARD/AMBIGUOUS_CARD problems."""
    from cardkit.catalogue.candidates import candidates
    from cardkit.catalogue.lookup import Lookup, card_index
    from cardkit.formats import load_format

    fmt_name = format_name or settings.get("format")
    if not fmt_name:
        raise SquadFormatUnknown(path)
    game = load_format(fmt_name).game
    index = card_index(game)
    problems: list[Problem] = []
    out: dict[str, list[CardRef]] = {}
    looked_up: dict[str, Lookup] = {}
    unknown = 0
    for section, refs in cards.items():
        out[section] = []
        for text, line, pointer in refs:
            found = looked_up.get(text)
            if found is None:
                found = looked_up[text] = index.find(text, suggest=unknown < MAX_SUGGESTED)
                unknown += found.resolved is None
            if found.resolved is None:
                shown = text if len(text) <= SHOWN_TEXT else text[:SHOWN_TEXT] + "..."
                if found.ambiguous:
                    problems.append(error("AMBIGUOUS_CARD", f"{quoted(text)} matches {len(found.ids)} cards; give an id",
                                          card=shown, line=line, pointer=pointer, actual=list(found.ids),
                                          candidates=candidates(index.catalogue, found.ids)))
                elif found.close:
                    # A misspelling of a name several cards share is offered those cards, as the name would be.
                    name = index.catalogue.cards[found.close[0]]["name"]
                    problems.append(error("UNKNOWN_CARD", f"no {game} card {quoted(text)}; did you mean {name}? "
                                                          f"{len(found.close)} cards are called that; give an id",
                                          card=shown, line=line, pointer=pointer, actual=list(found.close),
                                          candidates=candidates(index.catalogue, found.close)))
                else:
                    hint = f"; did you mean {', '.join(found.suggestions)}" if found.suggestions else ""
                    problems.append(error("UNKNOWN_CARD", f"no {game} card {quoted(text)}{hint}", card=shown, line=line, pointer=pointer))
            out[section].append(CardRef(text, found.resolved, line, pointer))
    return SquadFile(path=path, format=fmt_name, seat=settings.get("seat", "first"),
                     redeals=int(settings.get("redeals", 0)), gold=settings.get("gold"), silver=settings.get("silver"),
                     dealt=out.get("dealt"), squad=out.get("squad", []), problems=problems)
