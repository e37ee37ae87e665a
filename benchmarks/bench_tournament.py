"""Deck submissions checked per second by `cardkit tournament check`, beside two baselines from the same run.

Generates N=500 submissions (the bundled legal decks, one per player) into a temporary
folder, then times:
- the batch check: one run, catalogue and name indexes loaded once (and shared with its worker processes);
- baseline A: what an organizer scripts first, one `cardkit validate FILE` process per deck
  (timed on a sample, since each spawn starts Python and cardkit afresh);
- baseline B: one process, but the catalogue caches cleared before every deck (a cold catalogue per deck).
All three must give the same verdicts on the sample.
Run: python benchmarks/bench_tournament.py [N]
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cardkit.catalogue import store
from cardkit.catalogue.lookup import card_index
from cardkit.formats import model as formats
from cardkit.tournament import check_event, check_submission

ROOT = Path(__file__).resolve().parent.parent
N = int(sys.argv[1]) if len(sys.argv) > 1 else 500
SPAWN_SAMPLE = 10
COLD_SAMPLE = 40


def legal_bundled_decks() -> list[Path]:
    """Bundled text decks whose comment says `# legal` (JSON decks carry their player differently)."""
    out = []
    for p in sorted((ROOT / "decks").glob("*/*.deck")):
        if any(line.strip() == "# legal" for line in p.read_text(encoding="utf-8").splitlines()):
            out.append(p)
    return out


def generate(folder: Path, n: int) -> list[Path]:
    """`n` submissions cycling through the bundled decks, each with its own `player:` line."""
    sources = [(p, [ln for ln in p.read_text(encoding="utf-8").splitlines() if not ln.startswith("player:")])
               for p in legal_bundled_decks()]
    paths = []
    for i in range(n):
        src, lines = sources[i % len(sources)]
        path = folder / f"player-{i:04d}-{src.stem}.deck"
        path.write_text(f"player: Player {i:04d}\n" + "\n".join(lines) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def clear_caches() -> None:
    """Forget every catalogue, name index and format file read so far."""
    store._load.cache_clear()
    card_index.cache_clear()
    formats._all_formats.cache_clear()


def main() -> None:
    cardkit = shutil.which("cardkit") or sys.exit("cardkit is not installed on PATH (pip install -e .)")
    with tempfile.TemporaryDirectory(prefix="cardkit-bench-") as tmp:
        folder = Path(tmp)
        paths = generate(folder, N)

        clear_caches()
        start = time.perf_counter()
        result = check_event([folder])
        batch = time.perf_counter() - start
        verdicts = {Path(s.path).name: s.verdict.value for s in result.submissions}

        sample = paths[:: max(1, N // SPAWN_SAMPLE)][:SPAWN_SAMPLE]
        start = time.perf_counter()
        spawned = {}
        for p in sample:
            rc = subprocess.run([cardkit, "validate", str(p)], capture_output=True).returncode
            spawned[p.name] = {0: "legal", 1: "illegal"}.get(rc, "unreadable")
        spawn = time.perf_counter() - start

        cold_sample = paths[:COLD_SAMPLE]
        start = time.perf_counter()
        cold = {}
        for p in cold_sample:
            clear_caches()
            cold[p.name] = check_submission(p).verdict.value
        cold_time = time.perf_counter() - start

    # Identical decks from different players are only a warning, so every generated deck stays legal.
    assert all(v == "legal" for v in verdicts.values()), "the generated submissions should all be legal"
    assert all(verdicts[k] == v for k, v in spawned.items()), "per-file validate disagrees with the batch"
    assert all(verdicts[k] == v for k, v in cold.items()), "cold-cache check disagrees with the batch"
    rate = N / batch
    identical = sum(p.code == "IDENTICAL_DECKS" for s in result.submissions for p in s.problems)
    print(f"{N} submissions from {len(legal_bundled_decks())} bundled decks, {identical} IDENTICAL_DECKS warnings")
    print(f"batch check (one run):                  {rate:8.1f} decks/s  ({batch:.2f} s for {N})")
    print(f"baseline A, `cardkit validate` per file: {len(sample) / spawn:8.1f} decks/s  (sample of {len(sample)})")
    print(f"baseline B, cold catalogue per deck:     {len(cold_sample) / cold_time:8.1f} decks/s  (sample of {len(cold_sample)})")
    print(f"speed-up: {rate / (len(sample) / spawn):.0f}x over A, {rate / (len(cold_sample) / cold_time):.1f}x over B")


if __name__ == "__main__":
    main()
