"""Legality of a deck against a format: every rule of the format file, every problem found."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable
from functools import partial
from typing import Any

from cardkit.catalogue.store import Card, CardId, GameCatalogue, load_game
from cardkit.decks.model import SECTIONS, Deck, Entry
from cardkit.errors import BadArgument
from cardkit.formats import Format, describe, load_format, matches
from cardkit.problems import Problem, Severity, error, fold_repeats, warning
from cardkit.visible import quoted


def validate_deck(deck: Deck, fmt: Format | None = None) -> list[Problem]:
    """The deck's parse/resolution problems plus every rule of `fmt` (default: the deck's format) it breaks."""
    fmt = fmt or load_format(deck.format)
    if fmt.game != deck.game:
        raise BadArgument(f"format {quoted(fmt.name)} is for {fmt.game}, the deck is for {deck.game}")
    catalogue = load_game(deck.game)
    view = _DeckView(deck, catalogue)
    problems = list(deck.problems)
    for check in (_banned, _sizes, _copies, _minimums, _composition, _costs):
        problems.extend(check(view, fmt, catalogue))
    # Line order reads like the file; deck-wide problems (no line) come last.
    problems.sort(key=lambda p: (p.line is None, p.line or 0))
    return fold_repeats(problems)


def is_legal(problems: Iterable[Problem]) -> bool:
    return not any(p.is_error for p in problems)


class _DeckView:
    """Counts and first lines of a deck, computed once, so checks stay linear on 1 MiB decks."""

    def __init__(self, deck: Deck, catalogue: GameCatalogue) -> None:
        self.deck = deck
        counted = deck.tally()
        self.sections = counted.sections
        self.sizes = counted.sizes
        self.lines = counted.first
        self._counts: dict[tuple[str, ...], dict[CardId, int]] = {}
        # Lines naming several cards (`12 Mercenary`): the section, the count and every card they could be.
        self.undecided: list[tuple[Entry, list[Card]]] = []
        for e in deck.entries:
            # By position, candidates first (empty on nearly every line): this runs per line of every deck.
            if e[6] and e[4] is None:
                self.undecided.append((e, [catalogue.cards[c] for c in e.candidates]))

    def counts(self, sections: Iterable[str]) -> dict[CardId, int]:
        """Card -> copies over `sections` (shared between the checks: read it, don't change it)."""
        key = tuple(sections)
        total = self._counts.get(key)
        if total is None:
            if len(key) == 1:
                total = self.sections.get(key[0], {})
            else:
                total = {}
                for section in key:
                    for card, n in self.sections.get(section, {}).items():
                        total[card] = total.get(card, 0) + n
            self._counts[key] = total
        return total

    def shared(self, sections: Iterable[str], key: Callable[[Card], Hashable]) -> Counter[Hashable]:
        """Cards of undecided lines in `sections` by the `key` all their candidates share; lines whose
        candidates differ in `key` are left out. "What every candidate shares still counts": a line of
        12 Mercenary is 12 Mercenaries whichever printings they are; 3 of a name only white cards
        have are 3 white cards."""
        wanted = set(sections)
        out: Counter[Hashable] = Counter()
        for entry, cards in self.undecided:
            if entry.section in wanted:
                keys = {key(card) for card in cards}
                if len(keys) == 1:
                    out[keys.pop()] += entry.count
        return out

    def undecided_count(self, sections: Iterable[str]) -> int:
        wanted = set(sections)
        return sum(entry.count for entry, _ in self.undecided if entry.section in wanted)

    def first_line(self, cards: Iterable[CardId], sections: Iterable[str] = SECTIONS) -> int | None:
        found = [self.lines.get((s, c)) for c in cards for s in sections]
        lines = [line for line in found if line is not None]
        return min(lines) if lines else None


class _CardRules:
    """What a format says of each card on its own (banned why, exempt from the copy limit, its copy key),
    worked out once per card and kept while the same format and catalogue are in use: a big event
    asks the same few hundred cards thousands of times."""

    def __init__(self, fmt: Format, catalogue: GameCatalogue) -> None:
        self.fmt, self.catalogue = fmt, catalogue
        self._banned: dict[CardId, str | None] = {}
        self._exempt: dict[CardId, bool] = {}
        self._key: dict[CardId, str] = {}
        # The copy rule's key of each card, None when the rule exempts it: the one look-up per card `_copies` makes.
        self.copy_keys: dict[CardId, str | None] = {}
        self._expected: dict[CardId, int] | None = None
        self._position: dict[CardId, int] | None = None
        self._cost: dict[CardId, tuple[Any, list[tuple[Any, Any]], int]] = {}

    def expected(self, rule: dict[str, Any]) -> dict[CardId, int]:
        """The standard deck of the format's composition rule: its own list, or each card's count in the catalogue."""
        if self._expected is None:
            if "cards" in rule:
                self._expected = dict(rule["cards"])
            else:
                field = rule["from_catalogue_field"]
                self._expected = {cid: c[field] for cid, c in self.catalogue.cards.items()
                                  if isinstance(c.get(field), int) and c[field] > 0}
        return self._expected

    def in_catalogue_order(self, cards: Iterable[CardId]) -> list[CardId]:
        """Those of `cards` in the catalogue, in its order, without walking the whole catalogue per deck."""
        if self._position is None:
            self._position = {cid: i for i, cid in enumerate(self.catalogue.cards)}
        position = self._position
        return sorted((c for c in cards if c in position), key=position.__getitem__)

    def cost(self, card: CardId, cost_field: str, colour_field: str) -> tuple[Any, list[tuple[Any, Any]], int]:
        """(the card's colour, its cost's (colour, need) pairs that need something, what they need in all)."""
        found = self._cost.get(card)
        if found is None:
            data = self.catalogue.cards[card]
            cost = data.get(cost_field) or {}
            found = self._cost[card] = (data.get(colour_field), [(c, n) for c, n in cost.items() if n],
                                        sum(v for v in cost.values() if v))
        return found

    def banned(self, card: CardId) -> str | None:
        """The reason of the first `banned` rule `card` matches, or None."""
        if card not in self._banned:
            data = self.catalogue.cards[card]
            self._banned[card] = next((rule["reason"] for rule in self.fmt.banned if matches(data, rule["when"])), None)
        return self._banned[card]

    def exempt(self, card: CardId, patterns: list[Any]) -> bool:
        if card not in self._exempt:
            data = self.catalogue.cards[card]
            self._exempt[card] = any(matches(data, p) for p in patterns)
        return self._exempt[card]

    def key(self, card: CardId) -> str:
        if card not in self._key:
            self._key[card] = self.fmt.card_key(self.catalogue.cards[card])
        return self._key[card]


_RULES: dict[tuple[int, int], _CardRules] = {}


def _card_rules(fmt: Format, catalogue: GameCatalogue) -> _CardRules:
    # Keyed by identity; the entry holds both objects, so neither id can be reused while it is kept.
    key = (id(fmt), id(catalogue))
    rules = _RULES.get(key)
    if rules is None or rules.fmt is not fmt or rules.catalogue is not catalogue:
        if len(_RULES) >= 16:
            _RULES.clear()
        rules = _RULES[key] = _CardRules(fmt, catalogue)
    return rules


def _name(catalogue: GameCatalogue, card: CardId) -> str:
    return f"{catalogue.cards[card]['name']} ({card})"


def _banned(view: _DeckView, fmt: Format, catalogue: GameCatalogue) -> list[Problem]:
    out: list[Problem] = []
    if not fmt.banned:
        return out
    rules = _card_rules(fmt, catalogue)
    for entry in view.deck.entries:
        if entry.card is None:
            continue
        reason = rules.banned(entry.card)
        if reason is not None:
            out.append(error("NOT_A_DECK_CARD", f"{_name(catalogue, entry.card)} can't be in a deck: {reason}",
                             card=entry.card, line=entry.line, pointer=entry.pointer))
    return out


def _sizes(view: _DeckView, fmt: Format, catalogue: GameCatalogue) -> list[Problem]:
    out: list[Problem] = []
    low, high = fmt.bounds("main")
    deck = view.deck
    n = view.sizes.get("main", 0)
    if low is not None and n < low:
        out.append(error("DECK_TOO_SMALL", f"main deck has {n} cards; {fmt.name} needs at least {low}", limit=low, actual=n))
    if high is not None and n > high:
        out.append(error("DECK_TOO_LARGE", f"main deck has {n} cards; {fmt.name} allows at most {high}", limit=high, actual=n))
    low, high = fmt.bounds("side")
    n = view.sizes.get("side", 0)
    first = next((e for e in deck.entries if e.section == "side"), None) if n else None
    where: dict[str, Any] = {"line": first.line, "pointer": first.pointer} if first else {}
    if high == 0 and n > 0:
        out.append(error("SIDE_NOT_ALLOWED", f"{fmt.name} has no side deck, but {n} side cards are listed", limit=0, actual=n, **where))
    elif high is not None and n > high:
        out.append(error("SIDE_TOO_LARGE", f"side deck has {n} cards; {fmt.name} allows at most {high}", limit=high, actual=n, **where))
    if low and n < low:
        out.append(error("SIDE_TOO_SMALL", f"side deck has {n} cards; {fmt.name} needs at least {low}", limit=low, actual=n))
    return out


def _copies(view: _DeckView, fmt: Format, catalogue: GameCatalogue) -> list[Problem]:
    """At most `limit` copies of one card, one card being an id or a name as the format's `copies_by` says.

    Under `copies_by: name` the printings of a name count together: "a reprint is the
    same card, for the copy limit, for uniqueness and when a deck names it".
    """
    rule = fmt.copies
    if not rule:
        return []
    limit: int = rule["limit"]
    sections = rule.get("sections", list(SECTIONS))
    exempt = rule.get("exempt", [])
    groups: dict[str, dict[CardId, int]] = {}
    rules = _card_rules(fmt, catalogue)
    keys = rules.copy_keys
    for card, n in view.counts(sections).items():
        try:
            key = keys[card]
        except KeyError:
            key = keys[card] = None if exempt and rules.exempt(card, exempt) else rules.key(card)
        if key is None:
            continue
        group = groups.get(key)
        if group is None:
            groups[key] = {card: n}
        else:
            group[card] = group.get(card, 0) + n
    out: list[Problem] = []
    for cards in groups.values():
        total = sum(cards.values())
        if total <= limit:
            continue
        present = [s for s in sections if any(view.sections.get(s, {}).get(c) for c in cards)]
        across = " across " + " and ".join(present) if len(present) > 1 else ""
        ids = sorted(cards, key=lambda c: view.first_line([c], sections) or 0)
        if len(ids) == 1:
            what = f"{total} copies of {_name(catalogue, ids[0])}"
        else:
            each = ", ".join(f"{c} ×{cards[c]}" for c in ids)
            what = f"{total} cards named {catalogue.cards[ids[0]]['name']} ({each}){_where_each(view, ids, sections)}"
        out.append(error("TOO_MANY_COPIES", f"{what}{across}; at most {limit}",
                         card=", ".join(ids), line=view.first_line(ids, sections), limit=limit, actual=total))
    # A line naming several cards is too many copies of whichever it means when none of them is exempt.
    for entry, candidates in view.undecided:
        if entry.section in sections and entry.count > limit and \
                not any(matches(card, p) for card in candidates for p in exempt):
            out.append(error("TOO_MANY_COPIES", f"{entry.count} copies of {quoted(entry.text)}, whichever of its "
                                                f"{len(candidates)} cards is meant; at most {limit}",
                             card=entry.text, line=entry.line, pointer=entry.pointer, limit=limit, actual=entry.count))
    return out


def _where_each(view: _DeckView, cards: list[CardId], sections: Iterable[str]) -> str:
    """` on lines 3, 4` (text decks) or ` at /main/0, /main/1` (JSON decks): every line the cards are written on."""
    wanted, ids = set(sections), set(cards)
    entries = [e for e in view.deck.entries if e.card in ids and e.section in wanted]
    lines = sorted({e.line for e in entries if e.line is not None})
    if lines:
        return f" on line{'s' if len(lines) > 1 else ''} {_some(list(map(str, lines)))}"
    pointers = [e.pointer for e in entries if e.pointer]
    return f" at {_some(pointers)}" if pointers else ""


def _some(items: list[str], most: int = 8) -> str:
    """A deck that repeats a card on thousands of lines must not make a message of thousands of numbers."""
    return ", ".join(items[:most]) + (f" and {len(items) - most} more" if len(items) > most else "")


def _minimums(view: _DeckView, fmt: Format, catalogue: GameCatalogue) -> list[Problem]:
    out: list[Problem] = []
    for rule in fmt.minimums:
        sections = rule.get("sections", ["main"])
        counts = view.counts(sections)
        n = sum(c for card, c in counts.items() if matches(catalogue.cards[card], rule["when"]))
        n += view.shared(sections, partial(matches, predicate=rule["when"]))[True]
        if n < rule["at_least"]:
            severity = Severity(rule.get("severity", "warning"))
            message = rule["message"].format(actual=n, limit=rule["at_least"], what=describe(rule["when"]))
            make = error if severity is Severity.ERROR else warning
            out.append(make(rule["code"], message, limit=rule["at_least"], actual=n))
    return out


def _composition(view: _DeckView, fmt: Format, catalogue: GameCatalogue) -> list[Problem]:
    rule = fmt.composition
    if not rule:
        return []
    rules = _card_rules(fmt, catalogue)
    expected = rules.expected(rule)
    sections = rule.get("sections", ["main"])
    actual = view.counts(sections)
    out: list[Problem] = []
    for card in rules.in_catalogue_order(expected.keys() | actual.keys()):
        want, have = expected.get(card, 0), actual.get(card, 0)
        if want != have:
            out.append(error("COMPOSITION_MISMATCH", f"{_name(catalogue, card)}: {have} in the deck, the standard deck has {want}",
                             card=card, line=view.first_line([card], sections), limit=want, actual=have))
    return out


def _costs(view: _DeckView, fmt: Format, catalogue: GameCatalogue) -> list[Problem]:
    rule = fmt.costs
    if not rule:
        return []
    cost_field, colour_field = rule["cost_field"], rule["colour_field"]
    any_colour = rule.get("any_colour")
    sections = rule.get("sections", ["main"])
    counts = view.counts(sections)
    by_colour: Counter[Any] = view.shared(sections, lambda card: card.get(colour_field))
    rules = _card_rules(fmt, catalogue)
    for card, n in counts.items():
        by_colour[rules.cost(card, cost_field, colour_field)[0]] += n
    # An undecided line is cards of some colour whichever it turns out to be: they pay a colourless cost.
    total = sum(counts.values()) + view.undecided_count(sections)
    out: list[Problem] = []
    for card in counts:
        own, needs, need_all = rules.cost(card, cost_field, colour_field)
        short: list[tuple[str | None, int, int]] = []
        for colour, need in needs:
            if colour == any_colour:
                continue
            # The card being opened can't pay for itself, so one copy of it doesn't count.
            have = by_colour[colour] - (1 if own == colour else 0)
            if have < need:
                short.append((colour, need, have))
        if not short and need_all > total - 1:
            short.append((None, need_all, total - 1))
        for colour, need, have in short:
            what = f"{colour} card(s)" if colour is not None else "card(s) of any colour"
            out.append(warning("UNPAYABLE_COST",
                               f"{_name(catalogue, card)} needs {need} other {what} to pay for it; the deck has {have}",
                               card=card, line=view.first_line([card]), limit=need, actual=have))
    return out
