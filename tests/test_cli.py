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
    assert main(["first-row", "5"]) == 130
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


def test_subprocess_ctrl_c_is_one_line_and_130(tmp_path):
    # A shell starts background jobs with SIGINT ignored, and Python then leaves it ignored;
    # give the child the default disposition, as a terminal's foreground job has.
    proc = subprocess.Popen([sys.executable, "-c", _INTERRUPTIBLE], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stdout.readline().strip() == "started"  # the command is running: the handler is in place
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, (out, err)
    assert _one_line(err) == "lightsout: interrupted"


# A long dense run whose first progress report says it started; SIGINT arrives inside the work.
_INTERRUPTIBLE = """
import sys
import lightsout.cli as cli
from lightsout import first_row as real
def first_row(n, m=None, **kw):
    def progress(stage, done, total):
        if not progress.said:
            print("started", flush=True)
            progress.said = True
    progress.said = False
    return real(n, m, progress=progress, threads=2, **kw)  # 2 threads: progress comes every 0.25 s
cli.first_row = first_row
sys.exit(cli.main(["first-row", "40000", "--method", "dense"]))
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
    with pytest.raises(SystemExit):
        main(["nullity", "3", "--states", "1"])


def oracle_nullity(shape, torus, self_toggle, states):
    sets = oracle.neighbour_sets(shape, torus, self_toggle)
    return len(sets) - oracle.rank_mod_prime(oracle.effect_matrix(sets), states)
