"""Exceptions for input that stops an operation.

Findings about an input (an illegal deck, a broken catalogue entry) are
`Problem` values, not exceptions. These classes are for what cannot be read
or acted on at all; the CLI turns each into one line and an exit code.
"""

from __future__ import annotations

from cardkit.visible import quoted


class CardkitError(Exception):
    """Something cardkit could not do."""

    exit_code: int = 2
    # Stable names for scripts: `--json` prints an error as {"error": {"code": ..., "message": ...}}.
    # Only subclasses are raised, each with a code docs/json.md lists; this default is never printed.
    error_code: str = "ERROR"
    # Advice in terms of a terminal (a command, an option, a shell line), kept out of `message` so the
    # message reads right wherever it is shown (the web deck page has no options and no shell).
    hint: str | None = None

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or (self.__doc__ or "").strip())

    @property
    def message(self) -> str:
        """What went wrong and what to change in the input, worded for any place it is shown."""
        return str(self.args[0])

    @property
    def terminal_message(self) -> str:
        """`message` with the terminal's own advice (`hint`) after it, as the CLI prints it."""
        return with_hint(self.message, self.hint)


def with_hint(message: str, hint: str | None) -> str:
    """A message as a terminal shows it: its terminal-only advice in brackets after it."""
    return f"{message} ({hint})" if hint else message


class UnreadableInput(CardkitError):
    """The input file could not be read."""

    error_code = "UNREADABLE"

    def __init__(self, path: object, reason: str, hint: str | None = None) -> None:
        self.path = str(path)
        self.reason = reason
        self.hint = hint
        super().__init__(f"{self.path}: {reason}")


class OutputRefused(CardkitError):
    """cardkit will not write this file: an input, a special file, or a file it did not write itself."""

    error_code = "OUTPUT_REFUSED"

    def __init__(self, path: object, reason: str) -> None:
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{self.path} {reason}")


class WriteFailed(CardkitError):
    """cardkit could not finish writing a file (a full disk, a file size limit, a folder it cannot write in);
    whatever was at the path before is left as it was."""

    error_code = "WRITE_FAILED"

    def __init__(self, path: object, reason: str) -> None:
        self.path = str(path)
        self.reason = reason
        super().__init__(f"can't write {self.path}: {reason}; nothing written")


class UnknownGame(CardkitError):
    """No such game."""

    error_code = "UNKNOWN_GAME"

    def __init__(self, game: str) -> None:
        from cardkit.games.registry import GAMES

        self.game = game
        super().__init__(f"unknown game {quoted(game)}; known games: {', '.join(GAMES)}")


class UnknownFormat(CardkitError):
    """No such format."""

    error_code = "UNKNOWN_FORMAT"

    def __init__(self, name: str, known: list[str] | None = None) -> None:
        self.name = name
        hint = f"; known formats: {', '.join(known)}" if known else ""
        super().__init__(f"unknown format {quoted(name)}{hint}")


class CardNotFound(CardkitError):
    """No card matches."""

    error_code = "NOT_FOUND"
    exit_code = 1

    def __init__(self, query: str, suggestions: list[str] | None = None) -> None:
        self.query = query
        self.suggestions = suggestions or []
        hint = f"; did you mean: {', '.join(self.suggestions)}" if self.suggestions else ""
        super().__init__(f"no card matches {quoted(query)}{hint}")


class AmbiguousCard(CardkitError):
    """Several cards match."""

    error_code = "AMBIGUOUS"
    exit_code = 1

    def __init__(self, query: str, candidates: list[str]) -> None:
        self.query = query
        self.candidates = candidates
        shown = ", ".join(candidates[:12]) + (" ..." if len(candidates) > 12 else "")
        super().__init__(f"{quoted(query)} matches {len(candidates)} cards: {shown}; give an id")


class CardNotInGame(CardNotFound):
    """No card of the one game asked about matches (a card of another game does not count)."""

    def __init__(self, query: str, game: str, suggestions: list[str] | None = None, why: str = "") -> None:
        self.game = game
        self.suggestions = suggestions or []
        self.query = query
        hint = f"; did you mean: {', '.join(self.suggestions)}" if self.suggestions else ""
        CardkitError.__init__(self, f"no {game} card matches {quoted(query)}{why}{hint}")


class CatalogueError(CardkitError):
    """The catalogue is missing or cannot be read."""

    error_code = "CATALOGUE"


class BadArgument(CardkitError):
    """A command-line argument has a value the command cannot use."""

    error_code = "BAD_ARGUMENT"


class BadActionText(CardkitError):
    """The text names no action of the game (every engine's, and the TCG opening engine's)."""

    error_code = "BAD_ACTION"

    def __init__(self, text: str, expected: str, kind: str = "an action", why: str = "") -> None:
        self.text = text
        super().__init__(f"not {kind}: {quoted(text)}{'; ' + why if why else ''}; expected {expected}")


class IllegalAction(CardkitError):
    """The action is not legal in this state: `reason` says why, `action` (when given) which action."""

    error_code = "ILLEGAL_ACTION"
    exit_code = 1  # a finding about the state, as docs/json.md gives ILLEGAL_ACTION

    def __init__(self, reason: str, action: object | None = None) -> None:
        self.reason, self.action = reason, action
        super().__init__(reason if action is None else f"{action}: {reason}")
