"""Seeded random fleet games and what `legal_actions` answers in each of their states, as digests.

tests/test_fleet_legal_speed.py compares today's answers with the ones recorded in
tests/data/fleet/legal-actions.json, which this module wrote with the code before `legal_actions`
was made cheaper: `python tests/fleet_legal_record.py > tests/data/fleet/legal-actions.json`.

`verdicts` does the same for random actions of every kind, mostly illegal ones, and why each is
refused; tests/test_fleet_legal_check.py compares the check alone with the ones the full `apply`
gave before the two were split: `python tests/fleet_legal_record.py verdicts > tests/data/fleet/check-verdicts.json`.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FLEETS = ROOT / "decks" / "berserker" / "fleets"
# (human fleet, Berserker fleet, sandbox, who moves first, seed)
GAMES: list[tuple[str, str, bool, str, int]] = [
    (human, berserker, sandbox, first, seed)
    for seed, (human, berserker, sandbox, first) in enumerate([
        ("human-ram-screen", "berserker-centre", True, "human"),
        ("human-ram-screen", "berserker-centre", False, "human"),
        ("human-ram-screen", "berserker-centre", False, "berserker"),
        ("human-ram-screen", "berserker-centre", True, "berserker"),
    ])
]
STEPS = 40


def answers() -> list[dict[str, Any]]:
    """For each game, per state reached: how many actions `legal_actions` lists and the digest of their texts."""
    from cardkit.games.berserker.game.engine import ENGINE
    from cardkit.games.berserker.game.legal import legal_actions
    from cardkit.games.berserker.game.setup import new_game

    out = []
    for human, berserker, sandbox, first, seed in GAMES:
        rng = random.Random(seed)
        state = new_game(json.loads((FLEETS / f"{human}.fleet.json").read_text(encoding="utf-8")),
                         json.loads((FLEETS / f"{berserker}.fleet.json").read_text(encoding="utf-8")),
                         seed=seed, sandbox=sandbox, first=first)
        counts, digests = [], []
        for _ in range(STEPS):
            listed = [str(a) for a in legal_actions(state)]
            counts.append(len(listed))
            digests.append(hashlib.sha256("\n".join(listed).encode("utf-8")).hexdigest()[:16])
            if not listed:
                break
            # End less often than its share, so that games get to their fire phases and further turns.
            choices = [a for a in listed if a != "end"] if len(listed) > 1 and rng.random() < 0.8 else listed
            state, _ = ENGINE.apply(state, ENGINE.parse(rng.choice(choices)))
        out.append({"game": [human, berserker, sandbox, first, seed], "counts": counts, "digests": digests})
    return out


FILES = "abcdefgh"
VERDICT_STEPS = 25


def refusal(state: Any, action: Any) -> str | None:
    """Why the full `apply` refuses `action` in `state`, or None when it takes it."""
    from cardkit.errors import IllegalAction
    from cardkit.games.berserker.game.apply import apply

    try:
        apply(state, action)
    except IllegalAction as exc:
        return exc.message
    return None


def candidates(state: Any, rng: random.Random) -> list[Any]:
    """Actions of every kind, mostly illegal: squares on and off the board and ships', any card, cards held or not."""
    from cardkit.games.berserker.game.notation import Discard, End, Fire, Forward, Move
    from cardkit.games.berserker.model import load_rules

    cards = sorted(load_rules().cards)
    held = [c for side in ("human", "berserker") for c in state.hand(side)] or cards
    ships = [s.square for s in state.ships]

    def square() -> str:
        return rng.choice(ships) if rng.random() < 0.5 else f"{rng.choice(FILES)}{rng.randint(1, 9)}"

    out: list[Any] = [End()]
    for _ in range(60):
        out.append(Move(square(), square(), rng.choice(cards)))
        defend = tuple(rng.choice(held if rng.random() < 0.5 else cards) for _ in range(rng.choice((0, 0, 1, 2))))
        out.append(Fire(square(), square(), rng.choice(cards), defend))
        out.append(Forward(rng.choice(cards), tuple(square() for _ in range(rng.randint(1, 4)))))
        out.append(Discard(tuple(sorted(rng.sample(held, min(len(held), rng.randint(1, 3)))))))
    return out


def verdicts(judge: Callable[[Any, Any], str | None] = refusal) -> list[dict[str, Any]]:
    """For each game, per state reached: how many of its candidates and listed actions `judge` takes, and the
    digest of every action's text with `judge`'s reason for refusing it (empty when taken)."""
    from cardkit.games.berserker.game.engine import ENGINE
    from cardkit.games.berserker.game.legal import legal_actions
    from cardkit.games.berserker.game.setup import new_game

    out = []
    for human, berserker, sandbox, first, seed in GAMES:
        rng = random.Random(1000 + seed)
        state = new_game(json.loads((FLEETS / f"{human}.fleet.json").read_text(encoding="utf-8")),
                         json.loads((FLEETS / f"{berserker}.fleet.json").read_text(encoding="utf-8")),
                         seed=seed, sandbox=sandbox, first=first)
        taken, digests = [], []
        for _ in range(VERDICT_STEPS):
            listed = list(legal_actions(state))
            said = [(str(a), judge(state, a)) for a in candidates(state, rng) + listed]
            taken.append(sum(reason is None for _, reason in said))
            digests.append(hashlib.sha256("\n".join(f"{a}\t{r or ''}" for a, r in said).encode("utf-8")).hexdigest()[:16])
            if not listed:
                break
            state, _ = ENGINE.apply(state, rng.choice(listed))
        out.append({"game": [human, berserker, sandbox, first, seed], "taken": taken, "digests": digests})
    return out


if __name__ == "__main__":
    print(json.dumps(verdicts() if sys.argv[1:] == ["verdicts"] else answers(), indent=1))
