"""`cardkit catalogue import GAME PATH`: run a game's importer and write its files."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardkit import paths
from cardkit.catalogue.check import cross_check, expectations_path, read_expectations, validate_document, where
from cardkit.catalogue.lookup import card_index
from cardkit.catalogue.store import _load, game_dir
from cardkit.errors import BadArgument, CardkitError, CatalogueError, OutputRefused, UnreadableInput
from cardkit.games.registry import game_module
from cardkit.jsonio import dumps_canonical, read_json_input
from cardkit.outputs import Kind, Output, write_together


def catalogue_file_kind(folder: Path) -> Kind:
    """The catalogue folder is cardkit's own: a regular file in it may be replaced by an import,
    but not a file elsewhere that a link inside the folder leads to."""
    real = folder.resolve()
    return Kind("catalogue file in " + str(folder), lambda path: path.parent == real)


@dataclass(frozen=True)
class ImportResult:
    """What an import wrote: the game's card count, the files written and the files it no longer makes, removed."""

    game: str
    written: list[Path]
    removed: list[Path]
    cards: int

    def to_dict(self, source: Path) -> dict[str, Any]:
        """The JSON of `catalogue import --json`, `source` being the reference list imported."""
        return {"path": str(source), "game": self.game, "cards": self.cards,
                "written": [str(p) for p in self.written], "removed": [str(p) for p in self.removed]}


def import_game(game: str, source: Path, cards_dir: Path | None = None, force: bool = False) -> ImportResult:
    """Write `game`'s catalogue files from the reference file at `source`.

    Deterministic: the same source always gives byte-identical files. Files
    of the game that the import no longer produces are removed, but only files that read as
    that game's catalogue files (cardkit's own earlier output); any other file in the folder
    refuses the whole import, `force` or not. Before anything is
    written: a source whose cards would break the schema or repeat an id is refused;
    so is one that would leave the game failing `cardkit catalogue check` (wrong
    totals, say a partial list), unless `force`; and every file to write or remove goes
    through the guarded writer (never the source, never a special file). The new files
    are all written to temporary files first and renamed into place together.
    """
    if cards_dir is None and paths.BUNDLED:
        # The bundled copy belongs to the installed package: a new wheel would silently undo the import.
        raise BadArgument(f"this cardkit reads the catalogue bundled in the package ({paths.CARDS_DIR}); "
                          "import into a checkout of the repository, or set CARDKIT_HOME to one")
    cards_dir = cards_dir or paths.CARDS_DIR
    target = game_dir(game, cards_dir)
    source = Path(source)
    files = game_module(game, "importer").import_files(source)
    check_output(game, source, files)
    if not force:
        refuse_failing_check(game, source, files, cards_dir)
    kind = catalogue_file_kind(target)
    outputs = [Output(target / name, kind, (source,)) for name in files]
    for out in outputs:
        out.check()
    removed = [p for p in sorted(target.glob("*.json")) if p.name not in files]
    for path in removed:
        _check_removable(path, source, game)
    # One catalogue, so one write: every file put in place or none (see `write_together`).
    write_together([(out, dumps_canonical(files[out.path.name]).encode("utf-8")) for out in outputs])
    written = [out.path for out in outputs]
    path = target
    try:
        for path in removed:
            path.unlink()
    except OSError as exc:
        raise CatalogueError(f"cannot write the catalogue file {path}: {exc.strerror or exc}") from None
    # Both caches hold the old cards; a later lookup in this process must see the new ones.
    _load.cache_clear()
    card_index.cache_clear()
    cards = sum(len(doc.get("cards", [])) for doc in files.values())
    return ImportResult(game=game, written=written, removed=removed, cards=cards)


def _check_removable(path: Path, source: Path, game: str) -> None:
    """A stale file may be removed only if it is a plain file that reads as a catalogue file of `game`
    (cardkit wrote it) and is not the source itself: never touch a file cardkit did not write."""
    try:
        st = os.lstat(path)
        if os.path.exists(source) and os.path.samestat(os.stat(path), os.stat(source)):
            raise OutputRefused(path, "is the source of this import and would be removed; copy the source elsewhere first")
    except FileNotFoundError:
        return
    if stat.S_ISDIR(st.st_mode):
        raise OutputRefused(path, "is a directory in the catalogue folder; remove it yourself")
    foreign = (f"is in the catalogue folder but is not a {game} catalogue file cardkit wrote; "
               "the import would not write it and never removes it: move it elsewhere; nothing written")
    if not stat.S_ISREG(st.st_mode):
        raise OutputRefused(path, foreign)
    try:
        doc = read_json_input(path)
    except CardkitError:
        raise OutputRefused(path, foreign) from None
    if validate_document(doc, game, f"{game}/{path.name}"):
        raise OutputRefused(path, foreign)


def refuse_failing_check(game: str, source: Path, files: dict[str, Any], cards_dir: Path) -> None:
    """`CatalogueError` when `files`, in place of the game's present files, would fail the catalogue check
    (its totals in `catalogue.json` beside the cards folder): a partial list must not empty the catalogue."""
    expect = read_expectations(expectations_path(cards_dir)).get(game, {})
    _, problems = cross_check(game, [(f"{game}/{name}", doc) for name, doc in files.items()], expect)
    if problems:
        first = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise ImportFailsCheck(source, f"{where(first)}: {first.message}{more}")


class ImportFailsCheck(CatalogueError):
    """An import refused because the catalogue check would fail after it (a partial list, say); a forced import writes it."""

    def __init__(self, source: Path, first_problem: str) -> None:
        self.source = source
        self.first_problem = first_problem
        super().__init__(f"{source}: importing it would make the catalogue check fail: {first_problem}; "
                         "nothing written; a forced import writes it anyway")


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
