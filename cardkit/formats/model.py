"""Loading format files and giving their rules names."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from cardkit import checkcache, paths
from cardkit.errors import CardkitError, UnknownFormat, UnknownGame, UnreadableInput
from cardkit.games.registry import GAMES

Sections = tuple[str, ...]
BOTH: Sections = ("main", "side")


class FormatError(CardkitError):
    """A format file is missing, not JSON or breaks the format schema."""

    error_code = "BAD_FORMAT_FILE"


@dataclass(frozen=True)
class Format:
    """One format's rules; the raw file is `data`, the properties read it with defaults."""

    name: str
    game: str
    title: str
    data: dict[str, Any]
    path: Path

    @property
    def is_default(self) -> bool:
        return bool(self.data.get("default", False))

    def bounds(self, section: str) -> tuple[int | None, int | None]:
        """(min, max) size of `section`; None means unbounded."""
        b = self.data.get(section, {})
        return b.get("min"), b.get("max")

    @property
    def copies(self) -> dict[str, Any] | None:
        return self.data.get("copies")

    @property
    def copies_by(self) -> str:
        """`card` (each id is a card of its own) or `name` (every printing of a name is one card)."""
        return str(self.data.get("copies_by", "card"))

    def card_key(self, card: Mapping[str, Any]) -> str:
        """What makes two catalogue cards the same card under this format: their id, or their name.

        Names are folded as lookups fold them (case, ё/е, spacing), so Мародер and Мародёр are one name.
        """
        from cardkit.textfold import fold

        return fold(str(card["name"])) if self.copies_by == "name" else str(card["id"])

    def fields_read(self, cards: Sequence[Mapping[str, Any]]) -> list[str]:
        """The card fields this format's deck rules read of `cards`, in rule order: the fields of the `banned`,
        copy-exemption and `minimums` predicates, the `costs` fields, and `id` or `name` when the copy limit
        counts by it (unless every card is exempt) or `id` for a fixed composition."""
        from cardkit.formats.predicates import matches, predicate_fields

        out: list[str] = []
        copies = self.copies or {}
        exempt = copies.get("exempt", [])
        for rule in self.banned:
            out += predicate_fields(rule["when"])
        for predicate in exempt:
            out += predicate_fields(predicate)
        if copies and not (exempt and all(any(matches(c, p) for p in exempt) for c in cards)):
            out.append("name" if self.copies_by == "name" else "id")
        for rule in self.minimums:
            out += predicate_fields(rule["when"])
        if self.costs:
            out += [self.costs["colour_field"], self.costs["cost_field"]]
        if self.composition:
            out.append("id")
        return list(dict.fromkeys(out))

    @property
    def banned(self) -> list[dict[str, Any]]:
        return list(self.data.get("banned", []))

    @property
    def minimums(self) -> list[dict[str, Any]]:
        return list(self.data.get("minimums", []))

    @property
    def composition(self) -> dict[str, Any] | None:
        return self.data.get("composition")

    @property
    def costs(self) -> dict[str, Any] | None:
        return self.data.get("costs")

    @property
    def squad(self) -> dict[str, Any] | None:
        return self.data.get("squad")

    @property
    def fleet(self) -> dict[str, Any] | None:
        return self.data.get("fleet")

    def to_dict(self) -> dict[str, Any]:
        return dict(self.data)


@lru_cache(maxsize=1)
def _schema_validator() -> Any:
    from jsonschema import Draft202012Validator

    schema_path = paths.SCHEMAS_DIR / "format.schema.json"
    try:
        schema = json.loads(schema_path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise FormatError(f"format schema {schema_path}: {exc}") from None
    return Draft202012Validator(schema)


def read_format_file(path: Path, raw: bytes | None = None, *, schema_checked: bool = False) -> Format:
    """Read and schema-check one format file (`raw`: its bytes, already read), through the guarded reader's limits.

    `schema_checked` skips the schema check for content known to have passed it; the other checks still run.
    """
    from cardkit.jsonio import MAX_CATALOGUE_BYTES, decode_text, parse_json, read_bytes_input

    try:
        data = parse_json(decode_text(path, read_bytes_input(path, MAX_CATALOGUE_BYTES) if raw is None else raw), path)
    except UnreadableInput as exc:
        raise FormatError(f"format file {exc.message}") from None
    errors = [] if schema_checked else sorted(_schema_validator().iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        where = "/" + "/".join(map(str, first.absolute_path))
        raise FormatError(f"format file {path}: {where}: {first.message}")
    if data["name"] != path.stem:
        raise FormatError(f"format file {path}: name {data['name']!r} differs from the file name")
    for i, rule in enumerate(data.get("minimums", [])):
        # A placeholder the checker doesn't fill would otherwise fail on the first deck, not here.
        try:
            rule["message"].format(actual=0, limit=0, what="")
        except (KeyError, IndexError, ValueError) as exc:
            raise FormatError(f"format file {path}: /minimums/{i}/message: bad placeholder ({exc}); "
                              "use {actual}, {limit} or {what}") from None
    return Format(name=data["name"], game=data["game"], title=data["title"], data=data, path=path)


@lru_cache(maxsize=4)
def _all_formats(formats_dir: Path) -> dict[str, Format]:
    files = {p: _read_bytes(p) for p in sorted(formats_dir.glob("*.json"))}
    # The schema check is most of a short command's run time: content that passed once is not checked again.
    try:
        schema = (paths.SCHEMAS_DIR / "format.schema.json").read_bytes()
    except OSError:
        schema = b""  # never remembered as passed: the check itself reports the missing schema
    content = checkcache.content("formats", [("format.schema.json", schema)] + [(p.name, b) for p, b in files.items()])
    known = checkcache.seen("formats", content)
    formats = {p.stem: read_format_file(p, raw, schema_checked=known) for p, raw in files.items()}
    if not known:
        checkcache.remember("formats", content)
    return formats


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise FormatError(f"format file {path}: {exc}") from None


def list_formats(game: str | None = None) -> list[Format]:
    """Every format (of `game`, if given), sorted by name."""
    if game is not None and game not in GAMES:
        raise UnknownGame(game)
    formats = _all_formats(paths.resolved(paths.FORMATS_DIR)).values()
    return [f for f in formats if game is None or f.game == game]


def load_format(name: str) -> Format:
    """The format called `name`; `UnknownFormat` when there is none."""
    formats = _all_formats(paths.resolved(paths.FORMATS_DIR))
    try:
        return formats[name]
    except KeyError:
        raise UnknownFormat(name, sorted(formats)) from None


def default_format(game: str) -> Format:
    """The format marked `default` for `game`."""
    defaults = [f for f in list_formats(game) if f.is_default]
    if len(defaults) != 1:
        raise FormatError(f"{game} has {len(defaults)} default formats in {paths.FORMATS_DIR}; it needs exactly one")
    return defaults[0]
