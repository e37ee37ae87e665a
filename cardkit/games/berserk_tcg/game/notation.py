"""TCG game actions as frozen values with one text form each; `parse(str(a)) == a`.

    draw                                pass                       end
    open BK1-012 pay BK1-001,BK1-005    open BK1-040 by player 2   (a Quick card of the player not on turn)
    move BK1-001 to c1                  move BK1-001 from c4 to c1 (a character in a city names the city)
    attack c2 with BK1-001,BK1-005 from c4                         (attackers in the order they take the blows)
    defend c2 with BK1-121,BK1-121      defend c2 with none        (the defender's choice)
    discard BK1-003,BK1-007

Every action names exactly one thing: a card in play is its id and where it
stands (its player's side unless `from CITY`); copies in one place, unlocked
and undamaged before the battle, are the same choice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cardkit.errors import BadActionText
from cardkit.games.berserk_tcg.game.cities import CityName
from cardkit.games.berserk_tcg.opening.cards import CardId
from cardkit.visible import quoted

_ID = r"[^\s,@]+"
_CITY = r"c[1-5]"
_REF = rf"{_ID}(?: from {_CITY})?"
SYNTAX = ("draw, pass, end, open ID [pay ID,ID] [by player N], move ID [from CITY] to CITY, "
          "attack CITY with ID [from CITY],..., defend CITY with ID,ID|none, discard ID,ID")




@dataclass(frozen=True)
class Ref:
    """A character in play named by its card and where it stands: `city` None is its player's side."""

    card: CardId
    city: CityName | None = None

    def __lt__(self, other: Ref) -> bool:
        return (self.card, self.city or "") < (other.card, other.city or "")

    def __str__(self) -> str:
        return self.card + (f" from {self.city}" if self.city else "")

    @classmethod
    def parse(cls, text: str) -> Ref:
        card, _, city = text.partition(" from ")
        return cls(card, city or None)


@dataclass(frozen=True)
class Draw:

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True)
class Pass:
    """End the opening phase without opening a card."""


    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class End:

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True)
class Open:
    """Open `card` from a hand, discarding `pay` (sorted) for its cost; `by` the player not on turn (a Quick card)."""

    card: CardId
    pay: tuple[CardId, ...] = ()
    by: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "pay", tuple(sorted(self.pay)))

    def __str__(self) -> str:
        return (f"open {self.card}" + (f" pay {','.join(self.pay)}" if self.pay else "")
                + (f" by player {self.by + 1}" if self.by is not None else ""))


@dataclass(frozen=True)
class Move:
    """Set a character from its side in a city its player controls, or move it from one such city to another."""

    unit: Ref
    city: CityName

    def __str__(self) -> str:
        return f"move {self.unit} to {self.city}"


@dataclass(frozen=True)
class Attack:
    """The battle announcement: attack a city with characters, in the order they take the defenders' blows."""

    city: CityName
    units: tuple[Ref, ...]

    def __str__(self) -> str:
        return f"attack {self.city} with {','.join(map(str, self.units))}"


@dataclass(frozen=True)
class Defend:
    """The defender's answer: which of the city's able guards defend, in the order they take the blows."""

    city: CityName
    cards: tuple[CardId, ...]

    def __str__(self) -> str:
        return f"defend {self.city} with {','.join(self.cards) or 'none'}"


@dataclass(frozen=True)
class Discard:
    """Cut the hand to 7 at the end of the turn (sorted ids)."""

    cards: tuple[CardId, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(sorted(self.cards)))

    def __str__(self) -> str:
        return f"discard {','.join(self.cards)}"


Action = Draw | Pass | End | Open | Move | Attack | Defend | Discard
# Each kind's pattern, by the word it starts with: only that kind's can match a text. As text, compiled by
# `re` (and kept in its cache) when a text of its kind is first parsed: `moves` parses nothing.
_PATTERNS: dict[str, str] = {
    "open": rf"open ({_ID})(?: pay ({_ID}(?:,{_ID})*))?(?: by player ([12]))?",
    "move": rf"move ({_REF}) to ({_CITY})",
    "attack": rf"attack ({_CITY}) with ({_REF}(?:,{_REF})*)",
    "defend": rf"defend ({_CITY}) with (none|{_ID}(?:,{_ID})*)",
    "discard": rf"discard ({_ID}(?:,{_ID})*)",
}
_WORDS: dict[str, Action] = {"draw": Draw(), "pass": Pass(), "end": End()}


def parse(text: str) -> Action:
    """The action `text` names; `BadActionText` when it names none.

    A card is its id in any case (`bk1-12`) or a name one card has (`Casca`... when one card has it), read by
    the catalogue's one resolver, as a deck line or `cards show` reads it; the action then holds the id.
    """
    clean = " ".join(text.split())
    if clean in _WORDS:
        return _WORDS[clean]
    kind = clean.partition(" ")[0]
    m = re.fullmatch(_PATTERNS[kind], clean) if kind in _PATTERNS else None
    if m is None:
        raise BadActionText(text, SYNTAX)

    def card(word: str) -> CardId:
        return _card_id(word, text)

    def ref(word: str) -> Ref:
        written = Ref.parse(word)
        return Ref(card(written.card), written.city)

    if kind == "open":
        return Open(card(m[1]), tuple(map(card, m[2].split(","))) if m[2] else (), int(m[3]) - 1 if m[3] else None)
    if kind == "move":
        return Move(ref(m[1]), m[2])
    if kind == "attack":
        return Attack(m[1], tuple(ref(r) for r in m[2].split(",")))
    if kind == "defend":
        return Defend(m[1], () if m[2] == "none" else tuple(map(card, m[2].split(","))))
    return Discard(tuple(map(card, m[1].split(","))))


def _card_id(word: str, text: str) -> CardId:
    """The id a card word of the action `text` names; a word that names no card is kept as written, for the
    engine to say it is not there, and one that names several cards is `BadActionText` listing them."""
    from cardkit.catalogue.lookup import card_index

    found = card_index("berserk-tcg").find(word, suggest=False)
    if found.resolved is not None:
        return found.resolved
    if found.ambiguous:
        shown = ", ".join(found.ids[:6]) + (", …" if len(found.ids) > 6 else "")
        raise BadActionText(text, SYNTAX, why=f"{quoted(word)} is {len(found.ids)} cards ({shown}); write the id")
    return word
