"""Deck lines resolved and validated per second, beside a naive baseline.

cardkit resolves each card line through the game's prebuilt name/id index and
validates with per-deck counters. The baseline does what one writes first: for
each line, scan the whole catalogue comparing folded names and ids, then count
copies by rescanning the deck's lines per card. Both must agree on every deck.

Then a pasted list of about 140,000 one-card lines (1 MiB, one name 15 cards share) is given to
`cardkit validate` and to `cardkit deck resolve` without a terminal (which lists the choices), each
as its own process, interleaved: `deck resolve` reads and resolves the deck as `validate` does, so
its CPU time and peak memory are printed as ratios against `validate`'s on the same file.
Run: python benchmarks/bench_validate.py
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from cardkit.catalogue.store import load_game
from cardkit.decks import parse_deck, validate_deck
from cardkit.games.registry import game_module
from cardkit.jsonio import read_text_input
from cardkit.textfold import fold, fold_latin

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import process_cost, ratio_line  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = 20
PASTE_LINES = 149_000  # `1 Guts` and its newline: 1 MiB, the deck reader's limit
PASTE_ROUNDS = 3


def bundled() -> list[tuple[Path, str]]:
    paths = sorted(p for p in (ROOT / "decks").glob("*/*") if p.name.endswith((".deck", ".deck.json")))
    return [(p, read_text_input(p)) for p in paths]


def naive_resolve(game: str, lines: list[str]) -> list[str | None]:
    """Linear scan of the catalogue per line: exact id, `NAME (ID)`, then folded and transliterated names."""
    cards = load_game(game).cards
    normalise = getattr(game_module(game, "importer"), "normalise_id", None) or (lambda t: None)
    out: list[str | None] = []
    for text in lines:
        text = normalise(text) or text
        hits = []
        tail = text.rsplit("(", 1)[-1].rstrip(")").strip() if text.endswith(")") else None
        for cid, card in cards.items():
            if cid.casefold() == text.casefold() or (tail and cid.casefold() == (normalise(tail) or tail).casefold()):
                hits = [cid]
                break
            if fold(card["name"]) == fold(text) or fold_latin(card["name"]) == fold_latin(text) or \
                    (card.get("latin") and fold_latin(card["latin"]) == fold_latin(text)):
                hits.append(cid)
        out.append(hits[0] if len(hits) == 1 else None)
    return out


def naive_copies(cards: list[tuple[str, int]]) -> dict[str, int]:
    return {cid: sum(n for c, n in cards if c == cid) for cid, _ in cards}


def main() -> None:
    decks = bundled()
    parsed = [parse_deck(text, path=str(p), json_hint=p.suffix == ".json") for p, text in decks]
    lines = sum(len(d.entries) for d in parsed)

    start = time.perf_counter()
    for _ in range(ROUNDS):
        for p, text in decks:
            validate_deck(parse_deck(text, path=str(p), json_hint=p.suffix == ".json"))
    fast = time.perf_counter() - start

    start = time.perf_counter()
    for _ in range(ROUNDS):
        for deck in parsed:
            ids = naive_resolve(deck.game, [e.text for e in deck.entries])
            naive_copies([(c, e.count) for c, e in zip(ids, deck.entries) if c])
    slow = time.perf_counter() - start

    for deck in parsed:  # the baseline must find the same cards, or the comparison means nothing
        ids = naive_resolve(deck.game, [e.text for e in deck.entries])
        assert Counter({c: n for c, n in naive_copies([(c, e.count) for c, e in zip(ids, deck.entries) if c]).items()}) \
            == Counter(deck.main) + Counter(deck.side), deck.path

    total = lines * ROUNDS
    print(f"{len(decks)} bundled decks, {lines} card lines, {ROUNDS} rounds")
    print(f"cardkit  parse + resolve + validate: {total / fast:10.0f} lines/s  ({fast * 1000 / ROUNDS:.1f} ms per round)")
    print(f"baseline linear-scan resolve only:  {total / slow:10.0f} lines/s  ({slow * 1000 / ROUNDS:.1f} ms per round)")
    print(f"speed-up: {slow / fast:.1f}x")
    pasted_list()


def _run(args: list[str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user + system) and peak resident kilobytes of one cardkit process."""
    return tuple(process_cost([sys.executable, "-m", "cardkit", *args], ROOT, check=False))


def pasted_list() -> None:
    with tempfile.TemporaryDirectory() as folder:
        deck = Path(folder) / "pasted.deck"
        deck.write_text("game: berserk-tcg\n" + "1 Guts\n" * PASTE_LINES, encoding="utf-8")
        commands = {"validate": ["validate", str(deck)], "deck resolve": ["deck", "resolve", str(deck)]}
        runs: dict[str, list[tuple[float, float, int]]] = {name: [] for name in commands}
        for _ in range(PASTE_ROUNDS):  # interleaved, so a burst of load falls on both
            for name, args in commands.items():
                runs[name].append(_run(args))
    wall, cpu, peak = ({name: statistics.median(r[i] for r in rs) for name, rs in runs.items()} for i in range(3))
    print(f"pasted list of {PASTE_LINES:,} `1 Guts` lines, median of {PASTE_ROUNDS} processes each:")
    for name in commands:
        print(f"  {name:13} {wall[name]:6.2f} s wall  {cpu[name]:6.2f} s CPU  {peak[name] / 1024:6.0f} MiB peak")
    print(ratio_line("deck resolve of a pasted list, CPU", cpu["deck resolve"], cpu["validate"],
                     "validate of the same file", goal=1.5))
    print(ratio_line("deck resolve of a pasted list, peak memory", peak["deck resolve"], peak["validate"],
                     "validate of the same file", goal=1.5))


if __name__ == "__main__":
    main()
