"""Reading a deck: parse, tell its game and format, resolve every card line."""

from __future__ import annotations

import os

from cardkit.catalogue.candidates import candidates
from cardkit.catalogue.lookup import CardIndex, card_index
from cardkit.decks.model import Deck, Entry
from cardkit.decks.parse import ParsedDeck, looks_like_json, parse_json, parse_text
from cardkit.decks.words import deck_words
from cardkit.errors import UnknownFormat, UnreadableInput
from cardkit.formats import Format, default_format, load_format
from cardkit.games.registry import GAMES
from cardkit.jsonio import input_name, read_text_input
from cardkit.jsonio import parse_json as parse_json_text
from cardkit.problems import Problem, error
from cardkit.visible import quoted

# Close-name suggestions cost milliseconds each; past this many distinct card
# texts (only garbage files get there) unknown cards are reported without them.
SUGGESTION_BUDGET = 500


class DeckGameUnknown(UnreadableInput):
    """The deck's game can't be told, or its `game:`/`format:` header names none that exists."""


# The command line's other way to name the game; the web deck page has none, so it is kept out of the message.
PASS_FORMAT = "or pass --format"


def read_deck(path: str | os.PathLike[str], format_name: str | None = None) -> Deck:
    """Read, parse and resolve the deck file at `path` (text or JSON; `-` is standard input, `code:…` a deck code).

    Raises `UnreadableInput` (or its subclass `DeckGameUnknown`) when the file
    can't be read as a deck, `UnknownFormat` for an unknown `format_name`.
    """
    from cardkit.decks.code import is_deck_code, read_deck_code

    if is_deck_code(path):
        return read_deck_code(str(path), format_name)
    text = read_text_input(path)
    return parse_deck(text, path=input_name(path), format_name=format_name, json_hint=str(path).lower().endswith(".json"))


def parse_deck(text: str, path: str = "<deck>", format_name: str | None = None, json_hint: bool = False) -> Deck:
    """A deck from its text; like `read_deck` without the file."""
    parsed = _parse(text, path, json_hint)
    fmt = _choose_format(parsed, path, format_name)
    game = fmt.game if fmt else _infer_game(parsed, path)
    if fmt is None:
        fmt = default_format(game)
    index = card_index(game)
    entries: list[Entry] = []
    problems: list[Problem] = list(parsed.problems)
    # Big decks repeat a few spellings many times; suggestions are the slow part, so look each up once.
    # And a big event repeats them across decks: what a spelling resolves to is kept while the index lives.
    suggesting, plain = _shared_memo(index, fmt)
    new = tuple.__new__  # an Entry without its keyword handling: a big event makes a few hundred thousand
    if len(parsed.entries) <= SUGGESTION_BUDGET:
        # Fewer lines than the budget: every spelling gets its suggestions, so the deck needs no memo of its own.
        for entry in parsed.entries:
            section, line, text, count, _, pointer, _ = entry
            known = suggesting.get(text)
            if known is None:
                known = suggesting[text] = _resolve(entry, fmt, index, suggest=True)
            card, problem = known
            if problem is None:
                entries.append(new(Entry, (section, line, text, count, card, pointer, ())))
            else:
                _unresolved(entries, problems, entry, card, problem)
    else:
        memo: dict[str, tuple[str | None, Problem | None]] = {}
        for entry in parsed.entries:
            text = entry.text
            known = memo.get(text)
            if known is None:
                suggest = len(memo) < SUGGESTION_BUDGET
                shared = suggesting if suggest else plain
                known = shared.get(text)
                if known is None:
                    known = shared[text] = _resolve(entry, fmt, index, suggest=suggest)
                memo[text] = known
            card, problem = known
            if problem is None:
                entries.append(new(Entry, (entry.section, entry.line, text, entry.count, card, entry.pointer, ())))
            else:
                _unresolved(entries, problems, entry, card, problem)
    problems.sort(key=_problem_order)
    return Deck(path=path, game=game, format=fmt.name, header=dict(parsed.header), entries=entries,
                problems=problems, source=parsed.source)


def _unresolved(entries: list[Entry], problems: list[Problem], entry: Entry, card: str | None, problem: Problem) -> None:
    """The entry of a line whose spelling did not resolve, and its problem at this line."""
    among = tuple(c["id"] for c in problem.candidates) if problem.candidates else ()
    entries.append(Entry(entry.section, entry.line, entry.text, entry.count, card, entry.pointer, among))
    problems.append(problem.replaced(line=entry.line, pointer=entry.pointer))


_Memo = dict[str, tuple[str | None, Problem | None]]
_SHARED: list[tuple[CardIndex, Format, _Memo, _Memo]] = []
SHARED_SPELLINGS = 100_000
"""Spellings kept across decks; past this many (garbage files), the memo starts again."""


