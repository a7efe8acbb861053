"""
Quiet patterns of the 19 x 19 board
===================================

A quiet pattern is a set of presses that changes no light. The 19 x 19 board has nullity
16: sixteen quiet patterns generate all 65,536 of them, and every board that can be turned
dark can be turned dark in 65,536 ways. Here are the first eight generators.
"""
import matplotlib.pyplot as plt
import numpy as np

import lightsout

solution = lightsout.solve(np.ones((19, 19), dtype=bool))
patterns = solution.quiet_patterns()
print(solution, "quiet patterns:", patterns.shape)

fig, axes = plt.subplots(2, 4, figsize=(8, 4.4))
for k, ax in enumerate(axes.flat):
    lightsout.picture.plot_board(patterns[k], ax=ax)
    ax.set_title(f"pattern {k}", fontsize=9)
fig.tight_layout()
