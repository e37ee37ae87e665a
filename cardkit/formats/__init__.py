"""Deck formats as data: `data/formats/<name>.json`, checked by `schemas/format.schema.json`."""

from __future__ import annotations

from cardkit.formats.model import Format, FormatError, default_format, list_formats, load_format
from cardkit.formats.predicates import describe, matches

__all__ = ["Format", "FormatError", "default_format", "describe", "list_formats", "load_format", "matches"]
