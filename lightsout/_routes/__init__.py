"""The routes: each turns a board and its rules into a coset of solutions.

- ``poly``: open 2-D grids through GF(2)[t] (docs/algebra.md sections 2-4), O(C) memory.
- ``dense``: open 2-D grids by the A/B two-row iteration and Gauss-Jordan elimination.
- ``nd``: any number of axes, wraps per axis, the sigma rule, k states.
- ``forcing``: graphs (and grids as graphs), by a forcing plan that leaves a small system, or
  by eliminating the whole system.

- ``registry``: every route (poly, dense, nd, forcing, elimination) behind one small protocol,
  ``Route``, and the registry ``ROUTES`` the entry points choose from by ``method=``.

The routes stand on the core and the kernels and import nothing from each other; only the
registry imports them.
"""
