"""Frozen values that cost next to nothing to define, for the TCG and fleet engines' types.

A frozen dataclass writes and compiles six methods as its module loads (about half a millisecond
each class), and the `dataclasses` module itself brings `inspect`, `ast` and `dis`; every `moves`
or `apply` runs in a new process that loads them all. A `FrozenValue` behaves as such a dataclass
does (equal to a value of its own class with equal fields, hashed and shown by them, refusing
assignment, `replace` making a changed copy), with its fields named once in `__slots__` and its
methods written once here.
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar

V = TypeVar("V", bound="FrozenValue")


class FrozenValue:
    """Subclasses name their fields in `__slots__` (and `__dict__` there too for a `cached_property`) and set
    them in `__init__` through `set_fields`, whose parameters are the fields in `__slots__` order."""

    __slots__: tuple[str, ...] = ()
    _hidden: ClassVar[tuple[str, ...]] = ()
    """Fields left out of equality, the hash and the text form, as a dataclass's `field(compare=False, repr=False)`."""

    def _fields(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self.__slots__ if name != "__dict__"])

    def _compared(self) -> tuple[Any, ...]:
        hidden = self._hidden
        return tuple([getattr(self, name) for name in self.__slots__ if name != "__dict__" and name not in hidden])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._compared() == other._compared()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._compared())

    def __repr__(self) -> str:
        shown = (n for n in self.__slots__ if n != "__dict__" and n not in self._hidden)
        return f"{type(self).__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in shown)})"

    def __setattr__(self, name: str, value: Any) -> None:
        from dataclasses import FrozenInstanceError  # only a mistake needs it; reading `dataclasses` costs every start

        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        from dataclasses import FrozenInstanceError

        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled and copied through the constructor: its fields in `__slots__` order are its arguments
        return (self.__class__, self._fields())


def set_fields(new: FrozenValue, /, **fields: Any) -> None:
    """Set a new value's fields, once, in its `__init__`."""
    for name, field in fields.items():
        object.__setattr__(new, name, field)


def replace(value: V, **changes: Any) -> V:
    """`value` with the fields `changes` names changed, as `dataclasses.replace` makes a changed copy."""
    fields = {name: getattr(value, name) for name in value.__slots__ if name != "__dict__"}
    return type(value)(**{**fields, **changes})
