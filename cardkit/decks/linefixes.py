"""Fixes for a checked deck's lines: the cards a reported line could name, and the deck with chosen cards written in.

An AMBIGUOUS_CARD line is offered its candidates, each with what tells it apart, and so is an UNKNOWN_CARD
line whose closest name several cards share; any other UNKNOWN_CARD line the catalogue's suggestions. A choice is written into its line as `N Name (ID)`, and only while the
line still holds the card text it was offered for, so an edited line is never overwritten.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cardkit.decks.report import DeckReport
from cardkit.problems import Problem
from cardkit.visible import quoted


@dataclass(frozen=True)
class Option:
    """A card a reported line could name: what goes on the line (`Name (ID)`), its id and what tells it apart."""

    text: str
    id: str
    name: str
    details: str


@dataclass(frozen=True)
class LineFix:
    """What is offered for one reported line: a choice among candidates, or suggestions to apply."""

    line: int
    was: str  # the card text the line holds now
    kind: str  # "choose" (an ambiguous name: one of these cards) or "suggest" (an unknown name: did you mean)
    options: list[Option]
    also: tuple[int, ...] = ()  # the other lines of a problem found alike on several lines: the choice is theirs too


def _also(problem: Problem) -> tuple[int, ...]:
    return tuple(n for n in (problem.lines or ()) if n != problem.line)


def line_fixes(report: DeckReport) -> dict[int, LineFix]:
    """Line -> its offer: an AMBIGUOUS_CARD's candidates, each with the fields in which they differ,
    or an UNKNOWN_CARD's suggestions, each with what it is."""
    from cardkit.catalogue.candidates import candidate_details, card_details
    from cardkit.catalogue.lookup import NAME_WITH_ID, card_index

    if report.game is None:
        return {}
    index = card_index(report.game)
    cards = index.catalogue.cards
    fixes: dict[int, LineFix] = {}
    for p in report.problems:
        if p.line is None or p.card is None or p.line in fixes:
            continue
        if p.code in ("AMBIGUOUS_CARD", "UNKNOWN_CARD") and p.candidates:
            options = [Option(f"{c['name']} ({c['id']})", str(c["id"]), str(c["name"]), details)
                       for c, details in zip(p.candidates, candidate_details(p.candidates, name=False))]
            fixes[p.line] = LineFix(p.line, p.card, "choose", options, _also(p))
        elif p.code == "UNKNOWN_CARD":
            options = []
            for text in index.find(p.card).suggestions:
                m = NAME_WITH_ID.match(text)
                if m and (cid := index.by_id(m["id"])):
                    options.append(Option(text, cid, str(cards[cid]["name"]), card_details(cards[cid])))
            if options:
                fixes[p.line] = LineFix(p.line, p.card, "suggest", options, _also(p))
    return fixes


_SIDE_PREFIX = re.compile(r"^\s*SB\s*:\s*", re.IGNORECASE)


def apply_choices(text: str, choices: dict[int, tuple[str, str]]) -> tuple[str, list[str]]:
    """The deck text with each chosen line (line -> (chosen card, the line's card text when offered))
    rewritten as `N CARD` (kept a side-deck line if it was one), and a note for each choice not
    applied because its line no longer holds the card it was made for."""
    from cardkit.decks.parse import parse_text

    if not choices:
        return text, []
    lines = text.split("\n")
    entries = {e.line: e for e in parse_text(text).entries if e.line is not None}
    notes: list[str] = []
    for number, (card, was) in sorted(choices.items()):
        entry = entries.get(number)
        if any(ch in card for ch in "\r\n\x85\u2028\u2029"):
            notes.append(f"the card chosen for line {number} holds a line break, so it was not put there")
            continue
        if entry is None or entry.text != was:
            notes.append(f"line {number} changed since it was checked, so {quoted(card)} was not put there")
            continue
        raw = lines[number - 1]
        prefix = m.group(0) if (m := _SIDE_PREFIX.match(raw)) else ""
        ending = "\r" if raw.endswith("\r") else ""
        lines[number - 1] = f"{prefix}{entry.count} {card}{ending}"
    return "\n".join(lines), notes
