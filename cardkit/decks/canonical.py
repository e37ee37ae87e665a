"""The canonical resolved deck: its hash, the difference of two decks, and text/JSON conversion."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from cardkit.catalogue.store import CardId, load_game
from cardkit.decks.model import SECTIONS, Deck
from cardkit.errors import BadArgument, CardkitError
from cardkit.outputs import Kind
from cardkit.problems import Problem
from cardkit.visible import quoted

HEADER_ORDER: tuple[str, ...] = ("game", "format", "name", "player", "event")


class UnresolvedDeck(CardkitError):
    """The deck has lines that don't parse or cards that don't resolve."""

    error_code = "UNRESOLVED_DECK"

    def __init__(self, deck: Deck, what: str, problems: list[Problem]) -> None:
        self.deck = deck
        self.problems = problems
        shown = "; ".join(f"line {p.line}: {p.code}" if p.line else f"{p.pointer or ''} {p.code}".strip() for p in problems[:5])
        more = f" (+{len(problems) - 5} more)" if len(problems) > 5 else ""
        self.summary = f"{deck.path}: can't {what} a deck with {len(problems)} unresolved line(s): {shown}{more}"
        super().__init__(f"{self.summary}; validating the deck says why")


def _require_resolved(deck: Deck, what: str) -> None:
    bad = [p for p in deck.problems if p.is_error]
    if bad:
        raise UnresolvedDeck(deck, what, bad)


def canonical(deck: Deck) -> dict[str, Any]:
    """Game plus sorted (id, count) pairs per section: what the hash covers."""
    _require_resolved(deck, "hash")
    return canonical_lists(deck.game, {s: deck.section(s) for s in SECTIONS})


def canonical_lists(game: str, sections: dict[str, dict[CardId, int]]) -> dict[str, Any]:
    """`canonical` of resolved lists, {section: {id: count}}: a registry's lists are hashed the same way."""
    return {"game": game, **{s: sorted([c, n] for c, n in sections.get(s, {}).items()) for s in SECTIONS}}


def lists_hash(game: str, sections: dict[str, dict[CardId, int]]) -> str:
    """SHA-256 of `canonical_lists` as compact ASCII JSON: the same as `deck_hash` of a deck holding those cards."""
    # The JSON text `json.dumps(canonical_lists(...), separators=(",", ":"))` writes, put together from each
    # id's JSON string, kept: a big event hashes thousands of decks of the same few hundred ids.
    # And each `[id,count]` pair's text is kept too: an event's decks share most of their pairs.
    pairs, parts = _PAIRS, []
    for s in SECTIONS:
        written = []
        for pair in sorted(sections.get(s, {}).items()):
            c, n = pair
            if type(n) is not int:  # not kept: as a key 3.0 and True are 3 and 1, but dumps writes 3.0 and true
                written.append(f"[{_json_string(c)},{json.dumps(n)}]")
                continue
            text = pairs.get(pair)
            if text is None:
                text = f"[{_json_string(c)},{n}]"
                if len(pairs) < PAIRS_KEPT:
                    pairs[pair] = text
            written.append(text)
        parts.append(f'"{s}":[' + ",".join(written) + "]")
    text = f'{{"game":{_json_string(game)},{",".join(parts)}}}'
    return hashlib.sha256(text.encode("ascii")).hexdigest()


_PAIRS: dict[tuple[CardId, int], str] = {}
PAIRS_KEPT = 100_000
"""`[id,count]` texts kept across decks; past this many (garbage files) new ones are written each time."""


@lru_cache(maxsize=1 << 16)
def _json_string(value: str) -> str:
    return json.dumps(value, ensure_ascii=True)


def deck_hash(deck: Deck) -> str:
    """SHA-256 of the canonical deck: the same cards hash the same whatever the spelling or order."""
    _require_resolved(deck, "hash")
    return lists_hash(deck.game, deck.tally().sections)


@dataclass(frozen=True)
class CountChange:
    section: str
    card: CardId
    name: str
    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before

    def to_dict(self) -> dict[str, Any]:
        return {"section": self.section, "card": self.card, "name": self.name,
                "before": self.before, "after": self.after, "delta": self.delta}


def diff_decks(a: Deck, b: Deck) -> list[CountChange]:
    """Per section, every card whose count differs from A to B, in catalogue order."""
    if a.game != b.game:
        raise BadArgument(f"{a.path} is a {a.game} deck and {b.path} a {b.game} deck; they can't be compared")
    _require_resolved(a, "diff")
    _require_resolved(b, "diff")
    cards = load_game(a.game).cards
    order = {cid: i for i, cid in enumerate(cards)}
    out: list[CountChange] = []
    for section in SECTIONS:
        before, after = a.section(section), b.section(section)
        for card in sorted(set(before) | set(after), key=lambda c: order.get(c, len(order))):
            if before.get(card, 0) != after.get(card, 0):
                out.append(CountChange(section, card, cards[card]["name"], before.get(card, 0), after.get(card, 0)))
    return out


def _header(deck: Deck) -> dict[str, str]:
    header = {"game": deck.game, **{k: v for k, v in deck.header.items() if k != "game"}}
    known = [k for k in HEADER_ORDER if k in header]
    return {k: header[k] for k in known + [k for k in header if k not in known]}


def _card_text(deck: Deck, card: CardId | None, written: str) -> str:
    """`Name (ID)` for a resolved card (readable and unambiguous), the text as written otherwise."""
    if card is None:
        return written
    return f"{load_game(deck.game).cards[card]['name']} ({card})"


def _require_parsed(deck: Deck) -> None:
    bad = [p for p in deck.problems if p.code == "PARSE_ERROR"]
    if bad:
        raise UnresolvedDeck(deck, "convert", bad)


