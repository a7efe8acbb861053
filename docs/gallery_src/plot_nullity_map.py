"""
Which rectangles have quiet patterns
====================================

The nullity of every n x m board for n, m ≤ 200, from :func:`lightsout.nullity_table`:
black where the nullity is 0 (every board of that shape has exactly one solution), brighter
where it is larger. The table takes a fraction of a second.
"""
import matplotlib.pyplot as plt
import numpy as np

import lightsout

table = lightsout.nullity_table(200, 200)
print("rectangles with quiet patterns:", int(np.count_nonzero(table)), "of", table.size)

fig, ax = plt.subplots(figsize=(6, 5.4))
image = ax.imshow(np.log2(1 + table), origin="lower", extent=(0.5, 200.5, 0.5, 200.5),
                  cmap="magma", interpolation="nearest")
ax.set_xlabel("columns m")
ax.set_ylabel("rows n")
fig.colorbar(image, ax=ax, label="log2(1 + nullity)")
