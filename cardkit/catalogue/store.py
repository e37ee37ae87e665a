"""Loading the catalogue's JSON files into memory."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Generic, TypeVar

from cardkit import paths
from cardkit.errors import CatalogueError, UnknownGame, UnreadableInput
from cardkit.games.registry import GAMES
from cardkit.jsonio import MAX_CATALOGUE_BYTES, decode_text, parse_json, read_bytes_input

CardId = str
Card = dict[str, Any]


@dataclass(frozen=True, eq=False)
class GameCatalogue:
    """Every card of one game, by id, in catalogue order, with the file each came from; equal only to itself."""

    game: str
    cards: dict[CardId, Card]
    sets: list[dict[str, Any]]
    source: dict[CardId, str]
    ships: dict[str, dict[str, Any]] = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"GameCatalogue(game={self.game!r}, {len(self.cards)} cards)"

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.cards

    def __len__(self) -> int:
        return len(self.cards)

    def card(self, card_id: CardId) -> Card:
        return self.cards[card_id]


def game_dir(game: str, cards_dir: Path | None = None) -> Path:
    if game not in GAMES:
        raise UnknownGame(game)
    return (cards_dir or paths.CARDS_DIR) / game


def game_files(game: str, cards_dir: Path | None = None) -> list[Path]:
    return sorted(game_dir(game, cards_dir).glob("*.json"))


def read_catalogue_bytes(path: Path) -> bytes:
    """A catalogue file's bytes through the guarded reader; `CatalogueError` for a directory, link loop, FIFO..."""
    try:
        return read_bytes_input(path, MAX_CATALOGUE_BYTES)
    except UnreadableInput as exc:
        raise CatalogueError(f"catalogue file {exc.message}") from None


def parse_catalogue_bytes(path: Path, data: bytes) -> Any:
    """`data`, the bytes of the catalogue, format or schema file `path`, parsed within the JSON reader's limits.
    Raises `UnreadableInput` (`InvalidJson` for bad JSON) like `parse_json`."""
    return parse_json(decode_text(path, data), path)


def parse_checked_bytes(path: Path, data: bytes) -> Any:
    """`parse_catalogue_bytes` of bytes that passed the catalogue check before (`cardkit.checkcache` says so).

    Those exact bytes were parsed within the reader's limits then (the check parses first), so they hold
    no key given twice, no number too long and no nesting too deep: the plain decoder, without the hooks
    that enforce the limits, gives the very same document, several times faster.
    """
    return json.loads(decode_text(path, data))


def read_catalogue_file(path: Path) -> Any:
    """A catalogue (or format, or schema) file parsed within the JSON reader's limits; `CatalogueError` otherwise."""
    try:
        return parse_catalogue_bytes(path, read_bytes_input(path, MAX_CATALOGUE_BYTES))
    except UnreadableInput as exc:
        raise CatalogueError(f"catalogue file {exc.message}") from None


def text_field(item: dict[str, Any], field: str = "id") -> str:
    """`item[field]`, which lookups and the database key need as text; TypeError otherwise."""
    value = item[field]
    if not isinstance(value, str):
        raise TypeError(field)
    return value


def _read_game(game: str, cards_dir: Path) -> GameCatalogue:
    files = game_files(game, cards_dir)
    if not files:
        raise CatalogueError(f"no catalogue files for {game} in {cards_dir / game}", remedy="import")
    cards: dict[CardId, Card] = {}
    source: dict[CardId, str] = {}
    sets: list[dict[str, Any]] = []
    ships: dict[str, dict[str, Any]] = {}
    for path in files:
        doc = read_catalogue_file(path)
        try:
            for ship in doc.get("ships", []):
                ships[text_field(ship)] = ship
            if "set" in doc and "cards" in doc:
                sets.append(doc["set"])
            for card in doc.get("cards", []):
                cards[text_field(card)] = card
                text_field(card, "name")
                source[card["id"]] = path.name
        except (AttributeError, KeyError, TypeError):
            from cardkit.catalogue.check import misshapen_file

            raise misshapen_file(path, game, doc) from None
    return GameCatalogue(game=game, cards=cards, sets=sets, source=source, ships=ships)


_load = lru_cache(maxsize=16)(_read_game)


Source = TypeVar("Source")
Built = TypeVar("Built")


class CardTable(Mapping[CardId, Built], Generic[Source, Built]):
    """A game's cards by id, each turned from its source (a catalogue record) into what the caller needs
    (a game's own object) on first use.

    A state file names a few dozen of a game's thousand cards: building only those is what keeps
    `battle moves` or `tcg apply` from spending most of its time on cards it never looks at.
    Iterating, `len` and `in` go by the catalogue's ids without building anything.
    """

    def __init__(self, records: Mapping[CardId, Source], build: Callable[[Source], Built]) -> None:
        self._records = records
        self._build = build
        self._built: dict[CardId, Built] = {}

    def __getitem__(self, card_id: CardId) -> Built:
        try:
            return self._built[card_id]
        except KeyError:
            made = self._built[card_id] = self._build(self._records[card_id])
            return made

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._records

    def __iter__(self) -> Iterator[CardId]:
        return iter(self._records)

    def __len__(self) -> int:
        return len(self._records)


def load_game(game: str, cards_dir: Path | None = None) -> GameCatalogue:
    """The catalogue of `game`, read once per process."""
    return _load(game, paths.resolved(cards_dir or paths.CARDS_DIR))


def catalogue_hash(cards_dir: Path | None = None) -> str:
    """SHA-256 over every catalogue file's name and bytes: changes whenever the catalogue does."""
    import hashlib  # here, not above: loading OpenSSL is a tenth of a short command's start-up

    root = cards_dir or paths.CARDS_DIR
    digest = hashlib.sha256()
    for path in sorted(root.glob("*/*.json")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(b"\0")
        digest.update(read_catalogue_bytes(path))
    return digest.hexdigest()
