"""The event's registered decklists, and deck checks at the table against them.

Judges tell a decklist problem (the list is illegal or unclear: `tournament check`) from
a deck problem (the cards the player presents differ from the list they registered).
`build_registry` records what each player registered; `deck_check` compares a presented
deck with it, card by card and section by section.
"""

from __future__ import annotations

import difflib
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from cardkit import __version__, paths
from cardkit.catalogue.store import CardId, catalogue_hash, load_game
from cardkit.decks.model import SECTIONS
from cardkit.errors import BadArgument, CardkitError, UnreadableInput
from cardkit.jsonio import input_name
from cardkit.outputs import Kind, Output, file_head
from cardkit.tournament.check import EventCheck, Submission, Verdict
from cardkit.tournament.registrations import player_key
from cardkit.visible import quoted, visible_json

KIND = "cardkit-registry"
# 2: each deck and the registry itself carry a `seal` (`seal_of`); layout 1 files, written before, have none.
LAYOUT = 2


class UnknownPlayer(CardkitError):
    """The registry has no deck for this player."""

    error_code = "UNKNOWN_PLAYER"

    def __init__(self, player: str, path: str, known: int, suggestions: list[str] | None = None) -> None:
        self.player = player
        self.suggestions = suggestions or []
        hint = f"; did you mean: {', '.join(self.suggestions)}" if self.suggestions else ""
        super().__init__(f"{path}: no registered deck for {quoted(player)} ({known} players registered; names are "
                         f"matched ignoring case, accents, spacing and punctuation){hint}")


class RegistryDamaged(CardkitError):
    """The registry's lists and hashes disagree: it was changed after it was written."""

    error_code = "REGISTRY_DAMAGED"

    def __init__(self, path: str, player: str | None, reason: str) -> None:
        self.player = player
        what = f"the registered deck of {quoted(player)} {reason}" if player is not None else reason
        super().__init__(f"{path}: {what}; the registry was changed after it was written, so no deck can be checked "
                         "against it: register the event again")


def seal_of(record: dict[str, Any]) -> str:
    """SHA-256 over every field of a registered deck or of the registry's own fields (its `seal` left out), as
    sorted compact ASCII JSON. A list's cards are taken in card order: the order a file named them in is no part
    of what was registered, as for the deck's `hash`. The registry's own seal takes each deck by its seal."""
    import hashlib

    fields: dict[str, Any] = {}
    for key, value in record.items():
        if key == "seal":
            continue
        if key in SECTIONS:
            value = sorted((c["card"], c["name"], c["count"]) for c in value)
        elif key == "decks":
            value = [d.get("seal") for d in value]
        fields[key] = value
    text = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _registered_deck(s: Submission, when: str, catalogue: str) -> dict[str, Any]:
    cards = load_game(s.report.game or "").cards
    lists: dict[str, list[dict[str, Any]]] = {section: [] for section in SECTIONS}
    for c in s.cards:
        lists[c.section].append({"card": c.card, "name": cards[c.card]["name"], "count": c.copies})
    entry = {"player": s.player, "file": s.path, "name": s.name, "game": s.report.game, "format": s.report.format,
             "hash": s.hash, "verdict": s.verdict.value, "errors": s.errors, "warnings": s.warnings,
             "registered_at": when, "catalogue": catalogue, **lists}
    return entry


def build_registry(result: EventCheck, when: str | None = None) -> dict[str, Any]:
    """The registry of `result`: one entry per readable submission that names its player, legal or not.

    Unreadable files, decks with no player and missing players have no list to compare
    a deck with, so they are not in it; `tournament check` reports them.
    """
    from cardkit.tournament.batch import collector_paused

    when = when or _now()
    catalogue = catalogue_hash()
    with collector_paused():
        decks = [_registered_deck(s, when, catalogue) for s in result.submissions
                 if s.player and s.verdict in (Verdict.LEGAL, Verdict.ILLEGAL)]
    return sealed({"kind": KIND, "layout": LAYOUT, "event": result.event, "format": result.format,
                   "registrations": result.registrations, "registered_at": when, "cardkit": __version__,
                   "catalogue": catalogue, "decks": decks})


