"""`cardkit serve` refuses an address it can't answer with a 400 or 414 page in words, never a 500."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st
from sampling import examples

BAD_DATASETTE_PARAMETERS = [
    ("_through", "notjson"), ("_through", "{}"), ("_through", "[]"), ("_through", "null"),
    ("_timelimit", "abc"), ("_facet", "{}"), ("_facet", '{"simple":1}'),
]


@pytest.fixture(scope="module")
def ds(catalogue_db: Path) -> Any:
    from cardkit.web.server import make_datasette

    return make_datasette({"cardkit": catalogue_db})


def fetch(ds: Any, path: str) -> Any:
    async def go() -> Any:
        await ds.invoke_startup()
        return await ds.client.get(path)

    return asyncio.run(go())


@pytest.mark.parametrize("page", ["/cardkit/cards", "/cardkit/cards.json", "/cardkit/sets", "/cardkit/sets.json"])
@pytest.mark.parametrize(("key", "value"), BAD_DATASETTE_PARAMETERS,
                         ids=[f"{key}={value}" for key, value in BAD_DATASETTE_PARAMETERS])
def test_a_datasette_parameter_of_the_wrong_shape_is_a_400_that_says_which_shape(ds: Any, page: str, key: str,
                                                                                   value: str) -> None:
    response = fetch(ds, f"{page}?{urlencode({key: value})}")
    assert response.status_code == 400, response.text[:300]
    if page.endswith(".json"):
        message = response.json()["error"]
    else:
        message = response.text
        assert "<h1>" in message
    assert key in message and "must be" in message


def test_parameters_of_the_right_shape_still_work(ds: Any) -> None:
    for query in ("_timelimit=500", '_facet={"simple":"game"}', "_facet=game&_facet_size=3", "_timelimit="):
        assert fetch(ds, f"/cardkit/cards.json?{query}").status_code == 200, query


def test_an_address_with_thousands_of_parameters_is_refused_at_once_in_words(ds: Any) -> None:
    from cardkit.web.addressguard import MAX_PARAMETERS

    started = time.perf_counter()
    many = fetch(ds, "/cardkit/cards?" + "&".join(f"x{i}=" for i in range(1500)))
    long = fetch(ds, "/cardkit/cards.json?" + "&".join(f"x{i}=1" for i in range(3000)))
    assert time.perf_counter() - started < 2
    assert many.status_code == 400 and f"the limit is {MAX_PARAMETERS}" in many.text and "<h1>" in many.text
    assert long.status_code == 414 and "bytes" in long.json()["error"]
    assert fetch(ds, "/cardkit/cards.json?" + "&".join(f"x{i}=1" for i in range(MAX_PARAMETERS))).status_code == 200


KEYS = ["_through", "_timelimit", "_facet", "_facet_array", "_facet_date", "_facet_size", "_size", "_sort",
        "_sort_desc", "_search", "_where", "_col", "_nocol", "_shape", "_next", "_nofacet", "_labels", "_json",
        "_trace", "_nocount", "_sort_by_desc", "_stream", "_dl", "game", "id__gt", "cost__in", "name__contains",
        "elements__arraycontains", "set__isnull", "level__exact", "x"]
VALUES = st.one_of(
    st.sampled_from(["", "0", "-1", "abc", "{}", "[]", "null", "1e9", '{"simple":1}', '{"simple":"game"}',
                     '{"table":"cards","column":"id","value":1}', '{"column":"x"}', "game", "id", "nope",
                     "objects", "array", "max", "999999999999", "'", '"', "(", "%", "\x00"]),
    st.text(max_size=8),
)


@seed(41)
@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(page=st.sampled_from(["/cardkit/cards", "/cardkit/cards.json", "/cardkit/sets.json", "/cardkit/formats"]),
       parameters=st.lists(st.tuples(st.sampled_from(KEYS), VALUES), min_size=1, max_size=4))
def test_no_combination_of_parameters_is_a_500(ds: Any, page: str, parameters: list[tuple[str, str]]) -> None:
    response = fetch(ds, f"{page}?{urlencode(parameters)}")
    assert response.status_code != 500, (parameters, response.text[:300])
