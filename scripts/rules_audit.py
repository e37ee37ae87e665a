"""The rules audit as a test run: every rule of tests/rules/index.json, the tests citing it, and their outcome.

Runs the tests of tests/rules in this process and prints one line per rule and test:
`ID  SECTION  OUTCOME  TEST` (passed, failed, xfail: a rule the engines still bend, with the reason,
not implemented: a rule the project leaves out, with the reason).

    python scripts/rules_audit.py                 # every text
    python scripts/rules_audit.py berserk-tcg     # one text (berserk-tcg, berserker, berserk-online, berserk-ccg)
    python scripts/rules_audit.py --json          # the same as JSON
Exit 1 when a test failed or a rule the index calls tested has no test.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = ROOT / "tests" / "rules"


class _Collect:
    """A pytest plugin noting each test's rule ids and outcome."""

    def __init__(self) -> None:
        self.rules: dict[str, list[str]] = {}
        self.outcome: dict[str, str] = {}
        self.reason: dict[str, str] = {}

    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        for item in items:
            self.rules[item.nodeid] = [str(a) for m in item.iter_markers("rule") for a in m.args]

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "call" or (report.when == "setup" and not report.passed):
            if hasattr(report, "wasxfail"):
                self.outcome[report.nodeid] = "xfail" if report.skipped else "XPASS"
                self.reason[report.nodeid] = str(report.wasxfail)
            else:
                self.outcome[report.nodeid] = report.outcome


def audit(texts: list[str]) -> list[dict[str, Any]]:
    """One row per (rule, test) of the chosen texts (all when empty), in the index's order."""
    index = json.loads((RULES_DIR / "index.json").read_text(encoding="utf-8"))
    chosen = texts or list(index["texts"])
    modules = [str(RULES_DIR / index["texts"][t]["module"]) for t in chosen]
    collect = _Collect()
    with contextlib.redirect_stdout(sys.stderr):  # pytest's own report stays out of the audit's output
        pytest.main(["-q", "-p", "no:cacheprovider", "--no-header", "-o", "console_output_style=classic",
                     "--tb=no", *modules], plugins=[collect])
    by_rule: dict[str, list[str]] = {}
    for nodeid, ids in collect.rules.items():
        for rid in ids:
            by_rule.setdefault(rid, []).append(nodeid)
    rows = []
    for rule in index["rules"]:
        if rule["text"] not in chosen:
            continue
        base = {"id": rule["id"], "text": rule["text"], "section": rule["section"], "about": rule["about"]}
        if rule["status"] == "not-implemented":
            rows.append({**base, "test": None, "outcome": "not implemented", "reason": rule["reason"]})
            continue
        tests = by_rule.get(rule["id"], [])
        if not tests:
            rows.append({**base, "test": None, "outcome": "no test", "reason": None})
        for nodeid in tests:
            rows.append({**base, "test": nodeid.split("::", 1)[1], "outcome": collect.outcome.get(nodeid, "not run"),
                         "reason": collect.reason.get(nodeid)})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("texts", nargs="*", help="texts of the index to audit: berserk-tcg, berserker, berserk-online, berserk-ccg (default: all)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args(argv)
    known = list(json.loads((RULES_DIR / "index.json").read_text(encoding="utf-8"))["texts"])
    unknown = [t for t in args.texts if t not in known]
    if unknown:
        print(f"error: no text {', '.join(map(repr, unknown))} in the index; the texts are {', '.join(known)}",
              file=sys.stderr)
        return 2
    rows = audit(args.texts)
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
    else:
        # Columns as wide as their longest entry: ids run from `tcg-1` to `fleet-maneuver-distance`.
        wide_id = max((len(r["id"]) for r in rows), default=2)
        wide_section = max((len(r["section"]) for r in rows), default=7)
        for r in rows:
            why = f"  ({r['reason']})" if r["reason"] else ""
            print(f"{r['id']:<{wide_id}}  {r['section']:<{wide_section}}  {r['outcome']:<16} {r['test'] or r['about']}{why}")
        counts = Counter(r["outcome"] for r in rows)
        print(f"\n{len({r['id'] for r in rows})} rules: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())))
    return 1 if any(r["outcome"] in ("failed", "no test", "not run", "XPASS") for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
