"""
A torus and the sigma game
==========================

With ``torus=True`` the rows and columns wrap around; with ``self_toggle=False`` (the σ
game) a press changes its neighbours but not itself. Each board below is drawn with its
presses as red dots by :meth:`lightsout.Solution.plot`.
"""
import matplotlib.pyplot as plt
import numpy as np

import lightsout

rng = np.random.default_rng(7)
fig, (left, right) = plt.subplots(1, 2, figsize=(8, 4))

# a random solvable board on the 12 x 12 torus: press random cells of a dark board
start = lightsout.press(np.zeros((12, 12), dtype=bool), rng.integers(0, 2, (12, 12)), torus=True)
torus = lightsout.solve(start, torus=True)
torus.plot(ax=left)
left.set_title(f"12 x 12 torus: {int(torus.presses.sum())} presses, nullity {torus.nullity}")

sigma = lightsout.solve(np.ones((10, 10), dtype=bool), self_toggle=False, minimal=True)
sigma.plot(ax=right)
right.set_title(f"σ game, all-lit 10 x 10: {int(sigma.presses.sum())} presses (fewest)")
fig.tight_layout()
