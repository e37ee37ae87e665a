"""The JSON reader's nesting limit, counted while the decoder builds each object (no walk afterwards)."""

from __future__ import annotations

import pytest

from cardkit.jsonio import MAX_JSON_DEPTH, InvalidJson, parse_json

N = MAX_JSON_DEPTH


def arrays(n: int) -> str:
    return "[" * n + "]" * n


def objects(n: int, leaf: str = "1") -> str:
    return '{"a":' * n + leaf + "}" * n


# Each shape at exactly the limit and one level past it: arrays alone, objects alone, and the two
# interleaved, since an array's depth is found through the objects inside it and the other way round.
SHAPES = {
    "arrays": lambda n: arrays(n),
    "objects": lambda n: objects(n),
    "arrays-inside-an-object-inside-an-array": lambda n: '[{"a":' + arrays(n - 2) + "}]",
    "objects-inside-an-array-inside-an-object": lambda n: '{"x":[' + objects(n - 2) + "]}",
    "alternating": lambda n: _alternating(n),
    "deep-branch-after-shallow-siblings": lambda n: '{"a":1,"b":[1,2,{"c":3}],"d":' + objects(n - 1) + "}",
}


def _alternating(n: int) -> str:
    opens, closes = [], []
    for i in range(n):
        if i % 2 == 0:
            opens.append("[")
            closes.append("]")
        else:
            opens.append('{"a":')
            closes.append("}")
    leaf = "1" if n % 2 == 0 else "2"  # an object's value or an array's item: either way a scalar
    return "".join(opens) + leaf + "".join(reversed(closes))


@pytest.mark.parametrize("shape", list(SHAPES), ids=list(SHAPES))
def test_json_nested_exactly_to_the_limit_is_read(shape: str) -> None:
    parse_json(SHAPES[shape](N))


@pytest.mark.parametrize("shape", list(SHAPES), ids=list(SHAPES))
def test_json_nested_one_level_past_the_limit_is_refused(shape: str) -> None:
    with pytest.raises(InvalidJson, match="nested too deeply"):
        parse_json(SHAPES[shape](N + 1))


def test_empty_containers_count_as_a_level_like_full_ones() -> None:
    parse_json('{"a":' + arrays(N - 1) + "}")
    with pytest.raises(InvalidJson, match="nested too deeply"):
        parse_json('{"a":' + arrays(N) + "}")


def test_nesting_far_past_the_decoders_own_recursion_is_one_clear_error() -> None:
    with pytest.raises(InvalidJson, match=f"the limit is {N} levels"):
        parse_json(arrays(100_000))


def test_the_parsed_value_is_unchanged_by_the_depth_count() -> None:
    text = '{"cards": [{"id": "x", "cost": {"white": 1}, "abilities": ["a", ["b"]]}], "n": 2.5}'
    assert parse_json(text) == {"cards": [{"id": "x", "cost": {"white": 1}, "abilities": ["a", ["b"]]}], "n": 2.5}
