"""Plain `--help` (rich's formatter is not imported) that lists each command's whole summary,
and the help of `cardkit` or a group run without its command."""

from __future__ import annotations

from typing import Any

import typer
from typer.core import TyperGroup
from typer.models import DefaultPlaceholder

SUMMARY_LIMIT = 300
"""Characters of a command's first help paragraph shown in a listing: all of it, wrapped, not cut at 45."""


class NoCommandGiven(Exception):
    """`cardkit` or a group alone: its help, which the console script prints before exiting 2.

    Raised by cardkit itself rather than left to click, which prints the help and exits 0 in
    click 8.1 and raises an exception of its own (in the click package or typer's copy) from 8.2.
    """

    def __init__(self, help_text: str) -> None:
        super().__init__(help_text)
        self.help_text = help_text


class FullSummaryGroup(TyperGroup):
    """A group whose command list wraps each summary instead of cutting it off with `...`."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if not args and self.no_args_is_help and not ctx.resilient_parsing:
            raise NoCommandGiven(ctx.get_help())
        result: list[str] = super().parse_args(ctx, args)
        return result

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