def _shared_memo(index: CardIndex, fmt: Format) -> tuple[_Memo, _Memo]:
    """The resolutions of spellings already read with `index` under `fmt` (a new index, a new catalogue: a
    new memo; an ambiguous line's message says what the format's rules read), with suggestions and without.

    A spelling's problem carries the line and pointer of the deck that first met it; each use replaces both.
    """
    for known, known_format, suggesting, plain in _SHARED:
        if known is index and known_format is fmt:
            for memo in (suggesting, plain):
                if len(memo) > SHARED_SPELLINGS:
                    memo.clear()
            return suggesting, plain
    if len(_SHARED) >= 4:
        del _SHARED[0]
    _SHARED.append((index, fmt, {}, {}))
    return _SHARED[-1][2], _SHARED[-1][3]


def _parse(text: str, path: str, json_hint: bool) -> ParsedDeck:
    if json_hint or looks_like_json(text):
        duplicates: list[str] = []
        duplicates_at: list[tuple[str, str]] = []
        data = parse_json_text(text, path, duplicates, duplicates_at)
        if isinstance(data, dict) and "main" not in data and not isinstance(data.get("side"), list):
            # Another kind of cardkit file would read as a deck of no cards, which says nothing of what it is.
            # (A fleet file's `side` is its player's, a word, never a deck's side list.)
            _refuse_other_kind(path, text)
        parsed = parse_json(data)
        if parsed is None:
            raise UnreadableInput(path, "a JSON deck must be an object with `main` and `side` lists")
        # JSON readers silently keep the last of two `main` lists; a deck must not lose cards that way.
        parsed.problems[:0] = [error("PARSE_ERROR", f"key {quoted(key, 40)} given twice in one object; "
                                                    "only the first was read", pointer=pointer or None)
                               for pointer, key in dict.fromkeys(duplicates_at)]
        return parsed
    parsed = parse_text(text)
    # A squad file's `dealt:` and `squad:` lines head lists, so their header value is empty; a deck's is a name.
    if parsed.header.get("dealt") == "" or parsed.header.get("squad") == "":
        _refuse_other_kind(path, text)
    return parsed


def _refuse_other_kind(path: str, text: str) -> None:
    from cardkit.filekinds import DECK, refuse_other_kind  # only for a file that is no deck

    refuse_other_kind(path, text, DECK.schema, "deck")


def _choose_format(parsed: ParsedDeck, path: str, format_name: str | None) -> Format | None:
    """The format from the argument, else the header, else the header game's default; None if neither says."""
    # Game and format names are lower-case ids; a hand-written `Game: Berserk-TCG` means the same.
    # `game: Берсерк` as well: data/deck-words.json says which game each name means.
    game_value = parsed.header.get("game")
    header_game = deck_words().game(game_value) if game_value is not None else None
    if header_game is not None and header_game not in GAMES:
        where = _where(parsed, "game")
        raise DeckGameUnknown(path, f"{where}unknown game {quoted(header_game)}; known games: {', '.join(GAMES)}")
    name = format_name or _lower(parsed.header.get("format"))
    fmt: Format | None = None
    if name:
        try:
            fmt = load_format(name)
        except UnknownFormat as exc:
            if format_name:
                raise
            raise DeckGameUnknown(path, f"{_where(parsed, 'format')}{exc.message}") from None
    elif header_game:
        fmt = default_format(header_game)
    if fmt and header_game and fmt.game != header_game:
        raise DeckGameUnknown(path, f"format {quoted(fmt.name)} is for {fmt.game}, but the deck says `game: {header_game}`")
    return fmt


def _location(problem: Problem) -> str:
    if problem.line is not None:
        return f"line {problem.line}: "
    return f"{problem.pointer}: " if problem.pointer else ""


def _lower(value: str | None) -> str | None:
    return value.lower() if value is not None else None


def _where(parsed: ParsedDeck, key: str) -> str:
    line = parsed.header_lines.get(key)
    return f"line {line}: " if line else ""


