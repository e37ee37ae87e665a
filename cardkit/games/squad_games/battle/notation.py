"""Battle actions as frozen values with one text form each; `Action.parse(str(a)) == a`.

Cards are named by square (`c3`) on the battlefield, or by instance id (`#7`)
anywhere, e.g. in the reserve zone:

    move c3 c4                      attack c3 c4 dice 6 1      attack c3 c4 defend d4 dice 2 5
    attack c3 c4 dice 5             (one die: the attacked card is closed)
    attack c3 c4 aimed dice 6 1     attack c3 c4 magic dice 5  collect c2
    attack c3 c4 nocounter plus 2 vampirism 1 poison 1 dice 4
    ranged c2 c4                    shoot c1 #9 2              shoot c1 c5 2-3-4 dice 6
    throw c1 c5 2                   discharge c1 c5 0          deathblow c3 2
    counters c3 +2                  pay c3 2                   mark c3 poison 1
    to-deck c3                      end
    call #12 c2                     take-from-deck first reserve    acquire c3 incorporeal
    from-graveyard #4 b1            look second

The catalogue carries ability codes, not their numbers, so the action names
them; in the list of legal actions a number still to be read off the card is
the placeholder `X` (`attack c3 c4 vampirism X`), which `apply` refuses.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from cardkit.errors import BadActionText

_LOC = r"(?:[a-e][1-6]|#[0-9]{1,9})"
_DIE = r"[1-6]"
_N = r"(?:[0-9]{1,2}|x)"
_DAMAGE = r"(?:[0-9]{1,2}(?:-[0-9]{1,2}-[0-9]{1,2})?|x)"
SYNTAX = ("move FROM TO | attack FROM TO [aimed|magic|nocounter] [plus X] [vampirism X] [poison X] [defend SQUARE] "
          "[surprise WHERE shoot|throw|discharge X] [dice A [D]] | ranged FROM TO | "
          "shoot|throw|discharge FROM TO X[-Y-Z] [dice D] | deathblow FROM X | collect WHERE | counters WHERE +N | "
          "pay WHERE N | mark WHERE NAME N | acquire WHERE [-]CODE | to-deck WHERE | call #ID SQUARE|reserve | take-from-deck SEAT SQUARE|reserve | "
          "from-graveyard #ID SQUARE|reserve | look SEAT | end")
MODIFIERS: tuple[str, ...] = ("plus", "vampirism", "poison")
"""The strike modifiers with a value, in the order the notation writes them."""
Value = int | None
"""A number an action carries; None is the placeholder `X`, to be read off the card before applying."""


def _value(text: str | None) -> Value:
    return None if text is None or text == "x" else int(text)


def _shown(value: Value) -> str:
    return "X" if value is None else str(value)


@dataclass(frozen=True)
class Word:
    """One word of an action's text after its verb: what it may be, how it reads, how it prints."""

    regex: str
    read: Callable[[str], Any] = str
    show: Callable[[Any], str] = str


WHERE = Word(_LOC)
CARD_ID = Word(r"#[0-9]{1,9}")
PLACE = Word(r"[a-e][1-6]|reserve")
SEAT = Word(r"first|second")
COUNT = Word(r"[0-9]{1,6}", int)
SIGNED = Word(r"[+-][0-9]{1,6}", int, lambda n: f"{n:+d}")
NUMBER = Word(_N, _value, _shown)
NAME = Word(r"[a-z][a-z_]{0,30}")


EXPECTED = f"{SYNTAX} (WHERE: a square a1-e6 or #id)"


