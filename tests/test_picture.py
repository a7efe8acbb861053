"""Pictures: SVG, PNG, terminal blocks, matplotlib, notebook reprs, and the streamed render."""
from __future__ import annotations

import base64
import io
import os
import stat
import subprocess
import sys
import xml.etree.ElementTree as ET
import zlib

import numpy as np
import pytest

import oracle
import lightsout
from lightsout import MissingExtraError
from lightsout._io.png import PngWriter, encode_png
from lightsout._core import bandchase as _bandchase
from lightsout import picture

Image = pytest.importorskip("PIL.Image")

AWKWARD = (1, 2, 63, 64, 65, 127, 128, 129, 257)


def _tags(svg, name):
    return [e for e in ET.fromstring(svg).iter() if e.tag == "{http://www.w3.org/2000/svg}" + name]


def test_svg_marks_every_press():
    board = np.ones((5, 5), bool)
    s = lightsout.solve(board)
    svg = picture.board_svg(board, s.presses)
    assert len(_tags(svg, "circle")) == int(s.presses.sum()) == 15
    assert len(_tags(svg, "rect")) == 1 + 25  # background + every lit cell
    root = ET.fromstring(picture.board_svg([[1, 0, 2]], [[0, 2, 0]], states=3, cell=20))
    assert root.get("width") == "60" and root.get("height") == "20"
    assert [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")] == ["2"]


def test_png_cells_and_press_dots():
    data = picture.board_png([[1, 0], [0, 0]], presses=[[0, 0], [0, 1]], cell=10)
    with Image.open(io.BytesIO(data)) as image:
        pixels = np.array(image.convert("RGB"))
    assert pixels.shape == (20, 20, 3)
    assert tuple(pixels[3, 3]) == picture.LIT            # lit cell, away from the grid line
    assert tuple(pixels[3, 13]) == picture.DARK          # dark cell
    assert tuple(pixels[15, 15]) == picture.PRESS        # the dot at the pressed cell's centre
    tiny = picture.board_png(np.zeros((300, 700), bool), np.eye(300, 700, dtype=bool))
    with Image.open(io.BytesIO(tiny)) as image:
        small = np.array(image.convert("RGB"))
    assert small.shape == (300, 700, 3) and (small[np.eye(300, 700, dtype=bool)] == picture.PRESS).all()


def test_pictures_refuse_huge_boards():
    with pytest.raises(lightsout.BoardTooLargeError, match="write_board"):
        picture.board_svg(np.zeros((300, 300), bool))
    with pytest.raises(lightsout.InvalidBoardError, match="1-D and 2-D"):
        picture.board_svg(np.zeros((2, 2, 2), bool))


def _embedded_png(page):
    import base64
    import re

    found = re.search(r'src="data:image/png;base64,([^"]+)"', page)
    assert found, page[:200]
    return base64.b64decode(found.group(1))


def test_solution_shows_as_one_picture_in_a_notebook():
    s = lightsout.solve(np.ones((6, 7), bool))
    bundle = s._repr_mimebundle_()
    assert set(bundle) == {"text/html", "text/plain"}   # no SVG and PNG copies beside the HTML
    assert not any(hasattr(s, name) for name in ("_repr_svg_", "_repr_png_", "_repr_html_"))
    page = bundle["text/html"]
    assert page.count("<svg") == 1 and len(_tags(page, "circle")) == int(s.presses.sum())
    assert "Solution(shape=(6, 7)" in page and bundle["text/plain"] == repr(s)
    assert repr(s).startswith("Solution(shape=(6, 7)")  # the text repr stays short
    hundred = lightsout.solve(np.ones((100, 100), bool))._repr_mimebundle_()
    assert sum(len(value) for value in hundred.values()) < 100_000   # was 1.7 MB with three copies
    with Image.open(io.BytesIO(_embedded_png(hundred["text/html"]))) as image:
        image.load()
        assert image.size[0] == image.size[1] >= 100
    graph = lightsout.solve_graph([(0, 1), (1, 2)])
    assert graph._repr_mimebundle_() == {"text/plain": repr(graph)}
    cube = lightsout.solve(np.ones((2, 2, 2), int))
    assert cube._repr_mimebundle_() == {"text/plain": repr(cube)}
    assert set(picture.Picture([[1, 0]])._repr_mimebundle_()) == {"text/html", "text/plain"}


def test_picture_object_saves(tmp_path):
    p = picture.Picture([[1, 1], [0, 1]], presses=[[1, 0], [0, 0]])
    p.save(tmp_path / "p.svg")
    p.save(tmp_path / "p.png")
    assert ET.parse(tmp_path / "p.svg").getroot().tag.endswith("svg")
    with Image.open(tmp_path / "p.png") as image:
        assert image.mode == "RGB"


def test_plot_with_matplotlib():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    s = lightsout.solve(np.ones((5, 5), bool))
    ax = s.plot()
    assert len(ax.images) == 1 and len(ax.collections) == 1
    assert len(ax.collections[0].get_offsets()) == 15
    fig, axes = plt.subplots(1, 2)
    assert s.plot(ax=axes[1]) is axes[1]
    plt.close("all")


def test_plot_without_matplotlib_names_the_extra(monkeypatch):
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(MissingExtraError, match=r"lightsout-gf2\[plot\]"):
        lightsout.solve([[1, 1], [1, 0]]).plot()


def test_terminal_blocks():
    text = picture.board_blocks([[1, 0], [0, 1]], presses=[[1, 0], [0, 0]])
    assert text.splitlines() == ["board  presses", "██··   ██··", "··██   ····"]
    coloured = picture.board_blocks([[1, 0]], presses=[[1, 0]], color=True)
    assert coloured.count("\x1b[48;2;") == 2 and "()" in coloured


@pytest.mark.parametrize("shape", [(n, n) for n in AWKWARD] + [(3, 129), (129, 3), (1, 64), (64, 1)])
def test_render_awkward_sizes(tmp_path, shape, monkeypatch):
    monkeypatch.setattr(_bandchase, "BAND_WORDS", 7)  # bands of a few rows: many band boundaries
    path = tmp_path / "r.png"
    count = picture.render_presses(path, *shape)
    with Image.open(path) as image:
        pixels = np.array(image, dtype=bool)
    expect = lightsout.solve(np.ones(shape, bool)).presses
    assert pixels.shape == shape and np.array_equal(pixels, expect) and count == int(expect.sum())
    assert not oracle.replay_fast(np.ones(shape, bool), pixels).any()
    assert os.listdir(tmp_path) == ["r.png"]  # no temporary file left


def test_render_progress_reports_rows(tmp_path):
    seen = []
    picture.render_presses(tmp_path / "r.png", 300, progress=lambda *a: seen.append(a))
    assert seen[-1] == ("render", 300, 300)


def test_png_writer_checks_its_rows():
    writer = PngWriter(io.BytesIO(), 9, 1, bit_depth=1)
    with pytest.raises(ValueError, match="shape"):
        writer.write_rows(np.zeros((1, 1), np.uint8))
    with pytest.raises(ValueError, match="0 rows written"):
        writer.close()
    grey = np.arange(256, dtype=np.uint8).reshape(16, 16)
    with Image.open(io.BytesIO(encode_png(grey))) as image:
        assert np.array_equal(np.array(image), grey)


def _stream_rows(path, width):
    """Rows of a one-bit, filter-0 PNG as bool arrays, decoded by zlib alone (Pillow refuses 4e8 pixels)."""
    with open(path, "rb") as handle:
        data = handle.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    stride = (width + 7) // 8 + 1
    inflate = zlib.decompressobj()
    pending = b""
    pos = 8
    while pos < len(data):
        length = int.from_bytes(data[pos:pos + 4], "big")
        kind = data[pos + 4:pos + 8]
        if kind == b"IDAT":
            pending += inflate.decompress(data[pos + 8:pos + 8 + length])
            whole = len(pending) // stride * stride
            block = np.frombuffer(pending[:whole], np.uint8).reshape(-1, stride)
            pending = pending[whole:]
            assert not block[:, 0].any()  # filter type 0
            yield from np.unpackbits(block[:, 1:], axis=1, count=width).astype(bool)
        pos += 12 + length


@pytest.mark.slow
def test_render_20000_in_bounded_memory(tmp_path):
    """`lightsout render 20000` in under 300 MB peak; its presses clear the board (streamed replay)."""
    n = 20000
    if not os.path.exists("/proc/self/status"):
        pytest.skip("needs Linux /proc for the peak memory")
    # VmHWM is the peak resident memory of this process image; ru_maxrss would also count the
    # memory of the pytest process it was forked from.
    script = ("import sys; from lightsout.cli import main; status = main(sys.argv[1:]); "
              "print(next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM:'))); "
              "sys.exit(status)")
    done = subprocess.run([sys.executable, "-c", script, "render", str(n), "-o", "big.png"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    peak_mb = int(done.stdout.strip()) / 1024  # kB
    assert peak_mb < 300, peak_mb
    ones = np.ones(n, bool)
    above = np.zeros(n, bool)
    rows = _stream_rows(tmp_path / "big.png", n)
    current = next(rows)
    count = 0
    for below in list_then_none(rows):
        lights = ones ^ above ^ current ^ (below if below is not None else False)
        lights[1:] ^= current[:-1]
        lights[:-1] ^= current[1:]
        assert not lights.any()
        count += 1
        above, current = current, below
    assert count == n


def list_then_none(rows):
    yield from rows
    yield None


def test_ipython_display_bundle():
    """What a Jupyter notebook receives for a Solution: one picture (HTML) and the short text repr.

    One copy only: an SVG inside the HTML for a small board, an embedded PNG for a big one,
    never a second copy as image/svg+xml or image/png (a 100 x 100 board would store 1.7 MB).
    """
    formatters = pytest.importorskip("IPython.core.formatters")
    s = lightsout.solve(np.ones((5, 5), bool))
    data, _ = formatters.DisplayFormatter().format(s)
    assert set(data) == {"text/html", "text/plain"}
    assert data["text/plain"] == repr(s)
    assert len(_tags(data["text/html"], "circle")) == 15          # one mark per press
    big = lightsout.solve(np.ones((100, 100), bool))
    data, _ = formatters.DisplayFormatter().format(big)
    assert set(data) == {"text/html", "text/plain"}
    encoded = data["text/html"].split("data:image/png;base64,", 1)[1].split('"', 1)[0]
    with Image.open(io.BytesIO(base64.b64decode(encoded))) as image:
        image.load()
    data, _ = formatters.DisplayFormatter().format(picture.Picture(np.eye(4, dtype=bool)))
    assert set(data) == {"text/html", "text/plain"} and "<svg" in data["text/html"]


# --- where a render goes: checked before any work, named as the user wrote it ------------------

def _no_first_row(monkeypatch):
    """Make the render's work fail loudly: the target must be refused before it starts."""
    def refuse(*args, **kwargs):
        raise AssertionError("the render started before its target was checked")

    monkeypatch.setattr(picture, "first_row", refuse)


def test_render_into_a_folder_is_refused_before_rendering(tmp_path, monkeypatch):
    _no_first_row(monkeypatch)
    (tmp_path / "dir.png").mkdir()
    with pytest.raises(IsADirectoryError, match="is a folder") as error:
        picture.render_presses(tmp_path / "dir.png", 50)
    assert error.value.filename == str(tmp_path / "dir.png")
    assert list(tmp_path.iterdir()) == [tmp_path / "dir.png"]           # no temporary left


def test_render_into_a_missing_folder_names_the_path(tmp_path, monkeypatch):
    _no_first_row(monkeypatch)
    with pytest.raises(FileNotFoundError, match="no such folder") as error:
        picture.render_presses(tmp_path / "missing" / "x.png", 50)
    assert error.value.filename == str(tmp_path / "missing" / "x.png") and ".part" not in str(error.value)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_render_into_a_fifo_is_refused_and_the_fifo_kept(tmp_path, monkeypatch):
    _no_first_row(monkeypatch)
    fifo = tmp_path / "fifo.png"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="named pipe"):
        picture.render_presses(fifo, 50)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_render_into_a_device_is_refused(monkeypatch):
    if not os.path.exists("/dev/null"):
        pytest.skip("no /dev/null here")
    _no_first_row(monkeypatch)
    with pytest.raises(OSError, match="a device"):
        picture.render_presses("/dev/null", 50)


def test_render_writes_through_a_symbolic_link(tmp_path):
    real = tmp_path / "pictures" / "real.png"
    real.parent.mkdir()
    real.write_bytes(b"old")
    link = tmp_path / "link.png"
    link.symlink_to(real)
    count = picture.render_presses(link, 30)
    assert link.is_symlink() and os.readlink(link) == str(real)           # the link stays a link
    presses = lightsout.read_board(real)
    assert int(presses.sum()) == count and oracle.clears(np.ones((30, 30), int), presses)
    assert sorted(p.name for p in real.parent.iterdir()) == ["real.png"]  # the temporary went


def test_cli_render_targets_are_one_line_naming_the_path(tmp_path, monkeypatch, capsys):
    from lightsout.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "dir.png").mkdir()
    for target, words in (("dir.png", "dir.png: is a folder"), ("missing/x.png", "missing/x.png: no such folder")):
        assert main(["render", "40", "-o", target]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith(f"lightsout: {words}") and ".part" not in err and "\n" not in err


# -- the board masks in pictures (issue 30) ---------------------------------------------------------------

def _png_pixels(data):
    with Image.open(io.BytesIO(data)) as image:
        return np.array(image.convert("RGB"))


def _masks(rng, shape):
    holes = rng.random(shape) < 0.25
    return holes, (rng.random(shape) < 0.3) & ~holes, (rng.random(shape) < 0.3) & ~holes


def _cells_that_differ(before, after, size):
    """Which cells' pixels differ between two pictures of size x size pixels a cell."""
    rows, cols = before.shape[0] // size, before.shape[1] // size
    changed = (before != after).any(axis=2).reshape(rows, size, cols, size)
    return changed.any(axis=(1, 3))


@pytest.mark.parametrize("size", [1, 3, 4, 10, 17])
def test_png_with_masks_differs_only_where_they_are(rng, size):
    shape = (7, 11)
    board = rng.integers(0, 3, shape)
    presses = rng.integers(0, 3, shape)
    holes, unpressable, free_lights = _masks(rng, shape)
    plain = _png_pixels(picture.board_png(board, presses, states=3, cell=size))
    for name, mask in (("holes", holes), ("unpressable", unpressable), ("free_lights", free_lights)):
        marked = _png_pixels(picture.board_png(board, presses, states=3, cell=size, **{name: mask}))
        assert marked.shape == plain.shape                        # the same size
        differ = _cells_that_differ(plain, marked, size)
        if name == "holes" or size >= 4:                          # marks need 4 pixels a cell
            assert np.array_equal(differ, mask), name
        else:
            assert not differ.any(), name
    drawn = _png_pixels(picture.board_png(board, presses, states=3, cell=size, holes=holes))
    tiles = drawn.reshape(shape[0], size, shape[1], size, 3).transpose(0, 2, 1, 3, 4)
    assert (tiles[holes] == picture.BACKGROUND).all()           # a hole is background, its grid lines too


def test_svg_with_masks(rng):
    shape = (6, 9)
    board = rng.integers(0, 2, shape)
    holes, unpressable, free_lights = _masks(rng, shape)
    plain = picture.board_svg(board, cell=10)
    svg = picture.board_svg(board, cell=10, holes=holes, unpressable=unpressable, free_lights=free_lights)
    root, plain_root = ET.fromstring(svg), ET.fromstring(plain)
    assert (root.get("width"), root.get("height")) == (plain_root.get("width"), plain_root.get("height"))
    background = "#%02x%02x%02x" % picture.BACKGROUND
    hole_rects = {(int(r.get("y")) // 10, int(r.get("x")) // 10) for r in _tags(svg, "rect")
                  if r.get("fill") == background}
    assert hole_rects == {tuple(map(int, cell)) for cell in np.argwhere(holes)}
    strokes = [p for p in _tags(svg, "path") if p.get("stroke") == "#%02x%02x%02x" % picture.HATCH]
    assert len(strokes) == 1 and strokes[0].get("d").count("M") == int(unpressable.sum())
    corners = [r for r in _tags(svg, "rect") if r.get("fill") == "#%02x%02x%02x" % picture.FREE]
    assert len(corners) == int(free_lights.sum())


def test_masked_pictures_keep_their_limits_and_check_the_masks():
    big = np.zeros((201, 200), bool)
    with pytest.raises(lightsout.BoardTooLargeError, match="MAX_SVG_CELLS"):
        picture.board_svg(big, holes=np.ones_like(big))
    with pytest.raises(lightsout.InvalidBoardError, match="holes is a mask of bools or 0/1 of the board's shape"):
        picture.board_png([[1, 0]], holes=[[1, 0, 0]])
    with pytest.raises(lightsout.InvalidBoardError, match="unpressable is a mask"):
        picture.Picture([[1, 0]], unpressable=[[2, 0]])


def test_a_solution_draws_its_masks(rng):
    board = np.ones((4, 5), bool)
    holes = np.zeros((4, 5), bool)
    holes[0, 0] = holes[3, 4] = True
    unpressable = np.zeros((4, 5), bool)
    unpressable[1, 2] = True
    solution = lightsout.solve(board, holes=holes, unpressable=unpressable)
    drawn = lightsout._io.drawing.solution_picture(solution)
    assert np.array_equal(drawn.masks[0], holes) and np.array_equal(drawn.masks[1], unpressable)
    assert "#%02x%02x%02x" % picture.BACKGROUND in drawn.svg()
    plain = _png_pixels(picture.board_png(solution.board, solution.presses, cell=10))
    masked = _png_pixels(picture.board_png(solution.board, solution.presses, cell=10, holes=holes,
                                           unpressable=unpressable))
    assert np.array_equal(_cells_that_differ(plain, masked, 10), holes | unpressable)
    assert np.array_equal(_png_pixels(drawn.save and drawn.png()), _png_pixels(picture.board_png(
        solution.board, solution.presses, holes=holes, unpressable=unpressable)))


def test_plot_draws_the_masks():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    holes = np.zeros((3, 4), bool)
    holes[1, 1] = True
    free_lights = np.zeros((3, 4), bool)
    free_lights[0, 3] = free_lights[2, 0] = True
    solution = lightsout.solve(np.ones((3, 4), bool), holes=holes, free_lights=free_lights)
    ax = solution.plot()
    shown = ax.images[0].get_array()
    assert np.array_equal(np.ma.getmaskarray(shown), holes)
    offsets = [collection.get_offsets() for collection in ax.collections]
    assert len(offsets) == 2 and len(offsets[0]) == 2                  # the free lights, then the presses
    plt.close("all")
