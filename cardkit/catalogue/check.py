"""`cardkit catalogue check`: every file against its schema, then cross-checks; the format files too.

Expected totals live in `data/catalogue.json`; this module only knows how to
count (`cards`, `ships`, `count_by` a field, `flagged` booleans, `sum` of a field,
`reprinted` cards recorded with several `printings`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from cardkit import checkcache, paths
from cardkit.catalogue.store import game_files, parse_catalogue_bytes, parse_checked_bytes, read_catalogue_file
from cardkit.errors import CatalogueError, UnreadableInput
from cardkit.games.registry import GAMES
from cardkit.jsonio import MAX_CATALOGUE_BYTES, InvalidJson, read_bytes_input, schema_error_text
from cardkit.problems import Problem, error
from cardkit.textfold import fold
from cardkit.visible import quoted


@dataclass
class GameReport:
    cards: int = 0
    files: int = 0
    extra: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, int]:
        return {"cards": self.cards, "files": self.files, **self.extra}


@dataclass(frozen=True)
class CheckReport:
    games: dict[str, GameReport]
    problems: list[Problem]
    formats: int = 0

    @property
    def ok(self) -> bool:
        return not any(p.is_error for p in self.problems)

    def to_dict(self) -> dict[str, Any]:
        return {
            "legal": self.ok,
            "games": {g: r.to_dict() for g, r in self.games.items()},
            "formats": self.formats,
            "problems": [p.to_dict() for p in self.problems],
        }


@lru_cache(maxsize=8)
def _validator(schema_path: Path) -> Any:
    # Imported here: a catalogue whose files all passed before never needs jsonschema.
    from jsonschema import Draft202012Validator

    schema = read_catalogue_file(schema_path)
    if not isinstance(schema, dict):
        raise CatalogueError(f"schema {schema_path}: not a JSON object")
    return Draft202012Validator(schema)


def read_expectations(path: Path) -> dict[str, dict[str, Any]]:
    """The expected totals per game (`data/catalogue.json`); none when the file is absent."""
    if not path.exists():
        return {}
    expect = read_catalogue_file(path)
    if not isinstance(expect, dict) or not all(isinstance(v, dict) for v in expect.values()):
        raise CatalogueError(f"{path}: expected an object of games, each an object of totals")
    return expect


def _pointer(path: Any) -> str:
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in path) if path else ""


def _card_at(doc: Any, path: Any) -> str | None:
    parts = list(path)
    if len(parts) >= 2 and parts[0] in ("cards", "ships") and isinstance(doc, dict):
        try:
            item = doc[parts[0]][parts[1]]
            return str(item.get("id")) if isinstance(item, dict) and "id" in item else f"#{parts[1]}"
        except (IndexError, KeyError, TypeError):
            return None
    return None


def validate_file(path: Path, game: str, schemas_dir: Path) -> tuple[Any, list[Problem]]:
    """The parsed document (None if unreadable) and its schema problems.

    A file whose exact bytes passed this schema before (remembered by `cardkit.checkcache` in the
    file's one note, with the schema's bytes) is not checked again.
    """
    name = f"{game}/{path.name}"
    try:
        data = read_bytes_input(path, MAX_CATALOGUE_BYTES)
    except UnreadableInput as exc:
        return None, [error("UNREADABLE_FILE", f"cannot read: {exc.reason}", file=name)]
    schema_path = _schema_path(game, schemas_dir)
    try:
        schema = read_bytes_input(schema_path, MAX_CATALOGUE_BYTES)
    except UnreadableInput:
        schema = b""  # never remembered as passed: validating reports the unreadable schema
    kind = f"catalogue-{game}"
    content = checkcache.content(kind, [(schema_path.name, schema), (path.name, data)])
    about = checkcache.about_file(path)
    if schema and checkcache.seen(kind, content, about):
        return parse_checked_bytes(path, data), []
    try:
        doc = parse_catalogue_bytes(path, data)
    except InvalidJson as exc:
        return None, [error("INVALID_JSON", exc.reason, file=name, line=exc.line)]
    except UnreadableInput as exc:
        return None, [error("UNREADABLE_FILE", f"cannot read: {exc.reason}", file=name)]
    problems = validate_document(doc, game, name, schemas_dir)
    if schema and not problems:
        checkcache.remember(kind, content, about)
    return doc, problems


def _schema_path(game: str, schemas_dir: Path | None = None) -> Path:
    return (schemas_dir or paths.SCHEMAS_DIR) / "cards" / f"{game}.schema.json"


def validate_document(doc: Any, game: str, name: str, schemas_dir: Path | None = None) -> list[Problem]:
    """Schema problems of one parsed catalogue file of `game`, reported as file `name`."""
    validator = _validator(_schema_path(game, schemas_dir))
    return [
        error("SCHEMA_VIOLATION", schema_error_text(err),
              file=name, card=_card_at(doc, err.absolute_path), pointer=_pointer(_field_path(err)))
        for err in sorted(validator.iter_errors(doc), key=lambda e: (list(map(str, e.absolute_path)), e.message))
    ]


def where(problem: Problem) -> str:
    """`file card ID /pointer`, as much of it as the problem knows."""
    return " ".join(x for x in (problem.file, problem.card and f"card {problem.card}", problem.pointer) if x)


def misshapen_file(path: Path, game: str, doc: Any) -> CatalogueError:
    """The error for a catalogue file whose shape stopped a reader, naming its first schema problem."""
    problems = validate_document(doc, game, f"{game}/{path.name}")
    first = problems[0] if problems else None
    at = " ".join(x for x in (first.card and f"card {first.card}", first.pointer) if x) if first else ""
    said = f": {at + ': ' if at else ''}{first.message}" if first else ""
    return CatalogueError(f"catalogue file {path} does not match its schema{said}", remedy="check")


def _field_path(err: Any) -> list[Any]:
    """Where the error is; for a missing property, the property itself, so the pointer names the field."""
    path = list(err.absolute_path)
    if err.validator == "required" and isinstance(err.instance, dict):
        missing = [p for p in err.validator_value if p not in err.instance and repr(p) in err.message]
        if missing:
            path.append(missing[0])
    return path


def _items(docs: list[tuple[str, Any]], key: str) -> Iterator[tuple[str, int, dict[str, Any]]]:
    for name, doc in docs:
        if isinstance(doc, dict) and isinstance(doc.get(key), list):
            for i, item in enumerate(doc[key]):
                if isinstance(item, dict):
                    yield name, i, item


def cross_check(game: str, docs: list[tuple[str, Any]], expect: dict[str, Any]) -> tuple[GameReport, list[Problem]]:
    """Counts of one game's files (name, parsed document) and what breaks unique ids or `expect`'s totals."""
    problems: list[Problem] = []
    report = GameReport(files=len(docs))
    seen: dict[str, str] = {}
    cards = list(_items(docs, "cards"))
    for name, i, card in cards:
        cid = card.get("id")
        if not isinstance(cid, str):
            continue
        if cid in seen:
            problems.append(error("DUPLICATE_ID", f"card id {cid} also in {seen[cid]}",
                                  file=name, card=cid, pointer=f"/cards/{i}/id"))
        else:
            seen[cid] = name
    report.cards = len(cards)
    where = {"file": f"{game}/"}
    if "cards" in expect and report.cards != expect["cards"]:
        problems.append(error("WRONG_COUNT", f"{game} has {report.cards} cards; expected {expect['cards']}",
                              limit=expect["cards"], actual=report.cards, **where))
    if "ships" in expect:
        ships = list(_items(docs, "ships"))
        report.extra["ships"] = len(ships)
        if len(ships) != expect["ships"]:
            problems.append(error("WRONG_COUNT", f"{game} has {len(ships)} ship types; expected {expect['ships']}",
                                  limit=expect["ships"], actual=len(ships), **where))
    problems += _printings_problems(game, cards, report, expect)
    for fld, wanted in expect.get("count_by", {}).items():
        counts = Counter(card.get(fld) for _, _, card in cards)
        for value, n in wanted.items():
            if counts.get(value, 0) != n:
                problems.append(error("WRONG_COUNT", f"{game}: {counts.get(value, 0)} cards with {fld} {value}; expected {n}",
                                      limit=n, actual=counts.get(value, 0), pointer=f"/cards/*/{fld}", **where))
    for fld, n in expect.get("flagged", {}).items():
        actual = sum(1 for _, _, card in cards if card.get(fld) is True)
        report.extra[fld] = actual
        if actual != n:
            problems.append(error("WRONG_COUNT", f"{game}: {actual} cards with {fld} true; expected {n}",
                                  limit=n, actual=actual, pointer=f"/cards/*/{fld}", **where))
    for fld, n in expect.get("sum", {}).items():
        actual = sum(card.get(fld) or 0 for _, _, card in cards if isinstance(card.get(fld), int))
        report.extra[f"{fld}_total"] = actual
        if actual != n:
            problems.append(error("WRONG_COUNT", f"{game}: {fld} totals {actual}; expected {n}",
                                  limit=n, actual=actual, pointer=f"/cards/*/{fld}", **where))
    return report, problems


def _printings_problems(game: str, cards: list[tuple[str, int, dict[str, Any]]], report: GameReport,
                        expect: dict[str, Any]) -> list[Problem]:
    """Cards recorded as printings of one card must list each other alike, exist, and share their name.

    `report.extra["reprinted"]` counts the cards printed more than once; `expect["reprinted"]` pins it.
    """
    problems: list[Problem] = []
    by_id = {card.get("id"): card for _, _, card in cards}
    groups: set[tuple[str, ...]] = set()
    for name, i, card in cards:
        listed = card.get("printings")
        if not isinstance(listed, list):
            continue
        groups.add(tuple(map(str, listed)))
        cid = card.get("id")
        at = {"file": name, "card": str(cid), "pointer": f"/cards/{i}/printings"}
        if cid not in listed:
            problems.append(error("PRINTINGS_MISMATCH", f"printings {listed} leave out the card's own id {cid}", **at))
        for other in listed:
            twin = by_id.get(other)
            if twin is None:
                problems.append(error("PRINTINGS_MISMATCH", f"printing {other} is no {game} card", **at))
            elif fold(str(twin.get("name"))) != fold(str(card.get("name"))):
                problems.append(error("PRINTINGS_MISMATCH", f"printing {other} is called {quoted(twin.get('name'))}, "
                                                            f"not {quoted(card.get('name'))}", **at))
            elif twin.get("printings") != listed:
                problems.append(error("PRINTINGS_MISMATCH", f"printing {other} lists its printings as "
                                                            f"{twin.get('printings')}, not {listed}", **at))
    if groups or "reprinted" in expect:
        report.extra["reprinted"] = len(groups)
    if "reprinted" in expect and len(groups) != expect["reprinted"]:
        problems.append(error("WRONG_COUNT", f"{game}: {len(groups)} cards printed more than once; expected {expect['reprinted']}",
                              limit=expect["reprinted"], actual=len(groups), pointer="/cards/*/printings", file=f"{game}/"))
    return problems


def expectations_path(cards_dir: Path | None = None) -> Path:
    """`catalogue.json` beside the cards folder: `data/catalogue.json` for the real catalogue, a copy's own for a copy."""
    return (cards_dir or paths.CARDS_DIR).parent / "catalogue.json"


