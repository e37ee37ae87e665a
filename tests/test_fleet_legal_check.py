"""`is_legal` runs only an action's checks: its verdicts, and the reasons behind them, are the full `apply`'s."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fleet_legal_record import refusal, verdicts

from cardkit.errors import IllegalAction
from cardkit.games.berserker.game.apply import check, is_legal

RECORDED = Path(__file__).resolve().parent / "data" / "fleet" / "check-verdicts.json"


def checked(state: Any, action: Any) -> str | None:
    """Why the check alone refuses `action`; None when it passes. Its verdict must be `is_legal`'s too."""
    try:
        check(state, action)
    except IllegalAction as exc:
        assert not is_legal(state, action)
        return exc.message
    assert is_legal(state, action)
    return None


def test_the_check_alone_refuses_in_seeded_random_games_what_the_full_apply_refused_before_the_split_and_why() -> None:
    # Recorded by tests/fleet_legal_record.py with the code before the checks were split from the effects.
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))
    assert verdicts(checked) == recorded
    taken = [n for game in recorded for n in game["taken"]]
    assert sum(taken) > 500 and len(taken) > 80  # both verdicts, in many states


def test_the_full_apply_still_refuses_what_it_refused_before_and_why() -> None:
    assert verdicts(refusal) == json.loads(RECORDED.read_text(encoding="utf-8"))
