"""A Datasette plugin that makes the catalogue's JSON columns readable.

Lists of words (elements, classes, subtypes) show as `a, b`; small objects
(strike, restriction) as `key value` pairs; the full card record folds into a
one-line <details> so it does not turn every table row into a page.
Registered by `cardkit.web.server`, not through an entry point.
"""

from __future__ import annotations

import json
from typing import Any

from datasette import hookimpl
from markupsafe import Markup, escape

from cardkit.visible import visible

# Above this many characters an object is folded rather than shown inline.
INLINE_LIMIT = 120


def _scalar(value: Any) -> str:
    return "—" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


def render_json_text(value: Any) -> Markup | None:
    """HTML for a JSON list or object held as text, or None to let Datasette render the value."""
    if not isinstance(value, str) or value[:1] not in ("[", "{"):
        return None
    try:
        data = json.loads(value)
    except ValueError:
        return None
    if isinstance(data, list) and all(not isinstance(x, (list, dict)) for x in data):
        return Markup(escape(visible(", ".join(_scalar(x) for x in data))))
    if isinstance(data, dict) and len(value) <= INLINE_LIMIT and all(
        not isinstance(v, dict) for v in data.values()
    ):
        pairs = (f"{k} {', '.join(map(_scalar, v)) if isinstance(v, list) else _scalar(v)}" for k, v in data.items())
        return Markup(escape(visible(" · ".join(pairs))))
    # Each line made visible: a string's own control and bidi characters show escaped, its line breaks stay.
    pretty = "\n".join(map(visible, json.dumps(data, ensure_ascii=False, indent=2).split("\n")))
    return Markup(f"<details><summary>JSON</summary><pre>{escape(pretty)}</pre></details>")


@hookimpl
def render_cell(value: Any, column: str, table: str | None, database: str, datasette: Any) -> Markup | None:
    return render_json_text(value)
