"""`--plot` writes only into a folder that exists: a mistyped folder is an error, never a silent mkdir."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardkit.cli.main import app
from cardkit.errors import BadArgument

ROOT = Path(__file__).resolve().parent.parent
HAWKS = str(ROOT / "decks" / "berserk-tcg" / "white-hawks.deck")


def test_a_plot_into_a_missing_folder_exits_2_before_simulating_and_creates_nothing(runner: CliRunner, tmp_path: Path) -> None:
    target = tmp_path / "no-such-folder" / "deeper" / "curve.png"
    result = runner.invoke(app, ["simulate", HAWKS, "--games", "100", "--plot", str(target)])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "no folder" in result.stderr and "create it first" in result.stderr
    assert not (tmp_path / "no-such-folder").exists()


@pytest.mark.smoke
def test_a_plot_in_an_existing_folder_is_written(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "plots").mkdir()
    target = tmp_path / "plots" / "curve.svg"
    result = runner.invoke(app, ["simulate", HAWKS, "--games", "100", "--plot", str(target)])
    assert result.exit_code == 0 and target.is_file()


def test_the_library_save_refuses_a_missing_folder_too(tmp_path: Path) -> None:
    from cardkit.plotting import figure, save

    fig, _ = figure()
    with pytest.raises(BadArgument, match="no folder"):
        save(fig, tmp_path / "missing" / "x.png")
    assert not (tmp_path / "missing").exists()
