"""The deck page's check: a pasted or uploaded deck list validated as `cardkit validate` would, nothing kept.

The deck is validated from memory with a file's size cap and text rules (`validate_bytes`);
nothing is written. A form posts the pasted text in the field `deck`, or a file: as
multipart/form-data (`deck_file`, or a file sent as `deck`), so uploading needs no JavaScript.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardkit.decks.report import DeckReport, validate_bytes, validate_text
from cardkit.errors import CardkitError
from cardkit.jsonio import MAX_INPUT_BYTES
from cardkit.problems import FOLDED_LINES, Problem
from cardkit.visible import quoted

# Upload names are the user's: only a plain file name with a known suffix is kept.
DEFAULT_NAME = "pasted.deck"
SUFFIXES = (".deck", ".json", ".txt")


def deck_name(filename: str | None) -> str:
    """The name the deck is reported under: the uploaded file's own name when it is plain, else `pasted.deck`."""
    name = Path((filename or "").replace("\\", "/")).name
    if not name or name.startswith(".") or not name.lower().endswith(SUFFIXES):
        return DEFAULT_NAME
    return name


def check_deck_text(text: str, filename: str | None = None) -> DeckReport:
    """The report `cardkit validate` gives for a file holding `text`, under the file's own name."""
    return validate_text(text, deck_name(filename))


def check_deck_bytes(data: bytes, filename: str | None = None) -> DeckReport:
    """The report `cardkit validate` gives for a file holding `data` (an upload), under the file's own name."""
    return validate_bytes(data, deck_name(filename))


DECK_FIELD = "deck"
FILE_FIELD = "deck_file"
NAME_FIELD = "filename"
# A form holds the pasted text and the file, each up to a deck's cap, and a little more.
MAX_FORM_BYTES = 2 * MAX_INPUT_BYTES + (1 << 16)


# The page's choices: `card-N` is the card chosen for line N (an ambiguous line's candidate, or a suggestion),
# `was-N` the card text line N held when the page was made, so an edited line is never overwritten, and
# `same-N` the other lines of a problem found alike on several lines (`3 Guts` and `2 Guts`), which one
# choice answers too; at most as many as a folded problem lists, so a forged form can't ask for more.
CHOICE_FIELD = re.compile(r"^card-(?P<line>[0-9]{1,7})$")
SAME_LINE = re.compile(r"^[0-9]{1,7}$")


@dataclass(frozen=True)
class PostedDeck:
    """What a deck form sent: the deck's bytes (an uploaded file's, else the pasted text's), its file name,
    and the cards chosen on the page for lines it reported (line -> (chosen card, the line's card text then))."""

    data: bytes
    filename: str | None
    uploaded: bool
    choices: dict[int, tuple[str, str]] = field(default_factory=dict)


def _choices(fields: dict[str, str]) -> dict[int, tuple[str, str]]:
    chosen: dict[int, tuple[str, str]] = {}
    for name, value in fields.items():
        m = CHOICE_FIELD.match(name)
        if m and value.strip():
            line = int(m["line"])
            chosen[line] = (value.strip(), fields.get(f"was-{line}", ""))
            same = [int(n) for n in fields.get(f"same-{line}", "").split(",") if SAME_LINE.match(n.strip())]
            for other in same[:FOLDED_LINES]:
                chosen.setdefault(other, (value.strip(), fields.get(f"was-{other}", "")))
    return chosen


def _multipart(content_type: str, body: bytes) -> tuple[dict[str, str], list[tuple[str, str, bytes]]]:
    """A multipart/form-data body's text fields, and its files as (field, file name, bytes)."""
    from email import policy
    from email.parser import BytesParser

    head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode("latin-1", "replace")
    message = BytesParser(policy=policy.HTTP).parsebytes(head + body)
    fields: dict[str, str] = {}
    files: list[tuple[str, str, bytes]] = []
    if not message.is_multipart():
        return fields, files
    for part in message.iter_parts():
        name = str(part.get_param("name", header="content-disposition") or "")
        payload = part.get_payload(decode=True)
        data = payload if isinstance(payload, bytes) else b""
        filename = part.get_filename()
        if filename is None:
            fields.setdefault(name, data.decode("utf-8", "replace"))
        else:
            files.append((name, str(filename), data))
    return fields, files


