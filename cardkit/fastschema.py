"""A quick yes from fastjsonschema for state, squad and placement files, before jsonschema is needed.

Importing jsonschema and building a validator costs about 50 ms, more than the rest of
`cardkit squad check` or `cardkit tcg moves`. fastjsonschema compiles a schema into a plain
Python function instead: compiled once per schema, cached by the schema's content. Its yes
is taken; its no sends the document to jsonschema, so a fault is always reported in
jsonschema's words, as before.

fastjsonschema implements drafts 4, 6 and 7, and cardkit's schemas are draft 2020-12. The
keywords they share mean the same in all of them, so a schema is compiled only when every
keyword it uses is one of those (`prefixItems`, for one, is not: draft 7 would ignore it and
pass arrays 2020-12 refuses). Any other schema is always left to jsonschema.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Callable, Optional

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


@lru_cache(maxsize=16)
def _compiled(schema_text: str) -> Optional[Callable[[Any], Any]]:
    """The schema's fastjsonschema function, or None when the schema must be left to jsonschema."""
    schema = json.loads(schema_text)
    if not isinstance(schema, dict) or schema.get("$schema", DRAFT) != DRAFT or not _uses_only_shared_keywords(schema):
        return None
    import fastjsonschema

    try:
        # use_default=False: fastjsonschema would otherwise write the schema's defaults into the document.
        function: Callable[[Any], Any] = fastjsonschema.compile(schema, use_default=False, use_formats=False)
    except fastjsonschema.JsonSchemaDefinitionException:
        return None
    return function


def passes(schema_text: str, document: Any) -> bool:
    """True when `document` certainly satisfies the schema whose JSON text is `schema_text`; False means "ask jsonschema"."""
    validate = _compiled(schema_text)
    if validate is None:
        return False
    import fastjsonschema

    try:
        validate(document)
    except fastjsonschema.JsonSchemaValueException:
        return False
    return True