@dataclass(frozen=True)
class Action:
    """Base of every battle action; `Action.parse(text)` returns the matching kind.

    Most kinds are their verb and a fixed list of `words`, one per field in field
    order, and are read and printed from that table alone; a kind whose text has
    optional parts gives its own `tail` (the regex after the verb), `from_match`
    and `__str__`.
    """

    verb: ClassVar[str] = ""
    words: ClassVar[tuple[Word, ...]] = ()
    tail: ClassVar[str | None] = None

    @classmethod
    def pattern(cls) -> re.Pattern[str]:
        """The kind's whole text as a regex, compiled when first asked for: a run parses a few kinds, and
        compiling all eighteen patterns at import was most of the cost of importing the notation."""
        compiled: re.Pattern[str] | None = _PATTERNS.get(cls)
        if compiled is None:
            tail = cls.tail if cls.tail is not None else "".join(f" ({w.regex})" for w in cls.words)
            compiled = _PATTERNS[cls] = re.compile(re.escape(cls.verb) + tail)
        return compiled

    @classmethod
    def parse(cls, text: str) -> Action:
        norm = " ".join(text.split()).lower()
        # Every pattern starts with its verb and a space (or is the verb alone), so only the kind whose verb
        # is the first word can match.
        kind = _BY_VERB.get(norm.split(" ", 1)[0])
        m = None if kind is None else kind.pattern().fullmatch(norm)
        if kind is None or m is None:
            raise BadActionText(text, EXPECTED, "a battle action")
        try:
            return kind.from_match(m)
        except ValueError:
            raise BadActionText(text, EXPECTED, "a battle action") from None

    @classmethod
    def from_match(cls, m: re.Match[str]) -> Action:
        make: Callable[..., Action] = cls
        return make(*(w.read(g) for w, g in zip(cls.words, m.groups())))

    def __str__(self) -> str:
        return " ".join([self.verb, *(w.show(getattr(self, f.name)) for w, f in zip(self.words, fields(self)))])

    @property
    def acting(self) -> str | None:
        """Where the card that acts (or is adjusted) is: a square or `#id`; None for `end`."""
        value = getattr(self, "actor", None)
        return None if value is None else str(value)


@dataclass(frozen=True)
class Move(Action):
    """Orthogonal steps onto empty squares, up to the card's steps."""

    actor: str
    to: str
    verb: ClassVar[str] = "move"
    words: ClassVar[tuple[Word, ...]] = (WHERE, WHERE)


@dataclass(frozen=True)
class Surprise:
    """A surprise action (Unerwartete Aktion) answering a strike before its dice: a ranged ability of the answering card."""

    actor: str
    ability: str
    damage: Value = None

    def __str__(self) -> str:
        return f"surprise {self.actor} {self.ability} {_shown(self.damage)}"


