"""A quick yes from fastjsonschema for state, squad and placement files, before jsonschema is needed.

Importing jsonschema and building a validator costs about 50 ms, more than the rest of
`cardkit squad check` or `cardkit tcg moves`. fastjsonschema compiles a schema into a plain
Python function instead: compiled once per schema, the code kept in the cache folder. Its yes
is taken; its no sends the document to jsonschema, so a fault is always reported in
jsonschema's words, as before.

fastjsonschema implements drafts 4, 6 and 7, and cardkit's schemas are draft 2020-12. The
keywords they share mean the same in all of them, so a schema is compiled only when every
keyword it uses is one of those (`prefixItems`, for one, is not: draft 7 would ignore it and
pass arrays 2020-12 refuses). Any other schema is always left to jsonschema.
"""

from __future__ import annotations

import json
import marshal
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from types import CodeType
from typing import Any

DRAFT = "https://json-schema.org/draft/2020-12/schema"
# Keywords whose meaning is the same in draft 7 and draft 2020-12 (`items` only as one schema).
_SAME_IN_DRAFT_7 = frozenset({
    "type", "enum", "const", "pattern", "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "uniqueItems", "items", "properties", "required",
    "additionalProperties", "patternProperties", "propertyNames", "minProperties", "maxProperties",
    "anyOf", "allOf", "oneOf", "not", "$ref",
})
_ANNOTATIONS = frozenset({"$schema", "$id", "$comment", "$defs", "title", "description", "default", "examples"})
_SUBSCHEMA_MAPS = frozenset({"properties", "patternProperties", "$defs"})
_SUBSCHEMA_LISTS = frozenset({"anyOf", "allOf", "oneOf"})
_SUBSCHEMAS = frozenset({"items", "additionalProperties", "propertyNames", "not"})


def _uses_only_shared_keywords(schema: Any) -> bool:
    if isinstance(schema, bool):
        return True
    if not isinstance(schema, dict):
        return False
    for key, value in schema.items():
        if key not in _SAME_IN_DRAFT_7 and key not in _ANNOTATIONS:
            return False
        if key == "$ref" and not (isinstance(value, str) and value.startswith("#/$defs/")):
            return False  # only refs inside the schema: fastjsonschema would fetch any other over the network
        if key in _SUBSCHEMA_MAPS and not (isinstance(value, dict) and all(map(_uses_only_shared_keywords, value.values()))):
            return False
        if key in _SUBSCHEMA_LISTS and not (isinstance(value, list) and all(map(_uses_only_shared_keywords, value))):
            return False
        if key in _SUBSCHEMAS and not _uses_only_shared_keywords(value):
            return False
    return True


class _Refused(ValueError):
    """What the compiled code raises for a document it refuses, in place of fastjsonschema's exceptions."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args)


# The generated code names fastjsonschema's exceptions in one import line (2.19 imports one name, 2.20 and
# later two); a note's code is compiled without it (the names are given), so that running a remembered
# validator does not import fastjsonschema (and its drafts, its URL resolver, ...). Should the line read
# otherwise, it stays and is run: slower, as correct, since `passes` takes any exception as "ask jsonschema".
# (A pattern `re` compiles when first needed: only a schema not remembered yet is generated.)
_IMPORT_LINE = (r"^from fastjsonschema import (JsonSchemaValuesException|JsonSchemaValueException)"
                r"(, (JsonSchemaValuesException|JsonSchemaValueException))?\n")


class _DecimalType(type):
    def __instancecheck__(cls, value: Any) -> bool:
        from decimal import Decimal

        return isinstance(value, Decimal)


class _LazyDecimal(metaclass=_DecimalType):
    """`decimal.Decimal` as the generated code uses it, as the last of `isinstance(x, (int, float, Decimal))`: parsed
    JSON holds ints and floats, which the first two answer, so the decimal module (a few ms) is loaded only for
    another value."""


# The generated code's `from decimal import Decimal` line; left out (and `_LazyDecimal` given) only when every
# other use of the name is that isinstance test.
_DECIMAL_LINE = "from decimal import Decimal\n"
_DECIMAL_TEST = "(int, float, Decimal)"
_GIVEN = {"JsonSchemaValueException": _Refused, "JsonSchemaValuesException": _Refused, "Decimal": _LazyDecimal}
_FOLDER = "compiled"


def _key(schema_text: str) -> bytes | None:
    """Everything the compiled code depends on: the schema, fastjsonschema's version, Python's bytecode.
    None when fastjsonschema's version can't be read without importing it (then nothing is remembered)."""
    from importlib.util import MAGIC_NUMBER, find_spec

    # Read from its version.py, found without running the package: importlib.metadata costs more than it saves.
    spec = find_spec("fastjsonschema")
    folders = list(spec.submodule_search_locations or []) if spec is not None else []
    try:
        version = (Path(folders[0]) / "version.py").read_bytes()
    except (IndexError, OSError):
        return None
    # The last part names how cardkit edits the generated code: a note of code edited otherwise is not reused.
    return b"\0".join([schema_text.encode("utf-8"), version, MAGIC_NUMBER, b"lazy-decimal"])


def _about(schema: Any) -> str:
    """What the note of a schema's code is named by: the schema's `$id`, which stays the same through its edits,
    so that the code of an edited schema replaces the code of the schema before."""
    found = schema.get("$id") if isinstance(schema, dict) else None
    return found if isinstance(found, str) else ""


def _note(about: str) -> Path:
    from cardkit import checkcache, paths

    return paths.cache_dir() / _FOLDER / checkcache.note_name("schema", about)


def _remembered(key: bytes, about: str) -> tuple[str, CodeType] | None:
    """The entry point's name and the code remembered for exactly `key` in the note named by `about`, if any."""
    from cardkit import checkcache

    # Code is run only from a folder cardkit made and this user owns (`checkcache.notes_folder`).
    note = checkcache.read_note(_FOLDER, checkcache.note_name("schema", about), 64 * 1024 * 1024)
    if note is None:
        return None
    head, _, rest = note.partition(b"\n")
    name, _, size = head.decode("ascii", "replace").partition(" ")
    if not size.isdigit() or rest[:int(size)] != key:
        return None
    try:
        code = marshal.loads(rest[int(size):])
    except (ValueError, EOFError, TypeError):
        return None
    return (name, code) if isinstance(code, CodeType) else None


