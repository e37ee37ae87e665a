"""One shape for the game engines (battle, TCG, fleet): read, list, apply, check, describe, write.

Every engine is an `Engine` whose game-specific half is a handful of methods:
`from_dict`/`to_dict` (the JSON form, checked by the game's JSON Schema),
`check` (the invariants a possible state keeps), `parse` (an action's text;
`parse(str(a)) == a`), `legal_actions` (lazily), `apply` (a new state and its
events, never changing the input; `IllegalAction` saying why), `describe`
(the table as text) and `status` (the few fields `moves` heads its list with).

What all engines share lives here once: the strict reader (schema, then
`from_dict`, then `check`), the writer that refuses a state its own reader
would refuse, `apply_all` (parse every text first, stop at the first illegal
action, and never reach a state the reader refuses), and `moves` with a bound.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from cardkit.errors import CardkitError, IllegalAction, UnreadableInput
from cardkit.jsonio import MAX_INPUT_BYTES, dumps_canonical, read_text_input
from cardkit.problems import Problem, error
from cardkit.visible import quoted

if TYPE_CHECKING:  # names for annotations: `moves` neither writes nor draws
    import random

    from cardkit.outputs import Kind

S = TypeVar("S")
A = TypeVar("A")
T = TypeVar("T")
Event = dict[str, Any]
ILLEGAL_ACTION = "ILLEGAL_ACTION"
BAD_STATE = "BAD_STATE"
# `moves` lists at most this many actions unless told otherwise: a list longer than a person reads
# or a script needs costs seconds and gigabytes (16 unlocked characters make 2^16 attacking groups).
MOVES_LIMIT = 1000


class StateRefused(CardkitError):
    """A state cardkit would write but could not read back: it is not written."""

    error_code = "BAD_STATE"


@dataclass(frozen=True)
class Applied:
    """What `apply_all` reports: the state reached, the events, and the problem that stopped the run."""

    state: Any
    summary: dict[str, Any]
    events: tuple[Event, ...] = ()
    problems: tuple[Problem, ...] = ()
    applied: int = 0

    @property
    def legal(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {"legal": self.legal, "applied": self.applied, "problems": [p.to_dict() for p in self.problems],
                "events": list(self.events), "state": self.summary}


@dataclass(frozen=True)
class Moves:
    """The legal actions as text, in the engine's order; `complete` is False when the list stopped at `limit`."""

    actions: tuple[str, ...]
    complete: bool
    limit: int
    status: dict[str, Any] = field(default_factory=dict)



