"""Plain `--help` (rich's formatter is not imported) that lists each command's whole summary,
names every value as a reader expects (`DECK...`, `--out PATH`, `--games N`), and the help of
`cardkit` or a group run without its command."""

from __future__ import annotations

from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup
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


def value_name(param: Any, ctx: Any) -> str:
    """What help calls a parameter's value: its metavar; else an argument's name, an option's
    `PATH`, `N`, `NUMBER`, choices, or its own name (`--format FORMAT`).

    Read through public attributes only: click's `type.name` where typer runs on the click package,
    else typer's own `display_type` (`<int range>`, `<path>`, `<list[Path]>`), which is what it shows.
    """
    if param.metavar:
        return str(param.metavar).removesuffix("...")
    if param.param_type_name == "argument":
        # The command's help text speaks of its arguments by name (`Check each DECK`).
        return str(param.name).upper()
    click_type = getattr(param, "type", None)
    if click_type is not None:
        kind = str(getattr(click_type, "name", "")).lower()
        choices = getattr(click_type, "choices", None)
        if choices:
            return "|".join(map(str, choices))
    else:
        shown = param.display_type(ctx) if hasattr(param, "display_type") else ""
        kind = str(shown or "").strip("<>").lower().removeprefix("list[").removesuffix("]")
        if "|" in kind:
            return kind
    if "path" in kind or "file" in kind:
        return "PATH"
    if kind.startswith("int"):
        return "N"
    if kind.startswith("float"):
        return "NUMBER"
    longest = max(param.opts, key=len)
    return longest.lstrip("-").upper().replace("-", "_")


def _repeats(param: Any) -> bool:
    return param.nargs != 1 or bool(getattr(param, "multiple", False))


def _usage_name(param: Any, ctx: Any) -> str:
    """`DECK`, `[DECK]` or `DECK...` as the usage line writes an argument."""
    name = value_name(param, ctx)
    name = name if param.required else f"[{name}]"
    return f"{name}..." if _repeats(param) else name


def _name_column(param: Any, ctx: Any) -> str:
    """`DECK...` for an argument; `-o, --out PATH` or `--json` (a flag takes no value) for an option."""
    if param.param_type_name == "argument":
        return value_name(param, ctx) + ("..." if _repeats(param) else "")
    names = ", ".join(sorted(param.opts, key=lambda o: (o.startswith("--"), o)))
    if getattr(param, "secondary_opts", None):
        names += " / " + ", ".join(param.secondary_opts)
    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        return names
    return f"{names} {value_name(param, ctx)}" + ("..." if _repeats(param) else "")


class PlainHelpCommand(TyperCommand):
    """A command whose usage line and parameter list name values as `DECK...`, `PATH`, `N`.

    typer 0.2x writes `{DECK}...`, `<list[Path]>` and `<int range>`; the text to the right of
    each name (help, default, range, `required`) stays typer's own.
    """

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        return pieces + [_usage_name(p, ctx) for p in self.get_params(ctx) if p.param_type_name == "argument"]

    def format_options(self, ctx: Any, formatter: Any) -> None:
        rows: dict[str, list[tuple[str, str]]] = {"argument": [], "option": []}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is not None and param.param_type_name in rows:
                rows[param.param_type_name].append((_name_column(param, ctx), record[1]))
        for kind, title in (("argument", "Arguments"), ("option", "Options")):
            if rows[kind]:
                with formatter.section(title):
                    formatter.write_dl(rows[kind])


def use_full_summaries(app: typer.Typer) -> None:
    """Give the groups added to `app` full summaries, and every command of `app` and its groups plain
    value names, unless a group or command chose its own class."""
    for command in app.registered_commands:
        # typer's default is None, a placeholder or TyperCommand itself, depending on its version.
        if command.cls is None or command.cls is TyperCommand or isinstance(command.cls, DefaultPlaceholder):
            command.cls = PlainHelpCommand
    for group in app.registered_groups:
        if isinstance(group.cls, DefaultPlaceholder):
            group.cls = FullSummaryGroup
        if group.typer_instance is not None:
            use_full_summaries(group.typer_instance)
