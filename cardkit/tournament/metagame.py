"""The metagame: what each deck is made of at a glance, and what the field (the legal decks) plays.

A card's kind and colours (TCG) or elements (CCG, Online) make a deck's mix. `deck_cards` is the
one source of the field's statistics: one row per legal deck, section and card with its count.
The published page, the HTML report, `tournament db`'s summary tables and `publish --csv-dir` all
take them from `metagame_of`, which groups those rows (`group_field`), so the numbers can't drift
apart. Plain Python: grouping a 5,000-deck field takes about 15 ms, against about 0.4 s for
importing pandas and grouping with it (the same tables, tested against counting each deck by hand).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from cardkit.catalogue.store import load_game
from cardkit.games.registry import GAME_SPECS
from cardkit.tournament.check import EventCheck, Submission, Verdict

# The order colours and elements are written in a mix, as the games list them.
ORDER: dict[str, tuple[str, ...]] = {g.id: g.colours for g in GAME_SPECS if g.colours}
NO_COLOUR: dict[str, str] = {g.id: g.no_colour for g in GAME_SPECS if g.no_colour}
"""What a deck with no coloured (or elemental) card is called; Berserker cards have neither, so no mix."""


def card_kind(card: dict[str, Any]) -> str:
    """TCG `kind` (character, effect-normal, city, ...), else the card's `type` (creature, artifact, move, ...)."""
    return str(card.get("kind") or card.get("type") or "")


def card_colours(game: str, card: dict[str, Any]) -> tuple[str, ...]:
    """A TCG card's colour, or a CCG or Online card's elements; () for a colourless, neutral or Berserker card."""
    if game == "berserk-tcg":
        return (card["colour"],) if card.get("colour") else ()
    return tuple(card.get("elements") or ()) if game in ORDER else ()


def mix(game: str | None, cards: Iterable[str]) -> str | None:
    """`black+white`: the colours (TCG) or elements (CCG, Online) of `cards`, in the game's order.

    None for a game without colours (Berserker) or an unknown game.
    """
    if game not in ORDER:
        return None
    catalogue = load_game(game).cards
    colours = _colours_by_card(game, catalogue)
    listed = list(cards)
    try:
        found = frozenset().union(*[colours[card] for card in listed])
    except KeyError:
        # A card not seen yet: its colours are worked out and kept (a card not in the catalogue adds none).
        for card in listed:
            if card not in colours and card in catalogue:
                colours[card] = card_colours(game, catalogue[card])
        found = frozenset().union(*[colours.get(card, ()) for card in listed])
    name = _NAMES.get((game, found))
    if name is None:
        order = ORDER[game]
        name = _NAMES[(game, found)] = ("+".join(sorted(found, key=lambda c: (order.index(c) if c in order else len(order), c)))
                                        if found else NO_COLOUR[game])
    return name


# Each mix's name by game and colours: a field of thousands of decks has a few dozen mixes.
_NAMES: dict[tuple[str, frozenset[str]], str] = {}
# Each card's colours, worked out once per catalogue: an event's thousands of decks play the same few hundred
# cards, and the database and the page each ask for every deck's mix.
_COLOURS: dict[str, tuple[object, dict[str, tuple[str, ...]]]] = {}


def _colours_by_card(game: str, catalogue: object) -> dict[str, tuple[str, ...]]:
    held = _COLOURS.get(game)
    if held is None or held[0] is not catalogue:
        held = _COLOURS[game] = (catalogue, {})
    return held[1]


# --- the field: the legal decks as rows, and the tables grouped from them

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


@dataclass(frozen=True)
class Metagame:
    """The field (the legal decks): every metagame table as rows of plain Python values, each in its `COLUMNS` order.

    `deck_cards`: one row per deck, section and card (deck, player, game, section, card, name, kind, count, line);
    `decks`: one row per deck; `mixes`: decks per colour or element mix; `cards`: each card's decks, copies,
    fewest and most; `sizes`: decks per main-deck size; the last three grouped from the first two
    (`group_field`). `unlisted` names the submissions that are not in the field.
    """

    tables: dict[str, list[Row]]
    unlisted: list[tuple[str, str]]

    def rows(self, name: str) -> list[Row]:
        """Table `name` as tuples of plain Python values in its `COLUMNS` order, a missing line as None."""
        return self.tables[name]

    def records(self, name: str) -> list[dict[str, Any]]:
        """Table `name` as one dict per row (for a pandas DataFrame: `DataFrame(meta.records(name))`)."""
        columns = COLUMNS[name]
        return [dict(zip(columns, row)) for row in self.tables[name]]

    def count(self, name: str) -> int:
        """The rows of table `name`."""
        return len(self.tables[name])


