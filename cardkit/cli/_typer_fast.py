"""Typer's argument coercion without pydantic for the plain values cardkit's commands take.

Typer (0.2x) turns every parameter of the command being run into a pydantic
TypeAdapter, even one left at its default of None: about 60 ms of imports and
25 ms of schema building before `cardkit validate` reads its deck. Here a
parameter's coercion is built lazily instead, and the values whose coercion is
plain (text, a path, a whole number already in range, a list of these) are
converted directly, exactly as typer's adapters would convert them. Any other
value (an empty path, a number out of range, a choice, a date, a custom
parser) goes to typer's own coercion, so its error messages stay typer's.

`install()` is a no-op on a typer without this machinery. It leans on typer's private
modules (`typer._coercion`, `typer._param_types`), so pyproject.toml bounds typer below the
next minor version, `.ci/run` tests both ends of the range, and tests/test_startup.py fails
loudly when a typer that coerces through pydantic is left without this (or answers differently).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional, Union, get_args, get_origin

_NOT_PLAIN = object()
_TYPERS_OWN: list[Callable[[Any], Any]] = []
_WHOLE = re.compile(r"-?[0-9]{1,30}")


def _plain(annotation: Any, info: Any, value: Any, param: Any, ctx: Any) -> Any:
    """`value` coerced as typer would, or `_NOT_PLAIN` when typer must do it."""
    from typer._param_types import coerce_cli_path, routes_to_path

    if info.parser is not None:
        return _NOT_PLAIN
    if annotation is str:
        return value if isinstance(value, str) else _NOT_PLAIN
    if annotation is bool:
        return value if isinstance(value, bool) else _NOT_PLAIN
    if annotation is int:
        if isinstance(value, str) and _WHOLE.fullmatch(value):
            value = int(value)
        if type(value) is not int or info.clamp:
            return _NOT_PLAIN
        if (info.min is not None and value < info.min) or (info.max is not None and value > info.max):
            return _NOT_PLAIN
        return value
    if isinstance(annotation, type) and issubclass(annotation, Path) and routes_to_path(annotation, info):
        path_type = info.path_type or annotation
        if not (isinstance(path_type, type) and issubclass(path_type, Path)):
            return _NOT_PLAIN
        if isinstance(value, str) and value:
            value = path_type(value)  # what pydantic makes of a non-empty string
        if not isinstance(value, path_type):
            return _NOT_PLAIN
        return coerce_cli_path(value, info, path_type=path_type, param=param, ctx=ctx)
    return _NOT_PLAIN


def _leaf(annotation: Any) -> Any:
    """`X` for `Optional[X]`; the annotation itself otherwise."""
    if get_origin(annotation) is Union:
        args = [a for a in get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


def install() -> None:
    """Route typer's per-parameter coercion through the plain path first; idempotent."""
    try:
        import typer.core as core
        from typer._coercion import RuntimeParam, TypeDescriptor
    except ImportError:  # pragma: no cover - a typer that coerces through click's own types
        return
    found: Optional[Callable[[TypeDescriptor], RuntimeParam]] = getattr(core, "build_runtime_param", None)
    if found is None or getattr(found, "_cardkit_plain", False):
        return
    build: Callable[[TypeDescriptor], RuntimeParam] = found
    _TYPERS_OWN.append(build)

    @dataclass(frozen=True)
    class PlainFirst(RuntimeParam):
        descriptor: Any = None
        typers: list[RuntimeParam] = field(default_factory=list)

        def _typer(self) -> RuntimeParam:
            if not self.typers:
                self.typers.append(build(self.descriptor))
            return self.typers[0]

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            annotation = _leaf(self.annotation)
            if get_origin(annotation) is list and not self.descriptor.is_choice:
                (item,) = get_args(annotation) or (Any,)
                items = value if isinstance(value, (list, tuple)) else [value]
                done = [_plain(_leaf(item), self.parameter_info, v, param, ctx) for v in items]
                if all(d is not _NOT_PLAIN for d in done):
                    return done
            elif self.descriptor.file_annotation is None and not self.descriptor.is_choice:
                done = _plain(annotation, self.parameter_info, value, param, ctx)
                if done is not _NOT_PLAIN:
                    return done
            return self._typer()._coerce_value(value, param=param, ctx=ctx)

    def plain_first(descriptor: TypeDescriptor) -> RuntimeParam:
        return PlainFirst(parameter_info=descriptor.parameter_info, annotation=descriptor.annotation, descriptor=descriptor)

    plain_first._cardkit_plain = True  # type: ignore[attr-defined]
    core.build_runtime_param = plain_first


def typers_own() -> Optional[Callable[[Any], Any]]:
    """typer's own coercion builder that `install()` replaced; None where nothing was replaced."""
    return _TYPERS_OWN[0] if _TYPERS_OWN else None
