"""The words of a deck list in each language it is pasted in: `data/deck-words.json`.

Header keys (`игра:`, `Spiel:`), section titles (`Основная колода`, `Nebendeck`), card-type
headings (`Существа:`), total lines (`Итого: 30 карт`), the words around a count (`3 шт.`,
`- 3`, `(30 карт)`) and game names (`берсерк`) are data, so a language is added by editing
that file; words are compared folded (case, and spaces, `-` and `_` between words, ignored).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from cardkit import paths
from cardkit.errors import CatalogueError

_BETWEEN_WORDS = re.compile(r"[\s_\-]+")


def fold(word: str) -> str:
    """`word` as the vocabulary compares it: `Основная  колода`, `основная-колода` and `ОСНОВНАЯ КОЛОДА` alike."""
    return _BETWEEN_WORDS.sub(" ", word.casefold()).strip()


@dataclass(frozen=True)
class Words:
    """Folded word -> what it means, for header keys, section titles, card-type headings and game names;
    the words of total lines, of `cards`, of a count's unit, and the dashes before a count."""

    headers: dict[str, str]
    sections: dict[str, str]
    games: dict[str, str]
    categories: dict[str, str]
    totals: tuple[str, ...]
    card_words: tuple[str, ...]
    count_units: tuple[str, ...]
    count_dashes: tuple[str, ...]

    def header_key(self, key: str) -> str:
        """The header key a written key means (`Spiel` -> `game`); any other key folded as it is written."""
        folded = fold(key)
        return self.headers.get(folded, key.strip().lower())

    def section(self, title: str) -> str | None:
        return self.sections.get(fold(title))

    def game(self, name: str) -> str:
        """The game id a `game:` value means (`Берсерк` -> `berserk-ccg`); any other value lower-cased."""
        return self.games.get(fold(name), name.lower())

    def titles_pattern(self) -> str:
        """A regular expression alternative of every section title, longest first, words joined by any spacing."""
        return _alternatives(self.sections)

    def headings_pattern(self) -> str:
        """The same of every card-type heading and total word."""
        return _alternatives([*self.categories, *map(fold, self.totals)])


def _alternatives(words: Iterable[str]) -> str:
    """A regular expression alternative of folded `words`, longest first, their words joined by any spacing."""
    return "|".join(r"[\s_\-]*".join(re.escape(part) for part in word.split(" "))
                    for word in sorted(words, key=len, reverse=True))


@lru_cache(maxsize=1)
def deck_words() -> Words:
    """The vocabulary, read once; `CatalogueError` when the file is missing or malformed."""
    import json

    path = paths.DATA_DIR / "deck-words.json"
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        headers, sections, games, categories = (
            {fold(word): meaning for meaning, words in doc[part].items() for word in words}
            for part in ("headers", "sections", "games", "categories"))
        totals, card_words, units, dashes = (
            tuple(str(word) for word in doc[part]) for part in ("totals", "card_words", "count_units", "count_dashes"))
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise CatalogueError(f"deck words {path}: {exc}") from None
    return Words(headers, sections, games, categories, totals, card_words, units, dashes)
