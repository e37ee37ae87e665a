"""The engine games the start-up benchmarks set up and play, shared so that every figure is of the same work."""

from __future__ import annotations

import sys

CARDKIT = [sys.executable, "-c", "from cardkit.cli.main import main; main()"]
JSON_FLOOR = [sys.executable, "-c", "import json, sys; json.dump(json.load(open(sys.argv[1])), open(sys.argv[2], 'w'))"]
"""The least an engine command must do: a new Python process that loads the state file and dumps it again."""

SETUP = {
    "battle": ["battle", "new", "squads/online-battle-first.json", "squads/online-battle-second.json"],
    "tcg": ["tcg", "new", "decks/berserk-tcg/white-hawks.deck", "decks/berserk-tcg/red-apostles.deck", "--seed", "1"],
    "fleet": ["fleet", "new", "decks/berserker/fleets/human-ram-screen.fleet.json",
              "decks/berserker/fleets/berserker-centre.fleet.json", "--sandbox"],
}
ACTIONS = {
    "battle": ["attack c3 c4 dice 6 1", "shoot c1 c6 2", "counters b2 +3", "pay b2 2", "end"],
    "tcg": ["open BK1-001 pay BK1-007", "attack c3 with BK1-001", "end"],
    "fleet": ["move d2 d6 card very-fast", "end", "end", "move d6 d7 card tactical-speed",
              "fire d7 d8 card marines defend robot-security"],
}
