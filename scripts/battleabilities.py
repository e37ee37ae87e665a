"""Write (or check) the list of applied and shown ability codes in docs/battle.md from data/battle/abilities.json.

    python scripts/battleabilities.py --check     # exit 1 when the docs' list differs from the data
    python scripts/battleabilities.py --write     # rewrite the list in place
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "battle.md"
START, END = "<!-- abilities:start -->", "<!-- abilities:end -->"


def with_table(text: str, table: str) -> str:
    """`text` with the part between the two markers replaced by `table`."""
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{START}\n{table}\n{END}{tail}"


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from cardkit.games.squad_games.battle.abilities import applied_table

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite docs/battle.md")
    parser.add_argument("--check", action="store_true", help="exit 1 when docs/battle.md is stale (the default)")
    args = parser.parse_args()
    text = DOC.read_text(encoding="utf-8")
    wanted = with_table(text, applied_table())
    if wanted == text:
        return 0
    if args.write:
        DOC.write_text(wanted, encoding="utf-8")
        print(f"{DOC.name}: ability list rewritten")
        return 0
    print(f"{DOC.name}: the ability list differs from data/battle/abilities.json; run with --write", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
