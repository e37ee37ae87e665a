"""Issue 41, family 1: no output is written through a symbolic link.

A link at an output's path is refused; with `--force` (where the command has it) the link itself is
replaced by the new file and the command says so. The file the link led to keeps its bytes and its mode,
whether it is someone's notes or an earlier cardkit output.
"""

from __future__ import annotations

import os
import stat
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardkit.cli.main import app
from cardkit.errors import LinkReplaced, OutputRefused
from cardkit.outputs import Kind, Output

ROOT = Path(__file__).resolve().parent.parent
EVENT = Path(__file__).resolve().parent / "data" / "tournament" / "spring-open"
REGISTRATIONS = EVENT / "registrations.csv"
HAWKS = ROOT / "decks" / "berserk-tcg" / "white-hawks.deck"
OWN = Kind("test file", lambda path: True, forceable=True)
NOTES = b"my private notes\n"


def private_notes(folder: Path) -> Path:
    notes = folder / "notes.txt"
    notes.write_bytes(NOTES)
    notes.chmod(0o600)
    return notes


def untouched(notes: Path, link: Path) -> bool:
    return notes.read_bytes() == NOTES and stat.S_IMODE(notes.stat().st_mode) == 0o600 and link.is_symlink()


# --- the rule itself, on the library ------------------------------------------------------------------


def test_a_link_at_the_path_is_refused_without_force_even_when_it_leads_to_cardkits_own_output(tmp_path: Path) -> None:
    notes = private_notes(tmp_path)
    (tmp_path / "out.txt").symlink_to(notes)
    with pytest.raises(OutputRefused, match="is a symbolic link to .*notes.txt; cardkit never writes through a link"):
        Output(tmp_path / "out.txt", OWN).write("new")
    assert untouched(notes, tmp_path / "out.txt")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "out.txt"]


def test_a_forced_write_replaces_the_link_itself_and_says_so(tmp_path: Path) -> None:
    notes = private_notes(tmp_path)
    (tmp_path / "out.txt").symlink_to(notes)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        Output(tmp_path / "out.txt", OWN, force=True).write("new")
    assert notes.read_bytes() == NOTES and stat.S_IMODE(notes.stat().st_mode) == 0o600
    assert not (tmp_path / "out.txt").is_symlink() and (tmp_path / "out.txt").read_text(encoding="utf-8") == "new"
    [said] = [w.message for w in caught if isinstance(w.message, LinkReplaced)]
    assert said.path == str(tmp_path / "out.txt") and said.led_to == str(notes)


def test_a_kind_without_force_names_the_file_to_give_instead(tmp_path: Path) -> None:
    notes = private_notes(tmp_path)
    (tmp_path / "state.json").symlink_to(notes)
    with pytest.raises(OutputRefused, match="give that file itself, or another one") as refusal:
        Output(tmp_path / "state.json", Kind("state", lambda path: True), force=True).write("{}")
    assert not refusal.value.forcing_replaces and untouched(notes, tmp_path / "state.json")


def test_a_link_planted_while_the_work_runs_is_replaced_only_when_forced(tmp_path: Path) -> None:
    notes = private_notes(tmp_path)
    with pytest.raises(OutputRefused, match="symbolic link"):
        with Output(tmp_path / "out.txt", OWN).target() as tmp:
            tmp.write_text("new", encoding="utf-8")
            (tmp_path / "out.txt").symlink_to(notes)
    assert untouched(notes, tmp_path / "out.txt")


def test_a_folder_that_is_a_link_is_still_followed(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "folder").symlink_to(tmp_path / "real", target_is_directory=True)
    Output(tmp_path / "folder" / "out.txt", OWN).write("new")
    assert (tmp_path / "real" / "out.txt").read_text(encoding="utf-8") == "new"