class Engine(ABC, Generic[S, A]):
    """A game engine: the game-specific methods below, and the shared reader, writer, `apply_all` and `moves`."""

    name: ClassVar[str]
    """The command group: `battle`, `tcg`, `fleet`."""
    noun: ClassVar[str]
    """What a state file is called in messages: `battle state`."""
    schema: ClassVar[str]
    """The state's JSON Schema in schemas/."""

    # -- the game's own half --------------------------------------------------------------------
    @abstractmethod
    def from_dict(self, data: Any) -> S:
        """A state from its schema-valid JSON form; `ValueError` saying what is impossible in it."""

    @abstractmethod
    def to_dict(self, state: S) -> dict[str, Any]:
        """The JSON form `from_dict` reads back."""

    @abstractmethod
    def check(self, state: S) -> list[Problem]:
        """Every invariant `state` breaks (BAD_STATE problems); empty for a possible state."""

    @abstractmethod
    def parse(self, text: str) -> A:
        """The action `text` names; a CardkitError with code BAD_ACTION (exit 2) when it names none."""

    @abstractmethod
    def legal_actions(self, state: S) -> Iterator[A]:
        """Every legal action of the player to act, lazily, each text once."""

    @abstractmethod
    def apply(self, state: S, action: A) -> tuple[S, list[Event]]:
        """The state after `action` and what happened; `IllegalAction` saying why when it is not legal."""

    @abstractmethod
    def describe(self, state: S) -> str:
        """The table as text."""

    @abstractmethod
    def to_act(self, state: S) -> str | int:
        """Who acts now (the state's own name for a player: a seat, a player's index, a side)."""

    @abstractmethod
    def winner(self, state: S) -> str | int | None:
        """Who has won, named as `to_act` names a player; None while the game goes on, and for a draw."""

    def own_status(self, state: S) -> dict[str, Any]:
        """The game's own fields heading `moves --json` (its turn, phase or result), before the shared ones."""
        return {}

    def status(self, state: S) -> dict[str, Any]:
        """The fields heading `moves --json`: the game's own, then the ones every engine gives alike:
        `to_act`, `winner` and `over` (the vocabulary docs/json.md lists)."""
        return {**self.own_status(state), "to_act": self.to_act(state), "winner": self.winner(state),
                "over": self.over(state)}

    @abstractmethod
    def headline(self, state: S) -> str:
        """`status` as one line of text."""

    @abstractmethod
    def over(self, state: S) -> bool:
        """Whether the result is decided: then no action at all is legal."""

    @abstractmethod
    def inventory(self, state: S) -> Counter[str]:
        """Every card the state holds, wherever it stands: no action makes or loses a card."""

    def listed_fully(self, state: S, action: A) -> bool:
        """Whether `moves` lists every legal action of `action`'s kind as it is written (a battle's attack is
        listed without its roll, a fleet's forward move as its largest group): a near miss of such a kind
        that is not listed is illegal."""
        return True

    def summary(self, state: S) -> dict[str, Any]:
        """The `state` of `apply --json`; the whole state unless the game shows less."""
        return self.to_dict(state)

    def complete(self, state: S, action: A, rng: random.Random) -> A:
        """A listed action with its chance part filled in (a battle's dice); most actions have none."""
        return action

    def rolled_by_hand(self, state: S, action: A) -> A:
        """`action` with the chance a person left out of it filled in from `chance` (a battle's dice); most have none."""
        return action

    def gloss(self, state: S, action: str) -> str:
        """What a person needs beside a listed action to read it (the names of the cards its ids name); empty
        when the action says it all. Text output only: `--json` lists the actions as they are."""
        return ""

    def notes(self, state: S) -> list[str]:
        """Readings of open rules the state has used so far, shown under the table."""
        return []

    # -- shared: reading and writing ------------------------------------------------------------
    def read(self, path: str | os.PathLike[str]) -> S:
        """The state in `path`: UnreadableInput when it is no such state or an impossible one."""
        return self.read_text(read_text_input(path), path)

    def read_text(self, text: str, source: str | os.PathLike[str] = "<state>") -> S:
        from cardkit.schemacheck import parse_checked_json

        data = parse_checked_json(source, text, self.schema, self.noun)
        fraction = _a_float(data)
        if fraction is not None:
            # JSON Schema counts 1.0 as an integer; a state's numbers are all whole and written without a point
            raise UnreadableInput(source, f"not a {self.noun}: {fraction}: {_shown(fraction, data)} is written "
                                          "with a decimal point; every number of a state is a whole number")
        try:
            state = self.from_dict(data)
        except ValueError as exc:
            raise UnreadableInput(source, f"not a possible {self.noun}: {str(exc)[:300]}") from None
        problems = self.check(state)
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise UnreadableInput(source, f"not a possible {self.noun}: {problems[0].message}{more}")
        return state

    _read_back: str | None = None
    """The last state text `unreadable` read back: `apply_all` checks the state it reaches, and `write` then
    checks the same state again before writing it."""

    def unreadable(self, state: S) -> str | None:
        """Why the reader would refuse `state` once written, or None when it reads it back."""
        return self._unreadable_text(dumps_canonical(self.to_dict(state)))

    def _unreadable_text(self, text: str) -> str | None:
        """`unreadable` of the state whose file would be `text`."""
        if text == self._read_back:
            return None
        if len(text.encode("utf-8")) > MAX_INPUT_BYTES:
            return f"its file would be {len(text.encode('utf-8')):,} bytes, over the {MAX_INPUT_BYTES:,}-byte limit of a state"
        try:
            self.read_text(text)
        except UnreadableInput as exc:
            return exc.reason
        self._read_back = text
        return None

    def kind(self) -> Kind:
        from cardkit.statefiles import state_kind  # the writer's modules only when a state is written

        return state_kind(self.noun, self.read)

    def write(self, state: S, out: str | os.PathLike[str], inputs: Sequence[str | os.PathLike[str]] = ()) -> None:
        """Write `state` through the guarded writer; `StateRefused` (exit 2) for a state the reader would refuse."""
        from cardkit.statefiles import write_state_file

        text = dumps_canonical(self.to_dict(state))
        why = self._unreadable_text(text)
        if why is not None:
            raise StateRefused(f"{out}: not written: the {self.noun} would not read back ({why})")
        write_state_file(text, out, self.kind(), tuple(inputs))

    # -- shared: acting -------------------------------------------------------------------------
    def apply_all(self, state: S, texts: Sequence[str], roll: bool = False) -> Applied:
        """Apply action texts in order. Every text is parsed first (BAD_ACTION, exit 2, for one that is no
        action); the first illegal action stops the run with an ILLEGAL_ACTION problem (`line` its 1-based
        position) and the state before it. An action after which the state could not be read back is
        illegal too, so every state reached is one the reader accepts.

        With `roll`, an action written without the dice it needs gets them from the state (`chance`), and a
        `rolled` event says which: the same state and action always roll the same."""
        actions = [self.parse(t) for t in texts]
        events: list[Event] = []
        for i, action in enumerate(actions):
            if roll:
                filled = self.rolled_by_hand(state, action)
                if filled != action:
                    events.append({"event": "rolled", "action": str(action), "rolled": str(filled),
                                   "text": f"{_short(str(action), 80)}: no dice given; rolled from the state's seed: {filled}"})
                    action = filled
            try:
                after, new = self.apply(state, action)
                why = self.unreadable(after)
                if why is not None:
                    raise IllegalAction(f"the state after it would not read back: {why}")
            except IllegalAction as exc:
                shown = _short(str(action), 80)
                problem = error(ILLEGAL_ACTION, f"{shown}: {_short(exc.reason, 300)}", line=i + 1, actual=shown)
                return Applied(state, self.summary(state), tuple(events), (problem,), i)
            state = after
            events.extend(new)
        return Applied(state, self.summary(state), tuple(events), (), len(actions))

    def chance(self, state: S, about: str) -> random.Random:
        """A generator seeded by the whole state (its seed, turn and board) and `about`: replayable, and
        another roll after every action."""
        import hashlib
        import random

        digest = hashlib.sha256(f"{dumps_canonical(self.to_dict(state))}\0{about}".encode()).digest()
        return random.Random(int.from_bytes(digest[:8], "big"))

    def is_legal(self, state: S, action: A) -> bool:
        try:
            self.apply(state, action)
        except IllegalAction:
            return False
        return True

    def moves(self, state: S, limit: int = MOVES_LIMIT) -> Moves:
        """The first `limit` legal actions as text; the generator is lazy, so the bound bounds the work too."""
        listed = tuple(str(a) for a in islice(self.legal_actions(state), limit + 1))
        return Moves(listed[:limit], len(listed) <= limit, limit, self.status(state))


