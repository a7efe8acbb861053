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


#: Widths of the PNG round trips: every one to 300 (Pillow 10-13 read one-bit pictures from 256
#: pixels wide as bools holding the byte 255, which the solvers refused), and some larger.
PNG_WIDTHS = list(range(1, 301)) + [511, 512, 513, 1000, 1023, 1025, 4096]


def test_one_bit_png_of_every_width_reads_back(tmp_path):
    Image = _pil()
    rng = np.random.default_rng(256)
    for width in PNG_WIDTHS:
        board = rng.random((1 + width % 5, width)) < 0.5
        ours, theirs = tmp_path / "ours.png", tmp_path / "pillow.png"
        lightsout.write_board(ours, board)           # our one-bit writer
        Image.fromarray(board).save(theirs)          # Pillow's own, mode "1"
        for path in (ours, theirs):
            back = lightsout.read_board(path)
            assert back.dtype == bool and np.array_equal(back, board), (path.name, width)
            assert back.view(np.uint8).max(initial=0) <= 1, (path.name, width)   # a bool's byte is 0 or 1
            if width in (255, 256, 257, 300):
                x = lightsout.solve(back, method="nd") if back.shape[0] == 1 else None
                assert x is None or not lightsout.press(back, x.presses).any()
    wide = rng.random((3, 256)) < 0.5
    Image.fromarray(wide).save(tmp_path / "wide.png")
    s = lightsout.solve(lightsout.read_board(tmp_path / "wide.png"))
    assert s.verify()


