"""Frozen values that cost next to nothing to define, for the engines' many small action types.

A frozen dataclass writes and compiles six methods as its module loads (about half a millisecond
each class), and every `moves` or `apply` runs in a new process that loads a dozen of them. A
`FrozenValue` behaves as such a dataclass does (equal to a value of its own class with equal
fields, hashed and shown by them, refusing assignment), with its fields named once in `__slots__`
and its methods written once here.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import Any


class FrozenValue:
    """Subclasses name their fields in `__slots__` and set them in `__init__` through `set_fields`."""

    __slots__: tuple[str, ...] = ()

    def _fields(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self.__slots__])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._fields() == other._fields()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self.__slots__)})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled and copied through the constructor: its fields in `__slots__` order are its arguments
        return (self.__class__, self._fields())


def set_fields(value: FrozenValue, **fields: Any) -> None:
    """Set a new value's fields, once, in its `__init__`."""
    for name, field in fields.items():
        object.__setattr__(value, name, field)
