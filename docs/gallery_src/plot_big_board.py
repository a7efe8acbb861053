"""
The presses of a big all-lit board
==================================

The canonical press pattern of the all-lit 1,000 x 1,000 board, one pixel a cell (white =
press). :func:`lightsout.picture.render_presses` computes the first row, chases the rest
band by band and streams a one-bit PNG, so memory stays flat whatever the size
(``lightsout render 20000 -o big.png`` draws 4·10⁸ cells the same way).
"""
import lightsout

presses = lightsout.picture.render_presses("big_board.png", 1000)
print(f"{presses:,} presses of 1,000,000 cells")

# %%
# The pattern is symmetric under the eight symmetries of the square: the all-lit board is,
# and so is its canonical solution when it is the only one (the 1000 x 1000 board has
# nullity 0).
print("nullity:", lightsout.nullity(1000))
