"""One game action through the engine protocol, as the `apply` commands play it, for the rules audit's tests."""

from __future__ import annotations

from typing import Any, TypeVar

from cardkit.errors import IllegalAction
from cardkit.games.engine import Engine

S = TypeVar("S")


def apply_through(engine: Engine[S, Any], state: S, action: object) -> tuple[S, list[dict[str, Any]]]:
    """`action` parsed from its text, applied and the state reached read back, as `battle|tcg|fleet apply` play it;
    `IllegalAction` with the reason otherwise."""
    result = engine.apply_all(state, [str(action)])
    if not result.legal:
        raise IllegalAction(result.problems[0].message)
    return result.state, list(result.events)
