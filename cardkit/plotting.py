"""Shared matplotlib helpers: headless (Agg), imported only by commands that draw.

Usage: `fig, axes = figure(1, 2)`, draw on `axes`, then `save(fig, path)`;
the file type (PNG or SVG) comes from the suffix and the write is atomic and guarded
(`cardkit.outputs`): pass an `Output` to name the command's inputs and `--force`.
Each plot is tagged `cardkit` (PNG Software, SVG creator) so a later plot may replace it.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from cardkit.errors import BadArgument
from cardkit.outputs import Kind, Output, file_head
from cardkit.visible import quoted

PLOT_SUFFIXES: dict[str, str] = {".png": "png", ".svg": "svg"}
_TAG = "cardkit"

PlotTarget = Path | str | Output


def is_plot(path: Path) -> bool:
    """True for a PNG or SVG that `save` wrote: it carries the `cardkit` tag near its top."""
    head = file_head(path)
    if head is None:
        return False
    if head.startswith(b"\x89PNG"):
        return b"tEXtSoftware\x00" + _TAG.encode() in head
    return head.startswith(b"<?xml") and b"<dc:title>" + _TAG.encode() + b"</dc:title>" in head


PLOT = Kind("plot", is_plot, forceable=True)


def _path(target: PlotTarget) -> Path:
    return target.path if isinstance(target, Output) else Path(target)


def plot_format(path: PlotTarget) -> str:
    """'png' or 'svg' from `path`'s suffix; anything else is a BadArgument."""
    path = _path(path)
    suffix = path.suffix.lower()
    if suffix not in PLOT_SUFFIXES:
        raise BadArgument(f"file must end in .png or .svg; got {quoted(str(path))}", "plot")
    return PLOT_SUFFIXES[suffix]


def check_plot_target(path: PlotTarget) -> str:
    """`plot_format(path)`, after making sure a file can go there: checked before a long run, not after it.

    The folder must exist already; none is created.
    """
    kind = plot_format(path)
    target = _path(path)
    if target.is_dir():
        raise BadArgument(f"{quoted(str(target))} is a directory; give a file name", "plot")
    blocking = next((p for p in target.parents if p.exists() and not p.is_dir()), None)
    if blocking is not None:
        raise BadArgument(f"{quoted(str(target))}: {quoted(str(blocking))} is a file, not a directory", "plot")
    # A typo in a folder name must not leave the picture somewhere nobody looks: make no folders.
    if not target.parent.is_dir():
        raise BadArgument(f"{quoted(str(target))}: no folder {quoted(str(target.parent))}; create it first", "plot")
    (path if isinstance(path, Output) else Output(target, PLOT)).check()
    return kind


def figure(rows: int = 1, cols: int = 1, width: float = 11.0, height: float = 4.8) -> tuple[Any, Any]:
    """A new headless figure with a grid of axes and readable default fonts."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    plt.rcParams.update({"font.size": 10, "axes.titlesize": 11, "svg.hashsalt": "cardkit"})
    fig, axes = plt.subplots(rows, cols, figsize=(width, height), constrained_layout=True)
    return fig, axes


def save(fig: Any, path: PlotTarget) -> None:
    """Write `fig` to `path` as PNG or SVG (by suffix), atomically, with no timestamp so reruns match."""
    import matplotlib.pyplot as plt

    kind = check_plot_target(path)
    out = path if isinstance(path, Output) else Output(Path(path), PLOT)
    buffer = io.BytesIO()
    metadata = {"Date": None, "Creator": _TAG} if kind == "svg" else {"Software": _TAG}
    fig.savefig(buffer, format=kind, dpi=120, metadata=metadata)
    plt.close(fig)
    out.write(buffer.getvalue())
