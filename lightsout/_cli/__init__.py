"""The command line's own rooms, beside ``lightsout/cli.py`` on the front-ends' floor.

- ``progress``: the progress shown on standard error while a command works (tqdm
  bars with the ``progress`` extra, one line of plain text without it).

Nothing below the front-ends imports from here: the library reports progress
through its ``progress(stage, done, total)`` callbacks and draws nothing itself.
"""
