"""`cardkit`: the console script's entry point, kept free of imports so Ctrl-C at start-up is one line.

The app itself is in `cardkit.cli.app`; `from cardkit.cli.main import app` still works.
"""

from __future__ import annotations

import sys
from typing import Any

EXIT_INTERRUPTED = 130


def main() -> None:
    """Load the commands and run them; Ctrl-C while loading prints `error: interrupted`, not a traceback.

    A plain `battle|tcg|fleet moves|apply` runs without typer (cardkit/cli/_fast.py); everything else through it.
    """
    try:
        from cardkit.cli import _fast

        call = _fast.plain_call(sys.argv[1:])
        if call is None:
            from cardkit.cli.app import run
    except KeyboardInterrupt:
        sys.stderr.write("error: interrupted\n")
        sys.exit(EXIT_INTERRUPTED)
    if call is not None:
        sys.exit(_fast.run(call))
    run()


def __getattr__(name: str) -> Any:
    if name == "app":
        from cardkit.cli.app import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