def to_json_data(deck: Deck) -> dict[str, Any]:
    """The JSON deck form: header fields, then `main` and `side` lists of {card, count}."""
    _require_parsed(deck)
    data: dict[str, Any] = dict(_header(deck))
    for section in SECTIONS:
        data[section] = [{"card": _card_text(deck, e.card, e.text), "count": e.count}
                         for e in deck.entries if e.section == section]
    return data


def to_json(deck: Deck) -> str:
    """`to_json_data` as text, one card entry per line so diffs of deck files stay readable."""
    data = to_json_data(deck)
    parts = [f"  {json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}"
             for k, v in data.items() if k not in SECTIONS]
    for section in SECTIONS:
        items = [f"    {json.dumps(item, ensure_ascii=False)}" for item in data[section]]
        parts.append(f'  "{section}": [' + ("\n" + ",\n".join(items) + "\n  ]" if items else "]"))
    return "{\n" + ",\n".join(parts) + "\n}\n"


def to_text(deck: Deck) -> str:
    """The text deck form: header lines, `Main`, `Side` (only when it has cards).

    Text is written as it is; `convert` refuses what would not read back the same.
    """
    _require_parsed(deck)
    lines = [f"{k}: {v}" for k, v in _header(deck).items()]
    for section, title in (("main", "Main"), ("side", "Side")):
        entries = [e for e in deck.entries if e.section == section]
        if entries or section == "main":
            lines += ["", title] + [f"{e.count} {_card_text(deck, e.card, e.text)}" for e in entries]
    return "\n".join(lines) + "\n"


CONVERTERS = {"json": to_json, "text": to_text}


class UnfaithfulConversion(CardkitError):
    """The deck holds something the other form cannot say: written, it would read back as another deck."""

    error_code = "UNFAITHFUL_CONVERSION"

    def __init__(self, deck: Deck, to: str, difference: str) -> None:
        self.deck = deck
        self.difference = difference
        super().__init__(f"{deck.path}: can't write this deck as {to} so that it reads back the same: {difference}; "
                         "nothing written")


def convert(deck: Deck, to: str) -> str:
    """The deck written as `to` ("json" or "text"), read back before it is returned:
    `UnfaithfulConversion` when the written deck would read as a different one (say an
    unknown card's text with a line break or a `#` in it, which a text deck splits or cuts)."""
    try:
        writer = CONVERTERS[to]
    except KeyError:
        raise BadArgument(f"unknown deck form {quoted(to)}; use json or text") from None
    text = writer(deck)
    difference = _read_back_difference(deck, text, to)
    if difference:
        raise UnfaithfulConversion(deck, to, difference)
    return text


def _content(deck: Deck) -> tuple[dict[str, str], list[tuple[str, int, str]]]:
    """What a conversion must keep: the header and, in order per section, each line's count and card."""
    entries = [(e.section, e.count, _card_text(deck, e.card, e.text)) for s in SECTIONS for e in deck.entries if e.section == s]
    return _header(deck), entries


def _read_back_difference(deck: Deck, text: str, to: str) -> str | None:
    """None when `text` reads back as `deck`; else the first difference, in words."""
    from cardkit.decks.read import parse_deck

    if to == "text" and "\r" in text:
        # cardkit reads a lone CR as part of its line, but editors, terminals and other readers end the line there.
        return "a card or header text holds a carriage return, which other readers take for a line end"
    try:
        back = parse_deck(text, path=deck.path, format_name=deck.format if "format" not in deck.header else None,
                          json_hint=to == "json")
    except CardkitError as exc:
        return f"it would not read at all ({exc.message})"
    parse_errors = [p for p in back.problems if p.code == "PARSE_ERROR"]
    if parse_errors:
        return f"line {parse_errors[0].line}: {parse_errors[0].message}"
    (header, entries), (header_back, entries_back) = _content(deck), _content(back)
    for key in dict.fromkeys([*header, *header_back]):
        if header.get(key) != header_back.get(key):
            return f"header {quoted(key)} {quoted(header.get(key))} would read back as {quoted(header_back.get(key))}"
    for i, (mine, theirs) in enumerate(zip(entries, entries_back)):
        if mine != theirs:
            return f"{mine[0]} card {i + 1}, {mine[1]} {quoted(mine[2])}, would read back as {theirs[1]} {quoted(theirs[2])}"
    if len(entries) != len(entries_back):
        return f"{len(entries)} card lines would read back as {len(entries_back)}"
    return None


def is_converted_deck(path: Path) -> bool:
    """True for a deck file in exactly the form `convert` writes (reading and converting it again gives
    the same bytes): how `deck convert --out` recognises its own earlier output."""
    from cardkit.decks.read import parse_deck
    from cardkit.jsonio import read_text_input

    try:
        text = read_text_input(path)
        form = "json" if text.lstrip().startswith("{") else "text"
        return convert(parse_deck(text, path=str(path), json_hint=form == "json"), form) == text
    except (CardkitError, OSError):
        return False


CONVERTED_DECK = Kind("converted deck", is_converted_deck, forceable=True)


def hash_to_json(deck: Deck) -> dict[str, Any]:
    """The deck's hash beside what it was read as: the JSON of `deck hash --json`."""
    return {"path": deck.path, "game": deck.game, "format": deck.format, "hash": deck_hash(deck)}


def diff_to_json(before: Deck, after: Deck, changes: list[CountChange]) -> dict[str, Any]:
    """`diff_decks(before, after)` with the two decks' paths: the JSON of `deck diff --json`.

    Two inputs: each is still a `path`, under the role its counts have in every change."""
    return {"before": {"path": before.path}, "after": {"path": after.path}, "changes": [c.to_dict() for c in changes]}
