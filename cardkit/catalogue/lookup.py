"""Finding cards by what people type: an id, a name in any case or script, or `NAME (ID)`."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from cardkit.catalogue.store import CardId, GameCatalogue, load_game
from cardkit.games.registry import game_module
from cardkit.textfold import fold, fold_latin, fold_many, latin_of_folded, latin_of_folded_many, loosened, loosened_many

NAME_WITH_ID = re.compile(r"^(?P<name>.*\S)\s*\((?P<id>[^()]+)\)\s*$")
# Lookups remembered per index: texts longer than a card name are garbage, and memory stays bounded.
_REMEMBERED_LENGTH = 256
_REMEMBERED_TEXTS = 1 << 16


@dataclass(frozen=True)
class Lookup:
    """What a text matched: one id (resolved), several (ambiguous) or none (with suggestions)."""

    text: str
    ids: tuple[CardId, ...]
    suggestions: tuple[str, ...] = ()
    # `NAME (ID)` whose name belongs to other cards than the id: `ids` is the id, then those cards.
    mismatch: bool = False
    # `NAME (ID)` whose name is no card's at all: the id's card, which the line does not name (`ids` is empty).
    unnamed: CardId | None = None
    # A text that names no card, whose closest name several cards share (`Gutz`: the 15 Guts): those cards,
    # the same choice the name itself would give.
    close: tuple[CardId, ...] = ()

    @property
    def resolved(self) -> CardId | None:
        return self.ids[0] if len(self.ids) == 1 else None

    @property
    def ambiguous(self) -> bool:
        return len(self.ids) > 1


class CardIndex:
    """Name and id keys of one game's cards, built once per catalogue."""

    def __init__(self, catalogue: GameCatalogue) -> None:
        self.catalogue = catalogue
        importer = game_module(catalogue.game, "importer")
        self._normalise_id: Callable[[str], str | None] | None = getattr(importer, "normalise_id", None)
        self._by_id: dict[str, CardId] = {}
        self._by_name: dict[str, list[CardId]] = {}
        self._by_latin: dict[str, list[CardId]] = {}
        # Transliteration schemes merged (`Ammah`, `Ammakh`, `Ammach` for Аммах), as `cards search` matches them.
        self._by_loose: dict[str, list[CardId]] = {}
        # What each text typed so far found: a tournament's decks write the same few hundred names thousands of times.
        self._found: dict[tuple[str, bool], Lookup] = {}
        self._by_loose_id: dict[str, list[CardId]] = {}
        cards = catalogue.cards
        ids = list(cards)
        for cid in ids:
            self._by_id[cid.casefold()] = cid
            self._by_loose_id.setdefault(_loose_id(cid), []).append(cid)
        # Every name folded in a few passes over all of them: building the index is most of a one-deck `validate`.
        names = fold_many([cards[cid]["name"] for cid in ids])
        latins = latin_of_folded_many(names)
        for cid, name, latin in zip(ids, names, latins):
            self._by_name.setdefault(name, []).append(cid)
            self._by_latin.setdefault(latin, []).append(cid)
        # Only a name that had to be transliterated is read in any scheme: an English name (`Guts`) has one
        # spelling, and `Gutz` is a misspelling, suggested, not read.
        transliterated = [(cid, latin) for cid, name, latin in zip(ids, names, latins) if latin != name]
        for (cid, _), loose in zip(transliterated, loosened_many([latin for _, latin in transliterated])):
            self._by_loose.setdefault(loose, []).append(cid)
        written = [cid for cid in ids if cards[cid].get("latin")]
        written_keys = latin_of_folded_many(fold_many([cards[cid]["latin"] for cid in written]))
        for table, keys in ((self._by_latin, written_keys), (self._by_loose, loosened_many(written_keys))):
            for cid, key in zip(written, keys):
                same = table.setdefault(key, [])
                if cid not in same:
                    same.append(cid)

    def by_id(self, text: str) -> CardId | None:
        key = text.strip()
        if self._normalise_id is not None:
            key = self._normalise_id(key) or key
        return self._by_id.get(key.casefold())

    def find(self, text: str, suggest: bool = True) -> Lookup:
        """Exact id, then `NAME (ID)`, then exact folded name, then transliterated name.

        A name that only printings of one card share (the catalogue's `printings`)
        resolves to the latest printing.

        `suggest=False` skips the (slow) close-name search when nothing matches.
        """
        key = (text, suggest)
        found = self._found.get(key)
        if found is None:
            found = self._find(text.strip(), suggest)
            if len(text) <= _REMEMBERED_LENGTH and len(self._found) < _REMEMBERED_TEXTS:
                self._found[key] = found
        return found

    def name_and_id(self, text: str) -> tuple[str, str] | None:
        """(name, id) of `NAME (ID)`, or of a name and one of this game's ids side by side without brackets
        (`Guts BK1-012`, `BK1-012 Guts`, as lists copied from a table write them); None for any other text."""
        m = NAME_WITH_ID.match(text)
        if m:
            return m.group("name"), m.group("id")
        words = text.split()
        if len(words) > 1:
            if self.by_id(words[-1]):
                return text[:text.rindex(words[-1])].strip(), words[-1]
            if self.by_id(words[0]):
                return text[text.index(words[0]) + len(words[0]):].strip(), words[0]
        return None

    def _find(self, text: str, suggest: bool) -> Lookup:
        cid = self.by_id(text)
        if cid:
            return Lookup(text, (cid,))
        named = self._named(text)
        if named:
            return Lookup(text, self._one_card(named))
        split = self.name_and_id(text)
        if split:
            name, written_id = split
            cid = self.by_id(written_id)
            if cid:
                # Folding drops what is invisible; a name that hides characters (a bidi override) names no card.
                named = self._named(name) if name.isprintable() else ()
                if named and cid not in named:
                    # `Guts (BK1-003)`: the id picks Moonlight Raiders, the name other cards, and nobody can tell
                    # which was meant.
                    return Lookup(text, (cid, *named), mismatch=True)
                if not named:
                    # `Foobar (BK1-013)`: a reader of the list sees Foobar, cardkit would count Casca. The name may
                    # be a typo, a translation or a disguise (a bidi override that shows `Casca`): never a label.
                    suggestions: tuple[str, ...] = (f"{self.catalogue.cards[cid]['name']} ({cid})",)
                    if suggest:
                        suggestions += tuple(s for s in self.suggest(name) if s != suggestions[0])[:2]
                    return Lookup(text, (), suggestions, unnamed=cid)
                return Lookup(text, (cid,))
        if not suggest:
            return Lookup(text, ())
        close = self._close_names(text, 3)
        shared = self._one_card(tuple(self._by_latin[close[0]])) if close else ()
        return Lookup(text, (), self._suggested(text, close, 3), close=shared if len(shared) > 1 else ())

    def _one_card(self, ids: tuple[CardId, ...]) -> tuple[CardId, ...]:
        """The latest printing when `ids` are exactly the printings the catalogue records as one card; else `ids`.

        "A reprint is the same card, for the copy limit, for uniqueness and when a
        deck names it": a name shared only by printings of one card names that card,
        in the printing whose stats are current. `NAME (ID)` still picks a printing.
        """
        if len(ids) < 2:
            return ids
        printings = self.catalogue.cards[ids[0]].get("printings")
        if printings and set(printings) == set(ids) and all(self.catalogue.cards[c].get("printings") == printings for c in ids):
            return (printings[-1],)
        return ids

    def _named(self, name: str) -> tuple[CardId, ...]:
        """The cards whose name is `name`, folded, in transliteration, or in any transliteration scheme
        (`Ammah` for Аммах, whose strict transliteration is Ammakh): `cards search` matches the same way."""
        folded = fold(name)
        latin = latin_of_folded(folded)
        for key, table in ((folded, self._by_name), (latin, self._by_latin), (loosened(latin), self._by_loose)):
            if key and key in table:
                return tuple(table[key])
        return ()

    def suggest(self, text: str, n: int = 3) -> tuple[str, ...]:
        """Up to `n` close cards, written as `Name (ID)` so they can be pasted back.

        First the ids that differ from `text` only in case or `-`/`_` (`b_lak_nak` for `b_lak-nak`),
        then one card per close name: for a name only printings of one card share, the latest
        printing, the one the name resolves to (else the first card of the name).
        """
        return self._suggested(text, self._close_names(text, n), n)

    def _close_names(self, text: str, n: int) -> list[str]:
        """The transliterated names closest to `text`, closest first."""
        import difflib  # only a text that names no card needs it

        return difflib.get_close_matches(fold_latin(text), list(self._by_latin), n=n, cutoff=0.6)

    def _suggested(self, text: str, close: list[str], n: int) -> tuple[str, ...]:
        ids = list(self._by_loose_id.get(_loose_id(text), ()))
        for k in close:
            ids.append(self._one_card(tuple(self._by_latin[k]))[0])
        return tuple(f"{self.catalogue.cards[cid]['name']} ({cid})" for cid in list(dict.fromkeys(ids))[:n])


def _loose_id(text: str) -> str:
    """An id as suggestions compare it: `-` and `_` (easily swapped when typing an id) the same, case ignored."""
    return text.strip().casefold().replace("-", "_")


@lru_cache(maxsize=8)
def card_index(game: str) -> CardIndex:
    return CardIndex(load_game(game))
