"""A quick yes for JSON documents that plainly satisfy a simple JSON Schema, without jsonschema.

Importing jsonschema and building a validator costs about 50 ms, more than
the rest of `cardkit squad check`. `is_valid` answers True only when it is
certain the document passes: it knows the keywords cardkit's small schemas
use (type, enum, const, pattern, lengths, bounds, items, properties, required,
additionalProperties, anyOf/allOf/oneOf and local $ref), and anything else
(another keyword, a float where an integer is asked for) makes it unsure.
Unsure or invalid, the caller runs jsonschema as before, so a bad file is
reported in jsonschema's words, exactly as without this shortcut.
"""

from __future__ import annotations

import re
from typing import Any, Callable

VALID, INVALID, UNSURE = 1, 0, -1
Verdict = int

_ANNOTATIONS = frozenset({"$schema", "$id", "$comment", "$defs", "definitions", "title", "description", "default", "examples"})
_REF = re.compile(r"^#/(\$defs|definitions)/([^/~]+)$")


DRAFT = "https://json-schema.org/draft/2020-12/schema"


def is_valid(schema: Any, instance: Any) -> bool:
    """True only when `instance` certainly satisfies `schema` (draft 2020-12); False means "ask jsonschema"."""
    if not isinstance(schema, dict) or schema.get("$schema", DRAFT) != DRAFT:
        return False
    return _check(schema, instance, schema) == VALID


def _all(verdicts: list[Verdict]) -> Verdict:
    if INVALID in verdicts:
        return INVALID
    return UNSURE if UNSURE in verdicts else VALID


def _check(schema: Any, instance: Any, root: Any) -> Verdict:
    if schema is True:
        return VALID
    if schema is False:
        return INVALID
    if not isinstance(schema, dict):
        return UNSURE
    verdicts = []
    for key, value in schema.items():
        if key in _ANNOTATIONS:
            continue
        keyword = _KEYWORDS.get(key)
        if keyword is None:
            return UNSURE
        verdict = keyword(value, instance, schema, root)
        if verdict == INVALID:
            return INVALID
        verdicts.append(verdict)
    return _all(verdicts)


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _type(value: Any, instance: Any, schema: Any, root: Any) -> Verdict:
    names = value if isinstance(value, list) else [value]
    found = INVALID
    for name in names:
        if name == "integer" and isinstance(instance, float):
            found = UNSURE  # jsonschema counts 1.0 as an integer; not worth deciding here
            continue
        test = _TYPES.get(name)
        if test is None:
            return UNSURE
        if test(instance):
            return VALID
    return found


_TYPES: dict[str, Callable[[Any], bool]] = {
    "string": lambda x: isinstance(x, str),
    "integer": lambda x: isinstance(x, int) and not isinstance(x, bool),
    "number": _is_number,
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
}


def _enum(value: Any, instance: Any, schema: Any, root: Any) -> Verdict:
    # Only text choices: jsonschema tells 1 from True and 1.0 from 1, which Python's == does not.
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return UNSURE
    return VALID if isinstance(instance, str) and instance in value else INVALID


def _const(value: Any, instance: Any, schema: Any, root: Any) -> Verdict:
    return _enum([value], instance, schema, root) if isinstance(value, str) else UNSURE


def _pattern(value: Any, instance: Any, schema: Any, root: Any) -> Verdict:
    if not isinstance(instance, str):
        return VALID
    return VALID if re.search(value, instance) else INVALID  # jsonschema's own test


def _bound(test: Callable[[Any, Any], bool], kind: Callable[[Any], bool]) -> Callable[[Any, Any, Any, Any], Verdict]:
    def keyword(value: Any, instance: Any, schema: Any, root: Any) -> Verdict:
        if not kind(instance):
            return VALID
        if not _is_number(value):
            return UNSURE
        return VALID if test(instance, value) else INVALID

    return keyword


def _sized(kind: type[str] | type[list[Any]], test: Callable[[int, Any], bool]) -> Callable[[Any, Any, Any, Any], Verdict]:
    def keyword(value: Any, instance: Any, schema: Any, root: Any) -> Verdict:
        if not isinstance(instance, kind):
            return VALID
        if not isinstance(value, int) or isinstance(value, bool):
            return UNSURE
        return VALID if test(len(instance), value) else INVALID

    return keyword


def _items(value: Any, instance: Any, schema: Any, root: Any) -> Verdict:
    if "prefixItems" in schema or not isinstance(value, (dict, bool)):
        return UNSURE
    if not isinstance(instance, list):
        return VALID
    return _all([_check(value, item, root) for item in instance])


def _properties(value: Any, instance: Any, schema: Any, root: Any) -> Verdict:
    if not isinstance(value, dict):
        return UNSURE
    if not isinstance(instance, dict):
        return VALID
    return _all([_check(value[k], v, root) for k, v in instance.items() if k in value])


def _additional(value: Any, instance: Any, schema: Any, root: Any) -> Verdict:
    if "patternProperties" in schema:
        return UNSURE
    if not isinstance(instance, dict):
        return VALID
    named = schema.get("properties", {})
    return _all([_check(value, v, root) for k, v in instance.items() if k not in named])


def _required(value: Any, instance: Any, schema: Any, root: Any) -> Verdict:
    if not isinstance(value, list):
        return UNSURE
    if not isinstance(instance, dict):
        return VALID
    return VALID if all(k in instance for k in value) else INVALID


def _any_of(value: Any, instance: Any, schema: Any, root: Any) -> Verdict:
    verdicts = [_check(s, instance, root) for s in value]
    if VALID in verdicts:
        return VALID
    return UNSURE if UNSURE in verdicts else INVALID


def _all_of(value: Any, instance: Any, schema: Any, root: Any) -> Verdict:
    return _all([_check(s, instance, root) for s in value])


def _one_of(value: Any, instance: Any, schema: Any, root: Any) -> Verdict:
    verdicts = [_check(s, instance, root) for s in value]
    if UNSURE in verdicts:
        return UNSURE
    return VALID if verdicts.count(VALID) == 1 else INVALID


def _ref(value: Any, instance: Any, schema: Any, root: Any) -> Verdict:
    m = _REF.match(value) if isinstance(value, str) else None
    if m is None or not isinstance(root.get(m.group(1)), dict) or m.group(2) not in root[m.group(1)]:
        return UNSURE
    return _check(root[m.group(1)][m.group(2)], instance, root)


_KEYWORDS: dict[str, Callable[[Any, Any, Any, Any], Verdict]] = {
    "type": _type,
    "enum": _enum,
    "const": _const,
    "pattern": _pattern,
    "minimum": _bound(lambda x, v: x >= v, _is_number),
    "maximum": _bound(lambda x, v: x <= v, _is_number),
    "exclusiveMinimum": _bound(lambda x, v: x > v, _is_number),
    "exclusiveMaximum": _bound(lambda x, v: x < v, _is_number),
    "minLength": _sized(str, lambda n, v: n >= v),
    "maxLength": _sized(str, lambda n, v: n <= v),
    "minItems": _sized(list, lambda n, v: n >= v),
    "maxItems": _sized(list, lambda n, v: n <= v),
    "items": _items,
    "properties": _properties,
    "additionalProperties": _additional,
    "required": _required,
    "anyOf": _any_of,
    "allOf": _all_of,
    "oneOf": _one_of,
    "$ref": _ref,
}
