"""What the server works out once (`cardkit.web.memo`): the pages stay the same on every visit, the work is not
repeated, a visitor can't grow what is kept, and a visitor with an actor is still asked about every time."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from datasette.app import Datasette

from cardkit.web import memo
from cardkit.web.metadata import CATALOGUE_DB


@pytest.fixture
def ds(catalogue_db: Path) -> Any:
    from cardkit.web.server import make_datasette

    return make_datasette({CATALOGUE_DB: catalogue_db})


def _pages(ds: Any, *paths: str) -> list[tuple[int, str]]:
    async def fetch() -> list[tuple[int, str]]:
        await ds.invoke_startup()
        return [((r := await ds.client.get(p)).status_code, r.text) for p in paths]

    return asyncio.run(fetch())


CARD = "/cardkit/cards/berserk-online,b_ammah"


@pytest.mark.parametrize("path", [CARD, "/cardkit/cards/berserk-tcg,BK1-012", "/", "/cardkit", "/cardkit/cards?_search=Guts"],
                         ids=["online-card", "tcg-card", "home", "database", "search"])
def test_a_page_is_the_same_on_its_second_visit_as_on_a_fresh_server(ds: Any, catalogue_db: Path, path: str) -> None:
    from cardkit.web.server import make_datasette

    (status, first), (_, second) = _pages(ds, path, path)
    [(_, fresh)] = _pages(make_datasette({CATALOGUE_DB: catalogue_db}), path)
    assert status == 200
    # Datasette's footer times the page's queries; everything else must match to the byte.
    assert _untimed(first) == _untimed(second) == _untimed(fresh)


def _untimed(html: str) -> str:
    import re

    return re.sub(r"[0-9.]+ms", "", html)


def test_a_card_asked_for_with_a_query_or_another_spelling_is_rendered_for_that_address(ds: Any) -> None:
    plain, queried, spelt = _pages(ds, CARD, CARD + "?_x=1", "/cardkit/cards/berserk~2Donline,b_ammah")
    assert all(status == 200 for status, _ in (plain, queried, spelt))
    assert "Ammakh" in queried[1] and "Ammakh" in spelt[1]
    # The raw row's "This data as json" link follows the address asked for, not the one kept.
    assert 'href="/cardkit/cards/berserk-online,b_ammah.json?_x=1"' in queried[1]
    assert 'href="/cardkit/cards/berserk-online,b_ammah.json"' in plain[1]


def test_a_page_asks_datasette_each_permission_question_once(ds: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[tuple[str, Any]] = []
    original = Datasette.permission_allowed

    async def counting(self: Any, actor: Any, action: str, resource: Any = None, default: Any = False) -> Any:
        asked.append((action, resource))
        return await original(self, actor, action, resource=resource, default=default)

    monkeypatch.setattr(Datasette, "permission_allowed", counting)
    _pages(ds, "/", CARD)
    first = len(asked)
    [(home, _), (card, _)] = _pages(ds, "/", CARD)
    assert first > 0 and home == card == 200
    assert len(asked) == first


def test_a_visitor_with_an_actor_is_asked_about_every_time(ds: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    original = Datasette.permission_allowed

    async def counting(self: Any, actor: Any, action: str, resource: Any = None, default: Any = False) -> Any:
        asked.append(action)
        return await original(self, actor, action, resource=resource, default=default)

    monkeypatch.setattr(Datasette, "permission_allowed", counting)

    async def ask() -> list[Any]:
        return [await ds.permission_allowed({"id": "someone"}, "view-instance") for _ in range(3)]

    assert asyncio.run(ask()) == [False, False, False]
    assert asked == ["view-instance"] * 3


def test_made_up_table_names_cannot_grow_what_the_server_keeps(ds: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memo, "MAX_REMEMBERED", 5)
    _pages(ds, "/")  # the real tables' answers first
    kept = {kind: len(answers) for kind, answers in memo._MEMOS[ds].items()}
    pages = _pages(ds, *(f"/cardkit/no_such_table_{n}?_search=x" for n in range(20)), "/")
    assert [status for status, _ in pages] == [404] * 20 + [200]
    for kind, answers in memo._MEMOS[ds].items():
        assert len(answers) <= max(5, kept.get(kind, 0)), kind
