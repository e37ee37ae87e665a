"""A JSON file checked against its schema in schemas/: fastjsonschema's quick yes, else jsonschema's words for the fault.

Kept apart from the squad reader, its first user, so that the engines' commands, which read a state on
every run, load only this and not the squad file machinery.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from typing import Any

from cardkit import fastschema, paths
from cardkit.errors import UnreadableInput
from cardkit.jsonio import parse_json, schema_error_text


@lru_cache(maxsize=4)
def _schema_text(schema: str) -> str:
    return (paths.SCHEMAS_DIR / schema).read_text(encoding="utf-8")


def _schema(schema: str) -> Any:
    return json.loads(_schema_text(schema))


@lru_cache(maxsize=4)
def _validator(schema: str) -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(_schema(schema))


def parse_checked_json(path: str | os.PathLike[str], text: str, schema: str, what: str) -> Any:
    """`text` parsed as JSON and checked against `schemas/<schema>`; UnreadableInput naming the first fault,
    or naming the other kind of cardkit file `text` is and the command that reads it (`filekinds`)."""
    try:
        data = parse_json(text, path)
    except UnreadableInput:
        _refuse_other_kind(path, text, schema, what)
        raise
    # jsonschema (50 ms to load) only for a file fastjsonschema can't pass, so its words describe the fault.
    errors = [] if fastschema.passes(_schema_text(schema), data) else \
        sorted(_validator(schema).iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        _refuse_other_kind(path, text, schema, what)
        where = "/" + "/".join(map(str, errors[0].absolute_path))
        raise UnreadableInput(path, f"not a {what}: {where}: {schema_error_text(errors[0])}")
    return data


def _refuse_other_kind(path: str | os.PathLike[str], text: str, schema: str, what: str) -> None:
    from cardkit.filekinds import refuse_other_kind  # only for a file its reader refuses

    refuse_other_kind(path, text, schema, what)
