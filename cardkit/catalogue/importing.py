"""`cardkit catalogue import GAME PATH`: run a game's importer and write its files."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cardkit import paths
from cardkit.catalogue.lookup import card_index
from cardkit.catalogue.store import _load, game_dir
from cardkit.games import game_module
from cardkit.jsonio import dumps_canonical, write_atomic


@dataclass(frozen=True)
class ImportResult:
    game: str
    written: list[Path]
    removed: list[Path]
    cards: int


def import_game(game: str, source: Path, cards_dir: Path | None = None) -> ImportResult:
    """Write `game`'s catalogue files from the reference file at `source`.

    Deterministic: the same source always gives byte-identical files. Files
    of the game that the import no longer produces are removed.
    """
    files = game_module(game, "importer").import_files(Path(source))
    target = game_dir(game, cards_dir or paths.CARDS_DIR)
    written = []
    for name, doc in files.items():
        write_atomic(target / name, dumps_canonical(doc))
        written.append(target / name)
    removed = [p for p in sorted(target.glob("*.json")) if p.name not in files]
    for path in removed:
        path.unlink()
    # Both caches hold the old cards; a later lookup in this process must see the new ones.
    _load.cache_clear()
    card_index.cache_clear()
    cards = sum(len(doc.get("cards", [])) for doc in files.values())
    return ImportResult(game=game, written=written, removed=removed, cards=cards)
