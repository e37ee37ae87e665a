"""Plain `--help` (rich's formatter is not imported) that lists each command's whole summary."""

from __future__ import annotations

from typing import Any

import typer
from typer.core import TyperGroup
from typer.models import DefaultPlaceholder

SUMMARY_LIMIT = 300
"""Characters of a command's first help paragraph shown in a listing: all of it, wrapped, not cut at 45."""


class FullSummaryGroup(TyperGroup):
    """A group whose command list wraps each summary instead of cutting it off with `...`."""

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(SUMMARY_LIMIT)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def use_full_summaries(app: typer.Typer) -> None:
    """Give the groups added to `app` full summaries too, unless a group chose its own class."""
    for group in app.registered_groups:
        if isinstance(group.cls, DefaultPlaceholder):
            group.cls = FullSummaryGroup
