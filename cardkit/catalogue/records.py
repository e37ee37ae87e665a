"""A game's card records by id, each parsed from its own JSON text when first looked up.

A battle or TCG state names a few dozen of its game's cards, but reading the catalogue the
strict way (every object's keys checked for repeats, every depth counted) parses all of them:
for Berserk Online, more than the rest of a `battle apply`. So the first run that reads a
catalogue content does it the strict way (`load_game`'s reader: every check, every error as before) and
keeps its records in the cache folder, one JSON text per card, in a note that also holds the
catalogue files' names and bytes. A later run whose files are byte for byte the same (compared
in full, as `checkcache` does) reads the note and parses only the cards it looks up, with plain
`json.loads`: text that passed the strict reader once parses to the same records. The note is
only a shortcut: when the cache folder can't be read or written, every run reads the strict way.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Mapping

from cardkit import checkcache, paths
from cardkit.catalogue.store import Card, CardId, CardTable, game_files, read_catalogue_bytes, read_game

_FOLDER = "records"
_MOST = 256 * 1024 * 1024  # a note holds the catalogue files twice over; far above any real catalogue


def card_records(game: str, cards_dir: Path | None = None) -> Mapping[CardId, Card]:
    """The card records of `game` by id, in catalogue order: `load_game(game).cards`, parsed only as looked up.
    Raises what `load_game` raises for a catalogue it refuses."""
    return _records(game, paths.resolved(cards_dir or paths.CARDS_DIR))


@lru_cache(maxsize=8)
def _records(game: str, cards_dir: Path) -> Mapping[CardId, Card]:
    key = _catalogue_key(game, cards_dir)
    noted = _read_note(key)
    if noted is not None:
        return noted
    # Read now, not `load_game`'s copy from earlier in this process, which may be of older bytes: the note
    # must hold the records of exactly the bytes it is named by.
    cards = read_game(game, cards_dir).cards
    if _catalogue_key(game, cards_dir) == key:  # unchanged while it was read
        _write_note(key, cards)
    return cards


def _catalogue_key(game: str, cards_dir: Path) -> bytes:
    return _key(game, [(p.name, read_catalogue_bytes(p)) for p in game_files(game, cards_dir)])


def _key(game: str, blobs: list[tuple[str, bytes]]) -> bytes:
    """Everything the records depend on: cardkit's version, the game, each file's name and bytes."""
    return checkcache.content(game, blobs)


def _name(key: bytes) -> str:
    return checkcache.note_name(key.split(b"\0", 1)[0].decode("utf-8", "replace"), key)


def _read_note(key: bytes) -> CardTable[str, Card] | None:
    lines = checkcache.read_keyed_note(_FOLDER, _name(key), key, _MOST)
    if lines is None:
        return None
    texts: dict[CardId, str] = {}
    try:
        for line in lines.decode("utf-8").split("\n")[:-1]:
            card_id, tab, record = line.partition("\t")
            if not tab:
                return None
            # json.dumps escapes every control character, so neither a tab nor a newline is inside a text.
            texts[json.loads(card_id) if "\\" in card_id else card_id[1:-1]] = record
    except (UnicodeDecodeError, ValueError):
        return None
    # Text that passed the strict reader once parses to the same records with plain json.loads.
    return CardTable(texts, json.loads)


def _write_note(key: bytes, cards: Mapping[CardId, Card]) -> None:
    """Keep the records for the next run; a cache folder that can't be written is not an error."""
    lines = "".join(f"{json.dumps(card_id, ensure_ascii=False)}\t{json.dumps(record, ensure_ascii=False)}\n"
                    for card_id, record in cards.items())
    checkcache.write_keyed_note(_FOLDER, _name(key), key, lines.encode("utf-8"), "card records note")
