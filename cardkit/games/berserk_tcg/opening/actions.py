"""Immutable actions that print and parse as text, the legal ones for a state, and applying them.

Text forms: `draw`, `open BK1-012`, `open BK1-012 pay BK1-001,BK1-005`,
`discard BK1-003,BK1-007`, `pass`. `Action.parse(str(a)) == a` for every action.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from itertools import combinations
from typing import ClassVar

from cardkit.errors import BadActionText, IllegalAction
from cardkit.games.berserk_tcg.opening.cards import CardId
from cardkit.games.berserk_tcg.opening.payment import all_payments
from cardkit.games.berserk_tcg.opening.state import HAND_LIMIT, PlayerState, can_open, opened, without

_ID = r"[^\s,]+"
_IDS = rf"{_ID}(?:,{_ID})*"


EXPECTED = "draw, pass, open ID [pay ID,ID], discard ID,ID"


def _sorted_ids(ids: tuple[CardId, ...], text: str, allow_empty: bool = True) -> tuple[CardId, ...]:
    """`ids` sorted, or BadActionText when the action could not be written as `text` and read back."""
    if (not ids and not allow_empty) or not all(isinstance(i, str) and re.fullmatch(_ID, i) for i in ids):
        raise BadActionText(text, EXPECTED)
    return tuple(sorted(ids))


@dataclass(frozen=True)
class Action:
    """Base of all actions; `Action.parse(text)` returns the matching subclass."""

    pattern: ClassVar[str]
    """The text form's pattern, compiled by `re` (and kept in its cache) the first time `parse` tries it:
    a command that parses no one-player action compiles none."""

    @classmethod
    def parse(cls, text: str) -> Action:
        text = " ".join(text.split())
        kinds: tuple[type[Action], ...] = (Draw, Pass, Open, Discard)  # mypy before 1.11 joins the four to `type`
        for kind in kinds:
            m = re.fullmatch(kind.pattern, text)
            if m:
                return kind._from_match(m)
        raise BadActionText(text, EXPECTED)

    @classmethod
    def _from_match(cls, m: re.Match[str]) -> Action:
        return cls()


@dataclass(frozen=True)
class Draw(Action):
    pattern: ClassVar[str] = r"draw"

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True)
class Pass(Action):
    """End the current phase without doing anything."""

    pattern: ClassVar[str] = r"pass"

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Open(Action):
    """Open `card` from the hand, discarding `pay` (sorted ids) to pay its cost."""

    card: CardId
    pay: tuple[CardId, ...] = ()
    pattern: ClassVar[str] = rf"open ({_ID})(?: pay ({_IDS}))?"

    def __post_init__(self) -> None:
        # every action must print as text that parses back to it: ids are non-empty, without spaces or commas
        text = f"open {self.card}" + (f" pay {','.join(map(str, self.pay))}" if self.pay else "")
        _sorted_ids((self.card,), text)
        object.__setattr__(self, "pay", _sorted_ids(tuple(self.pay), text))

    def __str__(self) -> str:
        return f"open {self.card}" + (f" pay {','.join(self.pay)}" if self.pay else "")

    @classmethod
    def _from_match(cls, m: re.Match[str]) -> Action:
        return cls(m.group(1), tuple(m.group(2).split(",")) if m.group(2) else ())


@dataclass(frozen=True)
class Discard(Action):
    """Discard `cards` (sorted ids) at the end of the turn, down to the hand limit."""

    cards: tuple[CardId, ...]
    pattern: ClassVar[str] = rf"discard ({_IDS})"

    def __post_init__(self) -> None:
        # `discard` of nothing would print as text that is not an action; at the limit the action is `pass`
        cards = _sorted_ids(tuple(self.cards), f"discard {','.join(map(str, self.cards))}", allow_empty=False)
        object.__setattr__(self, "cards", cards)

    def __str__(self) -> str:
        return f"discard {','.join(self.cards)}"

    @classmethod
    def _from_match(cls, m: re.Match[str]) -> Action:
        return cls(tuple(m.group(1).split(",")))


def legal_actions(state: PlayerState) -> Iterator[Action]:
    """Every legal action in `state`'s phase, generated lazily (each open with each distinct payment).

    Quick cards "can be played anytime": they are offered in every phase, also
    after the opening phase's card.
    """
    if state.decked:
        return
    if state.phase == "draw":
        yield Draw()  # with an empty library, drawing is how the player loses
        yield from _opens(state)
        return
    if state.phase == "opening":
        yield from _opens(state)
        yield Pass()
        return
    yield from _opens(state)
    excess = len(state.hand) - HAND_LIMIT
    if excess <= 0:
        yield Pass()
        return
    seen: set[tuple[CardId, ...]] = set()
    for combo in combinations(sorted(state.hand), excess):
        if combo not in seen:
            seen.add(combo)
            yield Discard(combo)


def _opens(state: PlayerState) -> Iterator[Open]:
    """Each card `can_open` allows now (which checks the phase), with each distinct payment."""
    for card_id in dict.fromkeys(state.hand):
        if can_open(card_id, state).ok:
            rest = list(state.hand)
            rest.remove(card_id)
            for pay in all_payments(state.cards[card_id].cost, [state.cards[c] for c in rest]):
                yield Open(card_id, pay)


def apply(state: PlayerState, action: Action) -> PlayerState:
    """The state after `action`; raises IllegalAction when it is not legal."""
    if state.decked:
        raise IllegalAction(f"{action}: the player has lost (decked out)")
    if state.phase == "draw" and isinstance(action, Draw):
        if not state.library:
            return replace(state, decked=True)
        return replace(state, library=state.library[1:], hand=state.hand + state.library[:1], phase="opening")
    if state.phase == "opening" and isinstance(action, Pass):
        return replace(state, phase="end")
    if isinstance(action, Open):
        after_open = opened(state, action.card, action.pay)
        if after_open is not None:
            return after_open
    if state.phase == "end" and isinstance(action, Pass) and len(state.hand) <= HAND_LIMIT:
        return replace(state, phase="draw")
    if state.phase == "end" and isinstance(action, Discard) and len(state.hand) - len(action.cards) == HAND_LIMIT:
        after = without(state.hand, action.cards)
        if after is not None:
            return replace(state, hand=after, trash=state.trash + action.cards, phase="draw")
    raise IllegalAction(f"{action} is not legal in the {state.phase} phase")