def check_catalogue(
    cards_dir: Path | None = None,
    schemas_dir: Path | None = None,
    expectations: Path | None = None,
    games: tuple[str, ...] = GAMES,
    formats_dir: Path | None = None,
    documents: dict[Path, Any] | None = None,
) -> CheckReport:
    """Every problem of every catalogue file and format file, never stopping at the first.

    Given `documents`, each file read is put there, parsed, by its path: the build makes its rows from
    these, so a build parses each file once."""
    cards_dir = cards_dir or paths.CARDS_DIR
    schemas_dir = schemas_dir or paths.SCHEMAS_DIR
    expectations = expectations or paths.DATA_DIR / "catalogue.json"
    expect_all = read_expectations(expectations)
    reports: dict[str, GameReport] = {}
    problems: list[Problem] = []
    for game in games:
        files = game_files(game, cards_dir)
        if not files:
            problems.append(error("MISSING_GAME", f"no catalogue files for {game}", file=f"{game}/"))
        docs = []
        for path in files:
            doc, found = validate_file(path, game, schemas_dir)
            if documents is not None and doc is not None:
                documents[path] = doc
            problems.extend(found)
            docs.append((f"{game}/{path.name}", doc))
        report, found = cross_check(game, docs, expect_all.get(game, {}))
        reports[game] = report
        problems.extend(found)
    format_paths, found = check_formats(formats_dir or paths.FORMATS_DIR, schemas_dir, documents)
    problems.extend(found)
    return CheckReport(games=reports, problems=problems, formats=len(format_paths))


