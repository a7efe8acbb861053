"""The searches over the solutions of a board.

- ``minweight``: the fewest-press element of a coset by Walsh-Hadamard weighing, and the
  distance tables.
- ``orbitcut``: its symmetric cut (one task of each orbit of the board's symmetries).
- ``prune``: its branch and bound, for cosets that fall apart.
- ``symmetry``: the symmetries of boards and graphs, and Burnside's counts.
- ``minimal``: a solved board's minimal solution (which search, which cut, which limits).
- ``manyboards``: one solution operator applied to many boards at once.
"""