def posted_deck(content_type: str, body: bytes) -> PostedDeck:
    """The deck a form posted: a chosen file (`deck_file`, or a file sent as `deck`) wins over pasted text in `deck`."""
    from urllib.parse import parse_qsl

    if content_type.split(";", 1)[0].strip().lower() == "multipart/form-data":
        fields, files = _multipart(content_type, body)
        chosen = next(((name, data) for field, name, data in files
                       if field in (FILE_FIELD, DECK_FIELD) and (name or data)), None)
        if chosen is not None:
            return PostedDeck(chosen[1], chosen[0] or fields.get(NAME_FIELD) or None, True, _choices(fields))
    else:
        fields = dict(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))
    return PostedDeck(fields.get(DECK_FIELD, "").encode("utf-8", "surrogatepass"), fields.get(NAME_FIELD) or None, False,
                      _choices(fields))


_SIDE_PREFIX = re.compile(r"^\s*SB\s*:\s*", re.IGNORECASE)


def apply_choices(text: str, choices: dict[int, tuple[str, str]]) -> tuple[str, list[str]]:
    """The deck text with each chosen line rewritten as `N CARD` (kept a side-deck line if it was one),
    and a note for each choice not applied because its line no longer holds the card it was made for."""
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


def shown_text(data: bytes) -> str:
    """The deck's text for the page's line-by-line list; empty when it is not text (the report says why)."""
    from cardkit.jsonio import decode_text

    if len(data) > MAX_INPUT_BYTES:
        return ""
    try:
        return decode_text(DEFAULT_NAME, data)
    except CardkitError:
        return ""


@dataclass(frozen=True)
class DeckSummary:
    """The main deck by kind, its colour or element split and its cost curve, each counted in copies.

    Lines that name no one card are `unresolved` (main) or in `side` without an id, so the groups
    still add up to the counts in the verdict; an unresolved line whose candidates all share a colour
    (or elements) or a cost still counts there, as the deck's legality counts it.
    """

    kinds: dict[str, list[tuple[int, str, str]]]  # kind -> (copies, name, id), in list order
    split: dict[str, int]
    curve: dict[int, int]
    side: list[tuple[int, str, str]]  # (copies, name, id); id "" for a line that names no one card
    unresolved: list[tuple[int, str, int | None]] = field(default_factory=list)  # (copies, text, line) of main


def _total_cost(card: dict[str, Any]) -> int | None:
    cost = card.get("cost")
    if isinstance(cost, dict):
        return sum(int(v) for v in cost.values())
    return cost if isinstance(cost, int) else None


def _split_key(card: dict[str, Any]) -> str | None:
    """The card's place in the colour (TCG) or element split, or None for a game with neither."""
    if "colour" in card:
        return str(card["colour"] or "colourless")
    if "elements" in card:
        return ", ".join(card["elements"]) or "neutral"
    return None


