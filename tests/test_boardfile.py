"""Board files: text, .npy and PNG round trips, and one-line errors naming the line and column."""
from __future__ import annotations

import numpy as np
import pytest

import lightsout
from lightsout._io.boardtext import board_from_text



def _pil():
    """PIL.Image, or skip (Pillow is the `images` extra, in the test extra)."""
    return pytest.importorskip("PIL.Image")


@pytest.mark.parametrize("states", [2, 3, 10, 11, 255])
@pytest.mark.parametrize("name", ["b.txt", "b.npy", "b.png", "board"])
def test_round_trip(tmp_path, rng, states, name):
    if name.endswith(".png"):
        _pil()
    board = rng.integers(0, states, (17, 70)).astype(np.uint8)
    board = board.astype(bool) if states == 2 else board
    lightsout.write_board(tmp_path / name, board, states=states)
    back = lightsout.read_board(tmp_path / name, states=states)
    assert back.dtype == board.dtype and np.array_equal(back, board)


def test_npy_keeps_any_number_of_axes(tmp_path, rng):
    board = rng.integers(0, 2, (3, 4, 5)).astype(bool)
    lightsout.write_board(tmp_path / "cube.npy", board)
    assert np.array_equal(lightsout.read_board(tmp_path / "cube.npy"), board)
    with pytest.raises(lightsout.InvalidBoardError, match="write a .npy file"):
        lightsout.write_board(tmp_path / "cube.txt", board)


def test_png_is_recognised_by_content_and_grey_levels_map(tmp_path):
    Image = _pil()
    grey = np.array([[0, 127, 128, 255]], dtype=np.uint8)
    Image.fromarray(grey).save(tmp_path / "grey.txt", format="PNG")  # a PNG under a text name
    for states in (4, 5, 7):  # grey g is state round(g (k - 1) / 255)
        expected = [[int(g * (states - 1) / 255 + 0.5) for g in grey[0].tolist()]]
        assert lightsout.read_board(tmp_path / "grey.txt", states=states).tolist() == expected
    with pytest.raises(lightsout.InvalidBoardError, match="4 grey levels"):   # more levels than states
        lightsout.read_board(tmp_path / "grey.txt")
    two = np.array([[100, 127, 128, 200]], dtype=np.uint8)[:, [0, 0, 3, 3]]
    Image.fromarray(two).save(tmp_path / "two.png")
    assert lightsout.read_board(tmp_path / "two.png").astype(int).tolist() == [[0, 0, 1, 1]]  # 128 and up: lit
    green = np.array([[0, 0, 255, 255]], dtype=np.uint8)
    Image.fromarray(np.stack([green * 0, green, green * 0], axis=-1)).save(tmp_path / "green.png")
    assert lightsout.read_board(tmp_path / "green.png").astype(int).tolist() == [[0, 0, 1, 1]]  # luminance


def test_one_bit_png_is_small(tmp_path):
    Image = _pil()
    board = np.zeros((1000, 1000), bool)
    lightsout.write_board(tmp_path / "b.png", board)
    assert (tmp_path / "b.png").stat().st_size < 2000
    with Image.open(tmp_path / "b.png") as image:
        assert image.mode == "1"


@pytest.mark.parametrize("text, where", [
    ("10\n1?\n", "line 2, column 2: unexpected character '?'"),
    ("! comment\n\n  1 0 1\n  1 0 z\n", "line 4, column 7: unexpected character 'z'"),
    ("\t10 ! ok\n\t12\n", "line 2, column 3: light state 2 is out of range 0..1"),
    ("101\n\n10\n", "line 3: 2 cells, but line 1 has 3"),
    ("! only a comment\n\n", "no rows"),
])
def test_text_errors_name_line_and_column(tmp_path, text, where):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(lightsout.InvalidBoardError) as info:
        lightsout.read_board(path)
    message = str(info.value)
    assert message.startswith(str(path)) and where in message and "\n" not in message


def test_many_states_are_numbers_with_columns():
    assert board_from_text("0 12 200\n3 . *", states=201).tolist() == [[0, 12, 200], [3, 0, 1]]
    with pytest.raises(lightsout.InvalidBoardError, match="line 2, column 4: '201'"):
        board_from_text("0 1\n1  201", states=201)


def test_bad_npy_and_png(tmp_path):
    np.save(tmp_path / "f.npy", np.array([[0.5, 1.0]]))
    with pytest.raises(lightsout.InvalidBoardError, match="f.npy"):
        lightsout.read_board(tmp_path / "f.npy")
    np.save(tmp_path / "big.npy", np.array([[0, 3]]))
    with pytest.raises(lightsout.InvalidBoardError, match="big.npy"):
        lightsout.read_board(tmp_path / "big.npy")
    _pil()
    (tmp_path / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 20)
    with pytest.raises(lightsout.InvalidBoardError, match="not a readable PNG"):
        lightsout.read_board(tmp_path / "broken.png")
