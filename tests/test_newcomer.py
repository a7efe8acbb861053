"""Issue 16, item 14: the small stumbles of a first session (help text, lazy subpackages,
PNG board files that are not what they seem, the unsolvable JSON answer)."""
from __future__ import annotations

import json
import pickle
import subprocess
import sys
import tempfile

import numpy as np
import pytest

import lightsout
from lightsout.cli import main
from lightsout import picture

Image = pytest.importorskip("PIL.Image")


def test_play_and_cli_need_no_import_of_their_own():
    program = ("import sys, lightsout\n"
               "assert 'lightsout.play' not in sys.modules\n"
               "assert callable(lightsout.play.run_server) and callable(lightsout.cli.main)\n"
               "assert 'play' in dir(lightsout)\n"
               "try:\n    lightsout.no_such_name\nexcept AttributeError as exc:\n    print(exc)\n")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60,
                          cwd=tempfile.gettempdir())
    assert done.returncode == 0, done.stderr
    assert "no_such_name" in done.stdout


def _five_state_png(path):
    board = np.arange(25).reshape(5, 5) % 5
    lightsout.write_board(path, board, states=5)
    return board


def test_a_png_of_more_grey_levels_than_states_is_refused_naming_the_count(tmp_path, capsys):
    board = _five_state_png(tmp_path / "five.png")
    with pytest.raises(lightsout.InvalidBoardError, match="5 grey levels.*states=5"):
        lightsout.read_board(tmp_path / "five.png")
    with pytest.raises(lightsout.InvalidBoardError, match="5 grey levels"):
        lightsout.read_board(tmp_path / "five.png", states=3)
    assert np.array_equal(lightsout.read_board(tmp_path / "five.png", states=5), board)
    assert main(["solve", str(tmp_path / "five.png")]) == 2
    assert "--states 5" in capsys.readouterr().err
    two = np.eye(4, dtype=bool)
    lightsout.write_board(tmp_path / "two.png", two)
    assert np.array_equal(lightsout.read_board(tmp_path / "two.png"), two)
    assert np.array_equal(lightsout.read_board(tmp_path / "two.png", states=3), two.astype(np.uint8) * 2)


def test_a_drawing_is_not_read_back_as_a_board(tmp_path, capsys):
    board_file = tmp_path / "board.txt"
    board_file.write_text("1 1 1\n1 0 1\n1 1 1\n")
    assert main(["solve", str(board_file), "--png", str(tmp_path / "drawing.png"), "--quiet"]) == 0
    capsys.readouterr()
    with pytest.raises(lightsout.InvalidBoardError, match="drawn by lightsout"):
        lightsout.read_board(tmp_path / "drawing.png")
    assert main(["solve", str(tmp_path / "drawing.png")]) == 2
    assert "not a board file" in capsys.readouterr().err
    with Image.open(tmp_path / "drawing.png") as image:      # the tag dropped: its colours are many grey levels
        image.save(tmp_path / "copied.png")
    with pytest.raises(lightsout.InvalidBoardError, match="grey levels"):
        lightsout.read_board(tmp_path / "copied.png")
    picture.Picture(np.ones((3, 3))).save(tmp_path / "saved.png")
    with pytest.raises(lightsout.InvalidBoardError, match="drawn by lightsout"):
        lightsout.read_board(tmp_path / "saved.png")


def test_grey_pictures_in_rgb_still_read(tmp_path):
    grey = np.array([[0, 255, 0], [255, 255, 0]], np.uint8)
    Image.fromarray(np.stack([grey] * 3, axis=-1)).save(tmp_path / "rgb.png")
    assert np.array_equal(lightsout.read_board(tmp_path / "rgb.png"), grey >= 128)


def test_unsolvable_json_carries_the_rules_and_route_as_the_solvable_one(tmp_path, capsys):
    corner = np.zeros((5, 5), np.uint8)
    corner[0, 0] = 1                                  # unsolvable on the open and on the wrapped 5 x 5
    lightsout.write_board(tmp_path / "no.txt", corner)
    lightsout.write_board(tmp_path / "yes.txt", np.ones((5, 5), np.uint8))
    for name, status in (("no.txt", 1), ("yes.txt", 0)):
        for extra in ([], ["--torus"]):
            assert main(["solve", str(tmp_path / name), "--json", "--quiet", *extra]) == status
            record = json.loads(capsys.readouterr().out)
            assert record["solvable"] is (status == 0)
            assert {"torus", "self_toggle", "method", "states", "shape", "nullity"} <= set(record)
            assert record["torus"] == [bool(extra)] * 2 and record["self_toggle"] is True
            assert record["method"] in lightsout.METHODS and record["method"] != "auto"
    with pytest.raises(lightsout.UnsolvableError) as caught:
        lightsout.solve(corner, torus=True)
    copy = pickle.loads(pickle.dumps(caught.value))
    assert (copy.torus, copy.self_toggle, copy.method) == ((True, True), True, "nd")


def test_errors_are_named_where_users_reach_them():
    import traceback

    names = [name for name in lightsout.__all__ if name.endswith("Error")]
    assert len(names) >= 9
    for name in names:
        cls = getattr(lightsout, name)
        assert cls.__module__ == "lightsout" and getattr(lightsout, cls.__qualname__) is cls, name
        assert pickle.loads(pickle.dumps(cls)) is cls
    with pytest.raises(lightsout.UnsolvableError) as caught:
        corner = np.zeros((5, 5), np.uint8)
        corner[0, 0] = 1
        lightsout.solve(corner)
    shown = traceback.format_exception_only(caught.type, caught.value)[-1]
    assert shown.startswith("lightsout.UnsolvableError: ")   # a name that `import lightsout` reaches


def test_every_error_class_lives_in_one_module():
    """Issue 17: the exported errors are defined in lightsout._base.errors (not in seven modules)."""
    import lightsout._base.errors as errors
    from lightsout import gf2

    for name in [name for name in lightsout.__all__ if name.endswith("Error")] + ["NoSolutionError"]:
        cls = getattr(lightsout, name, None) or getattr(gf2, name)
        assert getattr(errors, name) is cls, name
    # an inconsistent GF(2) system is unsolvable like a board: one except clause catches both
    with pytest.raises(lightsout.UnsolvableError) as caught:
        gf2.solve(np.array([[1, 1], [1, 1]]), np.array([0, 1]))
    assert isinstance(caught.value, gf2.NoSolutionError) and isinstance(caught.value, ValueError)
    assert caught.value.augmented_rank == caught.value.rank + 1 == 2
    copy = pickle.loads(pickle.dumps(caught.value))
    assert type(copy) is gf2.NoSolutionError and copy.rank == 1 and str(copy) == str(caught.value)
    assert gf2.NoSolutionError.__module__ == "lightsout.gf2"
