"""What stops a tournament workflow before any work: a value given for the event or its outputs that can't be used.

Each names the value it refuses, not where it came from: the command line words them with its
options (cardkit/cli/_errors.py), the library leaves them as they are. All are `BadArgument`s,
so a script reading `--json` sees the code it always saw.
"""

from __future__ import annotations

from cardkit.errors import BadArgument
from cardkit.visible import quoted


class FormatsDiffer(BadArgument):
    """The event's format is given, and the registration list names another."""

    def __init__(self, given: str, listed: str, registrations: str) -> None:
        self.given, self.listed, self.registrations = given, listed, registrations
        super().__init__(f"the event format {given} differs from the format {quoted(listed)} in {registrations}")


class PageNotHtml(BadArgument):
    """The published page's file does not end in .html."""

    def __init__(self, path: str) -> None:
        self.path = path
        super().__init__(f"{path}: the page is HTML; give a file ending in .html")


class TablesNotInAFolder(BadArgument):
    """The place for the metagame tables is a file, not a folder."""

    def __init__(self, path: str) -> None:
        self.path = path
        super().__init__(f"{path}: not a folder; give a folder (it is made if it doesn't exist)")


class UnsafeCardUrl(BadArgument):
    """Card links must be web addresses: a page must not run a `javascript:` link."""

    def __init__(self, base: str) -> None:
        self.base = base
        super().__init__(f"{base}: give an http:// or https:// address (or a relative path) for card links")
