"""The searches over the solutions of a board.

- ``minimal``: a solved board's minimal solution (which search, which cut, which limits).
- ``minweight``: the fewest-press element of a GF(2) coset by Walsh-Hadamard weighing (its limits,
  its tie rule, which way it runs).
- ``distance``: the distance tables (how many solvable states need j presses).
- ``jobs``: the search as short, idempotent jobs on any ``concurrent.futures`` executor.
- ``checkpoint``: a search's state on jobs in a file, written atomically, to resume from.
- ``tasksearch``: the search in this process, ranges of tasks over threads.
- ``cosetform``: the coset in the search's terms (reduced form, histogram of forms, task layout).
- ``modsearch``: the fewest presses with k states, a Gray-code walk over the coset.
- ``graywalk``: the fewest presses over GF(2) by a second algorithm (a pruned Gray-code walk with
  popcounts), sharing no inner loop with ``minweight``: the shipped table checked twice.
- ``orbitcut``: the symmetric cut (one task of each orbit of the board's symmetries).
- ``prune``: the branch and bound, for cosets that fall apart.
- ``symmetry``: the symmetries of boards and graphs, and Burnside's counts.
- ``cost``: the search's cost model (how long a search takes, before it starts).
"""
