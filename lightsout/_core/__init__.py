"""The core, above the kernels: the board model, the results of the routes, and the algebra they share.

- ``rules``: the board model, a frozen ``Rules`` (shape, wrap per axis, self toggle, states)
  checked once where a call comes in, with its size budgets.
- ``graphrules``: a graph's board model, ``GraphRules`` (neighbour lists, self toggle, states),
  and a grid seen as a graph (its neighbour table).
- ``coset``: what every route finds about a board, a coset of solutions (one solution,
  the quiet basis, packed or lazy, the exact count, the proof), by whole press vectors or,
  for the 2-D grid routes, by first rows.
- ``canonical``: the canonical (lexicographically smallest) solution and the proof of
  unsolvability, for every route.
- ``manyboards``: one GF(2) solution operator applied to many boards at once (byte tables).
- ``gf2system``: one GF(2) linear system solved (solution, kernel, rank, pivots, proof), the
  twin of ``modring``'s ``ModSystem``; every GF(2) solve of the package goes through it.
- ``modring``: linear algebra over Z/k (solving, kernels, Howell forms).
- ``orientation``: transposes and first columns of packed boards.
- ``bandchase``: the presses of a solved all-lit grid chased from its first row, band by band
  (press counts and pictures of boards too large to hold).
- ``bitmatrix``: 0/1 matrices checked and packed in one pass (the compiled packer), and their limits.
- ``runner``: the cancellation token (stop flag and deadline) and the one chunked runner over threads.
- ``tasks``: jobs on any ``concurrent.futures`` executor, resubmitted when a worker is lost.
"""
