"""`Frozen` values stand in for frozen dataclasses on the commands' start-up path: they must behave as those do."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from functools import cached_property
from typing import Any, ClassVar

import pytest

from cardkit.frozen import Frozen, replace
from cardkit.games.squad_games.battle import notation as battle
from cardkit.games.berserk_tcg.opening import actions as solo
from cardkit.games.berserk_tcg.game import notation as tcg
from cardkit.games.berserker.game import notation as fleet
from cardkit.problems import Problem, Severity


class Point(Frozen):
    x: int
    y: int = 0
    label: str = ""
    scale: ClassVar[int] = 10
    _uncompared: ClassVar[tuple[str, ...]] = ("label",)


class Secret(Frozen):
    name: str
    catalogue: Any = None
    _uncompared: ClassVar[tuple[str, ...]] = ("catalogue",)
    _unshown: ClassVar[tuple[str, ...]] = ("catalogue",)


class Point3(Point):
    z: int = 0


class Lazy(Frozen):
    items: tuple[int, ...]

    @cached_property
    def total(self) -> int:
        return sum(self.items)


@dataclasses.dataclass(frozen=True)
class Twin:
    """The frozen dataclass a `Frozen` class stands in for, to compare with."""

    frm: str
    to: str
    card: str


VALUES: list[Frozen] = [
    tcg.Ref("BK1-001", "c2"), tcg.Draw(), tcg.Pass(), tcg.End(), tcg.Open("BK1-002", ("BK1-009", "BK1-003"), 1),
    tcg.Move(tcg.Ref("BK1-001"), "c1"), tcg.Attack("c3", (tcg.Ref("BK1-001"), tcg.Ref("BK1-004", "c1"))),
    tcg.Defend("c3", ()), tcg.Discard(("BK1-007", "BK1-003")), solo.Draw(), solo.Pass(),
    solo.Open("BK1-012", ("BK1-005", "BK1-001")), solo.Discard(("BK1-003",)),
    fleet.Move("a2", "a3", "very-fast"), fleet.Forward("very-fast", ("a2", "b2")),
    fleet.Fire("d7", "d8", "marines", ("robot-security", "evasion")), fleet.Discard(("evasion", "very-fast")), fleet.End(),
    battle.Action.parse("move a1 a2"), battle.Action.parse("end"),
    Problem("TOO_MANY", "too many copies", Severity.WARNING, card="X", line=3, limit=2, actual=3, lines=(3, 5)),
    Point(1, 2, "p"), Point3(1, 2, z=3), Secret("s", {"a": 1}),
]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_a_value_equals_and_hashes_as_its_copies_and_its_pickled_copy_and_refuses_changes(value: Frozen) -> None:
    for twin in (copy.copy(value), copy.deepcopy(value), pickle.loads(pickle.dumps(value))):
        assert twin == value and hash(twin) == hash(value) and repr(twin) == repr(value) and str(twin) == str(value)
        assert type(twin) is type(value)
    for name in value._fields or ("anything",):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, name, None)
        with pytest.raises(dataclasses.FrozenInstanceError):
            delattr(value, name)
    assert all(getattr(replace(value), name) == getattr(value, name) for name in value._fields)


def test_values_of_different_kinds_with_the_same_fields_differ() -> None:
    assert tcg.Draw() != tcg.Pass() != tcg.End() and tcg.Draw() != solo.Draw()
    assert tcg.Draw() == tcg.Draw() and len({tcg.Draw(), tcg.Pass(), tcg.End(), tcg.Draw()}) == 3
    assert fleet.Move("a2", "a3", "fast") != fleet.Fire("a2", "a3", "fast")
    assert fleet.Move("a2", "a3", "fast") != ("a2", "a3", "fast")
    assert Point(1, 2) != Point3(1, 2) and Point3(1, 2) != Point(1, 2)


def test_a_value_shows_compares_and_hashes_as_the_frozen_dataclass_of_the_same_fields() -> None:
    value, twin = fleet.Move("a2", "a3", "fast"), Twin("a2", "a3", "fast")
    assert repr(value) == repr(twin).replace("Twin", "Move")
    assert hash(value) == hash(twin)
    assert value == fleet.Move(frm="a2", to="a3", card="fast") and value != fleet.Move("a2", "a4", "fast")
    assert repr(tcg.Open("X", ("b", "a"))) == "Open(card='X', pay=('a', 'b'), by=None)"
    assert repr(tcg.Draw()) == "Draw()"
    assert repr(Point3(1, z=3)) == "Point3(x=1, y=0, label='', z=3)"


def test_fields_are_given_by_position_or_name_with_their_defaults_and_nothing_else() -> None:
    assert Point(1) == Point(x=1) == Point(1, 0, "") and Point(1).y == 0 and Point(1).label == ""
    assert Point3(1, 2, "a", 3)._fields == ("x", "y", "label", "z") and Point3(1, 2, "a", 3).z == 3
    assert Problem("C", "m").severity is Severity.ERROR and Problem("C", "m").lines is None
    with pytest.raises(TypeError):
        Point()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Point(1, 2, "a", 4)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Point(1, x=2)  # type: ignore[misc]
    with pytest.raises(TypeError):
        Point(1, colour="red")  # type: ignore[call-arg]


def test_a_class_variable_is_not_a_field() -> None:
    assert Point._fields == ("x", "y", "label") and Point(1).scale == 10
    assert tcg.Open._fields == ("card", "pay", "by") and "pattern" not in solo.Open._fields


def test_an_uncompared_field_is_shown_but_left_out_of_equality_and_the_hash() -> None:
    assert Point(1, 2, "a") == Point(1, 2, "b") and hash(Point(1, 2, "a")) == hash(Point(1, 2, "b"))
    assert "label='a'" in repr(Point(1, 2, "a")) and Point(1, 2, "a") != Point(1, 3, "a")


def test_a_player_state_compares_and_shows_without_the_catalogue_it_carries() -> None:
    from cardkit.games.berserk_tcg.opening.state import PlayerState

    one, other = PlayerState({}, hand=("BK1-001",)), PlayerState({"BK1-001": None}, hand=("BK1-001",))  # type: ignore[dict-item]
    assert one == other and hash(one) == hash(other) and "cards" not in repr(one)
    assert one != PlayerState({}, hand=("BK1-002",))
    assert repr(Secret("s", {"a": 1})) == "Secret(name='s')" and Secret("s", 1) == Secret("s", 2)


def test_replace_makes_a_changed_copy_and_refuses_a_field_the_value_lacks() -> None:
    from cardkit.games.berserk_tcg.game.cities import City

    city = City("c1", "BK1-200", royal=False)
    taken = replace(city, revealed=True, level=1)
    assert (city.revealed, taken.revealed, taken.level, taken.name) == (False, True, 1, "c1")
    assert replace(city) == city and replace(city) is not city
    with pytest.raises(TypeError):
        replace(city, colour="red")
    problem = Problem("C", "m", line=2)
    assert problem.replaced(line=4) == Problem("C", "m", line=4) and problem.line == 2


def test_replace_goes_through_a_value_s_own_constructor() -> None:
    assert replace(tcg.Discard(("b", "a")), cards=("d", "c")).cards == ("c", "d")


def test_a_value_is_matched_by_its_fields_in_order() -> None:
    match fleet.Fire("d7", "d8", "marines"):
        case fleet.Move():
            found = "move"
        case fleet.Fire(frm, to, card, defend):
            found = f"{frm}-{to} {card} {defend}"
    assert found == "d7-d8 marines ()"
    match Point3(1, 2, "a", 3):
        case Point3(x, y, _, z):
            assert (x, y, z) == (1, 2, 3)
        case _:
            pytest.fail("no match")


def test_a_cached_property_is_worked_out_once_and_not_pickled() -> None:
    lazy = Lazy((1, 2, 3))
    assert lazy.total == 6 and lazy.__dict__["total"] == 6
    assert "total" not in pickle.loads(pickle.dumps(lazy)).__dict__ and lazy == Lazy((1, 2, 3))


def test_each_action_reads_back_from_its_text_as_an_equal_value() -> None:
    for value in VALUES:
        if isinstance(value, tcg.Ref):
            assert tcg.Ref.parse(str(value)) == value
        elif isinstance(value, solo.Action):
            assert solo.Action.parse(str(value)) == value
        elif isinstance(value, battle.Action):
            assert battle.Action.parse(str(value)) == value
        elif type(value).__module__ == tcg.__name__:
            assert tcg.parse(str(value)) == value
        elif type(value).__module__ == fleet.__name__:
            assert fleet.parse_action(str(value)) == value


def test_each_new_fleet_state_gets_its_own_empty_hands_and_attacks() -> None:
    from cardkit.games.berserker.game.state import BoardState

    a, b = BoardState((), "human"), BoardState((), "human")
    assert a.hands == {} and a.attacks == {} and a.hands is not b.hands and a.attacks is not b.attacks
