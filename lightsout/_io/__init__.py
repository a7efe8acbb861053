"""Boards and pictures in and out.

- ``boardtext``: the cell symbols, the one board-text parser and the writer.
- ``boardfile``: board files (text, ``.npy``, PNG).
- ``drawing``: SVG, PNG, matplotlib and terminal pictures of boards (nothing that solves).
- ``png``: PNG encoding by zlib, streamed by rows for large pictures.
"""
