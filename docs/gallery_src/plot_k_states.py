"""
Lights with three states
========================

With ``states=3`` a press adds 1 mod 3 to a cell and its neighbours, and a solution presses
each cell 0, 1 or 2 times. :func:`lightsout.picture.board_png` draws the start board with
its presses (red dots); the file below is the package's own PNG.
"""
import numpy as np

import lightsout

rng = np.random.default_rng(3)
start = lightsout.press(np.zeros((9, 9), dtype=np.uint8), rng.integers(0, 3, (9, 9)), states=3)
solution = lightsout.solve(start, states=3)
print(solution, "press counts:", np.bincount(solution.presses.ravel(), minlength=3).tolist())

with open("three_states.png", "wb") as file:
    file.write(lightsout.picture.board_png(start, solution.presses, states=3, cell=40))
