"""The event's field as rows of deck cards, every metagame table derived from them, and each as a pandas DataFrame.

`deck_cards` is the one source: one row per legal deck, section and card with its count.
The published page, the HTML report, `tournament db`'s summary tables and
`publish --csv-dir` all take their statistics from `metagame_of` over it, so the
numbers can't drift apart. The tables are counted in plain Python and turned into
DataFrames only when asked for (the CSV tables, scripts): pandas costs a command that
writes only the page or the database more than the counting does.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardkit.catalogue.store import load_game
from cardkit.tournament.check import EventCheck, Submission, Verdict
from cardkit.tournament.metagame import card_kind, mix

if TYPE_CHECKING:
    import pandas as pd

DECK_COLUMNS: tuple[str, ...] = ("deck", "player", "name", "file", "game", "mix", "main", "side")
CARD_COLUMNS: tuple[str, ...] = ("deck", "player", "game", "section", "card", "name", "kind", "count", "line")
CARD_TABLE_COLUMNS: tuple[str, ...] = ("game", "card", "name", "kind", "decks", "percent", "copies", "average", "fewest",
                                       "most")
TABLES: tuple[str, ...] = ("mixes", "cards", "sizes", "decks", "deck_cards")
"""The metagame tables, in the order a reader wants them; `publish --csv-dir` writes each as NAME.csv."""
COLUMNS: dict[str, tuple[str, ...]] = {"mixes": ("game", "mix", "decks", "percent"), "cards": CARD_TABLE_COLUMNS,
                                       "sizes": ("game", "main", "decks"), "decks": DECK_COLUMNS,
                                       "deck_cards": CARD_COLUMNS}
"""Each table's columns, in the order of its row tuples."""

Row = tuple[Any, ...]


@dataclass
class Metagame:
    """The field (the legal decks) as tables: `rows[NAME]` holds each table's rows as tuples in `COLUMNS[NAME]`'s
    order, and the attribute of the same name is the table as a DataFrame.

    `deck_cards`: one row per deck, section and card (deck, player, game, section, card, name, kind, count, line);
    `decks`: one row per deck; `mixes`: decks per colour or element mix; `cards`: each card's decks, copies,
    fewest and most; `sizes`: decks per main-deck size. `unlisted` names the submissions that are not in the field.
    """

    rows: dict[str, list[Row]]
    unlisted: list[tuple[str, str]]
    _frames: dict[str, pd.DataFrame] = field(default_factory=dict, repr=False, compare=False)

    def records(self, name: str) -> list[dict[str, Any]]:
        """Table `name` as one dict per row."""
        columns = COLUMNS[name]
        return [dict(zip(columns, row)) for row in self.rows[name]]

    def frame(self, name: str) -> pd.DataFrame:
        """Table `name` as a DataFrame (made once)."""
        held = self._frames.get(name)
        if held is None:
            import pandas as pd

            columns = COLUMNS[name]
            rows = self.rows[name]
            # Column by column from one zip: a big event has 200,000 deck cards, and a dict per row costs several times as much.
            data = list(zip(*rows)) if rows else [() for _ in columns]
            held = pd.DataFrame({c: list(values) for c, values in zip(columns, data)}, columns=list(columns))
            if name == "deck_cards":
                held["line"] = held["line"].astype("Int64")
            self._frames[name] = held
        return held

    @property
    def deck_cards(self) -> pd.DataFrame:
        return self.frame("deck_cards")

    @property
    def decks(self) -> pd.DataFrame:
        return self.frame("decks")

    @property
    def mixes(self) -> pd.DataFrame:
        return self.frame("mixes")

    @property
    def cards(self) -> pd.DataFrame:
        return self.frame("cards")

    @property
    def sizes(self) -> pd.DataFrame:
        return self.frame("sizes")

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every table by name (`TABLES`) as a DataFrame, as `publish --csv-dir` writes them."""
        return {name: self.frame(name) for name in TABLES}


def _label(s: Submission) -> str:
    return s.player or (os.path.basename(s.path) if s.path else "(no name)")


def deck_cards(result: EventCheck, mixes: dict[str, str | None] | None = None
               ) -> tuple[list[Row], list[Row], list[tuple[str, str]]]:
    """(deck cards, decks, unlisted) of `result`: the legal decks' rows numbered in player order, and the
    other submissions' (name, verdict). `mixes` may hold decks' mixes already worked out, by path."""
    legal: list[Submission] = []
    unlisted: list[tuple[str, str]] = []
    for s in result.submissions:
        verdict = s.verdict
        if verdict is Verdict.LEGAL:
            legal.append(s)
        else:
            unlisted.append((_label(s), verdict.value))
    legal.sort(key=lambda s: ((s.player or "").casefold(), s.path))
    unlisted.sort(key=lambda x: (x[0].casefold(), x[1]))
    deck_rows: list[Row] = []
    card_rows: list[Row] = []
    # Each card's name and kind, looked up once: thousands of decks play the same few hundred cards.
    facts: dict[tuple[str, str], tuple[str, str]] = {}
    for i, s in enumerate(legal):
        game = s.report.game or ""
        catalogue = load_game(game).cards
        player = s.player or ""
        deck_mix = mixes[s.path] if mixes is not None and s.path in mixes else \
            mix(game, [c.card for c in s.cards if c.section == "main"])
        deck_rows.append((i, player, s.name or "", s.path, game, deck_mix or "", s.report.counts["main"],
                          s.report.counts["side"]))
        for c in s.cards:
            known = facts.get((game, c.card))
            if known is None:
                card = catalogue[c.card]
                known = facts[(game, c.card)] = (card["name"], card_kind(card))
            card_rows.append((i, player, game, c.section, c.card, known[0], known[1], c.copies, c.line))
    return card_rows, deck_rows, unlisted


def metagame(result: EventCheck, mixes: dict[str, str | None] | None = None) -> Metagame:
    """Every metagame table of `result`, from the one table of its legal decks' cards (`mixes`: see `deck_cards`)."""
    cards, decks, unlisted = deck_cards(result, mixes)
    return metagame_of(cards, decks, unlisted)


