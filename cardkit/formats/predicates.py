"""Card predicates: the small language format files use to pick out cards."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Predicate = Mapping[str, Any]
Card = Mapping[str, Any]

_MISSING = object()


def matches(card: Card, predicate: Predicate) -> bool:
    """Whether `card` satisfies `predicate` (`field`+`equals`/`in`/`contains`, or `all`/`any`/`not`).

    A card without the field never matches a field test.
    """
    if "all" in predicate:
        return all(matches(card, p) for p in predicate["all"])
    if "any" in predicate:
        return any(matches(card, p) for p in predicate["any"])
    if "not" in predicate:
        return not matches(card, predicate["not"])
    value = card.get(predicate["field"], _MISSING)
    if value is _MISSING:
        return False
    if "equals" in predicate:
        return bool(value == predicate["equals"])
    if "in" in predicate:
        return value in predicate["in"]
    if "contains" in predicate:
        return isinstance(value, (list, tuple, str)) and predicate["contains"] in value
    raise ValueError(f"predicate has no test: {dict(predicate)!r}")


def predicate_fields(predicate: Predicate) -> list[str]:
    """The card fields `predicate` tests, in the order it names them."""
    if "all" in predicate or "any" in predicate:
        return [f for p in predicate.get("all", predicate.get("any", [])) for f in predicate_fields(p)]
    if "not" in predicate:
        return predicate_fields(predicate["not"])
    return [str(predicate["field"])]


def describe(predicate: Predicate) -> str:
    """A short human reading of `predicate`, for messages and --help."""
    if "all" in predicate:
        return " and ".join(describe(p) for p in predicate["all"])
    if "any" in predicate:
        return " or ".join(describe(p) for p in predicate["any"])
    if "not" in predicate:
        return f"not ({describe(predicate['not'])})"
    field = predicate["field"]
    if "equals" in predicate:
        value = predicate["equals"]
        return field if value is True else f"{field} = {value}"
    if "in" in predicate:
        return f"{field} in {', '.join(map(str, predicate['in']))}"
    return f"{field} contains {predicate['contains']}"