def check_formats(formats_dir: Path, schemas_dir: Path | None = None,
                  documents: dict[Path, Any] | None = None) -> tuple[list[Path], list[Problem]]:
    """The format files and every problem that would stop `cardkit.formats` loading them: the schema,
    the name equal to the file name, the message placeholders, one default per game. Given `documents`,
    each file parsed is put there by its path, as `check_catalogue` does."""
    files = sorted(formats_dir.glob("*.json")) if formats_dir.is_dir() else []
    schema_path = (schemas_dir or paths.SCHEMAS_DIR) / "format.schema.json"
    try:
        schema = read_bytes_input(schema_path, MAX_CATALOGUE_BYTES)
    except UnreadableInput:
        schema = b""  # never remembered as passed: validating reports the unreadable schema
    problems: list[Problem] = []
    defaults: Counter[str] = Counter()
    games: set[str] = set()
    for path in files:
        name = f"formats/{path.name}"
        try:
            data = read_bytes_input(path, MAX_CATALOGUE_BYTES)
            content = checkcache.content("format-file", [(schema_path.name, schema), (path.name, data)])
            passed = bool(schema) and checkcache.seen("format-file", content, checkcache.about_file(path))
            doc = parse_checked_bytes(path, data) if passed else parse_catalogue_bytes(path, data)
        except InvalidJson as exc:
            problems.append(error("INVALID_JSON", exc.reason, file=name, line=exc.line))
            continue
        except UnreadableInput as exc:
            problems.append(error("UNREADABLE_FILE", f"cannot read: {exc.reason}", file=name))
            continue
        if documents is not None:
            documents[path] = doc
        if passed:
            found = []
        else:
            validator = _validator(schema_path)
            found = [error("SCHEMA_VIOLATION", schema_error_text(err), file=name, pointer=_pointer(_field_path(err)))
                     for err in sorted(validator.iter_errors(doc), key=lambda e: (list(map(str, e.absolute_path)), e.message))]
            if schema and not found:
                checkcache.remember("format-file", content, checkcache.about_file(path))
        problems.extend(found)
        if found:
            continue
        if doc["name"] != path.stem:
            problems.append(error("SCHEMA_VIOLATION", f"name {quoted(doc['name'])} differs from the file name",
                                  file=name, pointer="/name"))
        for i, rule in enumerate(doc.get("minimums", [])):
            try:
                rule["message"].format(actual=0, limit=0, what="")
            except (KeyError, IndexError, ValueError) as exc:
                problems.append(error("SCHEMA_VIOLATION", f"bad placeholder ({exc}); use {{actual}}, {{limit}} or {{what}}",
                                      file=name, pointer=f"/minimums/{i}/message"))
        games.add(doc["game"])
        defaults[doc["game"]] += bool(doc.get("default", False))
    for game in sorted(games):
        if defaults[game] != 1:
            problems.append(error("WRONG_COUNT", f"{game} has {defaults[game]} default formats; it needs exactly one",
                                  file="formats/", limit=1, actual=defaults[game]))
    return files, problems
