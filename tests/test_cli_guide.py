"""Every command of the command-line guide (docs/guide/cli.md) runs as shown and prints what it shows."""
from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "guide" / "cli.md"

#: Commands shown but not run here: `play` serves until Ctrl-C (tests/test_cli.py runs it with a
#: stand-in server).
NOT_RUN = ("lightsout play",)


def _console_examples() -> list[tuple[str, str]]:
    """(command, expected output) pairs of the guide's ```console blocks."""
    section = GUIDE.read_text(encoding="utf-8")
    pairs: list[tuple[str, str]] = []
    for block in re.findall(r"```console\n(.*?)```", section, flags=re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                pairs.append((line[2:], ""))
            elif pairs:
                pairs[-1] = (pairs[-1][0], pairs[-1][1] + line + "\n")
    return pairs


def test_guide_shows_commands():
    commands = [command for command, _ in _console_examples()]
    assert len(commands) >= 15
    for name in ("first-row", "solve", "nullity", "render", "play"):
        assert any(f"lightsout {name}" in c for c in commands), name


def test_guide_commands_run_as_shown(tmp_path):
    shim = tmp_path / "bin" / "lightsout"
    shim.parent.mkdir()
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m lightsout "$@"\n')
    shim.chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    env = dict(os.environ, PATH=f"{shim.parent}{os.pathsep}{os.environ.get('PATH', '')}", COLUMNS="100")
    env.pop("NO_COLOR", None)
    checker = doctest.OutputChecker()
    for command, expected in _console_examples():
        if command.startswith(NOT_RUN):
            continue
        done = subprocess.run(["bash", "-c", command], cwd=work, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=300)  # both, as a terminal shows them
        got = done.stdout
        assert checker.check_output(expected, got, doctest.ELLIPSIS), \
            f"$ {command}\nexpected:\n{expected}\ngot:\n{got}"
    assert (work / "presses.png").exists() and (work / "solution.svg").exists()


def test_board_file_section_matches_the_code():
    from lightsout.board import COMMENT

    section = (GUIDE.parent / "files.md").read_text(encoding="utf-8")
    assert f"`{COMMENT}` starts a comment" in section
    pytest.importorskip("PIL")
