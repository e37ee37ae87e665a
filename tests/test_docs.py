"""The README and docs/ stay true: real sessions, a runnable example, a README that stays short, every command
and problem code on its reference page."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from cardkit.cli.main import app

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import docsessions  # noqa: E402

README = (ROOT / "README.md").read_text(encoding="utf-8")
COMMANDS_PAGE = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
PROBLEMS_PAGE = (ROOT / "docs" / "problems.md").read_text(encoding="utf-8")
README_MOST_WORDS = 1500
# Upper-case string literals in the code that are not problem codes.
NOT_PROBLEM_CODES = {"CARDKIT_HOME", "CARDKIT_DB", "CARDKIT_CACHE_DIR", "CARDKIT_DECK_CHECK_PROCESSES", "FOLDER_OR_FILE", "MAX_COUNT", "PRESENTED_DECK",
                     "NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE"}

SESSIONS = [s for path in docsessions.doc_files(ROOT) for s in docsessions.find_sessions(path)]


@pytest.fixture(scope="session")
def working_folders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, list[docsessions.Session]]]:
    from cardkit.db.build import ensure_database

    ensure_database()  # the sessions show a machine that has built its database before
    return {}


def working_folder(session: docsessions.Session, folders: dict[str, tuple[Path, list[docsessions.Session]]],
                   factory: pytest.TempPathFactory) -> Path:
    """A folder that reads as the repository (each top-level entry linked) with a build/ of its own, where the
    page's earlier sessions have run: a session may read what they wrote (build/battle.json), whichever xdist
    worker runs it and in whatever order, and no `--out build/...` ever writes into the checkout."""
    if session.path.name not in folders:
        folder = factory.mktemp("docs")
        for entry in ROOT.iterdir():
            if entry.name not in ("build", ".git") and not entry.name.startswith(".venv"):
                (folder / entry.name).symlink_to(entry)
        (folder / "build").mkdir()
        folders[session.path.name] = (folder, [])
    folder, done = folders[session.path.name]
    for earlier in SESSIONS:
        if earlier.path == session.path and earlier.first_line < session.first_line and earlier not in done:
            docsessions.run_session(earlier, folder)
            done.append(earlier)
    done.append(session)
    return folder


# One xdist worker runs every session of a page, in the page's order (--dist loadgroup, pyproject.toml), so no
# worker replays the earlier sessions of a page another worker already ran.
@pytest.mark.parametrize("session", [pytest.param(s, marks=pytest.mark.xdist_group(f"docs-{s.path.name}"))
                                     for s in SESSIONS], ids=[f"{s.path.name}:{s.first_line}" for s in SESSIONS])
def test_every_console_session_shows_the_output_its_commands_really_print(
        session: docsessions.Session, working_folders: dict[str, tuple[Path, list[docsessions.Session]]],
        tmp_path_factory: pytest.TempPathFactory) -> None:
    actual = docsessions.run_session(session, working_folder(session, working_folders, tmp_path_factory))
    stale = docsessions.stale(session, actual)
    assert not stale, "\n\n".join(f"$ {cmd}\n--- shown\n{shown}\n--- actual\n{real}" for cmd, shown, real in stale)


def test_the_readme_library_example_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = re.findall(r"```python\n(.*?)```", README, re.S)
    assert blocks, "the README shows no library example"
    monkeypatch.chdir(ROOT)
    for code in blocks:
        exec(compile(code, "README.md", "exec"), {})


def test_the_readme_stays_under_1500_words() -> None:
    # Everything counts, sessions and code included: they are what a reader scrolls past too.
    words = len(README.split())
    assert words <= README_MOST_WORDS, f"the README has {words} words; move detail to a page in docs/"


def test_the_readme_installs_as_ci_does_and_runs_the_tests_with_its_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install -c constraints.txt -e '.[test]'" in README
    assert "pip install --quiet -c constraints.txt -e '.[test]'" in ci
    test_command = "python3 -m pytest -q -rs -n auto\n"
    assert test_command in README and test_command in ci


def test_every_reference_page_the_readme_links_to_exists() -> None:
    links = re.findall(r"\]\((docs/[^)#]+)", README)
    assert {"docs/commands.md", "docs/problems.md", "docs/performance.md"} <= set(links)
    assert [link for link in links if not (ROOT / link).is_file()] == []


def _commands(group: object, prefix: str = "cardkit") -> list[tuple[str, object]]:
    out: list[tuple[str, object]] = []
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        path = f"{prefix} {name}"
        out.append((path, command))
        if hasattr(command, "commands"):
            out.extend(_commands(command, path))
    return out


COMMANDS = _commands(get_command(app))


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS])
def test_every_command_has_help_text_and_appears_in_the_command_reference(path: str, runner: CliRunner) -> None:
    result = runner.invoke(app, [*path.split()[1:], "--help"])
    assert result.exit_code == 0, result.output
    assert "Usage:" in result.output
    command = dict(COMMANDS)[path]
    assert (command.help or "").strip(), f"{path} has no help text"  # type: ignore[attr-defined]
    top = " ".join(path.split()[:2])
    assert top in COMMANDS_PAGE, f"{top} is not in docs/commands.md"


def test_every_problem_code_the_code_can_report_is_listed_in_the_problem_reference() -> None:
    codes: set[str] = set()
    for source in (ROOT / "cardkit").rglob("*.py"):
        codes |= set(re.findall(r"""["']([A-Z]{2,}(?:_[A-Z]+)+)["']""", source.read_text(encoding="utf-8")))
    for fmt in (ROOT / "data" / "formats").glob("*.json"):
        codes |= set(re.findall(r'"code":\s*"([A-Z_]+)"', fmt.read_text(encoding="utf-8")))
    # An exception's error_code (what `--json` prints for an error) is listed in docs/json.md instead.
    error_codes = set(json.loads((ROOT / "schemas" / "output" / "error.schema.json").read_text(encoding="utf-8"))
                      ["properties"]["error"]["properties"]["code"]["enum"])
    missing = sorted(codes - NOT_PROBLEM_CODES - error_codes - set(re.findall(r"`([A-Z_]+)`", PROBLEMS_PAGE)))
    assert not missing, f"problem codes missing from docs/problems.md: {missing}"


def test_every_error_code_an_exception_carries_is_in_the_error_schema_and_in_docs_json() -> None:
    carried: set[str] = set()
    for source in (ROOT / "cardkit").rglob("*.py"):
        carried |= set(re.findall(r"""error_code(?::\s*str)?\s*=\s*["']([A-Z_]+)["']""", source.read_text(encoding="utf-8")))
    carried |= set(re.findall(r"""^(?:USAGE|INTERRUPTED) = ["']([A-Z_]+)["']""",
                              (ROOT / "cardkit" / "cli" / "_errors.py").read_text(encoding="utf-8"), re.M))
    schema = json.loads((ROOT / "schemas" / "output" / "error.schema.json").read_text(encoding="utf-8"))
    listed = set(schema["properties"]["error"]["properties"]["code"]["enum"])
    documented = set(re.findall(r"`([A-Z_]+)`", (ROOT / "docs" / "json.md").read_text(encoding="utf-8")))
    assert {"USAGE", "INTERRUPTED", "NOT_FOUND", "UNREADABLE"} <= carried
    assert carried - {"ERROR"} == listed
    assert listed <= documented


def test_every_cardkit_error_subclass_carries_a_code_in_the_error_schema_and_in_docs_json() -> None:
    import importlib
    import pkgutil

    import cardkit
    from cardkit.errors import CardkitError

    for module in pkgutil.walk_packages(cardkit.__path__, "cardkit."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)

    def subclasses(cls: type) -> list[type]:
        return [c for sub in cls.__subclasses__() for c in (sub, *subclasses(sub))]

    schema = json.loads((ROOT / "schemas" / "output" / "error.schema.json").read_text(encoding="utf-8"))
    listed = set(schema["properties"]["error"]["properties"]["code"]["enum"])
    documented = set(re.findall(r"`([A-Z_]+)`", (ROOT / "docs" / "json.md").read_text(encoding="utf-8")))
    found = subclasses(CardkitError)
    assert len(found) > 20
    undocumented = sorted(f"{c.__module__}.{c.__name__}: {c.error_code}" for c in found
                          if c.error_code not in listed or c.error_code not in documented)
    assert not undocumented
    # The base class's default code is in neither: nothing may raise the base class itself.
    raised_bare = [str(p.relative_to(ROOT)) for p in (ROOT / "cardkit").rglob("*.py")
                   if re.search(r"raise CardkitError\(", p.read_text(encoding="utf-8"))]
    assert raised_bare == []


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS])
def test_help_paragraphs_fit_an_80_column_terminal(path: str) -> None:
    # typer keeps the line breaks of every help paragraph after the first, so a longer
    # source line wraps twice on an 80-column terminal and reads as broken text.
    import inspect

    command = dict(COMMANDS)[path]
    paragraphs = inspect.cleandoc(command.help or "").split("\n\n")[1:]  # type: ignore[attr-defined]
    long = [line for para in paragraphs for line in para.split("\n") if len(line) > 76]
    assert not long, f"{path}: help lines over 76 characters: {long}"
