"""The project's JSON reader against `json.loads`, on every catalogue file.

    python benchmarks/bench_jsonio.py [--repeat N]

`parse_json` refuses what is past cardkit's limits (nesting depth, number length, NaN, a key
given twice); its nesting depth is counted while the decoder builds each object, with no second
walk over the parsed data. The floor is plain `json.loads` of the same text. Medians of N
interleaved runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import interleaved_medians, ratio_line  # noqa: E402

from cardkit import paths  # noqa: E402
from cardkit.jsonio import parse_json  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    repeat = parser.parse_args().repeat
    texts = [p.read_text(encoding="utf-8") for p in sorted(paths.CARDS_DIR.glob("*/*.json"))]
    medians = interleaved_medians({"parse_json": lambda: [parse_json(t) for t in texts],
                                   "json.loads": lambda: [json.loads(t) for t in texts]}, repeat)
    size = sum(len(t) for t in texts)
    print(f"every catalogue file ({len(texts)} files, {size / 1e6:.1f} M characters; median of {repeat}):")
    print(f"  cardkit parse_json (limits checked)   {medians['parse_json'] * 1000:7.1f} ms")
    print(f"  floor: json.loads                     {medians['json.loads'] * 1000:7.1f} ms")
    print(ratio_line("parse_json, whole catalogue", medians["parse_json"], medians["json.loads"], "json.loads"))


if __name__ == "__main__":
    main()
