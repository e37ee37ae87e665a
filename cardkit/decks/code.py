"""Deck codes: a resolved deck in one URL-safe line, and back.

A code is `ck1.` and the base64url (no padding) of the zlib-compressed JSON
`{"game", "format", "main": [[ID, N], ...], "side": [...]}`. `ck1` is the
version: a later layout gets `ck2` and the reader keeps reading `ck1`. Only the
game, format, sections, ids and counts travel; a deck's name, player and event
stay out of links. Commands take a code wherever a deck file goes, written
`code:ck1.…`. Decoding trusts nothing: the code's length, its alphabet, the
inflated size and the JSON are capped before any card is looked up.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from typing import Any

from cardkit.decks.model import MAX_COUNT, SECTIONS, Deck
from cardkit.errors import UnreadableInput
from cardkit.games.registry import GAMES
from cardkit.jsonio import parse_json
from cardkit.visible import quoted, shortened

CODE_ARGUMENT = "code:"
"""What marks a deck code where a deck file is expected: `cardkit validate code:ck1.…`."""
VERSION = "ck1"
MAX_CODE_CHARS = 16_384
"""Longest code read; every card of the largest catalogue, three each, fits in a few thousand."""
MAX_PAYLOAD_BYTES = 256 << 10
"""Most bytes a code may inflate to: a zip bomb stops here, never in memory."""
MAX_ENTRIES = 5_000
"""Most (id, count) pairs in a section; more than any game has cards."""
_ALPHABET = re.compile(r"^[A-Za-z0-9_-]+$")


class BadDeckCode(UnreadableInput):
    """The text is not a deck code this version of cardkit can read."""


def is_deck_code(argument: object) -> bool:
    """Whether a deck argument is a code (`code:…`) rather than a file name; a file so named is `./code:…`."""
    return str(argument).startswith(CODE_ARGUMENT)


def encode_deck(deck: Deck) -> str:
    """The deck code of a resolved deck: the same cards in any spelling or order give the same code."""
    from cardkit.decks.canonical import UnresolvedDeck

    bad = [p for p in deck.problems if p.is_error and p.code in ("PARSE_ERROR", "UNKNOWN_CARD", "AMBIGUOUS_CARD", "WRONG_GAME")]
    if bad:
        raise UnresolvedDeck(deck, "encode", bad)
    payload = {"game": deck.game, "format": deck.format,
               **{s: sorted([card, count] for card, count in deck.section(s).items()) for s in SECTIONS}}
    raw = json.dumps(payload, separators=(",", ":"), ensure_ascii=True).encode("ascii")
    body = base64.urlsafe_b64encode(zlib.compress(raw, 9)).rstrip(b"=").decode("ascii")
    return f"{VERSION}.{body}"


def decode_code(code: str) -> dict[str, Any]:
    """The payload of `code` (with or without `code:`), checked; `BadDeckCode` saying what is wrong."""
    text = code[len(CODE_ARGUMENT):] if code.startswith(CODE_ARGUMENT) else code
    shown = CODE_ARGUMENT + shortened(text, 24)

    def bad(reason: str) -> BadDeckCode:
        return BadDeckCode(shown, f"not a deck code: {reason}")

    text = text.strip()
    if len(text) > MAX_CODE_CHARS:
        raise bad(f"{len(text)} characters; the limit is {MAX_CODE_CHARS}")
    version, dot, body = text.partition(".")
    body = body.rstrip("=")  # padding some base64 tools add back
    if not dot or not version:
        raise bad(f"a code starts with `{VERSION}.`")
    if version != VERSION:
        raise bad(f"version {quoted(version, 12)} is unknown; this cardkit reads {VERSION}")
    if not _ALPHABET.match(body):
        raise bad("only letters, digits, `-` and `_` may follow the version")
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, MAX_PAYLOAD_BYTES)
        if inflater.unconsumed_tail:
            raise bad(f"it inflates past {MAX_PAYLOAD_BYTES} bytes")
        if not inflater.eof:
            raise bad("it is cut short")
    except (binascii.Error, zlib.error, ValueError):
        raise bad("its data is damaged (a character missing or changed?)") from None
    try:
        data = parse_json(raw.decode("utf-8"), shown)
    except (UnicodeDecodeError, UnreadableInput):
        raise bad("its data is not a deck") from None
    return _checked(data, bad)


def _checked(data: Any, bad: Any) -> dict[str, Any]:
    if not isinstance(data, dict) or set(data) != {"game", "format", *SECTIONS}:
        raise bad("its data is not a deck")
    if data["game"] not in GAMES or not isinstance(data["format"], str) or not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,63}", data["format"]):
        raise bad("its game or format is not one cardkit knows")
    for section in SECTIONS:
        pairs = data[section]
        if not isinstance(pairs, list) or len(pairs) > MAX_ENTRIES:
            raise bad(f"its {section} section is not a list of [id, count]")
        for pair in pairs:
            if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str) and 0 < len(pair[0]) <= 64
                    and type(pair[1]) is int and 1 <= pair[1] <= MAX_COUNT):
                raise bad(f"its {section} section is not a list of [id, count]")
    return data


def read_deck_code(code: str, format_name: str | None = None) -> Deck:
    """The deck a code holds, resolved like a JSON deck file (an id no longer in the catalogue is `UNKNOWN_CARD`)."""
    from cardkit.decks.read import parse_deck

    data = decode_code(code)
    deck_json = {"game": data["game"], "format": data["format"],
                 **{s: [{"card": card, "count": count} for card, count in data[s]] for s in SECTIONS}}
    text = code if code.startswith(CODE_ARGUMENT) else CODE_ARGUMENT + code
    return parse_deck(json.dumps(deck_json), path=text.strip(), format_name=format_name, json_hint=True)


def code_to_json(deck: Deck) -> dict[str, Any]:
    """The deck's code beside what it was read as: the JSON of `deck code --json`."""
    return {"path": deck.path, "game": deck.game, "format": deck.format, "code": encode_deck(deck)}
