"""Battle actions as frozen values with one text form each; `Action.parse(str(a)) == a`.

Cards are named by square (`c3`) on the battlefield, or by instance id (`#7`)
anywhere, e.g. in the reserve zone:

    move c3 c4                      attack c3 c4 dice 6 1      attack c3 c4 defend d4 dice 2 5
    attack c3 c4 dice 5             (one die: the attacked card is closed)
    attack c3 c4 aimed dice 6 1     attack c3 c4 magic dice 5  collect c2
    ranged c2 c4                    shoot c1 #9 2              shoot c1 c5 2-3-4 dice 6
    counters c3 +2                  pay c3 2                   mark c3 poison 1
    to-deck c3                      end
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from cardkit.errors import CardkitError

_LOC = r"(?:[a-e][1-6]|#[0-9]{1,9})"
_DIE = r"[1-6]"
SYNTAX = ("move FROM TO | attack FROM TO [aimed|magic] [defend SQUARE] [dice A [D]] | ranged FROM TO | "
          "shoot FROM TO X[-Y-Z] [dice D] | collect WHERE | counters WHERE +N | pay WHERE N | mark WHERE NAME N | "
          "to-deck WHERE | end")


class BadActionText(CardkitError):
    """The text is not a battle action."""

    error_code = "BAD_ACTION"

    def __init__(self, text: str) -> None:
        self.text = text
        super().__init__(f"not a battle action: {text!r}; expected {SYNTAX} (WHERE: a square a1-e6 or #id)")


class Action:
    """Base of every battle action; `Action.parse(text)` returns the matching kind."""

    pattern: ClassVar[re.Pattern[str]]

    @classmethod
    def parse(cls, text: str) -> Action:
        norm = " ".join(text.split()).lower()
        for kind in ACTION_KINDS:
            m = kind.pattern.fullmatch(norm)
            if m:
                return kind.from_match(m)
        raise BadActionText(text)

    @classmethod
    def from_match(cls, m: re.Match[str]) -> Action:
        raise NotImplementedError

    @property
    def acting(self) -> str | None:
        """Where the card that acts (or is adjusted) is: a square or `#id`; None for `end`."""
        value = getattr(self, "actor", None)
        return None if value is None else str(value)


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Orthogonal steps onto empty squares, up to the card's steps."""

    actor: str
    to: str
    pattern: ClassVar[re.Pattern[str]] = re.compile(rf"move ({_LOC}) ({_LOC})")

    @classmethod
    def from_match(cls, m: re.Match[str]) -> Action:
        return cls(m[1], m[2])

    def __str__(self) -> str:
        return f"move {self.actor} {self.to}"


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """A strike, with the defender named by the attacked side and the dice rolled.

    `kind` is `simple`, `aimed` (no defender may be named) or `magic` (always
    as against a closed card: one die, no defender), for cards whose catalogue
    abilities have those strikes.

    `dice` is (attacker, defender) against an open card or a defender, (attacker,)
    against a closed card, and None in the list of legal actions, before the roll.
    """

    actor: str
    target: str
    defender: str | None = None
    dice: tuple[int, ...] | None = None
    kind: str = "simple"
    pattern: ClassVar[re.Pattern[str]] = re.compile(
        rf"attack ({_LOC}) ({_LOC})(?: (aimed|magic))?(?: defend ({_LOC}))?(?: dice ({_DIE})(?: ({_DIE}))?)?")

    @classmethod
    def from_match(cls, m: re.Match[str]) -> Action:
        dice = None if m[5] is None else tuple(int(x) for x in (m[5], m[6]) if x is not None)
        return cls(m[1], m[2], m[4], dice, m[3] or "simple")

    def without_dice(self) -> Attack:
        return Attack(self.actor, self.target, self.defender, None, self.kind)

    def __str__(self) -> str:
        text = f"attack {self.actor} {self.target}"
        if self.kind != "simple":
            text += f" {self.kind}"
        if self.defender:
            text += f" defend {self.defender}"
        if self.dice:
            text += " dice " + " ".join(map(str, self.dice))
        return text


