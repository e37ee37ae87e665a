"""Re-run the shell sessions shown in README.md and docs/, to check or refresh their output.

A session is a ```console block of `$ command` lines, each followed by the
output it prints; an output may end with `[exit N]`, the command's exit code.
Every block runs as one bash script from the repository root, so
`$ echo $?` reports the previous command's exit code too. Blocks fenced as
```text are examples that are not re-run (timings, servers).

    python scripts/docsessions.py --check     # exit 1 when a shown output is stale
    python scripts/docsessions.py --write     # rewrite the outputs in place
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FENCE_OPEN = "```console"
FENCE_CLOSE = "```"
_MARK = "@@cardkit-docsession-end@@"
_EXIT = re.compile(r"^\[exit \d+\]$")
ENV = {"COLUMNS": "120", "NO_COLOR": "1", "TERM": "dumb", "PYTHONHASHSEED": "0"}


@dataclass
class Session:
    path: Path
    first_line: int  # 0-based index of the line after the opening fence
    last_line: int  # index of the closing fence
    commands: list[str]
    shown: list[str]  # output as written, one string per command


def doc_files(root: Path = ROOT) -> list[Path]:
    return [root / "README.md", *sorted((root / "docs").glob("*.md"))]


def find_sessions(path: Path) -> list[Session]:
    lines = path.read_text(encoding="utf-8").split("\n")
    sessions: list[Session] = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == FENCE_OPEN:
            j = i + 1
            while j < len(lines) and lines[j].strip() != FENCE_CLOSE:
                j += 1
            commands: list[str] = []
            shown: list[list[str]] = []
            for line in lines[i + 1:j]:
                if line.startswith("$ "):
                    commands.append(line[2:])
                    shown.append([])
                elif shown:
                    shown[-1].append(line)
            sessions.append(Session(path, i + 1, j, commands, ["\n".join(s) for s in shown]))
            i = j
        i += 1
    return sessions


def run_session(session: Session, root: Path = ROOT, timeout: float = 300) -> list[str]:
    """The real output of each command of `session`, stdout and stderr interleaved.

    Where the shown output ends with `[exit N]`, the real one ends with the real exit code.
    """
    script = "".join(f"{cmd}\n__rc=$?; echo; echo \"{_MARK} $__rc\"; (exit $__rc)\n" for cmd in session.commands)
    proc = subprocess.run(
        ["bash", "-c", script], cwd=root, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, timeout=timeout, env={**os.environ, **ENV},
    )
    outputs = []
    rest = proc.stdout
    for shown in session.shown:
        head, _, rest = rest.partition(f"\n{_MARK} ")
        rc, _, rest = rest.partition("\n")
        text = _normalise(head)
        if _shown_lines(shown) and _EXIT.match(_shown_lines(shown)[-1]):
            text = f"{text}\n[exit {rc}]" if text else f"[exit {rc}]"
        outputs.append(text)
    return outputs


def _shown_lines(text: str) -> list[str]:
    return _normalise(text).split("\n") if text.strip() else []


def _normalise(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").split("\n"))


def stale(session: Session, actual: list[str]) -> list[tuple[str, str, str]]:
    """(command, shown, actual) for every command whose shown output differs."""
    return [(c, s, a) for c, s, a in zip(session.commands, session.shown, actual) if _normalise(s) != _normalise(a)]


def rewrite(path: Path, sessions: list[Session], outputs: list[list[str]]) -> None:
    lines = path.read_text(encoding="utf-8").split("\n")
    for session, actual in sorted(zip(sessions, outputs), key=lambda x: -x[0].first_line):
        body: list[str] = []
        for cmd, out, shown in zip(session.commands, actual, session.shown):
            body.append(f"$ {cmd}")
            if out:
                body.extend(out.split("\n"))
            if shown.endswith("\n") and shown.strip():
                body.append("")  # keep the blank line the author left between commands
        lines[session.first_line:session.last_line] = body
    path.write_text("\n".join(lines), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--write", action="store_true")
    parser.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args(argv)
    bad = 0
    for path in args.files or doc_files():
        sessions = find_sessions(path)
        outputs = [run_session(s) for s in sessions]
        if args.write:
            rewrite(path, sessions, outputs)
            continue
        for s, out in zip(sessions, outputs):
            for cmd, shown, actual in stale(s, out):
                bad += 1
                print(f"{path.name}:{s.first_line}: `{cmd}` shows stale output\n--- shown\n{shown}\n--- actual\n{actual}\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
