"""`cardkit`: the console script's entry point, kept free of imports so Ctrl-C at start-up is one line.

The app itself is in `cardkit.cli.app`; `from cardkit.cli.main import app` still works.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

EXIT_INTERRUPTED = 130


def wants_json(args: Sequence[str]) -> bool:
    """Whether `--json` is among the options (not after `--`): a usage error or an interrupt is then reported as JSON too.
    Here, free of imports, for an interrupt before any command is loaded."""
    options = args[:args.index("--")] if "--" in args else args
    return "--json" in options


def main() -> None:
    """Load the commands and run them; Ctrl-C while loading prints `error: interrupted` (the error object with --json),
    not a traceback."""
    try:
        from cardkit.cli.app import run
    except KeyboardInterrupt:
        if not wants_json(sys.argv[1:]):
            sys.stderr.write("error: interrupted\n")
            sys.exit(EXIT_INTERRUPTED)
        from cardkit.cli._errors import INTERRUPTED, report
        from cardkit.cli._output import plain_echo

        sys.exit(report("interrupted", EXIT_INTERRUPTED, plain_echo, as_json=True, error_code=INTERRUPTED))
    run()


def __getattr__(name: str) -> Any:
    if name == "app":
        from cardkit.cli.app import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
