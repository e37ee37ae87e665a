"""Name folding and transliteration, so `Kochevnik`, `КОЧЕВНИК` and `кочевник` meet."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Callable

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
_TRANSLIT_TABLE = str.maketrans(_CYRILLIC_TO_LATIN)
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
_REPEATS = re.compile(r"(.)\1+")


def loose_latin(text: str) -> str:
    """`fold_latin` with transliteration schemes merged: the key a misspelt-but-readable query meets."""
    return loosened(fold_latin(text))


def loosened(key: str) -> str:
    """`loose_latin` of a text whose `fold_latin` is `key`, without folding again."""
    for old, new in _LOOSE_REWRITES:
        key = key.replace(old, new)
    return _REPEATS.sub(r"\1", key)


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
