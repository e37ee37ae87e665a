"""What kind of cardkit file a text is, and the command that reads it: said when a file reaches a
command that reads another kind (a deck given to `tcg moves`, a game state to `fleet new`, a deck to
`squad check`), instead of that reader's own complaint about JSON or a field.

Only a file that fails its reader, or a squad file read as text, is looked at here: good input never
pays for it.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardkit.errors import UnreadableInput


@dataclass(frozen=True)
class FileKind:
    """One kind of file: what it is called, the command that reads it (`{}` the file), the schema its reader checks."""

    what: str
    command: str
    schema: str


BATTLE_STATE = FileKind("a battle state", "battle moves {}", "battle-state.schema.json")
TCG_STATE = FileKind("a Berserk TCG game state", "tcg moves {}", "tcg-state.schema.json")
FLEET_STATE = FileKind("a fleet game state", "fleet moves {}", "fleet-state.schema.json")
REGISTRY = FileKind("a tournament registry", "tournament deck-check {} PLAYER DECK", "registry.schema.json")
FLEET = FileKind("a fleet file", "fleet check {}", "fleet.schema.json")
PLACEMENT = FileKind("a squad placement", "squad place {}", "placement.schema.json")
SQUAD = FileKind("a squad file", "squad check {}", "squad.schema.json")
DEAL = FileKind("a deal file", "squad best {}", "squad.schema.json")
DECK = FileKind("a deck", "validate {}", "deck.schema.json")

# The files cardkit writes name their kind in one field; the others are told by the lists they hold.
_NAMED: dict[tuple[str, str], FileKind] = {
    ("format", "cardkit-battle"): BATTLE_STATE,
    ("format", "cardkit-tcg-game"): TCG_STATE,
    ("format", "cardkit-fleet-board"): FLEET_STATE,
    ("kind", "cardkit-registry"): REGISTRY,
}
_BY_LIST: tuple[tuple[str, FileKind], ...] = (
    ("ships", FLEET), ("cards", PLACEMENT), ("squad", SQUAD), ("dealt", DEAL), ("main", DECK), ("side", DECK))

# A text squad file heads its lists with `squad:` and `dealt:` alone on a line; a text deck has header
# keys no squad file has, or a main/side heading.
_SQUAD_HEADING = re.compile(r"^[ \t]*(squad|dealt)[ \t]*:[ \t]*(?:#.*)?$", re.IGNORECASE | re.MULTILINE)
_DECK_LINE = re.compile(r"^[ \t]*(?:(?:game|player|name|event)[ \t]*:[ \t]*\S"
                        r"|(?://[ \t]*)?(?:main|side|sideboard)(?:[ \t]*\(\d+\))?[ \t]*:?[ \t]*$)",
                        re.IGNORECASE | re.MULTILINE)


def kind_of(text: str) -> FileKind | None:
    """The kind of cardkit file `text` is, or None when it is none cardkit can tell."""
    if text.lstrip().startswith("{"):
        from cardkit.jsonio import parse_json

        try:
            # The readers' own limits: a file past them is refused for that, whatever it looks like.
            data = parse_json(text)
        except UnreadableInput:
            return None
        return _json_kind(data) if isinstance(data, dict) else None
    if _SQUAD_HEADING.search(text):
        headings = {m.group(1).lower() for m in _SQUAD_HEADING.finditer(text)}
        return SQUAD if "squad" in headings else DEAL
    return DECK if _DECK_LINE.search(text) else None


def _json_kind(data: dict[str, Any]) -> FileKind | None:
    named = next((kind for (key, value), kind in _NAMED.items() if data.get(key) == value), None)
    if named is not None:
        return named
    return next((kind for key, kind in _BY_LIST if isinstance(data.get(key), list)), None)


def refuse_other_kind(path: str | os.PathLike[str], text: str, schema: str, wanted: str) -> None:
    """`UnreadableInput` naming what `text` is and the command that reads it, when it is another kind than
    the one checked by `schema` (`wanted` its name: `battle state`); nothing when it is that kind or unknown."""
    kind = kind_of(text)
    if kind is None or kind.schema == schema:
        return
    shown = str(path)
    word = "-" if shown in ("-", "<stdin>") else shlex.quote(shown)
    raise UnreadableInput(path, f"{kind.what}, not a {wanted}",
                          hint=f"`cardkit {kind.command.format(word)}` reads it")


def read_as(path: str | os.PathLike[str], text: str, schema: str, wanted: str, read: Callable[[], Any]) -> Any:
    """`read()`, the reader of `text`; when it fails, the other kind `text` is (`refuse_other_kind`), else its error."""
    try:
        return read()
    except UnreadableInput:
        refuse_other_kind(path, text, schema, wanted)
        raise
