"""Frozen values without dataclasses' cost at start-up: the engines' actions and states, problems, catalogue facts.

A frozen dataclass writes and compiles its generated methods as its module loads (about a millisecond a class),
and the `dataclasses` module brings `inspect`, `ast` and `dis`; every `moves` or `apply` runs in a new process
that would pay for them all. A `Frozen` class names its fields once, as annotations, and shares one set of methods.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, Callable, ClassVar, TypeVar, dataclass_transform

F = TypeVar("F", bound="Frozen")


@dataclass_transform(frozen_default=True)
class Frozen:
    """A frozen value, as a frozen dataclass is one: built from its fields (positionally or by name, in annotation
    order, with class-level defaults), equal to a value of the same class with equal fields, hashed and printed from
    them, and never changed. A dataclass compiles its generated methods when it is defined, at every start of a
    command (about a millisecond each, and the battle had thirty); these classes share one set of methods instead."""

    _fields: ClassVar[tuple[str, ...]] = ()
    _defaults: ClassVar[dict[str, Any]] = {}
    _uncompared: ClassVar[tuple[str, ...]] = ()
    """Fields left out of equality and the hash, as a dataclass's `field(compare=False)`."""
    _unshown: ClassVar[tuple[str, ...]] = ()
    """Fields left out of the text form, as a dataclass's `field(repr=False)`."""
    _values: ClassVar[staticmethod[[Any], tuple[Any, ...]]]

    def __init_subclass__(cls) -> None:
        # A ClassVar is not a field; its annotation is a string under `from __future__ import annotations`.
        own = [name for name, hint in cls.__dict__.get("__annotations__", {}).items()
               if not str(hint).split("[", 1)[0].endswith("ClassVar")]
        cls._fields = cls._fields + tuple(name for name in own if name not in cls._fields)
        cls._defaults = {**cls._defaults, **{name: cls.__dict__[name] for name in own if name in cls.__dict__}}
        setattr(cls, "__match_args__", cls._fields)  # as a dataclass's, for `case Move(frm, to)`
        # The fields as a tuple, for comparing and hashing: one C call when there are two or more.
        names = tuple(name for name in cls._fields if name not in cls._uncompared)
        values: Callable[[Any], tuple[Any, ...]] = (
            attrgetter(*names) if len(names) > 1 else (lambda v: (getattr(v, names[0]),)) if names else (lambda v: ()))
        cls._values = staticmethod(values)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        names = self._fields
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__}() takes {len(names)} arguments but {len(args)} were given")
        put = object.__setattr__
        for name, value in zip(names, args):
            put(self, name, value)
        for name in names[len(args):]:
            if name in kwargs:
                put(self, name, kwargs.pop(name))
            elif name in self._defaults:
                put(self, name, self._defaults[name])
            else:
                raise TypeError(f"{type(self).__name__}() missing argument {name!r}")
        if kwargs:
            raise TypeError(f"{type(self).__name__}() got unexpected or repeated arguments {sorted(kwargs)}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values(self) == self._values(other)

    def __hash__(self) -> int:
        return hash(self._values(self))

    def __repr__(self) -> str:
        shown = (name for name in self._fields if name not in self._unshown)
        return f"{type(self).__qualname__}({', '.join(f'{name}={getattr(self, name)!r}' for name in shown)})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (for worker processes) and copied through the constructor, from the fields in order: smaller and
        # quicker to load than the instance's dict, and what is worked out once per value (`cached_property`) is
        # worked out again rather than carried.
        return (self.__class__, tuple([getattr(self, name) for name in self._fields]))

    def __setattr__(self, name: str, value: Any) -> None:
        # Imported here, so that the values do not import dataclasses (and inspect, ast, dis) at start-up.
        from dataclasses import FrozenInstanceError

        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        from dataclasses import FrozenInstanceError

        raise FrozenInstanceError(f"cannot delete field {name!r}")


def replace(value: F, **changes: Any) -> F:
    """`value` with the fields `changes` names changed, as `dataclasses.replace` makes one."""
    return type(value)(**{**{name: getattr(value, name) for name in value._fields}, **changes})