def _rounded(value: float, digits: int) -> float:
    # As pandas (numpy) rounds: scaled, rounded half to even, scaled back. Python's round(value, digits)
    # rounds the exact decimal value instead and differs on some halves.
    scale = 10.0 ** digits
    return round(value * scale) / scale


def metagame_of(cards: list[Row], decks: list[Row], unlisted: list[tuple[str, str]] | None = None) -> Metagame:
    """The metagame tables of deck-card rows (`CARD_COLUMNS`) and their decks' rows (`DECK_COLUMNS`)."""
    per_game = Counter(d[4] for d in decks)

    mix_counts = Counter((d[4], d[5]) for d in decks)
    mixes = sorted(((game, m, n, _rounded(100 * n / per_game[game], 1)) for (game, m), n in mix_counts.items()),
                   key=lambda r: (r[0], -r[2], r[1]))

    # A card in both sections of a deck is one deck playing it, with its copies added up.
    per_deck: dict[tuple[Any, ...], int] = {}
    for c in cards:
        key = (c[2], c[4], c[5], c[6], c[0])
        per_deck[key] = per_deck.get(key, 0) + c[7]
    played: dict[tuple[Any, ...], list[int]] = {}
    for (game, card, name, kind, _deck), count in per_deck.items():
        played.setdefault((game, card, name, kind), []).append(count)
    per_card = []
    for key in sorted(played):
        counts = played[key]
        n, copies = len(counts), sum(counts)
        per_card.append((*key, n, _rounded(100 * n / per_game[key[0]], 1), copies, _rounded(copies / n, 2),
                         min(counts), max(counts)))
    # Stable, after the sort by game and card that grouping gives: ties keep that order, as pandas keeps it.
    per_card.sort(key=lambda r: (-r[4], -r[6], r[2], r[1]))

    sizes = sorted((game, main, n) for (game, main), n in Counter((d[4], d[6]) for d in decks).items())
    return Metagame({"mixes": mixes, "cards": per_card, "sizes": sizes, "decks": list(decks), "deck_cards": list(cards)},
                    list(unlisted or []))