def render_registry(registry: dict[str, Any]) -> str:
    """The registry as JSON text: one line per field and one per card, so a diff of two registries reads well
    and 5,000 decks don't take 10 MB of indentation."""
    def one(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    # A seal is written last, after what it seals.
    def deck(d: dict[str, Any]) -> str:
        fields = [f'      {one(k)}: {one(v)}' for k, v in d.items() if k not in SECTIONS and k != "seal"]
        for section in SECTIONS:
            items = ",\n".join(f"        {one(c)}" for c in d[section])
            fields.append(f'      "{section}": [\n{items}\n      ]' if items else f'      "{section}": []')
        if "seal" in d:
            fields.append(f'      "seal": {one(d["seal"])}')
        return "    {\n" + ",\n".join(fields) + "\n    }"

    head = [f"  {one(k)}: {one(v)}" for k, v in registry.items() if k not in ("decks", "seal")]
    decks = ",\n".join(deck(d) for d in registry["decks"])
    head.append('  "decks": [\n' + decks + "\n  ]" if decks else '  "decks": []')
    if "seal" in registry:
        head.append(f'  "seal": {one(registry["seal"])}')
    # Invisible characters in players' names are written as \uXXXX: the same data, safe to print.
    return visible_json("{\n" + ",\n".join(head) + "\n}\n")


def is_registry(path: Path) -> bool:
    """True for a file `write_registry` wrote: a JSON object whose `kind` is cardkit's registry."""
    head = file_head(path, 256)
    return head is not None and head.startswith(b"{") and f'"kind": "{KIND}"'.encode() in head


# Even an earlier registry is only replaced with `force`: it is the record the deck checks compare with.
REGISTRY = Kind("registry", is_registry, forceable=True, keep_existing=True)


def refuse_existing(out: str | os.PathLike[str], force: bool = False,
                    inputs: Iterable[str | os.PathLike[str]] = ()) -> None:
    """`OutputRefused` when `out` may not be written, before any work is done: the guarded writer's check.

    A registry is the record of what players registered: replacing it by accident would
    lose the lists the deck checks compare with, so even an earlier registry needs `force`
    (`REGISTRY` keeps existing files). Inputs, folders and special files are refused whatever
    `force` says, and for that reason rather than for existing.
    """
    Output(Path(out), REGISTRY, tuple(inputs), force).check()


def write_registry(registry: dict[str, Any], out: str | os.PathLike[str], force: bool = False,
                   inputs: Iterable[str | os.PathLike[str]] = ()) -> None:
    """Write `registry` to `out` through the guarded writer: atomically, never over one of `inputs`
    (the event's files) or a special file, and over an existing file only with `force`."""
    from cardkit.tournament.batch import collector_paused

    # The write checks its target as `refuse_existing` does, then again just before the rename.
    with collector_paused():
        Output(Path(out), REGISTRY, tuple(inputs), force).write(render_registry(sealed(registry)))


def sealed(registry: dict[str, Any]) -> dict[str, Any]:
    """`registry` as the record it will be: at the current layout, each deck and the whole with its seal made now."""
    decks = [{**{k: v for k, v in d.items() if k != "seal"}} for d in registry["decks"]]
    for deck in decks:
        deck["seal"] = seal_of(deck)
    out = {**{k: v for k, v in registry.items() if k != "seal"}, "layout": LAYOUT, "decks": decks}
    out["seal"] = seal_of(out)
    return out


@lru_cache(maxsize=1)
def _validator() -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(json.loads((paths.SCHEMAS_DIR / "registry.schema.json").read_text(encoding="utf-8")))


def read_registry(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The registry at `path`, checked against schemas/registry.schema.json; `UnreadableInput` otherwise."""
    from cardkit.jsonio import read_json_input

    data = read_json_input(path, max_bytes=256 << 20)
    errors = sorted(_validator().iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        first = errors[0]
        where = "/" + "/".join(map(str, first.absolute_path))
        raise UnreadableInput(path, f"not a cardkit registry: {where}: {first.message[:200]}")
    registry = dict(data)
    verify_registry(registry, input_name(path))
    return registry


def verify_registry(registry: dict[str, Any], path: str = "registry") -> None:
    """`RegistryDamaged` unless every registered list is what its hash says: one entry per card and section,
    and the hash recomputed from the lists (as `cardkit deck hash` computes it) equal to the one recorded.

    A list registered with an unresolved line has no hash (`null`): its entries are still checked for repeats.
    Then, from layout 2, every deck's `seal` and the registry's own (`seal_of`): a deck check reads the deck's
    `format` and `game`, and a judge shows its `file`, `verdict`, `errors` and `catalogue` as what was
    registered, so none of them may change unnoticed either.
    """
    from cardkit.decks.canonical import lists_hash

    for entry in registry["decks"]:
        sections: dict[str, dict[CardId, int]] = {}
        for section in SECTIONS:
            counts = sections.setdefault(section, {})
            for item in entry[section]:
                if item["card"] in counts:
                    raise RegistryDamaged(path, entry["player"], f"lists {item['card']} twice in its {section} deck")
                counts[item["card"]] = item["count"]
        if entry["hash"] is not None and lists_hash(entry["game"], sections) != entry["hash"]:
            raise RegistryDamaged(path, entry["player"], f"has hash {entry['hash'][:12]}, but its lists hash to "
                                                         f"{lists_hash(entry['game'], sections)[:12]}")
    if registry["layout"] < 2:
        return
    for entry in registry["decks"]:
        if entry.get("seal") != seal_of(entry):
            raise RegistryDamaged(path, entry["player"], "differs from what was registered (its seal does not match "
                                                         "its fields: a format, verdict, file or other field was edited)")
    if registry.get("seal") != seal_of(registry):
        raise RegistryDamaged(path, None, "the registry's own fields or its list of decks differ from what was "
                                          "registered (its seal does not match: an event, format or time was edited, "
                                          "or a deck added or removed)")


def find_registered(registry: dict[str, Any], player: str, path: str = "registry") -> dict[str, Any]:
    """The registered deck of `player`, matched as the registration list matches names."""
    key = player_key(player)
    found = [d for d in registry["decks"] if player_key(d["player"]) == key]
    if not found:
        names = {player_key(d["player"]): d["player"] for d in reversed(registry["decks"])}
        raise UnknownPlayer(player, path, len(names), suggest_players(player, names))
    if len(found) > 1:
        files = ", ".join(d["file"] for d in found[:5])
        raise BadArgument(f"{path}: {quoted(player)} registered {len(found)} decks ({files}); a player registers one, "
                          "so there is no one list to check against")
    return found[0]


SUGGESTED_PLAYERS = 3
# How alike (difflib's ratio of the folded names) a registered name must be to be offered: a slip of a
# letter or two in a name of ten is 0.8 to 0.95, while two unrelated names of that length can reach 0.6.
PLAYER_CUTOFF = 0.75


def suggest_players(player: str, names: dict[str, str]) -> list[str]:
    """Up to `SUGGESTED_PLAYERS` registered names (`names`: folded key to name as registered) close to
    `player`, closest first: the whole name, or (typed as one word) one word of the name, `archer` for `Alice Archer`."""
    key = player_key(player)
    one_word = len(player.split()) == 1
    scores: dict[str, float] = {}
    for k, name in names.items():
        best = difflib.SequenceMatcher(None, key, k).ratio()
        if one_word:
            best = max([best] + [difflib.SequenceMatcher(None, key, player_key(w)).ratio() for w in name.split()])
        if best >= PLAYER_CUTOFF:
            scores[k] = best
    ranked = sorted(scores, key=lambda k: (-scores[k], k))[:SUGGESTED_PLAYERS]
    return [names[k] for k in ranked]


@dataclass(frozen=True)
class Difference:
    """One card in one section whose count differs between the registered list and the presented deck.

    `moved` of the difference is explained by the card being in the other section instead;
    the rest is missing (fewer presented) or extra (more presented).
    """

    card: CardId
    name: str
    section: str
    registered: int
    presented: int
    moved: int = 0
    unresolved_registration: bool = False
    """The registered list had lines that did not resolve: a card it lacks may be one of them."""

    @property
    def delta(self) -> int:
        return self.presented - self.registered

    def describe(self) -> str:
        """`1 moved to side, 1 missing` and the like."""
        other = "side" if self.section == "main" else "main"
        parts = []
        if self.moved:
            parts.append(f"{self.moved} moved {'to' if self.delta < 0 else 'from'} {other}")
        rest = abs(self.delta) - self.moved
        if rest and self.delta > 0 and self.unresolved_registration:
            parts.append(f"{rest} not among the registered lines that resolved")
        elif rest:
            parts.append(f"{rest} {'missing' if self.delta < 0 else 'extra'}")
        return ", ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.card, "name": self.name, "section": self.section, "registered": self.registered,
                "presented": self.presented}


@dataclass(frozen=True)
class PrintingNote:
    """One card presented in other printings than registered: the same card under `copies_by: name`, no difference."""

    name: str
    section: str
    registered: dict[CardId, int]
    presented: dict[CardId, int]

    def describe(self) -> str:
        def ids(counts: dict[CardId, int]) -> str:
            return ", ".join(f"{n} {c}" for c, n in counts.items())

        return f"registered as {ids(self.registered)}, presented as {ids(self.presented)}: printings of one card"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "section": self.section, "registered": self.registered, "presented": self.presented}


@dataclass(frozen=True)
class DeckCheck:
    """A presented deck against a registered one: whether they match, and every difference."""

    player: str
    registered_hash: str | None
    presented_hash: str
    differences: list[Difference]
    registered_file: str = ""
    presented_file: str = ""
    printings: list[PrintingNote] = field(default_factory=list)

    @property
    def registration_unresolved(self) -> bool:
        """The registered list had card lines that did not resolve (no hash): it is not the whole deck."""
        return self.registered_hash is None

    @property
    def match(self) -> bool:
        # Other printings of the same cards change the hash but not the deck; a registered list with
        # unresolved lines (no hash) never matches.
        same = self.registered_hash == self.presented_hash or (self.registered_hash is not None and bool(self.printings))
        return same and not self.differences

    def to_dict(self) -> dict[str, Any]:
        return {"match": self.match, "player": self.player, "registration_unresolved": self.registration_unresolved,
                "registered_hash": self.registered_hash,
                "presented_hash": self.presented_hash, "differences": [d.to_dict() for d in self.differences],
                "printings": [n.to_dict() for n in self.printings]}


def by_card(lists: dict[str, dict[CardId, int]], key: Callable[[CardId], str],
            first: dict[str, CardId]) -> dict[str, dict[CardId, int]]:
    """`lists` counted per card key, each key under the first id (of `first`, else of the lists) that has it."""
    out: dict[str, dict[CardId, int]] = {}
    for section, counts in lists.items():
        merged: dict[CardId, int] = {}
        for cid, n in counts.items():
            k = first.setdefault(key(cid), cid)
            merged[k] = merged.get(k, 0) + n
        out[section] = merged
    return out


def printing_notes(registered: dict[str, dict[CardId, int]], presented: dict[str, dict[CardId, int]],
                   key: Callable[[CardId], str], names: dict[CardId, str]) -> list[PrintingNote]:
    """Each (card, section) whose printings differ between the lists while the card key is the same."""
    out: list[PrintingNote] = []
    for section in SECTIONS:
        reg, pre = registered.get(section, {}), presented.get(section, {})
        for k in dict.fromkeys(key(c) for c in (*reg, *pre)):
            r = {c: n for c, n in reg.items() if key(c) == k}
            p = {c: n for c, n in pre.items() if key(c) == k}
            # One printing on both sides differing only in count is a difference, not a note.
            if r and p and r != p and not (len(r) == len(p) == 1 and r.keys() == p.keys()):
                cid = next(iter(r))
                out.append(PrintingNote(names.get(cid, cid), section, r, p))
    return out


def compare_lists(game: str, registered: dict[str, dict[CardId, int]], presented: dict[str, dict[CardId, int]],
                  names: dict[CardId, str], key: Callable[[CardId], str] | None = None) -> list[Difference]:
    """Every (card, section) whose count differs, in catalogue order, main before side.

    With `key` (the format's card key) the printings of one card count together, under the registered id.
    """
    cards = load_game(game).cards
    if key is not None:
        first: dict[str, CardId] = {}
        registered, presented = by_card(registered, key, first), by_card(presented, key, first)
    order = {cid: i for i, cid in enumerate(cards)}
    every = {c for lists in (registered, presented) for section in lists.values() for c in section}
    out: list[Difference] = []
    for card in sorted(every, key=lambda c: (order.get(c, len(order)), c)):
        rm, rs = registered["main"].get(card, 0), registered["side"].get(card, 0)
        pm, ps = presented["main"].get(card, 0), presented["side"].get(card, 0)
        to_side = min(max(rm - pm, 0), max(ps - rs, 0))
        to_main = min(max(rs - ps, 0), max(pm - rm, 0))
        name = names.get(card) or (cards[card]["name"] if card in cards else card)
        for section, before, after in (("main", rm, pm), ("side", rs, ps)):
            if before != after:
                moved = to_side if (section == "main") == (after < before) else to_main
                out.append(Difference(card, name, section, before, after, moved))
    return out


def deck_check(registry: dict[str, Any], player: str, presented: str | os.PathLike[str],
               registry_path: str = "registry") -> DeckCheck:
    """Compare the deck file `presented` with what `player` registered.

    Raises `UnknownPlayer` for a player with no registered deck, `UnreadableInput` for a
    presented file that is not a deck or has a card line that doesn't resolve (a typing
    slip at the table, not a finding about the deck).
    """
    from cardkit.decks import read_deck
    from cardkit.decks.canonical import deck_hash
    from cardkit.formats.model import load_format

    entry = find_registered(registry, player, registry_path)
    deck = read_deck(presented, entry["format"])
    bad = [p for p in deck.problems if p.is_error]
    if bad:
        first = bad[0]
        where = f"line {first.line}: " if first.line is not None else (f"{first.pointer}: " if first.pointer else "")
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        raise UnreadableInput(input_name(presented), f"{where}{first.message}{more}; a deck check needs every card line resolved")
    if deck.game != entry["game"]:
        raise UnreadableInput(input_name(presented), f"a {deck.game} deck; {quoted(entry['player'])} registered a {entry['game']} deck")
    registered = {s: {c["card"]: c["count"] for c in entry[s]} for s in SECTIONS}
    names = {c["card"]: c["name"] for s in SECTIONS for c in entry[s]}
    shown = {s: deck.section(s) for s in SECTIONS}
    # "A reprint is the same card ... when a deck names it": compare as the copy limit counts (`copies_by`).
    fmt, cards = load_format(entry["format"]), load_game(deck.game).cards

    def key(cid: CardId) -> str:
        return fmt.card_key(cards[cid]) if cid in cards else cid

    differences = compare_lists(deck.game, registered, shown, names, key)
    if entry["hash"] is None:
        differences = [replace(d, unresolved_registration=True) for d in differences]
    return DeckCheck(player=entry["player"], registered_hash=entry["hash"], presented_hash=deck_hash(deck),
                     differences=differences,
                     registered_file=entry["file"], presented_file=input_name(presented),
                     printings=printing_notes(registered, shown, key, names))
