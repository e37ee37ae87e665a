"""Player names that look alike but are written with other letters: `Аlicе Archer` with a Cyrillic А and е
reads as `Alice Archer` on any screen, yet is another name to every comparison.

A name's skeleton writes each Cyrillic or Greek letter that looks like a Latin one as that Latin letter
(Unicode's confusables for the scripts players' names come in), then folds it as names are compared
(`player_key`). Two names with one skeleton and different keys are confusable: one may stand in for the other.
"""

from __future__ import annotations

from collections.abc import Iterable

from cardkit.tournament.registrations import player_key
from cardkit.visible import quoted

# Cyrillic and Greek letters drawn like a Latin letter (Unicode's confusables.txt, these scripts only).
_LOOKALIKES = {
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t",
    "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "ӏ": "l", "һ": "h", "ԛ": "q", "ԝ": "w",
    "А": "A", "В": "B", "Е": "E", "Ё": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T",
    "У": "Y", "Х": "X", "І": "I", "Ї": "I", "Ј": "J", "Ѕ": "S", "Ԛ": "Q", "Ԝ": "W",
    "α": "a", "ο": "o", "ρ": "p", "ν": "v", "ι": "i", "κ": "k", "τ": "t", "υ": "u", "χ": "x",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P",
    "Τ": "T", "Υ": "Y", "Χ": "X",
}
_TO_LATIN = str.maketrans(_LOOKALIKES)


def skeleton(name: str) -> str:
    """`name` with every look-alike letter written as the Latin one it looks like, folded as names compare."""
    return player_key(name.translate(_TO_LATIN))


def lookalike_letters(name: str) -> str:
    """The look-alike letters `name` holds, named: `Cyrillic а (U+0430), Cyrillic е (U+0435)`."""
    import unicodedata

    found = dict.fromkeys(ch for ch in name if ch in _LOOKALIKES)
    return ", ".join(f"{unicodedata.name(ch, f'U+{ord(ch):04X}').split()[0].title()} {ch} (U+{ord(ch):04X})"
                     for ch in found)


class LookalikeIndex:
    """Registered names by skeleton, built once: which registered name a given name only looks like."""

    def __init__(self, names: Iterable[str] = ()) -> None:
        self._by_skeleton: dict[str, list[str]] = {}
        for name in names:
            self.add(name)

    def add(self, name: str) -> None:
        self._by_skeleton.setdefault(skeleton(name), []).append(name)

    def confused_with(self, name: str) -> str | None:
        """The first registered name that looks like `name` but is not it (another key), or None."""
        key = player_key(name)
        return next((other for other in self._by_skeleton.get(skeleton(name), ()) if player_key(other) != key), None)


def confusable_message(name: str, other: str, other_is: str = "") -> str:
    """`'Аlicе Archer' looks like the registered 'Alice Archer' but is written with other letters (...)`."""
    letters = lookalike_letters(name) or lookalike_letters(other)
    return (f"{quoted(name)} looks like {other_is}{quoted(other)} but is written with other letters ({letters}): to cardkit "
            "they are two players; check that one is not standing in for the other")