def summarise_deck(text: str, filename: str | None = None) -> DeckSummary | None:
    """The summary of a readable deck's cards, or None when it cannot be read."""
    from cardkit.catalogue.lookup import card_index
    from cardkit.decks.read import parse_deck

    try:
        deck = parse_deck(text, path=deck_name(filename), json_hint=deck_name(filename).lower().endswith(".json"))
    except CardkitError:
        return None
    cards = card_index(deck.game).catalogue.cards
    kinds: dict[str, list[tuple[int, str, str]]] = {}
    split: Counter[str] = Counter()
    curve: Counter[int] = Counter()
    side: list[tuple[int, str, str]] = []
    unresolved: list[tuple[int, str, int | None]] = []
    for entry in deck.entries:
        if entry.card is None or entry.card not in cards:
            if entry.section == "main":
                unresolved.append((entry.count, entry.text, entry.line))
                # What every candidate shares still counts, as in the deck's legality: a colour, a cost.
                among = [cards[c] for c in entry.candidates if c in cards]
                if among and len({_split_key(c) for c in among}) == 1 and (key := _split_key(among[0])) is not None:
                    split[key] += entry.count
                if among and len({_total_cost(c) for c in among}) == 1 and (cost := _total_cost(among[0])) is not None:
                    curve[cost] += entry.count
            else:
                side.append((entry.count, entry.text, ""))
            continue
        card = cards[entry.card]
        shown = (entry.count, str(card["name"]), entry.card)
        if entry.section != "main":
            side.append(shown)
            continue
        kinds.setdefault(str(card.get("kind") or card.get("type") or "other"), []).append(shown)
        if (key := _split_key(card)) is not None:
            split[key] += entry.count
        if (cost := _total_cost(card)) is not None:
            curve[cost] += entry.count
    return DeckSummary(kinds, dict(split.most_common()), dict(sorted(curve.items())), side, unresolved)


@dataclass(frozen=True)
class Option:
    """A card a reported line could name: what goes on the line (`Name (ID)`), its id and what tells it apart."""

    text: str
    id: str
    name: str
    details: str


@dataclass(frozen=True)
class LineFix:
    """What the page offers for one reported line: a choice among candidates, or suggestions to apply."""

    line: int
    was: str  # the card text the line holds now
    kind: str  # "choose" (an ambiguous name: one of these cards) or "suggest" (an unknown name: did you mean)
    options: list[Option]
    also: tuple[int, ...] = ()  # the other lines of a problem found alike on several lines: the choice is theirs too


def _also(problem: Problem) -> tuple[int, ...]:
    return tuple(n for n in (problem.lines or ()) if n != problem.line)


def line_fixes(report: DeckReport) -> dict[int, LineFix]:
    """Line -> the page's offer: an AMBIGUOUS_CARD's candidates, each with the fields in which they differ,
    or an UNKNOWN_CARD's suggestions, each with what it is."""
    from cardkit.catalogue.candidates import candidate_details
    from cardkit.catalogue.lookup import NAME_WITH_ID, card_index
    from cardkit.web.cardpage import card_details

    if report.game is None:
        return {}
    index = card_index(report.game)
    cards = index.catalogue.cards
    fixes: dict[int, LineFix] = {}
    for p in report.problems:
        if p.line is None or p.card is None or p.line in fixes:
            continue
        if p.code == "AMBIGUOUS_CARD" and p.candidates:
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


@dataclass(frozen=True)
class CheckedDeck:
    """A posted deck's check: the report, the deck's text for the page, its file name, notes about choices not
    applied, and for the page, its line fixes and summary. Made in a worker process, so it is all plain data."""

    report: DeckReport
    text: str
    filename: str | None
    notes: list[str]
    fixes: dict[int, LineFix] = field(default_factory=dict)
    summary: DeckSummary | None = None


def check_posted(content_type: str, body: bytes, page: bool) -> CheckedDeck:
    """A posted form's deck checked: seconds for a 1 MiB paste, so run in a worker, never on the event loop.

    With `page`, the cards chosen on the page for reported lines are written into the deck first (each line
    as `N Name (ID)`; the notes say which could not be), and the page's fixes and summary are made too.
    """
    posted = posted_deck(content_type, body)
    data, notes = posted.data, list[str]()
    if page and posted.choices and (text := shown_text(data)):
        changed, notes = apply_choices(text, posted.choices)
        data = changed.encode("utf-8", "surrogatepass")
    report, text = check_deck_bytes(data, posted.filename), shown_text(data)
    if not page:
        return CheckedDeck(report, text, posted.filename, notes)
    summary = summarise_deck(text, posted.filename) if report.failure is None else None
    return CheckedDeck(report, text, posted.filename, notes, line_fixes(report), summary)
