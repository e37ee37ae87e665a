"""`cardkit catalogue import GAME PATH`: run a game's importer and write its files."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardkit import paths
from cardkit.catalogue.check import cross_check, validate_document, where
from cardkit.catalogue.lookup import card_index
from cardkit.catalogue.store import _load, game_dir
from cardkit.games import game_module
from cardkit.errors import BadArgument, CatalogueError, UnreadableInput
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
    of the game that the import no longer produces are removed. A source whose
    cards would break the schema or repeat an id is refused before anything is written.
    """
    if cards_dir is None and paths.BUNDLED:
        # The bundled copy belongs to the installed package: a new wheel would silently undo the import.
        raise BadArgument(f"this cardkit reads the catalogue bundled in the package ({paths.CARDS_DIR}); "
                          "import into a checkout of the repository, or set CARDKIT_HOME to one")
    target = game_dir(game, cards_dir or paths.CARDS_DIR)
    files = game_module(game, "importer").import_files(Path(source))
    check_output(game, Path(source), files)
    written = []
    path = target
    try:
        for name, doc in files.items():
            path = target / name
            write_atomic(path, dumps_canonical(doc))
            written.append(path)
        removed = [p for p in sorted(target.glob("*.json")) if p.name not in files]
        for path in removed:
            path.unlink()
    except OSError as exc:
        raise CatalogueError(f"cannot write the catalogue file {path}: {exc.strerror or exc}") from None
    # Both caches hold the old cards; a later lookup in this process must see the new ones.
    _load.cache_clear()
    card_index.cache_clear()
    cards = sum(len(doc.get("cards", [])) for doc in files.values())
    return ImportResult(game=game, written=written, removed=removed, cards=cards)


def check_output(game: str, source: Path, files: dict[str, Any]) -> None:
    """Refuse what an importer made of `source` if the catalogue check would: `UnreadableInput` naming the first problem.

    Set sizes and totals are not checked here: a partial list is a fair import.
    """
    docs = [(f"{game}/{name}", doc) for name, doc in files.items()]
    problems = [p for name, doc in docs for p in validate_document(doc, game, name)]
    problems += cross_check(game, docs, {})[1]
    if not any(doc.get("cards") for doc in files.values()):
        raise UnreadableInput(source, "no cards found in it")
    if problems:
        first = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise UnreadableInput(
            source, f"its cards would not pass the catalogue check: {where(first)}: {first.message}{more}; nothing written"
        )