@dataclass(frozen=True)
class Attack(Action):
    """A strike, with the defender named by the attacked side and the dice rolled.

    `kind` is `simple`, `aimed` (no defender may be named), `magic` or
    `nocounter` (both always as against a closed card: one die, no defender, no
    counter-strike), for cards whose catalogue abilities have those strikes.
    `mods` are the strike's modifiers with their values, in `MODIFIERS` order:
    `plus` X, `vampirism` X, `poison` X.

    `dice` is (attacker, defender) against an open card or a defender, (attacker,)
    against a closed card, and None in the list of legal actions, before the roll.
    """

    actor: str
    target: str
    defender: str | None = None
    dice: tuple[int, ...] | None = None
    kind: str = "simple"
    mods: tuple[tuple[str, Value], ...] = ()
    surprise: Surprise | None = None
    verb: ClassVar[str] = "attack"
    tail: ClassVar[str | None] = (
        rf" ({_LOC}) ({_LOC})(?: (aimed|magic|nocounter))?((?: (?:{'|'.join(MODIFIERS)}) {_N})*)"
        rf"(?: defend ({_LOC}))?(?: surprise ({_LOC}) (shoot|throw|discharge)(?: ({_N}))?)?(?: dice ({_DIE})(?: ({_DIE}))?)?")

    @classmethod
    def from_match(cls, m: re.Match[str]) -> Action:
        dice = None if m[9] is None else tuple(int(x) for x in (m[9], m[10]) if x is not None)
        words = m[4].split()
        named = list(zip(words[::2], words[1::2]))
        if len({name for name, _ in named}) != len(named):
            raise ValueError("a strike modifier is written twice")
        # Modifiers may come in any order; the action keeps (and prints) them in MODIFIERS order.
        mods = tuple(sorted(((name, _value(v)) for name, v in named), key=lambda mv: MODIFIERS.index(mv[0])))
        surprise = None if m[6] is None else Surprise(m[6], m[7], _value(m[8]))
        return cls(m[1], m[2], m[5], dice, m[3] or "simple", mods, surprise)

    def mod(self, name: str) -> Value:
        """The value of modifier `name` (None for the placeholder X, or when the strike has no such modifier)."""
        return dict(self.mods).get(name)

    def has(self, name: str) -> bool:
        return any(n == name for n, _ in self.mods)

    @property
    def special(self) -> bool:
        """Any strike but the simple one: "Schutz vor einfachen Treffern schützt nicht vor besonderen Treffern"."""
        return self.kind != "simple" or bool(self.mods)

    @property
    def one_die(self) -> bool:
        """Magic strikes and strikes without counter-strike are always made as against a closed card."""
        return self.kind in ("magic", "nocounter")

    def without_dice(self) -> Attack:
        return Attack(self.actor, self.target, self.defender, None, self.kind, self.mods, self.surprise)

    def __str__(self) -> str:
        text = f"attack {self.actor} {self.target}"
        if self.kind != "simple":
            text += f" {self.kind}"
        text += "".join(f" {name} {_shown(v)}" for name, v in self.mods)
        if self.defender:
            text += f" defend {self.defender}"
        if self.surprise:
            text += f" {self.surprise}"
        if self.dice:
            text += " dice " + " ".join(map(str, self.dice))
        return text


@dataclass(frozen=True)
class Ranged(Action):
    """A ranged melee: over one square in a straight line, effect 1 unless the card says otherwise."""

    actor: str
    target: str
    verb: ClassVar[str] = "ranged"
    words: ClassVar[tuple[Word, ...]] = (WHERE, WHERE)


@dataclass(frozen=True)
class Shoot(Action):
    """A shot of X damage, or X-Y-Z chosen by one die; no defender may be named against it.

    `damage` is empty for the placeholder X (the list of legal actions): the
    catalogue does not carry a shot's value. A throw and a discharge are
    written and worked out the same way ("analog zum Schussschaden").
    """

    actor: str
    target: str
    damage: tuple[int, ...] = ()
    die: int | None = None
    verb: ClassVar[str] = "shoot"
    tail: ClassVar[str | None] = rf" ({_LOC}) ({_LOC})(?: ({_DAMAGE}))?(?: dice ({_DIE}))?"

    @classmethod
    def from_match(cls, m: re.Match[str]) -> Action:
        damage = () if m[3] is None or m[3] == "x" else tuple(int(x) for x in m[3].split("-"))
        return cls(m[1], m[2], damage, None if m[4] is None else int(m[4]))

    def __str__(self) -> str:
        text = f"{self.verb} {self.actor} {self.target} " + ("-".join(map(str, self.damage)) if self.damage else "X")
        return text + (f" dice {self.die}" if self.die is not None else "")


@dataclass(frozen=True)
class Throw(Shoot):
    """A throw (Wurf): a special attack from a distance, damage as a shot's."""

    verb: ClassVar[str] = "throw"


@dataclass(frozen=True)
class Discharge(Shoot):
    """A discharge (Entladung): a magic attack from a distance, damage as a shot's, 0 when the card gives none."""

    verb: ClassVar[str] = "discharge"


@dataclass(frozen=True)
class Deathblow(Action):
    """A death blow X (Todesstoß): destroys the adjacent cards left with X life or less."""

    actor: str
    x: Value = None
    verb: ClassVar[str] = "deathblow"
    words: ClassVar[tuple[Word, ...]] = (WHERE, NUMBER)


@dataclass(frozen=True)
class End(Action):
    """End the turn; the other player's closed cards open."""

    verb: ClassVar[str] = "end"