def _remember(key: bytes, about: str, name: str, code: CodeType) -> None:
    """Keep the compiled code for the next run; a cache folder that can't be written is not an error."""
    from cardkit import checkcache

    data = f"{name} {len(key)}\n".encode("ascii") + key + marshal.dumps(code)
    checkcache.write_note(_FOLDER, checkcache.note_name("schema", about), data, "compiled schema note")


def _generated(schema: Any, key: bytes | None) -> tuple[str, CodeType] | None:
    """fastjsonschema's code for `schema`, compiled, with the name of its entry point; None if it refuses."""
    import fastjsonschema

    try:
        # use_default=False: fastjsonschema would otherwise write the schema's defaults into the document.
        entry = fastjsonschema.compile(schema, use_default=False, use_formats=False).__name__
        source = fastjsonschema.compile_to_code(schema, use_default=False, use_formats=False)
    except fastjsonschema.JsonSchemaDefinitionException:
        return None
    source = re.sub(_IMPORT_LINE, "", source, count=1, flags=re.MULTILINE)
    if source.count("Decimal") == source.count(_DECIMAL_LINE) + source.count(_DECIMAL_TEST) and _DECIMAL_LINE in source:
        source = source.replace(_DECIMAL_LINE, "", 1)
    code = compile(source, f"<fastjsonschema {entry}>", "exec")
    if key is not None:
        _remember(key, _about(schema), entry, code)
    return entry, code


@lru_cache(maxsize=16)
def _compiled(schema_text: str) -> Callable[[Any], Any] | None:
    """The schema's fastjsonschema function, or None when the schema must be left to jsonschema.

    Generating and compiling the code costs more than the rest of `battle apply`; the compiled
    code is remembered in the cache folder, one note per schema, with the schema's content
    (and fastjsonschema's version and Python's bytecode number) it was made from, and a later
    run only loads it.
    """
    schema = json.loads(schema_text)
    if not isinstance(schema, dict) or schema.get("$schema", DRAFT) != DRAFT or not _uses_only_shared_keywords(schema):
        return None
    key = _key(schema_text)
    found = (_remembered(key, _about(schema)) if key is not None else None) or _generated(schema, key)
    if found is None:
        return None
    entry, code = found
    namespace: dict[str, Any] = dict(_GIVEN)
    exec(code, namespace)
    function: Callable[[Any], Any] = namespace[entry]
    return function


def passes(schema_text: str, document: Any) -> bool:
    """True when `document` certainly satisfies the schema whose JSON text is `schema_text`; False means "ask jsonschema"."""
    validate = _compiled(schema_text)
    if validate is None:
        return False
    try:
        validate(document)
    except Exception:  # _Refused, or fastjsonschema's own exception if its import line was kept: jsonschema decides
        return False
    return True
