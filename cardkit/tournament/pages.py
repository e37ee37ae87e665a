"""The HTML pages cardkit writes as files (the published metagame, the check report), from Jinja2 templates.

The templates live beside the web UI's (`cardkit/web/templates/tournament/`) and include its
style, so a published page and a served page look like one tool. Autoescaping is on, and
every value is first made visible (`cardkit.visible`): a player's name can neither become
markup nor hide or reverse text with control or bidi characters.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from cardkit.tournament.errors import UnsafeCardUrl
from cardkit.visible import visible

TEMPLATES = Path(__file__).resolve().parent.parent / "web" / "templates"

CardUrl = Callable[[str, str], "str | None"]
"""(game, card id) -> the card's page, or None for no link."""


def shown(value: Any) -> Any:
    """`value` as a page shows it: a plain string made visible (`cardkit.visible`), anything else as it is."""
    # Markup (a str subclass) is the templates' own HTML; every plain string is data, shown visible before
    # it is escaped. Called for every value a page prints (150,000 on a big event's page), so kept short.
    if value.__class__ is str:
        return value if value.isprintable() else visible(value)
    return value


@lru_cache(maxsize=1)
def environment() -> Any:
    """The Jinja2 environment of cardkit's page templates: autoescaped, values made visible, unknown names an error."""
    from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

    return Environment(loader=FileSystemLoader([str(TEMPLATES / "tournament"), str(TEMPLATES)]),
                       autoescape=select_autoescape(["html"], default=True), undefined=StrictUndefined,
                       finalize=shown, trim_blocks=False, lstrip_blocks=False)


def render(template: str, **context: Any) -> str:
    """`template` rendered with `context`; the page text, ending in a newline."""
    text: str = environment().get_template(template).render(**context)
    return text.rstrip("\n") + "\n"


_BAR = "#4a6fa5"
_COLOURS = {"white": "#d9d4c5", "green": "#5c9b52", "black": "#3b3b3b", "red": "#b8483e", "steppe": "#c9a55a",
            "forest": "#4f8a3c", "mountains": "#8a8f99", "swamps": "#5f7a5a", "darkness": "#5b4a78"}


def mix_fill(label: str) -> str:
    """A mix's bar colour: its one colour or element's, else the common bar colour."""
    parts = [_COLOURS.get(p) for p in label.split("+")]
    return parts[0] if len(parts) == 1 and parts[0] else _BAR


def card_labels(cards: list[dict[str, Any]]) -> list[str]:
    """Card names, with the id where two cards of the list share a name (three TCG cards are called Mercenary),
    and with the game first when the list holds cards of more than one (each game's counts are its own field's)."""
    names = [str(c["name"]) for c in cards]
    labels = [f"{n} ({c['card']})" if names.count(n) > 1 else n for n, c in zip(names, cards)]
    if len({c.get("game") for c in cards}) > 1:
        return [f"{c['game']}: {label}" for label, c in zip(labels, cards)]
    return labels


_TILDE_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def tilde_encode(text: str) -> str:
    """A row key as Datasette writes it in a URL (its documented tilde encoding): `/` is `~2F`, a space `+`."""
    out = []
    for byte in text.encode("utf-8"):
        char = chr(byte)
        out.append(char if char in _TILDE_SAFE else "+" if char == " " else f"~{byte:02X}")
    return "".join(out)


def card_links(base: str | None) -> CardUrl:
    """Card page URLs from `base`: a catalogue `cardkit serve` shows (`http://HOST:PORT/cardkit`, each
    card at `/cards/GAME,ID`), or a template with `{id}` (and `{game}`) for any other site; no links without one.

    `UnsafeCardUrl` for an address that is not http(s) or a relative path: a page must not run a `javascript:` link.
    """
    if not base:
        return lambda game, card: None
    scheme = urlsplit(base).scheme.lower()
    if scheme not in ("", "http", "https"):
        raise UnsafeCardUrl(base)
    if "{id}" in base:
        return lambda game, card: base.replace("{game}", quote(game, safe="")).replace("{id}", quote(card, safe=""))
    root = base.rstrip("/")
    return lambda game, card: f"{root}/cards/{tilde_encode(game)},{tilde_encode(card)}"
