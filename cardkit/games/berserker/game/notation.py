"""Fleet-board actions as frozen values with one text form each; `parse_action(str(a)) == a`.

Cards by catalogue id, squares like `a2`:
`move FROM TO card CARD`, `forward CARD SQUARE,SQUARE...`,
`fire FROM TO card CARD [defend CARD,CARD...]`, `discard CARD,CARD...`, `end`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cardkit.errors import BadActionText
from cardkit.games.berserker.game.board import GRID
from cardkit.games.berserker.model import CardId, FleetRules, UnknownName, load_rules
from cardkit.games.board import Square
from cardkit.visible import quoted

SYNTAX = ("move FROM TO card CARD, forward CARD SQ,SQ, fire FROM TO card CARD [defend CARD,CARD], "
          "discard CARD,CARD or end")


@dataclass(frozen=True)
class Move:
    frm: Square
    to: Square
    card: CardId

    def __str__(self) -> str:
        return f"move {self.frm} {self.to} card {self.card}"


@dataclass(frozen=True)
class Forward:
    card: CardId
    squares: tuple[Square, ...]

    def __str__(self) -> str:
        return f"forward {self.card} {','.join(self.squares)}"


@dataclass(frozen=True)
class Fire:
    frm: Square
    to: Square
    card: CardId
    defend: tuple[CardId, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "defend", tuple(sorted(self.defend)))

    def __str__(self) -> str:
        return f"fire {self.frm} {self.to} card {self.card}" + (f" defend {','.join(self.defend)}" if self.defend else "")


@dataclass(frozen=True)
class Discard:
    cards: tuple[CardId, ...]

    def __str__(self) -> str:
        return f"discard {','.join(self.cards)}"


@dataclass(frozen=True)
class End:

    def __str__(self) -> str:
        return "end"


FleetAction = Move | Forward | Fire | Discard | End
_SQ = r"[a-zA-Z]\d{1,2}"
_CARD = r"[^\s,]+"
# Each kind's pattern, by the word it starts with: only that kind's can match a text. As text, compiled by
# `re` (and kept in its cache) when a text of its kind is first parsed: `moves` parses nothing.
_PATTERNS: dict[str, str] = {
    "move": rf"move ({_SQ}) ({_SQ}) card ({_CARD})",
    "forward": rf"forward ({_CARD}) ({_SQ}(?:,{_SQ})*)",
    "fire": rf"fire ({_SQ}) ({_SQ}) card ({_CARD})(?: defend ({_CARD}(?:,{_CARD})*))?",
    "discard": rf"discard ({_CARD}(?:,{_CARD})*)",
    "end": "end",
}


def parse_action(text: str, rules: FleetRules | None = None) -> FleetAction:
    """The action a text names; `BadActionText` (or `UnknownName` for a card) when it names none."""
    rules = rules or load_rules()
    clean = " ".join(text.split())
    kind = clean.partition(" ")[0]
    m = re.fullmatch(_PATTERNS[kind], clean) if kind in _PATTERNS else None
    if m is None:
        raise BadActionText(text, SYNTAX, "a fleet action")

    def card(t: str) -> CardId:
        try:
            return rules.card(t).id
        except UnknownName as exc:
            raise BadActionText(text, SYNTAX, "a fleet action", exc.message) from None

    def square(t: str) -> Square:
        if GRID.coords(t.lower()) is None:
            raise BadActionText(text, SYNTAX, "a fleet action", f"{quoted(t)} is not a square a1..h8")
        return t.lower()

    if kind == "move":
        return Move(square(m[1]), square(m[2]), card(m[3]))
    if kind == "forward":
        return Forward(card(m[1]), tuple(square(q) for q in m[2].split(",")))
    if kind == "fire":
        return Fire(square(m[1]), square(m[2]), card(m[3]), tuple(card(c) for c in m[4].split(",")) if m[4] else ())
    if kind == "discard":
        return Discard(tuple(sorted(card(c) for c in m[1].split(","))))
    return End()


