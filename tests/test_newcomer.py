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
               "try:\n    getattr(lightsout, 'no_such_name')\nexcept AttributeError as exc:\n    print(exc)\n")
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


# --- issue 29: another distribution's lightsout package (python-lightsout) in the same place ------

#: The other distribution's files, in miniature: its __init__ imports its own board module.
FOREIGN_INIT = "from .board import Board\n__all__ = ['Board']\n"
FOREIGN_BOARD = "class Board:\n    pass\n"
OURS = lightsout.__path__[0]


def _run(folder, *args, code=None):
    """``python -m lightsout ARGS`` (or ``python -c CODE``) with ``folder`` first on the path, in a fresh process."""
    import os

    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(folder), os.path.dirname(OURS)]))
    command = [sys.executable, "-c", code] if code is not None else [sys.executable, "-m", "lightsout", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, env=env, cwd=tempfile.gettempdir())


def _foreign_over_ours(tmp_path):
    """Their __init__.py and board.py, over our other modules: the folder pip leaves when both are installed."""
    package = tmp_path / "site" / "lightsout"
    package.mkdir(parents=True)
    # their __init__ finds our modules beside it, as in the one folder both distributions install into
    (package / "__init__.py").write_text(f"__path__.append({OURS!r})\n" + FOREIGN_INIT)
    (package / "board.py").write_text(FOREIGN_BOARD)
    return package.parent


def _one_line(text):
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    return lines[0]


def test_the_command_says_another_distributions_package_was_found(tmp_path):
    site = _foreign_over_ours(tmp_path)
    done = _run(site, "first-row", "3")
    assert done.returncode == 2 and done.stdout == ""
    line = _one_line(done.stderr)
    assert line.startswith("lightsout: `import lightsout` found another distribution's package")
    assert "python-lightsout" in line and "pip uninstall python-lightsout" in line and "Traceback" not in line
    # the console script's own entry point does the same
    script = "import sys; from lightsout.__main__ import console; sys.argv[1:] = ['first-row', '3']; sys.exit(console())"
    done = _run(site, code=script)
    assert done.returncode == 2 and "python-lightsout" in _one_line(done.stderr)
    # importing the command line module says it too, in the error's one line
    done = _run(site, code="import lightsout.cli")
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1].startswith("ImportError: `import lightsout` found another")


def test_the_import_says_when_another_distributions_board_module_is_loaded():
    # our __init__ with their board.py (already loaded, as their package's import leaves it)
    code = ("import sys, types\n"
            "board = types.ModuleType('lightsout.board'); board.Board = object\n"
            "sys.modules['lightsout.board'] = board\n"
            "import lightsout\n")
    done = _run(tempfile.gettempdir(), code=code)
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: lightsout/board.py") and "another distribution's" in last
    assert "python-lightsout" in last and "TorusArg" not in done.stderr


def test_the_command_says_when_the_shared_files_were_uninstalled():
    # what uninstalling python-lightsout leaves: our modules without __init__.py (a namespace package)
    code = ("import sys, types\n"
            "package = types.ModuleType('lightsout'); package.__path__ = [%r]; package.__file__ = None\n"
            "sys.modules['lightsout'] = package\n"
            "from lightsout.__main__ import console\n"
            "sys.argv[1:] = ['first-row', '3']\n"
            "sys.exit(console())\n") % OURS
    done = _run(tempfile.gettempdir(), code=code)
    assert done.returncode == 2 and done.stdout == ""
    line = _one_line(done.stderr)
    assert "has no __init__.py" in line and "pip install --force-reinstall lightsout-gf2" in line


def test_our_board_module_missing_is_said_by_the_import():
    code = ("import importlib.util, sys\n"
            "find = importlib.util.find_spec\n"
            "importlib.util.find_spec = lambda name, *a: None if name == 'lightsout.board' else find(name, *a)\n"
            "class Gone:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'lightsout.board':\n"
            "            raise ModuleNotFoundError(\"No module named 'lightsout.board'\", name=name)\n"
            "sys.meta_path.insert(0, Gone())\n"
            "import lightsout\n")
    done = _run(tempfile.gettempdir(), code=code)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1].startswith("ImportError: lightsout/board.py is missing")


def test_our_package_and_board_module_carry_the_mark():
    from lightsout._import_help import clash_message, is_ours

    assert is_ours(lightsout) and is_ours(lightsout.board) and clash_message() is None
