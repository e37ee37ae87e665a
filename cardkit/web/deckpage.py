"""The deck page's check: a pasted or uploaded deck list validated as `cardkit validate` would, nothing kept.

The deck is validated from memory with a file's size cap and text rules (`validate_bytes`);
nothing is written. A form posts the pasted text in the field `deck`, or a file: as
multipart/form-data (`deck_file`, or a file sent as `deck`), so uploading needs no JavaScript.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardkit.decks.report import DeckReport, validate_bytes, validate_text
from cardkit.errors import CardkitError
from cardkit.jsonio import MAX_INPUT_BYTES

# Upload names are the user's: only a plain file name with a known suffix is kept.
DEFAULT_NAME = "pasted.deck"
SUFFIXES = (".deck", ".json", ".txt")


def deck_name(filename: str | None) -> str:
    """The name the deck is reported under: the uploaded file's own name when it is plain, else `pasted.deck`."""
    name = Path((filename or "").replace("\\", "/")).name
    if not name or name.startswith(".") or not name.lower().endswith(SUFFIXES):
        return DEFAULT_NAME
    return name


def check_deck_text(text: str, filename: str | None = None) -> DeckReport:
    """The report `cardkit validate` gives for a file holding `text`, under the file's own name."""
    return validate_text(text, deck_name(filename))


def check_deck_bytes(data: bytes, filename: str | None = None) -> DeckReport:
    """The report `cardkit validate` gives for a file holding `data` (an upload), under the file's own name."""
    return validate_bytes(data, deck_name(filename))


DECK_FIELD = "deck"
FILE_FIELD = "deck_file"
NAME_FIELD = "filename"
# A form holds the pasted text and the file, each up to a deck's cap, and a little more.
MAX_FORM_BYTES = 2 * MAX_INPUT_BYTES + (1 << 16)


@dataclass(frozen=True)
class PostedDeck:
    """What a deck form sent: the deck's bytes (an uploaded file's, else the pasted text's) and its file name."""

    data: bytes
    filename: str | None
    uploaded: bool


def _multipart(content_type: str, body: bytes) -> tuple[dict[str, str], list[tuple[str, str, bytes]]]:
    """A multipart/form-data body's text fields, and its files as (field, file name, bytes)."""
    from email import policy
    from email.parser import BytesParser

    head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode("latin-1", "replace")
    message = BytesParser(policy=policy.HTTP).parsebytes(head + body)
    fields: dict[str, str] = {}
    files: list[tuple[str, str, bytes]] = []
    if not message.is_multipart():
        return fields, files
    for part in message.iter_parts():
        name = str(part.get_param("name", header="content-disposition") or "")
        payload = part.get_payload(decode=True)
        data = payload if isinstance(payload, bytes) else b""
        filename = part.get_filename()
        if filename is None:
            fields.setdefault(name, data.decode("utf-8", "replace"))
        else:
            files.append((name, str(filename), data))
    return fields, files


def posted_deck(content_type: str, body: bytes) -> PostedDeck:
    """The deck a form posted: a chosen file (`deck_file`, or a file sent as `deck`) wins over pasted text in `deck`."""
    from urllib.parse import parse_qsl

    if content_type.split(";", 1)[0].strip().lower() == "multipart/form-data":
        fields, files = _multipart(content_type, body)
        chosen = next(((name, data) for field, name, data in files
                       if field in (FILE_FIELD, DECK_FIELD) and (name or data)), None)
        if chosen is not None:
            return PostedDeck(chosen[1], chosen[0] or fields.get(NAME_FIELD) or None, True)
    else:
        fields = dict(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))
    return PostedDeck(fields.get(DECK_FIELD, "").encode("utf-8", "surrogatepass"), fields.get(NAME_FIELD) or None, False)


def shown_text(data: bytes) -> str:
    """The deck's text for the page's line-by-line list; empty when it is not text (the report says why)."""
    from cardkit.jsonio import decode_text

    if len(data) > MAX_INPUT_BYTES:
        return ""
    try:
        return decode_text(DEFAULT_NAME, data)
    except CardkitError:
        return ""


@dataclass(frozen=True)
class DeckSummary:
    """The main deck by kind, its colour or element split and its cost curve, each counted in copies."""

    kinds: dict[str, list[tuple[int, str, str]]]  # kind -> (copies, name, id), in list order
    split: dict[str, int]
    curve: dict[int, int]
    side: list[tuple[int, str, str]]


def _total_cost(card: dict[str, Any]) -> int | None:
    cost = card.get("cost")
    if isinstance(cost, dict):
        return sum(int(v) for v in cost.values())
    return cost if isinstance(cost, int) else None


def summarise_deck(text: str, filename: str | None = None) -> DeckSummary | None:
    """The summary of a readable deck's resolved cards, or None when it cannot be read."""
    from cardkit.catalogue.lookup import card_index
    from cardkit.decks.read import parse_deck

    try:
        deck = parse_deck(text, path=deck_name(filename), json_hint=deck_name(filename).lower().endswith(".json"))
    except CardkitError:
        return None
    cards = card_index(deck.game).catalogue.cards
    kinds: dict[str, list[tuple[int, str, str]]] = {}
    split: Counter[str] = Counter()
    curve: Counter[int] = Counter()
    side: list[tuple[int, str, str]] = []
    for entry in deck.entries:
        if entry.card is None or entry.card not in cards:
            continue
        card = cards[entry.card]
        shown = (entry.count, str(card["name"]), entry.card)
        if entry.section != "main":
            side.append(shown)
            continue
        kinds.setdefault(str(card.get("kind") or card.get("type") or "other"), []).append(shown)
        if "colour" in card:
            split[str(card["colour"] or "colourless")] += entry.count
        elif "elements" in card:
            split[", ".join(card["elements"]) or "neutral"] += entry.count
        if (cost := _total_cost(card)) is not None:
            curve[cost] += entry.count
    return DeckSummary(kinds, dict(split.most_common()), dict(sorted(curve.items())), side)
