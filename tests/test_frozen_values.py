"""The engines' action types are `FrozenValue`s: they must behave as the frozen dataclasses they replaced."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from cardkit.games.berserk_tcg import actions as solo
from cardkit.games.berserk_tcg.game import notation as tcg
from cardkit.games.berserker.game import notation as fleet
from cardkit.games.values import FrozenValue


@dataclasses.dataclass(frozen=True)
class Twin:
    """The frozen dataclass a FrozenValue stands in for, to compare with."""

    frm: str
    to: str
    card: str


VALUES: list[FrozenValue] = [
    tcg.Ref("BK1-001", "c2"), tcg.Draw(), tcg.Pass(), tcg.End(), tcg.Open("BK1-002", ("BK1-009", "BK1-003"), 1),
    tcg.Move(tcg.Ref("BK1-001"), "c1"), tcg.Attack("c3", (tcg.Ref("BK1-001"), tcg.Ref("BK1-004", "c1"))),
    tcg.Defend("c3", ()), tcg.Discard(("BK1-007", "BK1-003")), solo.Draw(), solo.Pass(),
    solo.Open("BK1-012", ("BK1-005", "BK1-001")), solo.Discard(("BK1-003",)),
    fleet.Move("a2", "a3", "very-fast"), fleet.Forward("very-fast", ("a2", "b2")),
    fleet.Fire("d7", "d8", "marines", ("robot-security", "evasion")), fleet.Discard(("evasion", "very-fast")), fleet.End(),
]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_a_value_equals_and_hashes_as_its_copy_and_its_pickled_copy_and_refuses_changes(value: FrozenValue) -> None:
    for twin in (copy.copy(value), copy.deepcopy(value), pickle.loads(pickle.dumps(value))):
        assert twin == value and hash(twin) == hash(value) and str(twin) == str(value)
        assert twin is not value or not value.__slots__
    for name in value.__slots__ or ("anything",):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, name, None)
        with pytest.raises(dataclasses.FrozenInstanceError):
            delattr(value, name)


def test_values_of_different_kinds_with_the_same_fields_differ() -> None:
    assert tcg.Draw() != tcg.Pass() != tcg.End() and tcg.Draw() != solo.Draw()
    assert tcg.Draw() == tcg.Draw() and len({tcg.Draw(), tcg.Pass(), tcg.End(), tcg.Draw()}) == 3
    assert fleet.Move("a2", "a3", "fast") != fleet.Fire("a2", "a3", "fast")
    assert fleet.Move("a2", "a3", "fast") != ("a2", "a3", "fast")


def test_a_value_shows_compares_and_hashes_as_the_frozen_dataclass_of_the_same_fields() -> None:
    value, twin = fleet.Move("a2", "a3", "fast"), Twin("a2", "a3", "fast")
    assert repr(value) == repr(twin).replace("Twin", "Move")
    assert hash(value) == hash(twin)
    assert value == fleet.Move(frm="a2", to="a3", card="fast") and value != fleet.Move("a2", "a4", "fast")
    assert repr(tcg.Open("X", ("b", "a"))) == "Open(card='X', pay=('a', 'b'), by=None)"
    assert repr(tcg.Draw()) == "Draw()"


def test_each_action_reads_back_from_its_text_as_an_equal_value() -> None:
    for value in VALUES:
        if isinstance(value, tcg.Ref):
            assert tcg.Ref.parse(str(value)) == value
        elif isinstance(value, solo.Action):
            assert solo.Action.parse(str(value)) == value
        elif type(value).__module__ == tcg.__name__:
            assert tcg.parse(str(value)) == value
        else:
            assert fleet.parse_action(str(value)) == value


def test_replace_makes_a_changed_copy_and_refuses_a_field_the_value_lacks() -> None:
    from cardkit.games.berserk_tcg.cities import City
    from cardkit.games.values import replace

    city = City("c1", "BK1-200", royal=False)
    taken = replace(city, revealed=True, level=1)
    assert (city.revealed, taken.revealed, taken.level, taken.name) == (False, True, 1, "c1")
    assert replace(city) == city and replace(city) is not city
    with pytest.raises(TypeError):
        replace(city, colour="red")


def test_a_player_state_compares_and_shows_without_the_catalogue_it_carries() -> None:
    from cardkit.games.berserk_tcg.state import PlayerState

    one, other = PlayerState({}, hand=("BK1-001",)), PlayerState({"BK1-001": None}, hand=("BK1-001",))
    assert one == other and hash(one) == hash(other) and "cards" not in repr(one)
    assert one != PlayerState({}, hand=("BK1-002",))


def test_each_new_fleet_state_gets_its_own_empty_hands_and_attacks() -> None:
    from cardkit.games.berserker.game.state import BoardState

    a, b = BoardState((), "human"), BoardState((), "human")
    assert a.hands == {} and a.attacks == {} and a.hands is not b.hands and a.attacks is not b.attacks
