"""
The slices of a cube
====================

Boards may have any number of axes. The all-lit 6 x 6 x 6 cube (each cell toggles itself
and its six neighbours) is solved, and its presses are drawn one slice at a time.
"""
import matplotlib.pyplot as plt
import numpy as np

import lightsout

cube = lightsout.solve(np.ones((6, 6, 6), dtype=bool), minimal=True)
print(cube, "fewest presses:", int(cube.presses.sum()))

fig, axes = plt.subplots(1, 6, figsize=(12, 2.4))
for z, ax in enumerate(axes):
    lightsout.picture.plot_board(cube.board[z], cube.presses[z], ax=ax)
    ax.set_title(f"slice {z}", fontsize=9)
fig.tight_layout()