def _short(text: str, most: int) -> str:
    """`text` cut to `most` characters: an action is one argument, and may be a hundred kilobytes long."""
    return text if len(text) <= most else text[:most] + "..."


def _a_float(data: Any, where: str = "") -> str | None:
    """The JSON pointer of the first number written with a decimal point, if any."""
    if isinstance(data, float):
        return where or "/"
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        found = _a_float(value, f"{where}/{key}")
        if found is not None:
            return found
    return None


def _shown(pointer: str, data: Any) -> str:
    """The value at `pointer` in `data`, short, for a message."""
    for key in pointer.strip("/").split("/") if pointer != "/" else ():
        data = data[int(key)] if isinstance(data, list) else data[key]
    return quoted(data, 40)


def distinct_combinations(items: Sequence[T], r: int) -> Iterator[tuple[T, ...]]:
    """Each distinct r-element sub-multiset of `items`, once, in sorted order, lazily.

    `itertools.combinations` of a hand with copies repeats a choice once per copy; collecting
    them into a set first costs the whole enumeration. This walks distinct values with their
    counts instead, so the first choices come at once whatever the total. Nothing for r < 0.
    """
    if r < 0:
        return
    values = sorted(set(items))  # type: ignore[type-var]
    counts = [items.count(v) for v in values]

    def walk(start: int, left: int) -> Iterator[tuple[T, ...]]:
        if left == 0:
            yield ()
            return
        for i in range(start, len(values)):
            if sum(counts[i:]) < left:
                return
            for take in range(min(counts[i], left), 0, -1):
                for rest in walk(i + 1, left - take):
                    yield (values[i],) * take + rest

    yield from walk(0, r)


def distinct_orders(group: Sequence[T]) -> Iterator[tuple[T, ...]]:
    """Each distinct order of `group`, once, lazily: `group` itself first when its copies stand together (as
    `distinct_combinations` gives them), then the others by its positions (copies are alike, so a group with
    copies has fewer orders than `permutations` gives).

    A group of n distinct items has n! orders: the caller takes the first ones it needs and stops.
    """
    if len(group) < 2:
        yield tuple(group)
        return
    ranks = [group.index(item) for item in group]  # copies share the rank of the first of them
    order = sorted(ranks)
    # With copies apart the first order is the grouped one, not `group` as it came.
    yield tuple(group) if order == ranks else tuple(group[r] for r in order)
    while True:
        # The next order of the ranks: the classic next-permutation step, which skips equal ranks' swaps.
        i = len(order) - 2
        while i >= 0 and order[i] >= order[i + 1]:
            i -= 1
        if i < 0:
            return
        j = len(order) - 1
        while order[j] <= order[i]:
            j -= 1
        order[i], order[j] = order[j], order[i]
        order[i + 1:] = reversed(order[i + 1:])
        yield tuple(group[r] for r in order)
