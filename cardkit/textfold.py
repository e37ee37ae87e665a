"""Name folding and transliteration, so `Kochevnik`, `КОЧЕВНИК` and `кочевник` meet."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from functools import lru_cache

# A plain scheme close to the Russian passport (ICAO) one, because that is
# what players type; soft and hard signs vanish.
_CYRILLIC_TO_LATIN: dict[str, str] = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e",
    "ж": "zh", "з": "z", "и": "i", "й": "i", "к": "k", "л": "l", "м": "m",
    "н": "n", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t", "у": "u",
    "ф": "f", "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch",
    "ъ": "", "ы": "y", "ь": "", "э": "e", "ю": "iu", "я": "ia",
    "і": "i", "ї": "i", "є": "e",
}


class _KeepOthers(dict[int, "int | str"]):
    """A `str.translate` table that keeps every character it has no entry for, remembering each as it meets it.

    `str.translate` takes a missing entry for "keep" only after raising and catching a KeyError, which
    for a mostly Latin text cost more than the transliteration itself.
    """

    def __missing__(self, code: int) -> int:
        self[code] = code
        return code


_TRANSLIT_TABLE = _KeepOthers({ord(c): latin for c, latin in _CYRILLIC_TO_LATIN.items()})
_CYRILLIC = re.compile("[\u0400-\u04ff]")
_NOT_ALNUM = re.compile(r"[\W_]+", re.UNICODE)


def has_cyrillic(text: str) -> bool:
    return bool(_CYRILLIC.search(text))


def transliterate(text: str) -> str:
    """Latin form of a Cyrillic text, keeping capitals at word starts."""
    out: list[str] = []
    for ch in text:
        low = ch.lower()
        latin = _CYRILLIC_TO_LATIN.get(low)
        if latin is None:
            out.append(ch)
        elif ch != low and latin:
            out.append(latin[0].upper() + latin[1:])
        else:
            out.append(latin)
    return "".join(out)


class _MarkDropper(dict[int, "int | None"]):
    """A `str.translate` table that drops combining marks, filled one code point at a time as text meets them.

    Asking `unicodedata.combining` once per character of every name was a fifth of the
    time of a big tournament check; a table lookup runs in C.
    """

    def __missing__(self, code: int) -> int | None:
        kept = None if unicodedata.combining(chr(code)) else code
        self[code] = kept
        return kept


_DROP_MARKS = _MarkDropper()


def fold(text: str) -> str:
    """Key for comparing names: case, accents, ё/е, spacing and punctuation folded."""
    # Names repeat from deck to deck, so short texts are remembered; long ones are garbage, not worth memory.
    return _fold_remembered(text) if len(text) <= _REMEMBERED_LENGTH else _fold(text)


_REMEMBERED_LENGTH = 256


@lru_cache(maxsize=1 << 16)
def _fold_remembered(text: str) -> str:
    return _fold(text)


def _fold(text: str) -> str:
    if text.isascii():
        # Nothing for NFKD to decompose and no marks to drop; most names are plain ASCII.
        return _NOT_ALNUM.sub("", text.lower())
    # Case-fold between two NFKD passes: compatibility forms such as 𝑨 only become
    # plain letters after decomposing, and case folding can yield new composites.
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", text).casefold())
    # NFKD splits ё into е + diaeresis, so ё = е falls out of dropping marks.
    return _NOT_ALNUM.sub("", text.translate(_DROP_MARKS))


def fold_latin(text: str) -> str:
    """`fold` after transliteration: the key under which Cyrillic and Latin spellings meet."""
    return latin_of_folded(fold(text))


def latin_of_folded(key: str) -> str:
    """`fold_latin` of a text whose `fold` is `key`, without folding again."""
    return key.translate(_TRANSLIT_TABLE)


# Players spell Russian names in several schemes (Dikiy, Dikij, Dikii; tselitel, celitel;
# Khan, Han; Shchuka, Schuka; Aleksandr, Alexandr). Rewriting both sides to one skeleton
# lets any of them find a name; order matters (`shch` before `sh`, `ts` before `s`).
_LOOSE_REWRITES: tuple[tuple[str, str], ...] = (
    ("shch", "sh"), ("sch", "sh"), ("kh", "h"), ("ts", "c"), ("tz", "c"), ("x", "ks"),
    ("w", "v"), ("y", "i"), ("j", "i"),
)
# Each character that the same character follows (not a line end), to be deleted, leaving one of each run:
# replacing with a plain string runs in C, where `(.)\1+` replaced by `\1` takes a Python call per run (before
# Python 3.12), and the lookahead costs the engine a third of what the repeats after a lookbehind did.
_REPEATS = re.compile(r"(.)(?=\1)")


def loose_latin(text: str) -> str:
    """`fold_latin` with transliteration schemes merged: the key a misspelt-but-readable query meets."""
    return loosened(fold_latin(text))


def loosened(key: str) -> str:
    """`loose_latin` of a text whose `fold_latin` is `key`, without folding again."""
    for old, new in _LOOSE_REWRITES:
        key = key.replace(old, new)
    return _REPEATS.sub("", key)


_WORD_SPLIT = re.compile(r"[\W_]+", re.UNICODE)


def folded_words(text: str, key: Callable[[str], str] = fold) -> list[str]:
    """The words of `text` (split at spaces, punctuation and `_`), each folded by `key`, empty ones dropped."""
    return [k for part in _WORD_SPLIT.split(text) if (k := key(part))]


def search_key(*spellings: str) -> str:
    """Every word of every spelling, folded each way a query may be typed, as ` w1 w2 / w1 w2 `.

    A query word matches a card when ` ` + its key occurs here: at the start of a word, never
    inside one. Runs are kept in order and apart (` / `) so a quoted phrase matches only within one.
    """
    runs: list[str] = []
    for spelling in dict.fromkeys(spellings):  # a Latin name is often the name itself
        keys = [_word_keys(part) for part in _WORD_SPLIT.split(spelling) if part]
        for way in range(3):
            run = " ".join(k[way] for k in keys if k[way])
            if run and run not in runs:
                runs.append(run)
    return " " + " / ".join(runs) + " "


@lru_cache(maxsize=1 << 16)
def _word_keys(word: str) -> tuple[str, str, str]:
    """`fold`, `fold_latin` and `loose_latin` of one word, each step from the one before: words recur from card to card."""
    key = fold(word)
    latin = latin_of_folded(key)
    return key, latin, loosened(latin)


# Folding thousands of texts one call each (a build folds every card's name, Latin name and id) costs
# mostly the calls: the batch functions below join the texts, one per line, and fold them in a few
# passes over one string. Folding is a map of one character at a time: `fold(text)` is the `fold` of
# each of its characters, one after the other (NFKD only decomposes, and reorders just the combining
# marks that folding drops; casefold has no context; what is not a letter or digit goes), and so is
# `fold_latin`. So one `str.translate` folds every text at once, and word by word: a table that maps
# each character to its `fold`, or to a word separator (the unit separator) for what splits words
# (`[\W_]`), keeping line ends. The loose rewrites and `(.)` repeats act inside one word. Texts that hold
# a line end or a unit separator themselves are folded one by one.
_TEXTS = "\n"
_WORDS = "\x1f"


class _CharacterFolds(dict[int, str]):
    """A `str.translate` table: each character to `key` of it and a line end to itself; with `words`, a
    character that splits words (neither letter nor digit, `_` included) to the unit separator instead.
    Filled as characters are met, so that every later lookup runs in C (`str.translate` has a fast path
    for ASCII to ASCII)."""

    def __init__(self, key: Callable[[str], str], words: bool) -> None:
        super().__init__()
        self._key = key
        self._words = words

    def __missing__(self, code: int) -> str:
        ch = chr(code)
        if ch == _TEXTS:
            folded = _TEXTS
        elif self._words and not ch.isalnum():
            folded = _WORDS
        else:
            folded = self._key(ch)  # `№` is no letter, yet folds to `no`
        self[code] = folded
        return folded


_FOLD_CHARACTERS = _CharacterFolds(fold, words=False)
_FOLD_WORDS = _CharacterFolds(fold, words=True)
_FOLD_LATIN_WORDS = _CharacterFolds(fold_latin, words=True)


def _without_empty_words(text: str) -> str:
    """`text` less its empty words: separator runs made one, none left at the start or end of a line."""
    twice = _WORDS + _WORDS
    while twice in text:
        text = text.replace(twice, _WORDS)
    return text.replace(_TEXTS + _WORDS, _TEXTS).replace(_WORDS + _TEXTS, _TEXTS).strip(_WORDS)


def _joined(texts: Sequence[str]) -> str | None:
    """The texts as one string, one per line; None when one of them holds a line end or unit separator."""
    joined = _TEXTS.join(texts)
    if joined.count(_TEXTS) != max(len(texts) - 1, 0) or _WORDS in joined:
        return None
    return joined


def fold_many(texts: Sequence[str]) -> list[str]:
    """`[fold(t) for t in texts]`, in a few passes over all of them."""
    joined = _joined(texts)
    if joined is None or not texts:
        return [fold(t) for t in texts]
    return joined.translate(_FOLD_CHARACTERS).split(_TEXTS)


def latin_of_folded_many(keys: Sequence[str]) -> list[str]:
    """`[latin_of_folded(k) for k in keys]`: one translation of them all (of ASCII keys, none)."""
    joined = _joined(keys)
    if joined is None or not keys:
        return [latin_of_folded(k) for k in keys]
    return list(keys) if joined.isascii() else joined.translate(_TRANSLIT_TABLE).split(_TEXTS)


def loosened_many(keys: Sequence[str]) -> list[str]:
    """`[loosened(k) for k in keys]`: the rewrites run once over them all (none spans a line end)."""
    joined = _joined(keys)
    if joined is None or not keys:
        return [loosened(k) for k in keys]
    return loosened(joined).split(_TEXTS)


def _word_ways(joined: str) -> list[list[str]]:
    """Each text's words folded the three ways of `_word_keys`, each way's words joined by spaces: three
    lists, one per way, in the order of the texts, given as `_joined` joins them.

    A word whose key is empty drops out of that way, as `search_key` drops it.
    """
    folded = _without_empty_words(joined.translate(_FOLD_WORDS))
    # An ASCII text has nothing to transliterate.
    latin = folded if joined.isascii() else _without_empty_words(joined.translate(_FOLD_LATIN_WORDS))
    loose = loosened(latin)  # never empty where `latin` is not: no rewrite or repeat removes a whole word
    folded_words = folded.replace(_WORDS, " ").split(_TEXTS)
    latin_words = folded_words if latin is folded else latin.replace(_WORDS, " ").split(_TEXTS)
    return [folded_words, latin_words, loose.replace(_WORDS, " ").split(_TEXTS)]


def search_keys(spellings: Sequence[Sequence[str]]) -> list[str]:
    """`[search_key(*s) for s in spellings]`, the words of every spelling folded in a few passes.

    Folded a column at a time (every group's first spelling, then every second, ...), so that zipping
    the columns' ways gives each group's runs in order, and a column of ids or of Latin names, all ASCII,
    skips transliterating. Groups of unequal length are folded one by one.
    """
    width = len(spellings[0]) if spellings else 0
    columns: list[str] = []
    if width and len(set(map(len, spellings))) == 1:
        for column in zip(*spellings):
            joined = _joined(column)
            if joined is None:
                break
            columns.append(joined)
    if not width or len(columns) != width:
        return [search_key(*group) for group in spellings]
    # A way that is another's very list (an ASCII column's Latin way is its folded way) adds no run.
    ways = list({id(way): way for column in columns for way in _word_ways(column)}.values())
    # In order, each run once, as `search_key` lists them; a way with no word adds no run.
    return [f" {' / '.join(filter(None, dict.fromkeys(runs)))} " for runs in zip(*ways)]
