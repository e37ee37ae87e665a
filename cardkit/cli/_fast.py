"""The hot commands without typer: `cardkit battle|tcg|fleet moves|apply` and `cardkit build` with plain arguments.

Importing typer costs about as much as a whole engine command's floor (loading and dumping its
state), and these are the commands a game's driver runs again and again; for `build` it was a fifth
of the command. So the console script first asks `plain_call` whether the arguments are of the few
plain shapes below, and runs those through the same command bodies typer's commands run
(cardkit/cli/_engine_commands.py, cardkit/cli/_build_command.py). Anything else, help, a usage
error, an option spelled `--out=X`, a `-` or an empty argument, a path typer would refuse, a stream
that is not UTF-8, shell completion, goes to typer as before, so its messages stay typer's.
tests/test_engine_fast_path.py and tests/test_build_fast_path.py run the same argument lists both ways.

    GROUP moves STATE [--limit N] [--json]
    GROUP apply STATE ACTION... [--out|-o PATH] [--json]      (options anywhere after the command)
    build [--out|-o PATH] [--json]                            (a database path with no escape sequence to print)
"""

from __future__ import annotations

import atexit
import codecs
import gc
import os
import sys
from pathlib import Path
from typing import Optional, Sequence


class Call:
    """A plain engine command line, as typer would have converted its values. (A plain class: a dataclass
    would cost a millisecond of generated code at every start.)"""

    __slots__ = ("module", "command", "state_file", "actions", "out", "limit", "as_json")

    def __init__(self, module: str, command: str, state_file: Path, actions: tuple[str, ...], out: Optional[Path],
                 limit: int, as_json: bool) -> None:
        self.module, self.command, self.state_file, self.actions = module, command, state_file, actions
        self.out, self.limit, self.as_json = out, limit, as_json


def _utf8(stream: object) -> bool:
    """Whether typer's echo would write to `stream` as it is (it re-wraps an ASCII stream, and skips a missing one)."""
    encoding = getattr(stream, "encoding", None)
    try:
        return isinstance(encoding, str) and codecs.lookup(encoding).name == "utf-8"
    except LookupError:
        return False


def _plain_path(text: str) -> bool:
    """Whether typer takes `text` as a path as it is: it refuses an existing file it may not read."""
    try:
        os.stat(text)
    except OSError:
        return True  # not there: the command's own reader words that
    except ValueError:
        return False  # a NUL in it: typer's business
    return os.access(text, os.R_OK)


def _limit(text: str | None) -> Optional[int]:
    from cardkit.cli._engine_commands import MOVES_LIMIT_DEFAULT, MOVES_LIMIT_RANGE

    if text is None:
        return MOVES_LIMIT_DEFAULT

    if not (text.isascii() and text.isdigit() and len(text) <= 6):
        return None
    value = int(text)
    return value if MOVES_LIMIT_RANGE[0] <= value <= MOVES_LIMIT_RANGE[1] else None


class BuildCall:
    """A plain `cardkit build` command line, as typer would have converted its values."""

    __slots__ = ("out", "as_json")

    def __init__(self, out: Optional[Path], as_json: bool) -> None:
        self.out, self.as_json = out, as_json


def _plain_streams() -> bool:
    """Whether typer's echo would write as the fast path does, and no shell completion is asked for."""
    return not any(k.endswith("_COMPLETE") for k in os.environ) and _utf8(sys.stdout) and _utf8(sys.stderr)


def plain_build(args: Sequence[str]) -> Optional[BuildCall]:
    """The call `cardkit build ARGS` makes when `args` are plain; None for anything typer must see."""
    out: Optional[str] = None
    as_json = False
    rest = iter(args)
    for word in rest:
        if word in ("--out", "-o") and out is None:
            out = next(rest, None)
            if not out or out.startswith("-"):
                return None
        elif word == "--json" and not as_json:
            as_json = True
        else:
            return None
    if out is not None and not _plain_path(out):
        return None
    if not _plain_streams():
        return None
    from cardkit import paths

    # The database's path is printed as it is: typer's echo takes escape sequences out of it on a pipe, so a
    # path that is not all printable is left to typer.
    target = Path(out) if out is not None else paths.default_db_path()
    return BuildCall(Path(out) if out is not None else None, as_json) if str(target).isprintable() else None


def plain_call(args: Sequence[str]) -> Optional[Call | BuildCall]:
    """The call `args` (the words after `cardkit`) make when they are plain; None for anything typer must see."""
    if args and args[0] == "build":
        return plain_build(args[1:])
    if len(args) < 3 or args[1] not in ("moves", "apply"):
        return None
    from cardkit.cli._engine_commands import ENGINE_MODULES

    if args[0] not in ENGINE_MODULES:
        return None
    if not _plain_streams():
        return None
    command = args[1]
    valued = ("--out", "-o") if command == "apply" else ("--limit",)
    words: list[str] = []
    values: dict[str, str] = {}
    as_json = False
    rest = iter(args[2:])
    for word in rest:
        if word in valued:
            value = next(rest, None)
            key = valued[0]
            if value is None or key in values or not value or value.startswith("-"):
                return None
            values[key] = value
        elif word == "--json":
            if as_json:
                return None
            as_json = True
        elif not word or word.startswith("-"):
            return None
        else:
            words.append(word)
    if not words or (command == "moves" and len(words) != 1) or (command == "apply" and len(words) < 2):
        return None
    paths = [words[0], *([values["--out"]] if "--out" in values else [])]
    if not all(_plain_path(p) for p in paths):
        return None
    limit = _limit(values.get("--limit"))
    if limit is None:
        return None
    out = Path(values["--out"]) if "--out" in values else None
    return Call(ENGINE_MODULES[args[0]], command, Path(words[0]), tuple(words[1:]), out, limit, as_json)


def run(call: Call | BuildCall) -> int:
    """Run `call` as typer's command would, errors reported as `guarded` reports them; the exit code."""
    from cardkit.cli._output import flush_stdout, plain_echo

    # As cardkit.cli.app.run does: the collector is frozen at exit rather than made to trace everything again.
    atexit.register(gc.freeze)
    try:
        if isinstance(call, BuildCall):
            from cardkit.cli._build_command import build

            exit_code = build(call.out, call.as_json, plain_echo)
        else:
            from cardkit.cli import _engine_commands as commands

            if call.command == "moves":
                exit_code = commands.moves(call.module, call.state_file, call.limit, call.as_json, plain_echo)
            else:
                exit_code = commands.apply(call.module, call.state_file, list(call.actions), call.out, call.as_json,
                                           plain_echo)
        flush_stdout()
        return exit_code
    except BaseException as exc:
        from cardkit.cli._errors import handled  # only a command that fails reports an error

        code = handled(exc, plain_echo, call.as_json)
        if code is None:
            raise
        return code
