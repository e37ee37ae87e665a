"""Reading the reference card lists the importers take, with one-line reasons for what is wrong.

A reference list that cannot be read stops the import before anything is
written; the reason names the record (`card #3`, `line 12`) and what is wrong with it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, TypeVar

from cardkit.errors import UnreadableInput
from cardkit.jsonio import read_json_input
from cardkit.visible import quoted

K = TypeVar("K")
V = TypeVar("V")

# What a record's fields can raise when they are missing or of the wrong kind.
RECORD_ERRORS: tuple[type[Exception], ...] = (KeyError, ValueError, TypeError, AttributeError, IndexError, OverflowError)


def reason(exc: Exception) -> str:
    """`exc`, raised while reading one record, as words rather than a Python repr."""
    if isinstance(exc, KeyError):
        return f"missing field {quoted(exc.args[0])}" if exc.args else "missing field"
    if isinstance(exc, IndexError):
        return "a list field has too few values"
    return str(exc) or type(exc).__name__


def pick(table: Mapping[K, V], value: K, field: str) -> V:
    """`table[value]`, or a ValueError naming the field and the values it may take."""
    try:
        return table[value]
    except (KeyError, TypeError):
        known = ", ".join(map(str, table))
        raise ValueError(f"{field} {quoted(value)} is not one of {known}") from None


def bad_record(path: str | os.PathLike[str], where: str, exc: Exception) -> UnreadableInput:
    """The error for record `where` of the list at `path`."""
    return UnreadableInput(path, f"{where}: {reason(exc)}")


def json_records(path: str | os.PathLike[str], max_bytes: int) -> list[dict[str, Any]]:
    """The card objects of a JSON reference list: a non-empty JSON list of objects."""
    records = read_json_input(path, max_bytes=max_bytes)
    if not isinstance(records, list):
        raise UnreadableInput(path, "expected a JSON list of cards")
    if not records:
        raise UnreadableInput(path, "the list holds no cards")
    for i, record in enumerate(records):
        if not isinstance(record, dict):
            raise UnreadableInput(path, f"card #{i}: expected a JSON object, got {json_type(record)}")
    return records


_JSON_TYPE_NAMES: dict[type, str] = {str: "a string", list: "a list", dict: "an object"}


def json_type(value: Any) -> str:
    """The JSON name of a parsed value's type, as a reader of the file knows it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    return _JSON_TYPE_NAMES.get(type(value), type(value).__name__)
