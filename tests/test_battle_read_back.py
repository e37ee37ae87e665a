"""`apply` never returns a battle state the reader refuses: random listed actions, each state read back from its JSON."""

from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from sampling import examples

from cardkit.games.squad_games.battle.apply import apply
from cardkit.games.squad_games.battle.cards import battle_cards
from cardkit.games.squad_games.battle.engine import ENGINE
from cardkit.games.squad_games.battle.legal import legal_actions
from cardkit.games.squad_games.battle.notation import Action, End
from cardkit.games.squad_games.battle.rolls import rolled
from cardkit.games.squad_games.battle.setup import load_side, new_battle
from cardkit.games.squad_games.battle.state import BattleState, check_state, state_from_dict

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "battle"
# Online, and the CCG placement whose symbiote lies on a host.
PLACEMENTS = [(DATA / "online-first.json", DATA / "online-second.json"),
              (DATA / "ccg-first.json", ROOT / "squads" / "ccg-placement.json")]


class RandomBattle(RuleBasedStateMachine):
    """A battle played by listed actions (rolled), with now and then a judge sending a card to its deck."""

    state: BattleState

    @initialize(which=st.sampled_from(range(len(PLACEMENTS))), seed=st.integers(0, 2**16))
    def start(self, which: int, seed: int) -> None:
        first, second = PLACEMENTS[which]
        self.state = new_battle(load_side(first), load_side(second), seed=seed)
        self.rng = random.Random(seed)

    @rule(pick=st.integers(0, 10**6), kind=st.integers(0, 19))
    def act(self, pick: int, kind: int) -> None:
        """`end` a tenth of the time and a judge's `to-deck` a twentieth, else another listed action, so that
        battles reach their deaths."""
        if self.state.over:
            return
        if kind == 0:
            in_play = [c for c in self.state.cards if c.in_game_zone]
            action = Action.parse(f"to-deck #{in_play[pick % len(in_play)].iid}")
        else:
            others = [a for a in legal_actions(self.state) if not isinstance(a, End)]
            action = others[pick % len(others)] if others and kind > 2 else End()
        self.state, _ = apply(self.state, rolled(self.state, action, self.rng))

    @invariant()
    def the_state_reads_back_from_its_json(self) -> None:
        if not hasattr(self, "state"):
            return
        assert check_state(self.state) == []
        text = json.dumps(self.state.to_dict(), ensure_ascii=False)
        assert state_from_dict(json.loads(text)) == self.state
        assert ENGINE.unreadable(self.state) is None
        # Above its printed life only by a judge's edit of the file (docs/battle.md, The state): never by an action.
        table = battle_cards(self.state.game)
        assert all(c.life <= (table[c.card].life or 0) for c in self.state.cards)


RandomBattle.TestCase.settings = settings(max_examples=examples(200), stateful_step_count=60, derandomize=True,
                                          deadline=None, database=None)
test_every_state_random_listed_actions_reach_reads_back = RandomBattle.TestCase