@pytest.mark.parametrize("old_mode", [0o600, 0o640, 0o644])
def test_a_replaced_file_is_never_made_readable_by_more_than_it_was(tmp_path: Path, old_mode: int) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old", encoding="utf-8")
    target.chmod(old_mode)
    old_umask = os.umask(0o022)
    try:
        Output(target, OWN).write("new")
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE(target.stat().st_mode) == old_mode & 0o644


# --- every kind of output, from the command line --------------------------------------------------------


def _plot(target: Path, force: bool) -> int:
    """A plot has no command quicker than a simulation: the library's own plot writer, as `simulate --plot` calls it."""
    from cardkit.plotting import PLOT, figure, save

    fig, _ = figure()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            save(fig, Output(target, PLOT, force=force))
    except OutputRefused:
        return 2
    assert all(isinstance(w.message, LinkReplaced) for w in caught) and len(caught) == force
    return 0


def _cli(args: Callable[[Path], list[str]]) -> Callable[[Path, bool], int | tuple[int, str]]:
    def run(target: Path, force: bool) -> tuple[int, str]:
        result = CliRunner().invoke(app, args(target) + (["--force"] if force else []))
        return result.exit_code, result.output
    return run


OUTPUTS: dict[str, tuple[str, Callable[[Path, bool], int | tuple[int, str]], bool]] = {
    # name: (file name, how to write it, whether the command has --force)
    "converted-deck": ("x.deck", _cli(lambda t: ["deck", "convert", str(HAWKS), "--to", "text", "--out", str(t)]), True),
    "page": ("page.html", _cli(lambda t: ["tournament", "publish", str(EVENT), "--out", str(t)]), True),
    "tables": ("tables/decks.csv", _cli(lambda t: ["tournament", "publish", str(EVENT), "--out",
                                                   str(t.parent.parent / "page.html"), "--csv-dir", str(t.parent)]), True),
    "report": ("report.csv", _cli(lambda t: ["tournament", "check", str(EVENT), "--report", str(t)]), True),
    "registry": ("registry.json", _cli(lambda t: ["tournament", "register", str(EVENT), "-r", str(REGISTRATIONS),
                                                  "--out", str(t)]), True),
    "tournament-database": ("event.db", _cli(lambda t: ["tournament", "db", str(EVENT), "--out", str(t)]), False),
    "plot": ("plot.svg", _plot, True),
}


def _run(name: str, target: Path, force: bool) -> tuple[int, str]:
    done = OUTPUTS[name][1](target, force)
    return done if isinstance(done, tuple) else (done, "")


@pytest.mark.parametrize("name", OUTPUTS)
def test_no_output_is_written_through_a_link_to_a_users_file(tmp_path: Path, name: str) -> None:
    file_name, _, has_force = OUTPUTS[name]
    notes = private_notes(tmp_path)
    target = tmp_path / file_name
    target.parent.mkdir(exist_ok=True)
    target.symlink_to(notes)
    code, said = _run(name, target, force=False)
    assert code == 2 and ("symbolic link" in said or name == "plot"), said
    assert untouched(notes, target)
    if not has_force:
        return
    code, said = _run(name, target, force=True)
    assert code in (0, 1), said
    assert notes.read_bytes() == NOTES and stat.S_IMODE(notes.stat().st_mode) == 0o600
    assert target.is_file() and not target.is_symlink()
    if said:
        assert f"note: replaced the symbolic link {target}" in said.replace("\n", " "), said


@pytest.mark.parametrize("name", OUTPUTS)
def test_no_output_is_written_through_a_link_to_its_own_earlier_output(tmp_path: Path, name: str) -> None:
    file_name, _, _ = OUTPUTS[name]
    earlier = tmp_path / "earlier" / file_name
    earlier.parent.mkdir(parents=True)
    code, said = _run(name, earlier, force=False)
    assert code in (0, 1), said
    written = earlier.read_bytes()
    target = tmp_path / file_name
    target.parent.mkdir(exist_ok=True)
    target.symlink_to(earlier)
    code, said = _run(name, target, force=False)
    assert code == 2, said
    assert earlier.read_bytes() == written and target.is_symlink()