@dataclass(frozen=True, slots=True)
class Ranged(Action):
    """A ranged melee: over one square in a straight line, effect 1 unless the card says otherwise."""

    actor: str
    target: str
    pattern: ClassVar[re.Pattern[str]] = re.compile(rf"ranged ({_LOC}) ({_LOC})")

    @classmethod
    def from_match(cls, m: re.Match[str]) -> Action:
        return cls(m[1], m[2])

    def __str__(self) -> str:
        return f"ranged {self.actor} {self.target}"


@dataclass(frozen=True, slots=True)
class Shoot(Action):
    """A shot of X damage, or X-Y-Z chosen by one die; no defender may be named against it.

    `damage` is empty in the list of legal actions: the catalogue does not carry a shot's value.
    """

    actor: str
    target: str
    damage: tuple[int, ...] = ()
    die: int | None = None
    pattern: ClassVar[re.Pattern[str]] = re.compile(
        rf"shoot ({_LOC}) ({_LOC})(?: ([0-9]{{1,2}}(?:-[0-9]{{1,2}}-[0-9]{{1,2}})?))?(?: dice ({_DIE}))?")

    @classmethod
    def from_match(cls, m: re.Match[str]) -> Action:
        damage = () if m[3] is None else tuple(int(x) for x in m[3].split("-"))
        return cls(m[1], m[2], damage, None if m[4] is None else int(m[4]))

    def __str__(self) -> str:
        text = f"shoot {self.actor} {self.target}"
        if self.damage:
            text += " " + "-".join(map(str, self.damage))
        return text + (f" dice {self.die}" if self.die is not None else "")


@dataclass(frozen=True, slots=True)
class End(Action):
    """End the turn; the other player's closed cards open."""

    pattern: ClassVar[re.Pattern[str]] = re.compile(r"end")

    @classmethod
    def from_match(cls, m: re.Match[str]) -> Action:
        return cls()

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class AddCounters(Action):
    """Put N counters (Spielmarken) on a card, or take them off with a minus sign."""

    actor: str
    n: int
    pattern: ClassVar[re.Pattern[str]] = re.compile(rf"counters ({_LOC}) ([+-][0-9]{{1,6}})")

    @classmethod
    def from_match(cls, m: re.Match[str]) -> Action:
        return cls(m[1], int(m[2]))

    def __str__(self) -> str:
        return f"counters {self.actor} {self.n:+d}"


@dataclass(frozen=True, slots=True)
class Pay(Action):
    """Pay N counters from a card: it loses exactly N."""

    actor: str
    n: int
    pattern: ClassVar[re.Pattern[str]] = re.compile(rf"pay ({_LOC}) ([0-9]{{1,6}})")

    @classmethod
    def from_match(cls, m: re.Match[str]) -> Action:
        return cls(m[1], int(m[2]))

    def __str__(self) -> str:
        return f"pay {self.actor} {self.n}"


@dataclass(frozen=True, slots=True)
class Mark(Action):
    """Set a named marker on a card (`poison 1`); 0 takes it off."""

    actor: str
    name: str
    n: int
    pattern: ClassVar[re.Pattern[str]] = re.compile(rf"mark ({_LOC}) ([a-z][a-z_]{{0,30}}) ([0-9]{{1,6}})")

    @classmethod
    def from_match(cls, m: re.Match[str]) -> Action:
        return cls(m[1], m[2], int(m[3]))

    def __str__(self) -> str:
        return f"mark {self.actor} {self.name} {self.n}"


@dataclass(frozen=True, slots=True)
class Collect(Action):
    """A card with a counter ability closes for the turn and gets one counter (Spielmarke)."""

    actor: str
    pattern: ClassVar[re.Pattern[str]] = re.compile(rf"collect ({_LOC})")

    @classmethod
    def from_match(cls, m: re.Match[str]) -> Action:
        return cls(m[1])

    def __str__(self) -> str:
        return f"collect {self.actor}"


@dataclass(frozen=True, slots=True)
class ToDeck(Action):
    """Put a card into its owner's deck, where it becomes a new card."""

    actor: str
    pattern: ClassVar[re.Pattern[str]] = re.compile(rf"to-deck ({_LOC})")

    @classmethod
    def from_match(cls, m: re.Match[str]) -> Action:
        return cls(m[1])

    def __str__(self) -> str:
        return f"to-deck {self.actor}"


ACTION_KINDS: tuple[type[Action], ...] = (Move, Attack, Ranged, Shoot, Collect, End, AddCounters, Pay, Mark, ToDeck)