@dataclass(frozen=True)
class AddCounters(Action):
    """Put N counters (Spielmarken) on a card, or take them off with a minus sign."""

    actor: str
    n: int
    verb: ClassVar[str] = "counters"
    words: ClassVar[tuple[Word, ...]] = (WHERE, SIGNED)


@dataclass(frozen=True)
class Pay(Action):
    """Pay N counters from a card: it loses exactly N."""

    actor: str
    n: int
    verb: ClassVar[str] = "pay"
    words: ClassVar[tuple[Word, ...]] = (WHERE, COUNT)


@dataclass(frozen=True)
class Mark(Action):
    """Set a named marker on a card (`poison 1`); 0 takes it off."""

    actor: str
    name: str
    n: int
    verb: ClassVar[str] = "mark"
    words: ClassVar[tuple[Word, ...]] = (WHERE, NAME, COUNT)


@dataclass(frozen=True)
class Acquire(Action):
    """A judge's action: the card gains an ability code in play (`-CODE` takes an acquired one away)."""

    actor: str
    code: str
    remove: bool = False
    verb: ClassVar[str] = "acquire"
    tail: ClassVar[str | None] = rf" ({_LOC}) (-?)([a-z_][a-z_.0-9]{{0,40}})"

    @classmethod
    def from_match(cls, m: re.Match[str]) -> Action:
        return cls(m[1], m[3], bool(m[2]))

    def __str__(self) -> str:
        return f"acquire {self.actor} {'-' if self.remove else ''}{self.code}"


@dataclass(frozen=True)
class Collect(Action):
    """A card with a counter ability closes for the turn and gets one counter (Spielmarke)."""

    actor: str
    verb: ClassVar[str] = "collect"
    words: ClassVar[tuple[Word, ...]] = (WHERE,)


@dataclass(frozen=True)
class ToDeck(Action):
    """Put a card into its owner's deck, where it becomes a new card."""

    actor: str
    verb: ClassVar[str] = "to-deck"
    words: ClassVar[tuple[Word, ...]] = (WHERE,)


@dataclass(frozen=True)
class Call(Action):
    """A judge's action: a card of its owner's deck (the stack) called into the game zone; the deck is shuffled."""

    actor: str
    to: str
    verb: ClassVar[str] = "call"
    words: ClassVar[tuple[Word, ...]] = (CARD_ID, PLACE)


@dataclass(frozen=True)
class FromGraveyard(Action):
    """A judge's action: a card back from the graveyard into the game zone."""

    actor: str
    to: str
    verb: ClassVar[str] = "from-graveyard"
    words: ClassVar[tuple[Word, ...]] = (CARD_ID, PLACE)


@dataclass(frozen=True)
class TakeFromDeck(Action):
    """A judge's action: the top card of the seat's deck into the game zone; the deck is shuffled."""

    seat: str
    to: str
    verb: ClassVar[str] = "take-from-deck"
    words: ClassVar[tuple[Word, ...]] = (SEAT, PLACE)


@dataclass(frozen=True)
class Look(Action):
    """A judge's action: the seat's player (only the owner) looks at its deck, which is shuffled after."""

    seat: str
    verb: ClassVar[str] = "look"
    words: ClassVar[tuple[Word, ...]] = (SEAT,)


ACTION_KINDS: tuple[type[Action], ...] = (Move, Attack, Ranged, Shoot, Throw, Discharge, Deathblow, Collect, End, AddCounters, Pay,
                                          Mark, Acquire, ToDeck, Call, FromGraveyard, TakeFromDeck, Look)
_BY_VERB: dict[str, type[Action]] = {kind.verb: kind for kind in ACTION_KINDS}
_PATTERNS: dict[type[Action], re.Pattern[str]] = {}
STACK_ACTIONS: tuple[type[Action], ...] = (Call, FromGraveyard, TakeFromDeck, Look)
"""The judge's actions on the stack and the graveyard: no card's ability says how, so a judge applies them."""
