"""The deck page's check: a pasted or uploaded deck list validated as `cardkit validate` would, nothing kept.

This module reads the form; the summary and the line fixes it shows are the library's
(`cardkit.decks.summary`, `cardkit.decks.linefixes`).

The deck is validated from memory with a file's size cap and text rules (`validate_bytes`);
nothing is written. A form posts the pasted text in the field `deck`, or a file: as
multipart/form-data (`deck_file`, or a file sent as `deck`), so uploading needs no JavaScript.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from cardkit.decks.linefixes import LineFix, apply_choices, line_fixes
from cardkit.decks.report import DeckReport, validate_bytes, validate_text
from cardkit.decks.summary import DeckSummary, summarise_deck
from cardkit.errors import CardkitError
from cardkit.jsonio import MAX_INPUT_BYTES
from cardkit.problems import FOLDED_LINES

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


def shown_text(data: bytes) -> str:
    """The deck's text for the page's line-by-line list; empty when it is not text (the report says why)."""
    from cardkit.jsonio import decode_text

    if len(data) > MAX_INPUT_BYTES:
        return ""
    try:
        return decode_text(DEFAULT_NAME, data)
    except CardkitError:
        return ""


def summarise_text(text: str, filename: str | None = None) -> DeckSummary | None:
    """The summary of a readable deck's cards, or None when it cannot be read."""
    from cardkit.decks.read import parse_deck

    try:
        deck = parse_deck(text, path=deck_name(filename), json_hint=deck_name(filename).lower().endswith(".json"))
    except CardkitError:
        return None
    return summarise_deck(deck)


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
    summary = summarise_text(text, posted.filename) if report.failure is None else None
    return CheckedDeck(report, text, posted.filename, notes, line_fixes(report), summary)
