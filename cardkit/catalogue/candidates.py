"""The cards a name could mean: each as the few fields that tell printings and namesakes apart.

An ambiguous name is a choice for the player, not a dead end: the problem that
reports it carries every candidate in this shape (`--json`, the web deck page,
`cardkit deck resolve`), and the terminal shows one line per candidate with only
the fields in which the candidates differ.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cardkit.catalogue.store import CardId, GameCatalogue

Candidate = dict[str, Any]

CANDIDATE_FIELDS: tuple[str, ...] = ("set", "colour", "elements", "cost", "level", "power", "hp", "life", "strike")
"""The fields a candidate carries, each only when its game's cards have it (a TCG card has no `life`,
a CCG card no `level`). Berserk Online calls its sets series: a candidate's `set` is the series there."""


def candidate(catalogue: GameCatalogue, card_id: CardId) -> Candidate:
    """`{id, name, ...}` with the `CANDIDATE_FIELDS` the card has."""
    card = catalogue.cards[card_id]
    out: Candidate = {"id": card_id, "name": card["name"]}
    for key in CANDIDATE_FIELDS:
        source = "series" if key == "set" and "set" not in card else key
        if source in card:
            out[key] = card[source]
    return out


def candidates(catalogue: GameCatalogue, ids: Iterable[CardId]) -> tuple[Candidate, ...]:
    return tuple(candidate(catalogue, cid) for cid in ids)


def differing_fields(items: Sequence[Mapping[str, Any]]) -> list[str]:
    """The name and `CANDIDATE_FIELDS` whose values are not the same for every candidate, in that order."""
    out: list[str] = []
    for key in ("name", *CANDIDATE_FIELDS):
        values = [item.get(key) for item in items]
        if any(v != values[0] for v in values[1:]):
            out.append(key)
    return out


def shown_value(key: str, value: Any) -> str:
    """A field as a player reads it: `cost 1 white + 1`, `strike 1-2-2`, `forest+swamps`, `level 3`."""
    if value is None:
        return f"no {key}"
    if key == "name":
        return str(value)
    if key == "elements":
        return "+".join(map(str, value)) if value else "neutral"
    if key == "colour":
        return str(value)
    if key == "set":
        return f"set {value}"
    if isinstance(value, Mapping) and key == "strike":
        return "strike " + "-".join(str(v) for v in value.values())
    if isinstance(value, Mapping):
        # A TCG cost: the coloured part by colour, then the part any colour pays.
        parts = [f"{n} {colour}" for colour, n in value.items() if n and colour != "colourless"]
        if value.get("colourless"):
            parts.append(str(value["colourless"]))
        return f"{key} {' + '.join(parts) or '0'}"
    return f"{key} {value}"


def candidate_details(items: Sequence[Mapping[str, Any]], *, name: bool = True) -> list[str]:
    """Per candidate, the fields in which the candidates differ (the name too unless `name` is false).

    Two printings the catalogue records alike in every such field (BK1-013 and BK1-014, both Casca)
    would read as the same line twice, as if listed by mistake: the later one says whose twin it is.
    """
    keys = [k for k in differing_fields(items) if name or k != "name"]
    out: list[str] = []
    first: dict[str, Any] = {}
    for item in items:
        text = ", ".join(shown_value(k, item.get(k)) for k in keys)
        if text in first:
            text += f" (the same as {first[text]} in these fields)"
        else:
            first[text] = item["id"]
        out.append(text)
    return out


def telling_apart(items: Sequence[Mapping[str, Any]]) -> list[str]:
    """One short text per candidate: its id, then each field in which the candidates differ."""
    return [f"{item['id']}  {text}" for item, text in zip(items, candidate_details(items))]


def card_traits(card: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of a catalogue card that tell printings and namesakes apart, in a candidate's shape:
    set (an Online card's series), colour or elements, cost, level, power, hp, life, strike, each only
    when the card's game has it."""
    traits: dict[str, Any] = {}
    for key in CANDIDATE_FIELDS:
        source = "series" if key == "set" and "set" not in card else key
        if source in card:
            traits[key] = card[source]
    return traits


def card_details(card: Mapping[str, Any], keys: Sequence[str] | None = None) -> str:
    """A catalogue card's traits (or only `keys` of them) in words: `set BK1, white, cost 1 white + 1, level 1, power 2, hp 3`."""
    traits = card_traits(card)
    return ", ".join(shown_value(k, traits.get(k)) for k in (keys if keys is not None else traits))
