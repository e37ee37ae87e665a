"""Bad battle states never crash: each is read, or refused with one UnreadableInput; whatever is read can be played."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from sampling import examples

from cardkit.errors import CardkitError, UnreadableInput
from cardkit.games.squad_games.battle.apply import apply
from cardkit.games.squad_games.battle.engine import ENGINE
from cardkit.games.squad_games.battle.legal import legal_actions
from cardkit.games.squad_games.battle.rolls import rolled
from cardkit.games.squad_games.battle.setup import load_side, new_battle

DATA = Path(__file__).parent / "data" / "battle"
BASE = new_battle(load_side(DATA / "online-first.json"), load_side(DATA / "online-second.json")).to_dict()
FIELDS = ["card", "owner", "controller", "zone", "square", "open", "hidden", "life", "counters", "host", "id"]
VALUES: list[Any] = [None, 0, -1, 1, 7, True, False, "c3", "c4", "a9", "reserve", "deck", "graveyard", "battlefield",
                     "first", "second", "b_ahti", "d_asgara", "f_korred", 2**40, "", [], {}]


@settings(max_examples=examples(150))
@given(st.lists(st.tuples(st.integers(0, 6), st.sampled_from(FIELDS), st.sampled_from(VALUES)), max_size=4),
       st.integers(0, 2**16))
def test_a_changed_state_is_read_or_refused_and_never_crashes_a_battle(tmp_path_factory: Any, changes: list[Any], seed: int) -> None:
    data = json.loads(json.dumps(BASE))
    for i, key, value in changes:
        data["cards"][i][key] = value
    path = tmp_path_factory.mktemp("fuzz") / "state.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    try:
        state = ENGINE.read(path)
    except UnreadableInput:
        return
    rng = random.Random(seed)
    for _ in range(10):
        actions = list(legal_actions(state))
        if not actions:
            return
        action = rolled(state, rng.choice(actions), rng)
        try:
            state, _ = apply(state, action)
        except CardkitError:
            # a listed attack may need one die instead of two: legal, but refused with a reason
            continue
