"""`cardkit build` of the catalogue at 1x and at 10x its size in 10x as many files, cold and warm.

    python benchmarks/bench_build_scale.py [--repeat N] [--times K]

What a build keeps in the cache folder (each catalogue and format file's schema check, the table
statements) must grow with the catalogue, never fall over when the catalogue has more files than
some count. So the bundled catalogue is copied into a temporary catalogue folder (`$CARDKIT_HOME`)
once as it is (1x), and once K times over (default 10) as K times as many files: every copy of a
file gets ids (and set ids) of its own, and `catalogue.json` expects K times the totals. The TCG
schema's card id pattern, which has room for a few thousand ids, is widened in both copies to
take the copies' suffix; every other file is as bundled.

Each build is a new process (`cardkit build`'s own code run in-process after its imports, so the
figure is the build's work and not Python's start-up) timed in CPU seconds. Cold: an empty cache
folder, so every file is checked against its schema and noted. Warm: the same cache folder as the
build before. Medians of N interleaved runs. The goal: at K times the catalogue, each costs about
K times as much (at most 1.2 K times).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import ratio_line  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# In the child: the imports and the table statements first (the same at every size), then the build timed.
CHILD = """
import sys, time
import jsonschema
from cardkit.db.build import build_database, table_sql
table_sql()
started = time.process_time()
build_database(__import__("pathlib").Path(sys.argv[1]))
print(time.process_time() - started)
"""
TCG_ID = "^(BK[1-5]-[0-9]{3}|CITY-[1-4R])$"
TCG_ID_WIDENED = "^(BK[1-5]-[0-9]{3}|CITY-[1-4R])(-c[0-9]+)?$"


def renamed(game: str, doc: dict[str, Any], copy: int) -> dict[str, Any]:
    """`doc` with ids and set ids of its own for copy number `copy` (copy 0 is the file as bundled)."""
    if copy == 0:
        return doc

    def card_id(value: str) -> str:
        # CCG ids are 4 to 6 digits (the bundled ones 5): a copy's ids are the next hundred thousands.
        return str(copy * 100_000 + int(value)) if game == "berserk-ccg" else f"{value}-c{copy}"

    doc = json.loads(json.dumps(doc))
    if isinstance(doc.get("set"), dict):
        set_id = doc["set"]["id"]
        doc["set"]["id"] = set_id + copy * 1_000 if isinstance(set_id, int) else f"{set_id}-c{copy}"
    for card in doc.get("cards", []):
        card["id"] = card_id(card["id"])
        if "printings" in card:
            card["printings"] = [card_id(other) for other in card["printings"]]
    for ship in doc.get("ships", []):
        ship["id"] = f"{ship['id']}-c{copy}"
    return doc


def scaled(value: Any, times: int) -> Any:
    """Every total of `catalogue.json`'s expectations multiplied by `times`."""
    if isinstance(value, dict):
        return {key: scaled(item, times) for key, item in value.items()}
    return value * times if isinstance(value, int) else value


def catalogue_home(folder: Path, times: int) -> Path:
    """A catalogue folder holding the bundled catalogue `times` over, one file per copy of each file."""
    shutil.copytree(ROOT / "schemas", folder / "schemas")
    tcg_schema = folder / "schemas" / "cards" / "berserk-tcg.schema.json"
    text = tcg_schema.read_text(encoding="utf-8")
    assert json.dumps(TCG_ID) in text
    tcg_schema.write_text(text.replace(json.dumps(TCG_ID), json.dumps(TCG_ID_WIDENED)), encoding="utf-8")
    shutil.copytree(ROOT / "data" / "formats", folder / "data" / "formats")
    expect = json.loads((ROOT / "data" / "catalogue.json").read_text(encoding="utf-8"))
    (folder / "data" / "catalogue.json").write_text(json.dumps(scaled(expect, times)), encoding="utf-8")
    for source in sorted((ROOT / "data" / "cards").glob("*/*.json")):
        game = source.parent.name
        doc = json.loads(source.read_text(encoding="utf-8"))
        (folder / "data" / "cards" / game).mkdir(parents=True, exist_ok=True)
        for copy in range(times):
            target = folder / "data" / "cards" / game / f"{source.stem}-{copy}.json"
            target.write_text(json.dumps(renamed(game, doc, copy), ensure_ascii=False, indent=1), encoding="utf-8")
    return folder


def build(home: Path, cache: Path, out: Path) -> float:
    """CPU seconds of one build of the catalogue in `home`, with `cache` as the cache folder, in a new process."""
    env = {k: v for k, v in os.environ.items() if k not in ("CARDKIT_DB", "PYTHONDONTWRITEBYTECODE")}
    env.update(CARDKIT_HOME=str(home), CARDKIT_CACHE_DIR=str(cache))
    done = subprocess.run([sys.executable, "-c", CHILD, str(out)], env=env, cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    if done.returncode != 0:
        raise SystemExit(f"error: the build of {home} failed: {done.stderr}")
    return float(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--times", type=int, default=10)
    args = parser.parse_args()
    times, repeat = args.times, args.repeat
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        homes = {1: catalogue_home(folder / "1x", 1), times: catalogue_home(folder / f"{times}x", times)}
        files = {size: len(list((home / "data" / "cards").glob("*/*.json"))) for size, home in homes.items()}
        cpu: dict[tuple[int, str], list[float]] = {}
        for size, home in homes.items():
            build(home, folder / f"warm-{size}", folder / "warm.db")  # fills the cache and the bytecode
        for run in range(repeat):
            for size, home in homes.items():
                out = folder / f"{size}.db"
                cpu.setdefault((size, "cold"), []).append(build(home, folder / f"cold-{size}-{run}", out))
                cpu.setdefault((size, "warm"), []).append(build(home, folder / f"warm-{size}", out))
        medians = {key: statistics.median(seconds) for key, seconds in cpu.items()}
        print(f"cardkit build of the catalogue at 1x and {times}x, in-process CPU time after imports "
              f"(median of {repeat}):")
        for size in homes:
            print(f"  {size:3}x ({files[size]:4} files)   cold {medians[(size, 'cold')] * 1000:8.1f} ms   "
                  f"warm {medians[(size, 'warm')] * 1000:8.1f} ms")
        for way in ("warm", "cold"):
            print(ratio_line(f"build {way}, catalogue {times}x in {files[times]} files", medians[(times, way)],
                             medians[(1, way)], f"the build {way} at 1x ({files[1]} files)", goal=1.2 * times))


if __name__ == "__main__":
    main()
