"""The command line, called in-process and as `python -m lightsout`."""
from __future__ import annotations

import os
import signal
import subprocess
import sys

import numpy as np
import pytest

import oracle
import lightsout
from lightsout import cli
from lightsout.cli import main


def test_first_row_prints_bits(capsys):
    assert main(["first-row", "6"]) == 0
    bits = capsys.readouterr().out.strip()
    row = np.array([c == "1" for c in bits])
    assert len(row) == 6
    _, lights = oracle.chase_fast(np.ones((6, 6), bool), [row])
    assert not lights.any()


def test_rectangle_and_nullity(capsys):
    assert main(["nullity", "5"]) == 0
    assert capsys.readouterr().out.strip() == str(oracle.nullity(5, 5))
    assert main(["nullity", "4", "7", "--method", "dense"]) == 0
    assert capsys.readouterr().out.strip() == str(oracle.nullity(4, 7))


def test_solve_file(tmp_path, capsys):
    path = tmp_path / "board.txt"
    path.write_text("#.#\n.#.\n#.#\n")
    assert main(["solve", str(path)]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    presses = np.array([[c == "1" for c in line] for line in out])
    board = np.array([[1, 0, 1], [0, 1, 0], [1, 0, 1]])
    assert oracle.clears(board, presses)


def test_errors_have_exit_codes(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text("1000\n1000\n1000\n1000\n")
    assert main(["solve", str(path)]) == 1
    assert "cannot be turned dark" in capsys.readouterr().err
    assert main(["solve", str(tmp_path / "missing.txt")]) == 2
    assert main(["first-row", "3", "5"]) in (0, 1)


def test_module_entry_point(tmp_path):
    # Run outside the checkout, so the installed package is imported, not the source tree.
    run = dict(capture_output=True, text=True, cwd=tmp_path)
    done = subprocess.run([sys.executable, "-m", "lightsout", "first-row", "3"], **run)
    assert done.returncode == 0 and done.stdout.strip() == "101"
    bad = subprocess.run([sys.executable, "-m", "lightsout", "first-row", "-4"], **run)
    assert bad.returncode == 2 and "positive integer" in bad.stderr


# --- issue 6, defect 5: every failure is one line on stderr with the documented exit code --------

def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("lightsout: "), err
    return lines[0]


@pytest.mark.parametrize("data", [
    bytes(range(256)) * 4,                                  # random bytes
    "1 0 1\n0 1 0\n".encode("utf-16"),                      # UTF-16 (with its BOM)
    b"\xff\xfe\x00",
])
def test_undecodable_board_files_are_bad_input(tmp_path, capsys, data):
    path = tmp_path / "board.bin"
    path.write_bytes(data)
    assert main(["solve", str(path)]) == 2
    assert "not UTF-8 text" in _one_line(capsys.readouterr().err)


def test_utf8_bom_and_comments_are_read(tmp_path, capsys):
    path = tmp_path / "board.txt"
    path.write_bytes("\ufeff! a comment\n#.#\n.#.\n#.#\n".encode("utf-8"))
    assert main(["solve", str(path)]) == 0
    presses = lightsout.parse_board(capsys.readouterr().out)
    assert oracle.clears(np.array([[1, 0, 1], [0, 1, 0], [1, 0, 1]]), presses)


def test_the_summary_is_a_comment_that_reads_back(tmp_path, capsys):
    path = tmp_path / "board.txt"
    path.write_text("111\n111\n111\n")
    assert main(["solve", str(path)]) == 0
    captured = capsys.readouterr()
    assert captured.err.startswith("! ")
    # Both streams together still parse as the presses: the summary is a comment.
    presses = lightsout.parse_board(captured.out + captured.err)
    assert oracle.clears(np.ones((3, 3), np.uint8), presses)


def test_interrupt_is_one_line_and_130(monkeypatch, capsys):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "first_row", interrupted)
    monkeypatch.setattr(cli, "first_row_packed", interrupted)
    assert main(["first-row", "5"]) == 130
    assert _one_line(capsys.readouterr().err) == "lightsout: interrupted"
    assert main(["first-row", "5", "--format", "npy", "-o", os.devnull]) == 130
    assert _one_line(capsys.readouterr().err) == "lightsout: interrupted"


def test_bad_simd_setting_is_one_line_and_2(monkeypatch, capsys):
    monkeypatch.setenv("LIGHTSOUT_SIMD", "bogus")
    assert main(["first-row", "5"]) == 2
    assert "LIGHTSOUT_SIMD" in _one_line(capsys.readouterr().err)


def test_refused_sizes_are_one_line_and_2(capsys):
    assert main(["nullity", str(10**15), "1", "--method", "dense"]) == 2
    assert "method='poly'" in _one_line(capsys.readouterr().err)


def test_closed_stdout_is_one_line_and_2(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdout", None)
    assert main(["first-row", "3"]) == 2
    assert "standard output is closed" in _one_line(capsys.readouterr().err)


def _run_cli(tmp_path, *args, env_extra=None, **kwargs):
    env = dict(os.environ, **(env_extra or {}))
    return subprocess.run([sys.executable, "-m", "lightsout", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, **kwargs)


def test_subprocess_bad_simd_setting(tmp_path):
    done = _run_cli(tmp_path, "first-row", "3", env_extra={"LIGHTSOUT_SIMD": "bogus"})
    assert done.returncode == 2 and done.stdout == ""
    _one_line(done.stderr)


def test_subprocess_undecodable_file(tmp_path):
    (tmp_path / "garbage.bin").write_bytes(np.random.default_rng(1).bytes(4096))
    done = _run_cli(tmp_path, "solve", "garbage.bin")
    assert done.returncode == 2
    _one_line(done.stderr)


def test_subprocess_closed_stdout(tmp_path):
    done = subprocess.run([sys.executable, "-m", "lightsout", "first-row", "3"], cwd=tmp_path,
                          stderr=subprocess.PIPE, text=True, preexec_fn=lambda: os.close(1))
    assert done.returncode == 2
    _one_line(done.stderr)


def test_subprocess_broken_pipe_is_quiet(tmp_path):
    # The reader is gone before the command writes: the write fails with EPIPE.
    proc = subprocess.Popen([sys.executable, "-m", "lightsout", "first-row", "3000"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait() == 141
    assert err == ""


def _interrupt_run(tmp_path, *args):
    """Run `lightsout ARGS` in a child whose progress reports say "started"; SIGINT it then.

    Returns the finished process's (returncode, stdout, stderr).  The child's progress bar is
    replaced by a callback that prints "started" on the first report (stderr is no terminal,
    so no real bar would be drawn), so the signal surely arrives inside the work.
    """
    # A shell starts background jobs with SIGINT ignored, and Python then leaves it ignored;
    # give the child the default disposition, as a terminal's foreground job has.
    proc = subprocess.Popen([sys.executable, "-c", _INTERRUPTIBLE, *args], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stdout.readline().strip() == "started"  # the command is running: the handler is in place
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    return proc.returncode, out, err


@pytest.mark.parametrize("args", [
    ("first-row", "40000", "--method", "dense", "--threads", "2"),  # 2 threads: progress every 0.25 s
    ("render", "20000", "-o", "big.png"),
    ("nullity", "--table", "3000", "--torus"),
], ids=["first-row-dense", "render", "nullity-table"])
def test_subprocess_ctrl_c_is_one_line_and_130(tmp_path, args):
    status, out, err = _interrupt_run(tmp_path, *args)
    assert status == 130, (out, err)
    assert _one_line(err) == "lightsout: interrupted"
    assert "Traceback" not in err
    assert not list(tmp_path.glob("big.png*"))  # an interrupted render leaves no file behind


# The command line with a progress callback that announces the start of the work.
_INTERRUPTIBLE = """
import sys
import lightsout.cli as cli

class Started:
    def __init__(self, **kwargs):
        self.said = False
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        return None
    @property
    def callback(self):
        return self
    def __call__(self, stage, done, total):
        if not self.said:
            print("started", flush=True)
            self.said = True

cli.ProgressBar = Started
sys.exit(cli.main(sys.argv[1:]))
"""


def test_rule_options_reach_the_solver(tmp_path, capsys):
    assert main(["nullity", "5", "--torus"]) == 0
    assert capsys.readouterr().out.strip() == str(oracle_nullity((5, 5), True, True, 2))
    assert main(["nullity", "4", "6", "--sigma", "--states", "3"]) == 0
    assert capsys.readouterr().out.strip() == str(oracle_nullity((4, 6), False, False, 3))
    path = tmp_path / "board.txt"
    path.write_text("210\n021\n102\n")
    assert main(["solve", str(path), "--states", "3"]) == 0
    presses = lightsout.parse_board(capsys.readouterr().out, states=3)
    assert not oracle.replay_nd([[2, 1, 0], [0, 2, 1], [1, 0, 2]], presses, states=3).any()
    assert main(["first-row", "4", "--torus"]) == 0
    row = [int(c) for c in capsys.readouterr().out.strip()]
    assert row == lightsout.first_row(4, torus=True).astype(int).tolist()
    assert main(["nullity", "3", "--states", "1"]) == 2     # argparse's refusal, returned as the status
    assert "--states: expected an integer from 2 to 255" in capsys.readouterr().err


def oracle_nullity(shape, torus, self_toggle, states):
    sets = oracle.neighbour_sets(shape, torus, self_toggle)
    return len(sets) - oracle.rank_mod_prime(oracle.effect_matrix(sets), states)


# --- issue 10: commands, formats, board files, pictures, progress --------------------------------

import io  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
import types  # noqa: E402
import xml.etree.ElementTree as ET  # noqa: E402



def _pil():
    """PIL.Image, or skip (Pillow is the `images` extra, in the test extra)."""
    return pytest.importorskip("PIL.Image")

BOARD_TEXT = "#.#\n.#.\n#.#\n"
BOARD = np.array([[1, 0, 1], [0, 1, 0], [1, 0, 1]])
UNSOLVABLE = "1000\n1000\n1000\n1000\n"


def _help_examples(text):
    """The `lightsout ...` example lines of a --help text, comments stripped."""
    return [re.sub(r"\s+#.*$", "", line).strip() for line in text.splitlines()
            if re.match(r"^\s+lightsout [a-z]", line)]


def test_version_and_help(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"lightsout {lightsout.__version__}"
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    for needle in ("examples:", "exit status:", "board files:", "output:", "130 interrupted",
                   "first-row", "solve", "nullity", "render", "play"):
        assert needle in text, needle
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    assert "formats:" in capsys.readouterr().out
    for command in ("first-row", "solve", "nullity", "render", "play"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert "%%" not in capsys.readouterr().out, command  # an epilog is printed as written


COMMANDS = ("first-row", "solve", "nullity", "render", "play")


def _help_texts(capsys) -> dict[str, str]:
    texts = {"": cli.build_parser().format_help()}
    for command in COMMANDS:
        with pytest.raises(SystemExit):
            main([command, "--help"])
        texts[command] = capsys.readouterr().out
    return texts


def test_help_reads_on_an_80_column_terminal(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "80")
    texts = _help_texts(capsys)
    for command, text in texts.items():
        long = [line for line in text.splitlines() if len(line) > 79]
        assert not long, f"lightsout {command} --help: lines past 79 columns: {long}"
        broken = re.findall(r"\w-\n\s*\w", text)
        assert not broken, f"lightsout {command} --help breaks a word at its hyphen: {broken}"
    top = texts[""]
    assert "commands:" in top
    for command in COMMANDS:  # each command with its help on its own line, as --help lists them
        assert re.search(rf"^    {command} +\w", top, flags=re.M), command


def test_help_says_one_thing_for_a_shared_option(capsys):
    """--threads and --method mean what the library's threads= and method= mean, in every command's help."""
    texts = _help_texts(capsys)
    for option in ("--threads T", "--method METHOD", "-q, --quiet"):
        helps = set()
        for command, text in texts.items():
            found = re.search(rf"^  {re.escape(option)}\s+(.*?)(?=^ {{0,2}}\S|\Z)", text, flags=re.M | re.S)
            if found:
                helps.add(" ".join(found.group(1).split()).replace("route for the first row: ", "route: "))
        assert len(helps) == 1, (option, helps)
    assert "the most threads" in texts["solve"] and "dense route" not in texts["solve"]
    assert re.search(r"^usage: lightsout first-row .*\bN \[M\]$", texts["first-row"], flags=re.M | re.S)


def test_every_help_example_runs(tmp_path, monkeypatch, capsys):
    """Every `lightsout ...` line in --help (the main one and each command's) runs as shown."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "board.txt").write_text(BOARD_TEXT)
    parser = cli.build_parser()
    texts = [parser.format_help()]
    for command in ("first-row", "solve", "nullity", "render", "play"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        texts.append(capsys.readouterr().out)
    examples = sorted({line for text in texts for line in _help_examples(text)})
    assert len(examples) >= 15
    for line in examples:
        argv = line.split()[1:]
        if argv[0] == "play":  # serves until Ctrl-C: tested with a stand-in server below
            continue
        status = main(argv)
        captured = capsys.readouterr()
        assert status == 0, (line, captured.err)


def test_first_row_formats(tmp_path, capsys):
    expect = lightsout.first_row(300, 500)
    assert main(["first-row", "300", "500", "--format", "hex"]) == 0
    data = bytes.fromhex(capsys.readouterr().out.strip())
    assert np.array_equal(np.unpackbits(np.frombuffer(data, np.uint8), bitorder="little")[:500], expect)
    assert main(["first-row", "300", "500", "-o", str(tmp_path / "row.npy")]) == 0
    assert np.array_equal(np.load(tmp_path / "row.npy"), expect)
    assert main(["first-row", "300", "500", "--format", "bits", "-o", str(tmp_path / "row.txt")]) == 0
    assert (tmp_path / "row.txt").read_text().strip() == "".join(str(int(v)) for v in expect)
    assert main(["first-row", "5", "--states", "12"]) == 0
    assert capsys.readouterr().out.split() == [str(int(v)) for v in lightsout.first_row(5, states=12)]
    assert main(["first-row", "5", "--states", "3", "--format", "hex"]) == 2
    assert "hex" in _one_line(capsys.readouterr().err)


def test_solve_json(tmp_path, capsys):
    path = tmp_path / "board.txt"
    path.write_text("11111\n" * 5)
    assert main(["solve", str(path), "--json"]) == 0
    captured = capsys.readouterr()
    record = json.loads(captured.out)
    assert captured.err == ""  # everything is in the JSON
    assert record["solvable"] is True and record["nullity"] == 2 and record["count"] == "4"
    assert record["shape"] == [5, 5] and record["press_count"] == int(np.sum(record["presses"]))
    assert oracle.clears(np.ones((5, 5)), np.array(record["presses"]))
    assert "fewest" not in record
    assert main(["solve", str(path), "--format", "json", "--minimal"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["fewest"] == record["press_count"] == 15 and record["proven_minimal"] is True


def test_solve_list_and_picture(tmp_path, capsys):
    path = tmp_path / "board.txt"
    path.write_text(BOARD_TEXT)
    assert main(["solve", str(path), "--format", "list"]) == 0
    cells = [tuple(int(v) for v in line.split()) for line in capsys.readouterr().out.splitlines()]
    presses = np.zeros((3, 3), int)
    for r, c in cells:
        presses[r, c] = 1
    assert oracle.clears(BOARD, presses)
    assert main(["solve", str(path), "--format", "picture"]) == 0
    out = capsys.readouterr().out
    assert "\x1b[" not in out and "██" in out and out.startswith("board")  # not a terminal: no colour
    assert main(["solve", str(path), "--format", "picture", "--color", "always"]) == 0
    assert "\x1b[48;2;" in capsys.readouterr().out
    path.write_text("210\n021\n102\n")
    assert main(["solve", str(path), "--states", "3", "--format", "list"]) == 0
    presses = np.zeros((3, 3), int)
    for line in capsys.readouterr().out.splitlines():
        r, c, count = (int(v) for v in line.split())
        presses[r, c] = count
    assert not oracle.replay_nd([[2, 1, 0], [0, 2, 1], [1, 0, 2]], presses, states=3).any()


def test_solve_writes_files_and_pictures(tmp_path, capsys):
    _pil()
    path = tmp_path / "board.txt"
    path.write_text(BOARD_TEXT)
    for name in ("p.npy", "p.png", "p.txt"):
        out = tmp_path / name
        assert main(["solve", str(path), "-o", str(out), "--png", str(tmp_path / "pic.png"),
                     "--svg", str(tmp_path / "pic.svg")]) == 0
        assert capsys.readouterr().out == ""  # the result went to the file
        assert oracle.clears(BOARD, lightsout.read_board(out))
    with _pil().open(tmp_path / "pic.png") as image:
        assert image.size[0] == image.size[1] > 3
    root = ET.parse(tmp_path / "pic.svg").getroot()
    circles = [e for e in root.iter() if e.tag.endswith("circle")]
    assert len(circles) == int(lightsout.solve(BOARD).presses.sum())


def test_png_and_npy_boards_solve(tmp_path, capsys):
    _pil()
    board = np.random.default_rng(5).integers(0, 2, (9, 11)).astype(bool)
    board = lightsout.press(np.zeros_like(board), board)  # solvable: the image of some presses
    for name in ("b.png", "b.npy", "b.txt"):
        lightsout.write_board(tmp_path / name, board)
        assert main(["solve", str(tmp_path / name), "--format", "text"]) == 0
        assert oracle.clears(board, lightsout.parse_board(capsys.readouterr().out))


def test_malformed_board_names_line_and_column(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text("! a comment\n1 0 1\n\n0 1 ? \n")
    assert main(["solve", str(path)]) == 2
    line = _one_line(capsys.readouterr().err)
    assert f"{path}, line 4, column 5: unexpected character '?'" in line
    path.write_text("101\n01\n")
    assert main(["solve", str(path)]) == 2
    assert "line 2: 2 cells, but line 1 has 3" in _one_line(capsys.readouterr().err)
    path.write_text("102\n")
    assert main(["solve", str(path)]) == 2
    assert "line 1, column 3: light state 2 is out of range 0..1" in _one_line(capsys.readouterr().err)


def test_unsolvable_exits_1_with_reason(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text(UNSOLVABLE)
    assert main(["solve", str(path), "--json"]) == 1
    captured = capsys.readouterr()
    record = json.loads(captured.out)
    assert record["solvable"] is False and "cannot be turned dark" in record["reason"]
    assert "odd number" in _one_line(captured.err)


def test_nullity_table_and_csv(capsys):
    assert main(["nullity", "--table", "12", "--csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "n,nullity"
    assert [int(line.split(",")[1]) for line in lines[1:]] == [oracle.nullity(n, n) for n in range(1, 13)]
    assert main(["nullity", "--table", "4", "5"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines() if not line.startswith("!")]
    assert [[int(v) for v in row[1:]] for row in rows] == [[oracle.nullity(n, m) for m in range(1, 6)]
                                                           for n in range(1, 5)]
    assert main(["nullity", "--table", "5", "--torus", "--csv"]) == 0
    lines = capsys.readouterr().out.splitlines()[1:]
    assert [int(line.split(",")[1]) for line in lines] == [oracle_nullity((n, n), True, True, 2) for n in range(1, 6)]
    assert main(["nullity", "6", "--csv"]) == 0
    assert capsys.readouterr().out == f"n,m,nullity\n6,6,{oracle.nullity(6, 6)}\n"


def test_render_matches_solve_pixel_for_pixel(tmp_path, capsys):
    path = tmp_path / "presses.png"
    assert main(["render", "1000", "-o", str(path)]) == 0
    assert "498928 presses" in capsys.readouterr().err
    with _pil().open(path) as image:
        assert image.mode == "1" and image.size == (1000, 1000)
        pixels = np.array(image, dtype=bool)
    assert np.array_equal(pixels, lightsout.solve(np.ones((1000, 1000), bool)).presses)
    assert not oracle.replay_fast(np.ones((1000, 1000), bool), pixels).any()   # independent replay
    assert np.array_equal(lightsout.read_board(path), pixels)                  # a board file of the presses


@pytest.mark.parametrize("width", [255, 256, 257, 300])
def test_a_render_of_any_width_solves_as_a_board_file(tmp_path, capsys, width):
    # `lightsout render 256 -o r.png; lightsout solve r.png` said "board must contain only 0 and 1"
    # (from 65,536 cells, where solve packs a numpy board in one pass and reads each bool's byte)
    _pil()
    path = tmp_path / "r.png"
    assert main(["render", str(width), "-o", str(path), "--quiet"]) == 0
    status = main(["solve", str(path), "--format", "text", "--quiet"])
    captured = capsys.readouterr()
    board = lightsout.read_board(path)
    assert np.array_equal(board, lightsout.solve(np.ones((width, width), bool)).presses)
    if status == 1:        # the press pattern read as a board need not be solvable: the proof says so
        assert "cannot be turned dark" in _one_line(captured.err)
        return
    assert status == 0, captured.err
    presses = np.array([[c == "1" for c in line] for line in captured.out.splitlines()])
    assert presses.shape == (width, width)
    assert not oracle.replay_fast(board, presses).any()


def test_render_rectangle_and_bad_name(tmp_path, capsys):
    path = tmp_path / "wide.png"
    assert main(["render", "7", "130", "-o", str(path), "--quiet"]) == 0
    assert capsys.readouterr().err == ""
    with _pil().open(path) as image:
        pixels = np.array(image, dtype=bool)
    assert pixels.shape == (7, 130) and oracle.clears(np.ones((7, 130)), pixels)
    assert main(["render", "10", "-o", str(tmp_path / "x.jpg")]) == 2
    assert ".png" in _one_line(capsys.readouterr().err)


def test_missing_images_extra_is_one_line(tmp_path, monkeypatch, capsys):
    path = tmp_path / "board.png"
    lightsout.write_board(path, BOARD)  # writing needs no Pillow
    for name in [m for m in sys.modules if m == "PIL" or m.startswith("PIL.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "PIL", None)  # `import PIL...` now fails as if not installed
    assert main(["solve", str(path)]) == 2
    line = _one_line(capsys.readouterr().err)
    assert "Pillow" in line and "lightsout-gf2[images]" in line


def test_quiet_and_progress_reach_the_solver(monkeypatch, capsys):
    seen = []

    def first_row(n, m=None, progress=None, **kwargs):
        seen.append(progress)
        return np.ones(n if m is None else m, dtype=bool)

    def first_row_packed(n, m=None, progress=None, **kwargs):
        return lightsout.packed.pack(first_row(n, m, progress))

    monkeypatch.setattr(cli, "first_row", first_row)
    monkeypatch.setattr(cli, "first_row_packed", first_row_packed)

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(sys, "stderr", Terminal())
    assert main(["first-row", "4"]) == 0
    assert main(["first-row", "4", "--quiet"]) == 0
    assert callable(seen[0]) and seen[1] is None


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_bar_draws_on_a_terminal():
    from lightsout._cli.progress import ProgressBar

    pytest.importorskip("tqdm")  # the progress extra (the test extra brings it)
    stream = _Terminal()
    with ProgressBar(file=stream, delay=0) as bar:
        assert bar.callback is not None
        for done in range(0, 11):
            bar("render", done, 10)
        bar("gcd", 5, 10)
    text = stream.getvalue()
    assert "rendering rows" in text and "polynomial gcd" in text
    assert "pip install" not in text  # tqdm is there: no hint
    assert ProgressBar(file=_Terminal(), enabled=False).callback is None


def test_progress_without_tqdm_is_one_line_of_text_with_the_hint(monkeypatch):
    from lightsout._cli import progress

    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm now raises ImportError
    monkeypatch.setattr(progress.shutil, "get_terminal_size", lambda: os.terminal_size((100, 24)))
    stream = _Terminal()
    with progress.ProgressBar(file=stream, delay=0) as bar:
        assert bar.callback is not None
        bar("render", 3, 10)
        shown = stream.getvalue()
        assert shown.startswith("\r") and "\n" not in shown
        assert "rendering rows:  30% (3/10)" in shown
        assert "pip install 'lightsout-gf2[progress]'" in shown
        bar("gcd", 1, 4)  # a new stage erases the old line before drawing
    text = stream.getvalue()
    assert "polynomial gcd:  25% (1/4)" in text
    last = text.rsplit("\r", 2)
    assert last[-1] == "" and last[-2].strip() == ""  # closed: the line is blanked, the cursor at its start
    assert len(text.split("\r")[1]) <= 99


def test_progress_without_tqdm_waits_for_the_delay_and_drops_the_hint_where_it_does_not_fit(monkeypatch):
    from lightsout._cli import progress

    monkeypatch.setattr(progress.shutil, "get_terminal_size", lambda: os.terminal_size((50, 24)))
    stream = _Terminal()
    with progress.ProgressBar(file=stream, bars=False, delay=3600) as bar:
        bar("chase", 1, 10)
    assert stream.getvalue() == ""  # quick work prints nothing
    with progress.ProgressBar(file=stream, bars=False, delay=0) as bar:
        bar("chase", 1_000_000, 10_000_000)
    drawn = stream.getvalue().split("\r")[1]
    assert drawn.startswith("chasing rows:  10% (1,000,000/10,000,000)")
    assert "pip install" not in drawn and len(drawn) <= 49


def test_the_command_line_runs_without_tqdm(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setattr(sys, "stderr", _Terminal())
    assert main(["first-row", "5"]) == 0
    row = [int(c) for c in capsys.readouterr().out.strip()]
    _, left = oracle.chase(np.ones((5, 5), np.uint8), row)
    assert len(row) == 5 and not left.any()


def test_play_passes_options_and_maps_ctrl_c(monkeypatch, capsys):
    calls = []
    fake = types.ModuleType("lightsout.play")

    def run_server(host="127.0.0.1", port=8000, open_browser=True):
        calls.append((host, port, open_browser))
        if port == 9999:
            raise KeyboardInterrupt

    fake.run_server = run_server  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "lightsout.play", fake)
    assert main(["play", "--host", "0.0.0.0", "--port", "8123", "--no-browser"]) == 0
    assert main(["play"]) == 0
    assert calls == [("0.0.0.0", 8123, False), ("127.0.0.1", 8000, True)]
    assert main(["play", "--port", "9999"]) == 130
    assert _one_line(capsys.readouterr().err) == "lightsout: interrupted"
    assert main(["play", "--port", "70000"]) == 2
    assert "port number 0..65535" in capsys.readouterr().err


def test_play_without_the_package_is_one_line_and_2(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "lightsout.play", None)  # import fails: not installed
    assert main(["play", "--no-browser"]) == 2
    assert "lightsout.play" in _one_line(capsys.readouterr().err)


def test_subprocess_solve_render_and_stdin(tmp_path):
    (tmp_path / "board.txt").write_text(BOARD_TEXT)
    done = _run_cli(tmp_path, "solve", "board.txt", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["solvable"] is True
    done = _run_cli(tmp_path, "solve", "-", "--format", "list", input=UNSOLVABLE)
    assert done.returncode == 1 and done.stdout == ""
    assert "cannot be turned dark" in _one_line(done.stderr)
    done = _run_cli(tmp_path, "render", "200", "-o", "r.png")
    assert done.returncode == 0 and done.stdout == ""
    with _pil().open(tmp_path / "r.png") as image:
        assert oracle.clears(np.ones((200, 200)), np.array(image, dtype=bool))
    done = _run_cli(tmp_path, "solve", "board.txt", "--format", "picture", "--color", "never")
    assert done.returncode == 0 and "██" in done.stdout
    done = _run_cli(tmp_path, "--version")
    assert done.returncode == 0 and done.stdout.startswith("lightsout ")


def test_subprocess_broken_pipe_is_quiet_for_tables(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "lightsout", "nullity", "--table", "3000"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.read(10)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait() in (0, 141)  # 0 when the whole table fitted in the pipe before it closed
    assert err == ""


def test_boards_of_other_axes(tmp_path, capsys):
    cube = np.ones((2, 3, 3), bool)
    lightsout.write_board(tmp_path / "cube.npy", cube)
    assert main(["solve", str(tmp_path / "cube.npy"), "--format", "list"]) == 0
    presses = np.zeros(cube.shape, np.uint8)
    for line in capsys.readouterr().out.splitlines():
        presses[tuple(int(v) for v in line.split())] = 1
    assert not oracle.replay_nd(cube, presses).any()
    assert main(["solve", str(tmp_path / "cube.npy"), "--format", "text"]) == 0
    assert capsys.readouterr().out.startswith("! presses[0, :, :]\n")
    assert main(["solve", str(tmp_path / "cube.npy"), "--svg", str(tmp_path / "c.svg")]) == 2
    assert "1-D and 2-D" in _one_line(capsys.readouterr().err)
    lightsout.write_board(tmp_path / "line.npy", np.ones(7, bool))
    assert main(["solve", str(tmp_path / "line.npy"), "--format", "picture"]) == 0
    assert capsys.readouterr().out.startswith("board")


# --- issue 29: JSON failures, the proof in the command line's words, --all-lit, --torus AXES ------

@pytest.mark.parametrize("make, argv, words", [
    (None, ["solve", "missing.txt", "--json"], "missing.txt: No such file or directory"),
    ("10\n1?\n", ["solve", "board.txt", "--json"], "line 2, column 2: unexpected character '?'"),
    ("012\n", ["solve", "board.txt", "--format", "json"], "light state 2 is out of range 0..1"),
    ("01\n", ["solve", "board.txt", "--format=json", "--time-limit", "2"], "--time-limit bounds the --minimal"),
    (None, ["solve", "--json", "--time-limit", "-1", "board.txt"], "expected a positive number of seconds"),
    (None, ["solve", "--json", "--all-lit", "2", "3", "4"], "--all-lit takes N or N M"),
    (None, ["solve", "--json"], "solve takes a board file"),
    (None, ["solve", "--json", "--all-lit", "3", "--torus=sideways"], "expected all, none, rows, cols"),
])
def test_every_failure_is_json_under_json(tmp_path, monkeypatch, capsys, make, argv, words):
    monkeypatch.chdir(tmp_path)
    if make is not None:
        (tmp_path / "board.txt").write_text(make)
    assert main(argv) == 2
    captured = capsys.readouterr()
    record = json.loads(captured.out)          # one object, nothing else on standard output
    assert set(record) == {"error", "exit_status"} and record["exit_status"] == 2
    assert words in record["error"]
    assert words in captured.err               # and the usual line (or argparse's) on standard error


def test_an_interrupt_is_json_under_json(monkeypatch, capsys):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "solve", interrupted)
    assert main(["solve", "--all-lit", "4", "--json"]) == 130
    assert json.loads(capsys.readouterr().out) == {"error": "interrupted", "exit_status": 130}


def test_without_json_failures_stay_off_standard_output(tmp_path, capsys):
    assert main(["solve", str(tmp_path / "missing.txt")]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "No such file" in _one_line(captured.err)


@pytest.mark.parametrize("text, states", [(UNSOLVABLE, 2), ("2000\n0000\n0000\n", 3)])
def test_unsolvable_json_carries_the_proof_and_no_python_names(tmp_path, capsys, text, states):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    board = lightsout.parse_board(text, states=states).astype(int)
    assert main(["solve", str(path), "--json", "--states", str(states)]) == 1
    captured = capsys.readouterr()
    record = json.loads(captured.out)
    assert record["solvable"] is False
    pattern = np.array(record["quiet_pattern"])
    assert pattern.shape == board.shape and pattern.any()
    assert not oracle.replay_nd(np.zeros_like(board), pattern, states=states).any()   # quiet
    assert int((pattern * board).sum()) % states != 0                                 # meets the board
    for message in (record["reason"], _one_line(captured.err)):
        assert ".quiet_pattern" not in message and "quiet_pattern" in message and "--json" in message
    assert main(["solve", str(path), "--states", str(states)]) == 1
    assert ".quiet_" not in capsys.readouterr().err


def test_solve_all_lit_without_a_file(capsys):
    assert main(["solve", "--all-lit", "5", "--format", "text", "--quiet"]) == 0
    presses = lightsout.parse_board(capsys.readouterr().out).astype(int)
    assert presses.shape == (5, 5) and oracle.clears(np.ones((5, 5), int), presses)
    assert main(["solve", "--all-lit", "4", "7", "--states", "3", "--format", "text", "--quiet"]) == 0
    presses = lightsout.parse_board(capsys.readouterr().out, states=3)
    assert presses.shape == (4, 7)
    assert not oracle.replay_nd(np.ones((4, 7), int), presses, states=3).any()    # every light in state 1
    assert main(["solve", "--all-lit", "6", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["shape"] == [6, 6]


def test_solve_takes_a_file_or_all_lit_not_both(tmp_path, capsys):
    (tmp_path / "b.txt").write_text("11\n")
    assert main(["solve", str(tmp_path / "b.txt"), "--all-lit", "3"]) == 2
    assert "not both" in _one_line(capsys.readouterr().err)
    assert main(["solve"]) == 2
    assert "--all-lit N [M]" in _one_line(capsys.readouterr().err)


@pytest.mark.parametrize("argv, shape, wraps", [
    (["nullity", "6", "5", "--torus", "rows"], (6, 5), (True, False)),
    (["nullity", "6", "5", "--torus", "cols"], (6, 5), (False, True)),
    (["nullity", "6", "5", "--torus", "1,0"], (6, 5), (True, False)),
    (["nullity", "6", "5", "--torus", "0,1"], (6, 5), (False, True)),
    (["nullity", "6", "5", "--torus", "all"], (6, 5), (True, True)),
    (["nullity", "6", "5", "--torus"], (6, 5), (True, True)),
    (["nullity", "--torus", "6", "5"], (6, 5), (True, True)),         # a bare --torus takes no size
    (["first-row", "--torus", "6", "5", "--format", "npy", "-o", "x.npy"], None, None),
    (["nullity", "6", "5", "--torus=rows"], (6, 5), (True, False)),
    (["nullity", "6", "5", "--torus", "none"], (6, 5), (False, False)),
    (["nullity", "3", "8", "--torus", "rows", "--sigma"], (3, 8), (True, False)),
])
def test_torus_axes_reach_the_solver(tmp_path, monkeypatch, capsys, argv, shape, wraps):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 0
    if shape is None:    # first-row of the 6 x 5 torus: the row chased down clears the all-lit board
        first = np.load(tmp_path / "x.npy")
        assert first.shape == (2, 5) or first.shape == (5,)
        assert np.array_equal(first, lightsout.first_row(6, 5, torus=True))
        return
    self_toggle = "--sigma" not in argv
    assert int(capsys.readouterr().out) == oracle_nullity(shape, wraps, self_toggle, 2)


def test_torus_axes_on_a_board_of_three_axes(tmp_path, capsys):
    board = np.ones((3, 4, 5), dtype=np.uint8)
    np.save(tmp_path / "cube.npy", board)
    assert main(["solve", str(tmp_path / "cube.npy"), "--torus", "0,1,1", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["torus"] == [False, True, True]
    assert not oracle.replay_nd(board, np.array(record["presses"]), torus=(False, True, True)).any()
    assert main(["solve", str(tmp_path / "cube.npy"), "--torus", "rows", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["torus"] == [True, False, False]
    assert main(["solve", str(tmp_path / "cube.npy"), "--torus", "1,0"]) == 2
    assert "2 values for a board with 3 axes" in _one_line(capsys.readouterr().err)


def test_torus_cols_needs_a_second_axis(tmp_path, capsys):
    np.save(tmp_path / "line.npy", np.ones(5, dtype=np.uint8))
    assert main(["solve", str(tmp_path / "line.npy"), "--torus", "cols"]) == 2
    assert "this board has 1 axis" in _one_line(capsys.readouterr().err)
    assert main(["solve", str(tmp_path / "line.npy"), "--torus", "--format", "text", "--quiet"]) == 0


# -- press rules and board masks (issue 30) ---------------------------------------------------------------

PLUS = [[0, 1, 0], [1, 1, 1], [0, 1, 0]]


def _json_out(capsys):
    import json

    return json.loads(capsys.readouterr().out)


def test_solve_reads_the_masks_of_a_board_file(tmp_path, capsys):
    path = tmp_path / "masked.txt"
    path.write_text("1 1 ~ 0\n1/ 1 0' 0\n1 1 1 0/'\n")      # the presses (0, 0) and (2, 1) of the plus rule
    assert main(["solve", str(path), "--json"]) == 0
    record = _json_out(capsys)
    holes = np.array([[0, 0, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0]], bool)
    unpressable = np.array([[0, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1]], bool)
    free_lights = np.array([[0, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], bool)
    board = np.array([[1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0]])
    presses = np.array(record["presses"])
    matrix = oracle.stencil_matrix((3, 4), False, PLUS, (1, 1), 2)
    _, required, pressable = oracle.masked_system(matrix, holes, unpressable, free_lights)
    assert not oracle.stencil_replay(board, presses, matrix, 2, holes).ravel()[required].any()
    assert not np.delete(presses.ravel(), pressable).any()                 # no hole, no unpressable cell
    # from standard input alike
    done = _run_cli(tmp_path, "solve", "-", "--format", "text", input=path.read_text())
    assert done.returncode == 0 and np.array_equal(
        np.array([[int(c) for c in line] for line in done.stdout.split()]), presses)


@pytest.mark.parametrize("how", [["--stencil", "x"], ["--stencil-file", "x.txt"]])
def test_solve_and_nullity_take_a_stencil(tmp_path, capsys, how):
    (tmp_path / "x.txt").write_text("1.1\n.1.\n1.1\n")
    how = [how[0], str(tmp_path / how[1])] if how[0] == "--stencil-file" else how
    x_rule = [[1, 0, 1], [0, 1, 0], [1, 0, 1]]
    rng = np.random.default_rng(30)
    for shape in ((3, 3), (4, 5), (5, 2)):
        matrix = oracle.stencil_matrix(shape, False, x_rule, (1, 1), 2)
        assert main(["nullity", str(shape[0]), str(shape[1]), *how]) == 0
        assert int(capsys.readouterr().out) == oracle.masked_nullity(matrix, 2)
        board = (matrix @ rng.integers(0, 2, shape[0] * shape[1]) % 2).reshape(shape)   # solvable
        path = tmp_path / "b.txt"
        lightsout.write_board(path, board)
        assert main(["solve", str(path), "--json", *how]) == 0
        presses = np.array(_json_out(capsys)["presses"])
        assert not oracle.stencil_replay(board, presses, matrix, 2).any()
    assert main(["nullity", "--table", "4", *how]) == 0
    lines = capsys.readouterr().out.splitlines()[1:]
    assert [int(line.split()[1]) for line in lines] == [
        oracle.masked_nullity(oracle.stencil_matrix((n, n), False, x_rule, (1, 1), 2), 2) for n in range(1, 5)]


def test_json_carries_the_proof_of_an_unsolvable_one_way_board(tmp_path, capsys):
    # a press adds to the cell above and the cell to the right: the bottom-left light never changes
    weights = [[0, 1, 0], [0, 0, 1], [0, 0, 0]]
    (tmp_path / "up-right.txt").write_text("010\n001\n000\n")
    board = np.zeros((3, 4), np.uint8)
    board[2, 0] = 1
    board[0, 1] = 2
    lightsout.write_board(tmp_path / "b.txt", board, states=3)
    args = ["solve", str(tmp_path / "b.txt"), "--states", "3", "--stencil-file", str(tmp_path / "up-right.txt")]
    assert main([*args, "--json"]) == 1
    record = _json_out(capsys)
    assert record["solvable"] is False and record["quiet_pattern"] is None
    matrix = oracle.stencil_matrix((3, 4), False, weights, (1, 1), 3)
    _, required, pressable = oracle.masked_system(matrix, None, None, None)
    assert oracle.proves_unsolvable(record["proof"], board, matrix, 3, required, pressable)
    assert main(args) == 1
    _one_line(capsys.readouterr().err)


def test_json_proof_of_a_symmetric_rule_is_the_quiet_pattern(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text("1000\n1000\n1000\n1000\n")
    assert main(["solve", str(path), "--json"]) == 1
    record = _json_out(capsys)
    assert record["proof"] is not None and record["proof"] == record["quiet_pattern"]


@pytest.mark.parametrize("stencil, extra, message", [
    ("11\n", [], "the stencil is 1 x 2 cells; its pressed cell is the middle one"),
    ("1.\n.1\n", [], "the stencil is 2 x 2 cells"),
    ("121\n", [], "light state 2 is out of range 0..1"),
    ("1?1\n", [], "unexpected character '?'"),
    ("111\n", ["--stencil", "x"], "give --stencil NAME or --stencil-file PATH, not both"),
    ("000\n", [], "stencil"),
])
def test_bad_stencils_are_one_line_with_exit_2(tmp_path, capsys, stencil, extra, message):
    (tmp_path / "s.txt").write_text(stencil)
    (tmp_path / "b.txt").write_text("101\n010\n")
    for command in (["solve", str(tmp_path / "b.txt")], ["nullity", "3"]):
        assert main([*command, "--stencil-file", str(tmp_path / "s.txt"), *extra]) == 2
        assert message in _one_line(capsys.readouterr().err)
    assert main(["solve", str(tmp_path / "b.txt"), "--stencil-file", str(tmp_path / "s.txt"), *extra, "--json"]) == 2
    assert message in _json_out(capsys)["error"]


def test_bad_marks_and_stencil_names_are_refused(tmp_path, capsys):
    path = tmp_path / "b.txt"
    path.write_text("1 ~/\n")
    assert main(["solve", str(path)]) == 2
    assert f"{path}, line 1, column 4: a hole ('~') takes no mark" in _one_line(capsys.readouterr().err)
    assert main(["solve", str(path), "--stencil", "bogus"]) == 2
    assert "invalid choice: 'bogus'" in capsys.readouterr().err
    assert main(["nullity", "3", "--stencil-file", str(tmp_path / "missing.txt")]) == 2
    assert "missing.txt" in _one_line(capsys.readouterr().err)


def test_pictures_of_a_masked_board(tmp_path, capsys):
    path = tmp_path / "b.txt"
    path.write_text("1 1 ~\n1/ 1 1\n")
    svg = tmp_path / "b.svg"
    assert main(["solve", str(path), "--svg", str(svg), "--png", str(tmp_path / "b.png"), "-q"]) == 0
    background = "#%02x%02x%02x" % lightsout.picture.BACKGROUND
    assert background in svg.read_text() and (tmp_path / "b.png").stat().st_size > 0


# --- first-row written in chunks from the packed row (issue 31) ---

@pytest.mark.parametrize("write_words", [1, 2, 3])
@pytest.mark.parametrize("n, m", [(1, None), (63, None), (64, None), (65, None), (129, None), (300, 200),
                                  (200, 300), (257, None)])
def test_first_row_chunks_equal_the_row(monkeypatch, capsys, tmp_path, write_words, n, m):
    monkeypatch.setattr(cli, "WRITE_WORDS", write_words)   # chunks of 64 to 192 columns: every boundary crossed
    row = lightsout.first_row(n, m)
    expect = {"bits": "".join("1" if v else "0" for v in row) + "\n",
              "hex": np.packbits(row, bitorder="little").tobytes().hex() + "\n"}
    size = [str(n)] + ([] if m is None else [str(m)])
    for fmt, text in expect.items():
        assert main(["first-row", *size, "--format", fmt]) == 0
        assert capsys.readouterr().out == text, fmt
        path = tmp_path / f"row.{fmt}"
        assert main(["first-row", *size, "--format", fmt, "-o", str(path), "--verify"]) == 0
        assert path.read_text() == text, fmt
    _, lights = oracle.chase_fast(np.ones((n, m or n), bool), row)
    assert not lights.any()


def test_first_row_chunks_report_progress_and_stop_at_ctrl_c(monkeypatch):
    from conftest import stops_at_ctrl_c

    reports = []
    words = np.random.default_rng(3).integers(0, 2**63, size=1 << 21, dtype=np.uint64)   # 134M columns
    args = cli.build_parser().parse_args(["first-row", "5", "-o", os.devnull])
    monkeypatch.setattr(cli, "WRITE_WORDS", 1 << 10)
    cli._emit_packed_row(args, words[:4], 200, "bits", lambda *report: reports.append(report))
    assert reports[0] == ("write", 0, 200) and reports[-1] == ("write", 200, 200)
    monkeypatch.setattr(cli, "WRITE_WORDS", 1)          # 2^21 chunks of a word: the signal lands among them
    for fmt in ("bits", "hex"):
        stops_at_ctrl_c(lambda: cli._emit_packed_row(args, words, 64 * len(words), fmt, None), f"first-row {fmt}")
