"""A card's page in words: every field of the catalogue entry as a label and a readable value.

Plain functions over the card's JSON, used by the Datasette plugin for the `cards` row page, and
`read_card_page`, which reads one card, its namesakes and its game's set names.
Online ability codes are worded from data/battle/abilities.json, the file the battle engine
reads: the codes the German rules text names are glossed, the others are shown as written.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from markupsafe import Markup, escape

from cardkit.catalogue.candidates import card_details
from cardkit.games.registry import GAME_SPECS, SQUAD_GAMES

TCG_COLOURS = ("white", "green", "black", "red", "colourless")
GAME_NAMES = {g.id: g.name for g in GAME_SPECS}
CCG_RARITY = {"common": "common (Частая)", "uncommon": "uncommon (Нечастая)", "rare": "rare (Редкая)",
              "ultra-rare": "ultra-rare (Ультраредкая)"}
# The published Online list gives one letter and never says what it stands for; we say so rather than guess.
ONLINE_RARITY_NOTE = "the published Online card list does not say what its rarity letters mean"
LABELS = {"restriction": "who may play it", "negates": "as a defence", "hp": "hit points", "set": "set", "moves": "moves", "move": "moves", "is_unique": "unique",
          "subtypes": "subtypes", "classes": "classes", "elements": "element"}
SKIPPED = {"id", "name", "latin"}


@lru_cache(maxsize=1)
def glossary() -> dict[str, dict[str, Any]]:
    """Online ability code -> its glossary entry (`german`, `gloss`, `implemented`), from the battle abilities data."""
    from cardkit.games.squad_games.battle.abilities import glossary_entries

    return {a.code: {"code": a.code, "german": a.term, "gloss": a.does, "implemented": a.applied} for a in glossary_entries()}


# A code the German rules text never names is shown as written, not guessed at.
UNEXPLAINED = "not explained by the rules text"


def ability_in_words(code: str) -> Markup:
    entry = glossary().get(code)
    if not entry:
        return Markup(f'<code>{escape(code)}</code> <small class="cardkit-unexplained">({UNEXPLAINED})</small>')
    engine = "cardkit's rules use it" if entry["implemented"] else "not played by cardkit's rules engine"
    return Markup(f"{escape(entry['gloss'])} — <i>{escape(entry['german'])}</i> "
                  f"<small>(<code>{escape(code)}</code>; {engine})</small>")


def tcg_cost(cost: dict[str, int]) -> Markup:
    """The TCG cost as coloured balls, one per card to sacrifice."""
    balls = [f'<span class="ball {c}" title="{c}">{c[0].upper() if c != "colourless" else "·"}</span>'
             for c in TCG_COLOURS for _ in range(cost.get(c, 0))]
    words = ", ".join(f"{n} {c}" for c in TCG_COLOURS if (n := cost.get(c, 0)))
    return Markup(f'<span class="cardkit-cost">{"".join(balls)}</span> {escape(words or "free")}')


def _plain(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_plain(v) for v in value) if value else "none"
    if isinstance(value, dict):
        return " · ".join(f"{k} {_plain(v)}" for k, v in value.items() if v is not None) or "none"
    return str(value)


def differences(card: dict[str, Any], other: dict[str, Any]) -> list[str]:
    """The traits (set, cost, level, ...) in which `other` differs from `card`, in the candidates' order."""
    from cardkit.catalogue.candidates import card_traits, differing_fields

    return [k for k in differing_fields([card_traits(card), card_traits(other)]) if k != "name"]


def card_facts(game: str, card: dict[str, Any], set_names: dict[str, str]) -> list[tuple[str, Markup]]:
    """(label, value) for every field of the card, in the catalogue's order, in words."""
    facts: list[tuple[str, Markup]] = [("game", Markup(escape(GAME_NAMES.get(game, game))))]
    for key, value in card.items():
        if key in SKIPPED:
            continue
        label = LABELS.get(key, key.replace("_", " "))
        if key == "cost" and isinstance(value, dict):
            shown = tcg_cost(value)
        elif key == "cost" and game in SQUAD_GAMES:
            shown = Markup(escape(f"{value} {'gold' if card.get('elite') else 'silver'} crystals"))
        elif key == "elements":
            shown = Markup(escape(", ".join(value) if value else "neutral (no element)"))
        elif key == "abilities":
            shown = Markup("<ul>" + "".join(f"<li>{ability_in_words(c)}</li>" for c in value) + "</ul>") if value else Markup("none")
        elif key == "rarity" and game == "berserk-online":
            shown = Markup(f"<code>{escape(value)}</code> ({ONLINE_RARITY_NOTE})")
        elif key == "rarity":
            shown = Markup(escape(CCG_RARITY.get(str(value), str(value))))
        elif key in ("set", "series") and value is not None and str(value) in set_names:
            shown = Markup(escape(f"{value}: {set_names[str(value)]}"))
        elif key == "level":
            shown = Markup(escape(f"Level {value}: openable once {value} cit{'y is' if value == 1 else 'ies are'} revealed"))
        elif key == "restriction" and game == "berserker":
            # Who may play a fleet card: the printed label says it; no label means any ship.
            shown = Markup(escape(value["text"] if isinstance(value, dict) and value.get("text") else "any ship may play it"))
        elif key == "negates" and game == "berserker":
            shown = Markup(escape({"attack": "cancels the whole attack", "damage": "cancels only the damage"}.get(
                str(value), "nothing (not a defence card)" if value is None else str(value))))
        elif key == "elite":
            shown = Markup("yes: paid with gold crystals only" if value else "no")
        else:
            shown = Markup(escape(_plain(value)))
        facts.append((label, shown))
    return facts



@dataclass(frozen=True)
class ServedCard:
    game: str
    id: str
    name: str
    latin: str
    data: str  # the card's JSON record


def _served(row: tuple[str, str, str, str, str]) -> ServedCard:
    return ServedCard(*row)


def read_card_page(conn: sqlite3.Connection, game: str, card_id: str,
                   link: Callable[[str, str], Markup]) -> dict[str, Any] | None:
    """What the card template shows of one card (`link(game, id)` is a link to a card's page); None for no such card.

    Three indexed reads: the card, the cards of its name, its game's set names."""
    found = conn.execute("select game, id, name, latin, data, name_key from cards where game = ? and id = ?",
                         (game, card_id)).fetchone()
    if found is None:
        return None
    this = _served(found[:5])
    namesakes = [_served(row) for row in conn.execute(
        "select game, id, name, latin, data from cards where name_key = ? order by position", (found[5],))]
    set_names = {set_id: name for set_id, name in conn.execute("select id, name from sets where game = ?", (game,))}
    card = json.loads(this.data)
    printings = []
    for o in namesakes:
        if (o.game, o.id) == (game, card_id):
            continue
        other = json.loads(o.data)
        # Beside each: its game, what it is (set, cost, Level, power/hp, ...) and which of those differ from this card.
        printings.append({"link": link(o.game, o.id), "game": GAME_NAMES.get(o.game, o.game),
                          "details": card_details(other), "differs": differences(card, other) if o.game == game else [],
                          "same_game": o.game == game})
    return {"name": this.name, "latin": this.latin if this.latin != this.name else "", "id": card_id,
            "facts": card_facts(game, card, set_names), "details": card_details(card),
            "printings": printings}
