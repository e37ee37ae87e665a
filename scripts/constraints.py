"""Constraints files for pip, both made from the ranges in pyproject.toml.

    python scripts/constraints.py lock      # rewrite constraints.txt: the newest versions the ranges allow, exactly
    python scripts/constraints.py minimum   # print every declared dependency pinned at its lower bound

`constraints.txt` (committed) is what CI and the README's set-up install with
`pip install -c constraints.txt -e '.[test]'`, so every run tests the same versions;
`lock` refreshes it by asking pip (in a dry run, installing nothing) what the ranges
resolve to today. A user's `pip install cardkit` never sees it and resolves from the
ranges. The minimum list (never committed, so it cannot go stale) is what `.ci/run`
installs in a second environment to show each lower bound works; a dependency
declared without a lower bound is an error here, so every range has a tested end.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
LOCK = ROOT / "constraints.txt"
EXTRAS = ("test",)
_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*([^;]*?)\s*(;.*)?$")


def declared(pyproject: Path = PYPROJECT) -> list[str]:
    """The requirement strings of the dependencies and of the extras CI installs."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    found = list(project.get("dependencies", []))
    for extra in EXTRAS:
        found += project.get("optional-dependencies", {}).get(extra, [])
    return found


def normalised(name: str) -> str:
    """The name pip compares (PEP 503): case and runs of `-_.` don't matter."""
    return re.sub(r"[-_.]+", "-", name).lower()


def lower_bound(requirement: str) -> tuple[str, str]:
    """(name, the version after `>=`); ValueError for a requirement without one."""
    match = _REQUIREMENT.match(requirement)
    if not match:
        raise ValueError(f"cannot read the requirement {requirement!r}")
    name, _extras, specifiers, _marker = match.groups()
    bounds = [s.strip()[2:].strip() for s in specifiers.split(",") if s.strip().startswith(">=")]
    if len(bounds) != 1:
        raise ValueError(f"{requirement!r} needs exactly one lower bound (>=) for the minimum-versions run to test")
    return normalised(name), bounds[0]


def minimum_pins(pyproject: Path = PYPROJECT) -> list[str]:
    """`name==lower-bound` for every declared dependency, sorted by name."""
    return sorted(f"{name}=={version}" for name, version in map(lower_bound, declared(pyproject)))


def resolved_pins() -> list[str]:
    """`name==version` for everything `pip install '.[test]'` would install now, cardkit itself left out."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--dry-run", "--ignore-installed",
                        "--report", str(report), f"{ROOT}[{','.join(EXTRAS)}]"], check=True)
        installs = json.loads(report.read_text(encoding="utf-8"))["install"]
    pins = {normalised(i["metadata"]["name"]): i["metadata"]["version"] for i in installs}
    pins.pop("cardkit", None)
    return sorted(f"{name}=={version}" for name, version in pins.items())


def lock_text(pins: list[str]) -> str:
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    header = ("# Exact versions for CI and the README's set-up: pip install -c constraints.txt -e '.[test]'.\n"
              f"# Generated from the ranges in pyproject.toml on Python {python} by: python scripts/constraints.py lock\n")
    return header + "".join(f"{pin}\n" for pin in pins)


def main(argv: list[str]) -> int:
    if argv == ["minimum"]:
        sys.stdout.write("".join(f"{pin}\n" for pin in minimum_pins()))
        return 0
    if argv == ["lock"]:
        LOCK.write_text(lock_text(resolved_pins()), encoding="utf-8")
        print(f"wrote {LOCK.relative_to(ROOT)}")
        return 0
    sys.stderr.write(__doc__ or "")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