def _infer_game(parsed: ParsedDeck, path: str) -> str:
    """The one game in which the most card lines match; an error if none or a tie."""
    if not parsed.entries:
        # Say why no line counted: a deck of only broken lines would otherwise read as an empty one.
        what, why = "no card lines", ""
        if parsed.problems:
            first = parsed.problems[0]
            what, why = "no card lines that parse", f" (first problem: {_location(first)}{first.message})"
        raise DeckGameUnknown(path, f"{what} and no `game:` line, so the game can't be told{why}; "
                                    "add `game: GAME`", hint=PASS_FORMAT)
    texts = {e.text for e in parsed.entries}
    scores = {g: sum(1 for t in texts if card_index(g).find(t, suggest=False).ids) for g in GAMES}
    best = max(scores.values())
    winners = [g for g, s in scores.items() if s == best]
    if best == 0 or len(winners) > 1:
        which = "no game's cards" if best == 0 else f"cards of {' and '.join(winners)} equally"
        raise DeckGameUnknown(path, f"can't tell the deck's game (it names {which}); add `game: GAME`",
                              hint=PASS_FORMAT)
    return winners[0]


def _resolve(entry: Entry, fmt: Format, index: CardIndex, suggest: bool = True) -> tuple[str | None, Problem | None]:
    game = fmt.game
    where = {"line": entry.line, "pointer": entry.pointer, "card": entry.text}
    found = index.find(entry.text, suggest=suggest)
    if found.resolved:
        return found.resolved, None
    if found.mismatch:
        cid = found.ids[0]
        split = index.name_and_id(entry.text)
        name = split[0] if split else entry.text
        return None, error("AMBIGUOUS_CARD", f"{quoted(entry.text)}: {cid} is {index.catalogue.cards[cid]['name']}, not "
                                             f"{quoted(name)}; correct the id or write the name alone",
                           actual=list(found.ids), candidates=candidates(index.catalogue, found.ids), **where)
    if found.unnamed:
        split = index.name_and_id(entry.text)
        name = split[0] if split else entry.text
        return None, error("UNKNOWN_CARD", f"{quoted(entry.text)}: no {game} card is called {quoted(name)}, and "
                                           f"{found.unnamed} is {index.catalogue.cards[found.unnamed]['name']}; "
                                           f"write {' or '.join(found.suggestions)}, or the id alone",
                           actual=found.unnamed, **where)
    if found.ambiguous:
        return None, error("AMBIGUOUS_CARD", f"{quoted(entry.text)} is {len(found.ids)} cards{_rules_note(fmt, index, found.ids)}; "
                                             "write one id or `NAME (ID)`",
                           actual=list(found.ids), candidates=candidates(index.catalogue, found.ids), **where)
    other = _other_game(entry.text, game)
    if other:
        return None, error("WRONG_GAME", f"{quoted(entry.text)} is a {other[0]} card ({other[1]}), not a {game} card",
                           actual=other[0], **where)
    if found.close:
        # A misspelling of a name several cards share is offered those cards, as the name itself would be.
        name = index.catalogue.cards[found.close[0]]["name"]
        return None, error("UNKNOWN_CARD", f"no {game} card is called {quoted(entry.text)}; did you mean {name}? "
                                           f"{len(found.close)} cards are called that: write one id or `NAME (ID)`",
                           actual=list(found.close), candidates=candidates(index.catalogue, found.close), **where)
    hint = f"; did you mean {' or '.join(found.suggestions)}?" if found.suggestions else ""
    return None, error("UNKNOWN_CARD", f"no {game} card is called {quoted(entry.text)}{hint}", **where)


def _rules_note(fmt: Format, index: CardIndex, ids: tuple[str, ...]) -> str:
    """What the format's deck rules make of a line naming `ids`: the fields they read in which the cards differ,
    or that they read none, so the line's legality is the same whichever card is meant (the deck still names
    one: its hash, its code and the table check compare ids)."""
    cards = [index.catalogue.cards[cid] for cid in ids]
    read = fmt.fields_read(cards)
    differ = [f for f in read if any(card.get(f) != cards[0].get(f) for card in cards[1:])]
    if differ:
        return f", which {fmt.name} tells apart (by {', '.join(differ)})"
    checked = f" ({', '.join(read)})" if read else ""
    return f" that {fmt.name} checks alike{checked}, so its legality is the same whichever is meant, but a deck names one"


def _other_game(text: str, game: str) -> tuple[str, str] | None:
    """(game, what) of another game whose card this text is: its name for an id, its ids for a name."""
    others = [g for g in GAMES if g != game]
    for g in others:
        cid = card_index(g).by_id(text)
        if cid:
            return g, card_index(g).catalogue.cards[cid]["name"]
    for g in others:
        found = card_index(g).find(text, suggest=False)
        if found.ids:
            return g, ", ".join(found.ids[:3]) + (" …" if len(found.ids) > 3 else "")
    return None


def _problem_order(p: Problem) -> tuple[int, str, int]:
    """File order: by line in text decks, by section and index (`/main/10` after `/main/9`) in JSON ones."""
    section, _, index = (p.pointer or "").rpartition("/")
    return (p.line if p.line is not None else 0, section, int(index) if index.isdigit() else -1)
