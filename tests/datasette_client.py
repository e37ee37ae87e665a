"""Reading JSON pages from an in-process Datasette, shared by the serve tests."""

from __future__ import annotations

import asyncio


def get_json(ds: object, path: str) -> object:
    """The JSON of `path` from Datasette `ds`, asserting the page answered 200."""

    async def fetch() -> object:
        await ds.invoke_startup()  # type: ignore[attr-defined]
        response = await ds.client.get(path)  # type: ignore[attr-defined]
        assert response.status_code == 200, response.text
        return response.json()

    return asyncio.run(fetch())
