"""Seeded random fleet games and what `legal_actions` answers in each of their states, as digests.

tests/test_fleet_legal_speed.py compares today's answers with the ones recorded in
tests/data/fleet/legal-actions.json, which this module wrote with the code before `legal_actions`
was made cheaper: `python tests/fleet_legal_record.py > tests/data/fleet/legal-actions.json`.
"""

from __future__ import annotations

import hashlib
import json
import random
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
    from cardkit.games.berserker.game.state import new_game

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


if __name__ == "__main__":
    print(json.dumps(answers(), indent=1))
