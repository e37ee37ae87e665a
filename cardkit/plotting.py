"""Shared matplotlib helpers: headless (Agg), imported only by commands that draw.

Usage: `fig, axes = figure(1, 2)`, draw on `axes`, then `save(fig, path)`;
the file type (PNG or SVG) comes from the suffix and the write is atomic.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from cardkit.errors import BadArgument

PLOT_SUFFIXES: dict[str, str] = {".png": "png", ".svg": "svg"}


def plot_format(path: Path | str) -> str:
    """'png' or 'svg' from `path`'s suffix; anything else is a BadArgument."""
    suffix = Path(path).suffix.lower()
    if suffix not in PLOT_SUFFIXES:
        raise BadArgument(f"--plot file must end in .png or .svg; got {str(path)!r}")
    return PLOT_SUFFIXES[suffix]


def check_plot_target(path: Path | str) -> str:
    """`plot_format(path)`, after making sure a file can go there: checked before a long run, not after it.

    The folder must exist already; none is created.
    """
    kind = plot_format(path)
    target = Path(path)
    if target.is_dir():
        raise BadArgument(f"--plot {str(path)!r} is a directory; give a file name")
    blocking = next((p for p in target.parents if p.exists() and not p.is_dir()), None)
    if blocking is not None:
        raise BadArgument(f"--plot {str(path)!r}: {str(blocking)!r} is a file, not a directory")
    # A typo in a folder name must not leave the picture somewhere nobody looks: make no folders.
    if not target.parent.is_dir():
        raise BadArgument(f"--plot {str(path)!r}: no folder {str(target.parent)!r}; create it first")
    return kind


def figure(rows: int = 1, cols: int = 1, width: float = 11.0, height: float = 4.8) -> tuple[Any, Any]:
    """A new headless figure with a grid of axes and readable default fonts."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    plt.rcParams.update({"font.size": 10, "axes.titlesize": 11, "svg.hashsalt": "cardkit"})
    fig, axes = plt.subplots(rows, cols, figsize=(width, height), constrained_layout=True)
    return fig, axes


def save(fig: Any, path: Path | str) -> None:
    """Write `fig` to `path` as PNG or SVG (by suffix), atomically, with no timestamp so reruns match."""
    import matplotlib.pyplot as plt

    from cardkit.jsonio import write_atomic

    kind = check_plot_target(path)
    buffer = io.BytesIO()
    metadata = {"Date": None} if kind == "svg" else {"Software": None}
    fig.savefig(buffer, format=kind, dpi=120, metadata=metadata)
    plt.close(fig)
    try:
        write_atomic(path, buffer.getvalue())
    except OSError as exc:
        raise BadArgument(f"can't write the plot to {str(path)!r}: {exc.strerror or exc}") from None