@pytest.mark.parametrize("mode", ["L", "LA", "P", "RGB", "RGBA", "I;16", "1"])
@pytest.mark.parametrize("width", [1, 255, 256, 300])
def test_png_in_every_mode_the_files_page_promises(tmp_path, mode, width):
    # a dark pixel is off, a light one lit (grey level >= 128); k states: grey levels in even steps
    Image = _pil()
    rng = np.random.default_rng(width)
    board = (rng.random((4, width)) < 0.5).astype(np.uint8)
    grey = board * 255
    if mode == "I;16":
        image = Image.fromarray(board.astype(np.uint16) * 65535)
        assert image.mode == "I;16"
    elif mode == "1":
        image = Image.fromarray(board.astype(bool))
    else:
        image = Image.fromarray(grey.astype(np.uint8)).convert(mode)
    image.save(tmp_path / "board.png")
    back = lightsout.read_board(tmp_path / "board.png")
    assert back.dtype == bool and np.array_equal(back, board.astype(bool))
    assert back.view(np.uint8).max() <= 1
    if mode in ("1", "I;16"):
        return
    levels = rng.integers(0, 5, (4, width)).astype(np.uint8)        # five states, written by Pillow
    grey5 = ((levels.astype(np.int64) * 510 + 4) // 8).astype(np.uint8)
    Image.fromarray(grey5).convert(mode).save(tmp_path / "five.png")
    assert np.array_equal(lightsout.read_board(tmp_path / "five.png", states=5), levels)


def test_sixteen_bit_grey_scales_to_grey_levels(tmp_path):
    Image = _pil()
    for dark, lit in ((0, 65535), (257 * 127 + 128, 257 * 128 + 129)):    # 127 and 129 of 255
        samples = np.array([[dark, lit, lit, dark]], dtype=np.uint16)
        Image.fromarray(samples).save(tmp_path / "sixteen.png")
        assert lightsout.read_board(tmp_path / "sixteen.png").astype(int).tolist() == [[0, 1, 1, 0]]
    levels = np.array([[0, 1, 2]], dtype=np.uint16) * 32768 - np.array([[0, 0, 1]], dtype=np.uint16)  # 0, 128, 255
    Image.fromarray(levels).save(tmp_path / "three.png")
    assert lightsout.read_board(tmp_path / "three.png", states=3).tolist() == [[0, 1, 2]]


# --- Solution.save: the presses as a board file -------------------------------------------------

@pytest.mark.parametrize("name", ["presses.txt", "presses.npy", "presses.png", "presses"])
@pytest.mark.parametrize("states", [2, 3, 12])
def test_solution_save_reads_back_as_presses_that_clear_the_board(tmp_path, name, states):
    import oracle

    if name.endswith(".png"):
        _pil()
    rng = np.random.default_rng(states)
    for _ in range(50):
        board = rng.integers(0, states, (4, 5))
        try:
            s = lightsout.solve(board, states=states)
        except lightsout.UnsolvableError:
            continue
        s.save(tmp_path / name)
        back = lightsout.read_board(tmp_path / name, states=states)
        assert np.array_equal(back, s.presses)
        assert not oracle.replay_nd(board, back, states=states).any()
        return
    pytest.fail("no solvable board drawn")


def test_solution_save_of_more_axes_and_of_a_graph(tmp_path):
    import oracle

    cube = np.ones((2, 3, 4), dtype=np.uint8)
    s = lightsout.solve(cube)
    s.save(tmp_path / "cube.npy")
    back = lightsout.read_board(tmp_path / "cube.npy")
    assert back.shape == (2, 3, 4) and not oracle.replay_nd(cube, back).any()
    with pytest.raises(lightsout.InvalidBoardError, match="write a .npy file"):
        s.save(tmp_path / "cube.txt")
    path = lightsout.solve_graph([(0, 1), (1, 2)], [1, 1, 1])     # a path of three vertices
    path.save(tmp_path / "graph.txt")
    assert lightsout.read_board(tmp_path / "graph.txt").ravel().tolist() == path.presses.astype(int).tolist()


# -- the marks of the board masks (issue 30) --------------------------------------------------------------

def _random_masks(rng, shape):
    """Holes, unpressable cells and free lights of every combination (a hole takes no other mark)."""
    holes = rng.random(shape) < 0.2
    unpressable = (rng.random(shape) < 0.3) & ~holes
    free_lights = (rng.random(shape) < 0.3) & ~holes
    return holes, unpressable, free_lights


@pytest.mark.parametrize("states", [2, 3, 10, 11, 255])
def test_masks_round_trip_through_text(tmp_path, rng, states):
    for trial in range(6):
        shape = (int(rng.integers(1, 8)), int(rng.integers(1, 12)))
        board = rng.integers(0, states, shape).astype(np.uint8)
        holes, unpressable, free_lights = _random_masks(rng, shape)
        board[holes] = 0  # a hole's light is not written
        board = board.astype(bool) if states == 2 else board
        path = tmp_path / f"m{trial}.txt"
        lightsout.write_board(path, board, states=states, holes=holes, unpressable=unpressable,
                              free_lights=free_lights)
        back = lightsout.read_board(path, states=states, masks=True)
        assert back.lights.dtype == board.dtype and np.array_equal(back.lights, board)
        for got, want in ((back.holes, holes), (back.unpressable, unpressable), (back.free_lights, free_lights)):
            assert (got is None and not want.any()) or np.array_equal(got, want)
        text = lightsout.format_board(board, states=states, holes=holes, unpressable=unpressable,
                                      free_lights=free_lights)
        again = lightsout.parse_board(text, states=states, masks=True)
        assert np.array_equal(again.lights, board) and again.masks().keys() == back.masks().keys()


def test_every_combination_of_marks_reads():
    marked = lightsout.parse_board("~ 1 1/ 1' 1/' 1'/ 0 0/ 0' 0/'", masks=True)
    assert marked.lights.astype(int).tolist() == [[0, 1, 1, 1, 1, 1, 0, 0, 0, 0]]
    assert marked.holes.astype(int).tolist() == [[1, 0, 0, 0, 0, 0, 0, 0, 0, 0]]
    assert marked.unpressable.astype(int).tolist() == [[0, 0, 1, 0, 1, 1, 0, 1, 0, 1]]
    assert marked.free_lights.astype(int).tolist() == [[0, 0, 0, 1, 1, 1, 0, 0, 1, 1]]
    # written without spaces and with k states alike
    tight = lightsout.parse_board("~11/1'1/'", masks=True)
    assert tight.unpressable.astype(int).tolist() == [[0, 0, 1, 0, 1]]
    many = lightsout.parse_board("~ 12/ 3' 0/'", states=16, masks=True)
    assert many.lights.tolist() == [[0, 12, 3, 0]] and many.holes.astype(int).tolist() == [[1, 0, 0, 0]]


def test_unmarked_text_reads_alike_with_masks(tmp_path, rng):
    board = rng.integers(0, 2, (9, 13)).astype(bool)
    lightsout.write_board(tmp_path / "b.txt", board)
    marked = lightsout.read_board(tmp_path / "b.txt", masks=True)
    assert np.array_equal(marked.lights, board) and marked.masks() == {}
    assert np.array_equal(lightsout.read_board(tmp_path / "b.txt"), board)   # the old call: an array


def test_npy_and_png_read_with_masks_carry_none_and_refuse_them(tmp_path, rng):
    board = rng.integers(0, 2, (3, 4)).astype(bool)
    lightsout.write_board(tmp_path / "b.npy", board)
    marked = lightsout.read_board(tmp_path / "b.npy", masks=True)
    assert np.array_equal(marked.lights, board) and marked.masks() == {}
    for name in ("b.npy", "b.png"):
        with pytest.raises(lightsout.InvalidBoardError, match="hold no masks"):
            lightsout.write_board(tmp_path / name, board, holes=np.eye(3, 4, dtype=bool))


@pytest.mark.parametrize("text, states, message", [
    ("1 ~\n", 2, "line 1, column 3: '~' is a mark of the board masks"),
    ("1/ 0\n", 2, "line 1, column 2: '/' is a mark of the board masks"),
    ("1 0 12'\n", 16, "line 1, column 7: \"'\" is a mark of the board masks"),
])
def test_marks_are_refused_without_masks(tmp_path, text, states, message):
    path = tmp_path / "m.txt"
    path.write_text(text)
    with pytest.raises(lightsout.InvalidBoardError, match="read them with masks=True") as caught:
        lightsout.read_board(path, states=states)
    assert message in str(caught.value)
    with pytest.raises(lightsout.InvalidBoardError, match="mark of the board masks"):
        lightsout.parse_board(text, states=states)


@pytest.mark.parametrize("text, states, message", [
    ("/1\n", 2, "line 1, column 1: the mark '/' follows no light"),
    ("1 0\n1//\n", 2, "line 2, column 3: the mark '/' is given twice"),
    ("1''\n", 2, "line 1, column 3: the mark \"'\" is given twice"),
    ("~/ 1\n", 2, "line 1, column 2: a hole ('~') takes no mark"),
    ("1 ~'\n", 2, "line 1, column 4: a hole ('~') takes no mark"),
    ("1 ? ~\n", 2, "line 1, column 3: unexpected character '?'"),
    ("1 ~/\n", 16, "line 1, column 3: '~/': a hole is '~' alone"),
    ("/ 1\n", 16, "line 1, column 1: the mark '/' follows no light"),
    ("3// 1\n", 16, "line 1, column 3: the mark '/' is given twice"),
    ("3x/ 1\n", 16, "line 1, column 1: '3x/' is not a light state"),
])
def test_bad_marks_are_refused_naming_the_place(tmp_path, text, states, message):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(lightsout.InvalidBoardError) as caught:
        lightsout.read_board(path, states=states, masks=True)
    assert f"{path}, {message}" in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("mask", [[[1, 0]], [[0, 2, 1]], [["a", "b", "c"]]])
def test_format_board_refuses_bad_masks(mask):
    with pytest.raises(lightsout.InvalidBoardError, match="holes is a mask of bools or 0/1 of the board's shape"):
        lightsout.format_board([[1, 0, 1]], holes=mask)


def test_a_marked_file_solves_under_its_masks(tmp_path):
    import oracle
    path = tmp_path / "m.txt"
    path.write_text("1 1 ~ 0\n1/ 0 1 0'\n0 1' 1 1\n")
    marked = lightsout.read_board(path, masks=True)
    solution = lightsout.solve(marked.lights, **marked.masks())
    matrix = oracle.stencil_matrix((3, 4), False, [[0, 1, 0], [1, 1, 1], [0, 1, 0]], (1, 1), 2)
    _, required, pressable = oracle.masked_system(matrix, marked.holes, marked.unpressable, marked.free_lights)
    after = oracle.stencil_replay(marked.lights, solution.presses, matrix, 2, marked.holes).ravel()
    assert not after[required].any()
    assert not np.asarray(solution.presses).ravel()[[i for i in range(12) if i not in pressable]].any()


def test_a_npy_header_the_tokenizer_chokes_on_is_a_board_error(tmp_path):
    # found by fuzzing: a '"' in place of the header's '{' escaped as tokenize.TokenError
    path = tmp_path / "ok.npy"
    np.save(path, np.ones((3, 3), np.uint8))
    data = path.read_bytes()
    brace = data.index(b"{")
    broken = tmp_path / "broken.npy"
    broken.write_bytes(data[:brace] + b'"' + data[brace + 1:])
    with pytest.raises(lightsout.InvalidBoardError, match="not a readable .npy"):
        lightsout.read_board(broken)