def _label(s: Submission) -> str:
    return s.player or (os.path.basename(s.path) if s.path else "(no name)")


def deck_cards(result: EventCheck) -> tuple[list[Row], list[Row], list[tuple[str, str]]]:
    """(deck cards, decks, unlisted) of `result`: the legal decks' rows numbered in player order, and the
    other submissions' (name, verdict). A deck's mix is "" where its game has none."""
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
        deck_mix = mix(game, [c.card for c in s.cards if c.section == "main"])
        deck_rows.append((i, player, s.name or "", s.path, game, deck_mix or "", s.report.counts["main"],
                          s.report.counts["side"]))
        for c in s.cards:
            known = facts.get((game, c.card))
            if known is None:
                card = catalogue[c.card]
                known = facts[(game, c.card)] = (card["name"], card_kind(card))
            card_rows.append((i, player, game, c.section, c.card, known[0], known[1], c.copies, c.line))
    return card_rows, deck_rows, unlisted


def _rounded(value: float, digits: int) -> float:
    # Half to even on the scaled value, as the tables were rounded when pandas made them: 1.075 gives 1.08 (round(1.075, 2)
    # gives 1.07, the float just below 1.075), so a published figure does not change with how it is computed.
    scale = 10.0 ** digits
    return round(value * scale) / scale


def group_field(cards: list[Row], decks: list[Row]) -> dict[str, list[Row]]:
    """The grouped tables (`mixes`, `cards`, `sizes`) of the deck-card rows `cards` (`CARD_COLUMNS`) and their
    decks' rows `decks` (`DECK_COLUMNS`): each deck counted once per mix, size and card it plays, a card in both
    sections of a deck as one deck with its copies added up. Mixes by game then most decks; cards by most decks,
    most copies, name, id and game; sizes by game and size."""
    field = Counter(d[4] for d in decks)
    mixes = sorted(((game, deck_mix, n, _rounded(100 * n / field[game], 1))
                    for (game, deck_mix), n in Counter((d[4], d[5]) for d in decks).items()),
                   key=lambda r: (r[0], -r[2], r[1]))
    sizes = sorted((game, main, n) for (game, main), n in Counter((d[4], d[6]) for d in decks).items())
    per_deck: Counter[tuple[str, str, int]] = Counter()
    named: dict[tuple[str, str], tuple[str, str]] = {}
    for deck, _player, game, _section, card, name, kind, count, _line in cards:
        per_deck[(game, card, deck)] += count
        named.setdefault((game, card), (name, kind))
    played: dict[tuple[str, str], list[int]] = {}  # (game, card) -> [decks, copies, fewest, most]
    for (game, card, _deck), n in per_deck.items():
        seen = played.get((game, card))
        if seen is None:
            played[(game, card)] = [1, n, n, n]
        else:
            seen[0] += 1
            seen[1] += n
            seen[2] = min(seen[2], n)
            seen[3] = max(seen[3], n)
    table = [(game, card, *named[(game, card)], n, _rounded(100 * n / field[game], 1), copies,
              _rounded(copies / n, 2), fewest, most)
             for (game, card), (n, copies, fewest, most) in played.items()]
    table.sort(key=lambda r: (-r[4], -r[6], r[2], r[1], r[0]))
    return {"mixes": mixes, "cards": table, "sizes": sizes}


def metagame_of(cards: list[Row], decks: list[Row], unlisted: list[tuple[str, str]] | None = None) -> Metagame:
    """The metagame of the deck-card rows `cards` (`CARD_COLUMNS`) and their decks' rows `decks` (`DECK_COLUMNS`):
    those two tables as given and the tables grouped from them (`group_field`)."""
    return Metagame({**group_field(cards, decks), "decks": decks, "deck_cards": cards}, list(unlisted or []))


def metagame(result: EventCheck) -> Metagame:
    """Every metagame table of `result`, from the one table of its legal decks' cards."""
    cards, decks, unlisted = deck_cards(result)
    return metagame_of(cards, decks, unlisted)
