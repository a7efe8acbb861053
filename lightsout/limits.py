"""Every limit a call can meet, under one public name: what it limits, its unit, why that value.

A limit lives with what it limits (the route, the search, the writer that checks it, before
any work); this module names each one for users, and every refusal
(:class:`lightsout.BoardTooLargeError`) names it here: ``lightsout.limits.MAX_ND_BYTES``.
The names are the very values the checks use; they are read here, not set: assigning to
one of them here changes no check.  Sizes are in bytes, cells, vertices,
word operations (one operation on a 64-bit word: the unit of the routes' time budgets,
about 1.5-3e10 a second on the 2-core development machine) or seconds.

The play page's own limits (board side, request size, time per request) are the page's:
see ``lightsout.play.api``.

Example:
    >>> import lightsout
    >>> lightsout.limits.MAX_BOARD_CELLS == 2**32
    True
    >>> try:
    ...     lightsout.nullity(10**5, self_toggle=False, method="nd")
    ... except lightsout.BoardTooLargeError as exc:
    ...     print("lightsout.limits.MAX_ND_WORD_OPS" in str(exc))
    True
"""
from __future__ import annotations

from lightsout import _solve, fewest, many, picture
from lightsout._base import validate as _validate
from lightsout._core import bitmatrix as _bitmatrix
from lightsout._core import graphinput as _graphinput
from lightsout._core import manyboards as _manyboards
from lightsout._core import modring as _modring
from lightsout._core import stencil as _stencil
from lightsout._core import verify as _verify
from lightsout._io import drawing as _drawing
from lightsout._routes import dense as _dense
from lightsout._routes import forcing as _forcing
from lightsout._routes import general as _general
from lightsout._routes import nd as _nd
from lightsout._routes import poly as _poly
from lightsout._routes import stencilchase as _stencilchase
from lightsout._search import cosetform as _cosetform
from lightsout._search import distance as _distance
from lightsout._search import minweight as _minweight
from lightsout._search import modsearch as _modsearch
from lightsout._search import orbitcut as _orbitcut
from lightsout._search import symmetry as _symmetry
from lightsout._solution import result as _result

__all__ = [
    "MAX_BOARD_CELLS", "MAX_AXES", "MAX_STATES",
    "MAX_POLY_BYTES", "MAX_POLY_NULLITY_BYTES", "MAX_POLY_FIRST_ROW_BYTES", "MAX_DENSE_WORD_OPS", "MAX_DENSE_BYTES", "MAX_DENSE_SIDE_BYTES", "MAX_ND_BYTES",
    "MAX_ND_WORD_OPS", "MAX_GENERAL_BYTES", "MAX_GENERAL_WORD_OPS", "MAX_STENCIL_CELLS", "MAX_STENCIL_CHASE_BYTES",
    "MAX_MOD_WORK_BYTES", "MAX_GF2_BYTES", "MAX_GF2_WORD_OPS", "MAX_GRAPH_BYTES", "MAX_GRAPH_VERTICES",
    "MAX_PATTERN_CELLS", "MAX_TABLE_ENTRIES", "MAX_TABLE_SECONDS",
    "MAX_NULLITY", "MAX_UNTIMED_NULLITY", "MAX_UNTIMED_SECONDS", "MAX_SEARCH_BYTES", "STREAM_CELLS",
    "MAX_STREAM_CELLS", "MAX_MOD_SOLUTIONS", "MAX_MOD_UNTIMED_SECONDS", "MAX_MOD_ELEMENTS", "MAX_MOD_SEARCH_BYTES",
    "MAX_CUT_GROUP", "MAX_DISTANCE_LOG2",
    "MAX_GROUP_ORDER", "MAX_GROUP_CELLS", "MAX_CYCLE_SYSTEM_ENTRIES",
    "MAX_OPERATOR_BYTES", "MAX_MANY_TABLE_BYTES", "MAX_MANY_MINIMAL_NULLITY",
    "MAX_SVG_CELLS", "MAX_PNG_CELLS", "MAX_RENDER_PIXELS", "MAX_VERIFY_REPLAY_CELLS",
    "MAX_VERIFY_NULLITY",
]

# Boards -------------------------------------------------------------------------------------

#: Cells of a board held one byte a cell (2**32, 4 GiB); room on a 16 GiB machine for the
#: presses and the temporaries; first_row and nullity take larger grids, never building them.
MAX_BOARD_CELLS = _validate.MAX_BOARD_CELLS
#: Axes of a board (32); numpy stops at 64 and the routes add axes of their own; 32 axes of
#: length 2 are already 2**32 cells.
MAX_AXES = _validate.MAX_AXES
#: Light states k (255); press counts and lights are kept in one byte.
MAX_STATES = _validate.MAX_STATES

# The routes' budgets (each checked by its route before any work) ------------------------------

#: Bytes of polynomial scratch of the polynomial route (8 GiB, and no more than the machine's
#: memory; about 32 live polynomials of the longer side's degree, sides to about 2 * 10**9).
MAX_POLY_BYTES = _poly.MAX_POLY_BYTES
#: Bytes of polynomial scratch of an open grid's nullity alone (20 GiB, and no more than the
#: machine's memory; 16 polynomials of the side on a square, 24 on other rectangles:
#: nullity(10**10) needs about 18.6 GiB).
MAX_POLY_NULLITY_BYTES = _poly.MAX_POLY_NULLITY_BYTES
#: Bytes of polynomial scratch of the all-lit board's first row (20 GiB, and no more than the
#: machine's memory; 16 polynomials of the side, measured: first_row(10**10) needs about 18.6 GiB).
MAX_POLY_FIRST_ROW_BYTES = _poly.MAX_POLY_FIRST_ROW_BYTES
#: Word operations of one dense-route call (2**44, 1.8e13; about ten minutes at the 3.1e10 a
#: second measured on 64,000 x 64,000); method='poly' takes larger boards.
MAX_DENSE_WORD_OPS = _dense.MAX_DENSE_WORD_OPS
#: Bytes of the dense route's C x (C+1) system, its scratch and a transposed board (8 GiB).
MAX_DENSE_BYTES = _dense.MAX_DENSE_BYTES
#: Bytes the dense route holds for its long side, four a cell (2 GiB; sides to about 5 * 10**8).
MAX_DENSE_SIDE_BYTES = _dense.MAX_DENSE_SIDE_BYTES
#: Bytes of the N-D route's reduced system, or of a pattern it expands (2 GiB).
MAX_ND_BYTES = _nd.MAX_ND_BYTES
#: Word operations of one N-D-route call (2**44, 1.8e13, 8 bytes counting as one with k > 2 states;
#: ten to twenty minutes at the 1.5e10 a second measured on the sigma game's 12,000 x 12,000 board).
MAX_ND_WORD_OPS = _nd.MAX_ND_WORD_OPS
#: Bytes of the general route's written-out system (any stencil and masks; R required lights x P
#: pressable cells, packed for two states, a byte an entry over Z/k) (1 GiB).
MAX_GENERAL_BYTES = _general.MAX_GENERAL_BYTES
#: Operations of the general route's elimination (2**40; 64 bits or 8 bytes count as one; minutes).
MAX_GENERAL_WORD_OPS = _general.MAX_GENERAL_WORD_OPS
#: Cells a press stencil may span (the product of its extents, 65,536).
MAX_STENCIL_CELLS = _stencil.MAX_STENCIL_CELLS
#: Bytes of scratch one elimination over Z/k (k states) allocates (2 GiB).
MAX_MOD_WORK_BYTES = _modring.MAX_WORK_BYTES
#: Bytes of packed copies and results one GF(2) matrix call (lightsout.gf2) allocates (8 GiB).
MAX_GF2_BYTES = _bitmatrix.MAX_BYTES
#: Word updates of one GF(2) elimination (2**45; some 10-20 minutes on one core).
MAX_GF2_WORD_OPS = _bitmatrix.MAX_WORK
#: Bytes one graph solve allocates for its systems, expressions and answer (2 GiB; 64 bytes a
#: vertex whatever the edges, so at most 33,554,432 vertices, and a dense adjacency matrix's
#: scan a byte an entry).
MAX_GRAPH_BYTES = _forcing.MAX_GRAPH_BYTES
#: Vertices of a graph (2**31 - 1); vertex numbers are int32.
MAX_GRAPH_VERTICES = _graphinput.MAX_GRAPH_VERTICES
#: Bytes one chase of a press stencil allocates, counting its plan (6 bytes a cell, 10 with a
#: wrapping axis), the window of press rows, a torus's persistent rows, the reduced system and
#: the answer (6 GiB; a 10,000 x 10,000 board with a 5 x 5 stencil needs about 1.5).
MAX_STENCIL_CHASE_BYTES = _stencilchase.MAX_STENCIL_CHASE_BYTES
#: Cells of the all-lit board down which verify_first_row (and first_row(verify=True)) chases a
#: row its GF(2^64) identity cannot decide: a rectangle, or a square with several solutions
#: (2**34; about a second).
MAX_VERIFY_REPLAY_CELLS = _verify.MAX_VERIFY_REPLAY_CELLS
#: Nullity of the n x n board up to which verify_first_row widens its GF(2^64) identity by the
#: quiet first rows (64; the points it needs grow with the nullity); past it the row is replayed.
MAX_VERIFY_NULLITY = _verify.MAX_VERIFY_NULLITY

# Results --------------------------------------------------------------------------------------

#: Cells of quiet patterns a Solution or an error writes out, a byte a cell (10**8, 100 MB);
#: a larger basis stays as first rows or packed words.
MAX_PATTERN_CELLS = _result.MAX_PATTERN_CELLS
#: Entries of one nullity_table (10**7, 80 MB of int64).
MAX_TABLE_ENTRIES = _solve.MAX_TABLE_ENTRIES
#: Seconds one nullity_table may be estimated to take on one core without an executor (an hour).
MAX_TABLE_SECONDS = _solve.MAX_TABLE_SECONDS

# Fewest presses -------------------------------------------------------------------------------

#: Nullity of a two-state fewest-press search, time limit or not (64; a cell's form is one word).
MAX_NULLITY = _cosetform.MAX_NULLITY
#: Nullity of a search without time_limit (44, 2**44 solutions; about 20 minutes on two cores);
#: a symmetry group of order 2**j adds j.
MAX_UNTIMED_NULLITY = _minweight.MAX_UNTIMED_NULLITY
#: Estimated seconds of a search without time_limit or executor, on the usable cores (an hour).
MAX_UNTIMED_SECONDS = _minweight.MAX_UNTIMED_SECONDS
#: Bytes of the quiet patterns a board's search holds, a byte a cell (512 MiB).
MAX_SEARCH_BYTES = fewest.MAX_SEARCH_BYTES
#: Cells of an all-lit open grid fewest_presses builds (2**24); larger ones are answered only
#: with nullity 0, by chasing their one solution band by band.
STREAM_CELLS = fewest.STREAM_CELLS
#: Cells of a nullity-0 grid whose presses fewest_presses counts by chasing (2**36; about a minute).
MAX_STREAM_CELLS = fewest.MAX_STREAM_CELLS
#: Most solutions a k-state fewest-press search walks, with a time limit or without (2**64, as
#: for two states); it takes a step for each and writes none out.
MAX_MOD_SOLUTIONS = _modsearch.MAX_MOD_SOLUTIONS
#: Estimated seconds of a k-state walk without time_limit, on its threads (an hour; about 10**11
#: solutions of 40 cells on two cores).
MAX_MOD_UNTIMED_SECONDS = _modsearch.MAX_MOD_UNTIMED_SECONDS
#: Solutions the written-out k-state search (the walk's reference in the tests, which the public
#: functions no longer call) enumerates (2**22).
MAX_MOD_ELEMENTS = _modsearch.MAX_MOD_ELEMENTS
#: Bytes of the written-out k-state search's solutions, solutions x cells x states (64 MiB).
MAX_MOD_SEARCH_BYTES = _modsearch.MAX_MOD_SEARCH_BYTES
#: Maps of the coset a search's symmetric cut enumerates (4096).
MAX_CUT_GROUP = _orbitcut.MAX_CUT_GROUP
#: log2 of the press vectors a distance table walks (40; the 3-state 5 x 5 board's 3**25 fits,
#: about half a minute on two cores).
MAX_DISTANCE_LOG2 = _distance.MAX_DISTANCE_LOG2
#: Symmetries of a group listed one by one (2**16; Burnside's counts sum over every element).
MAX_GROUP_ORDER = _symmetry.MAX_GROUP_ORDER
#: Group order times cells, one int64 image a cell and symmetry (2**27; 1 GiB).
MAX_GROUP_CELLS = _symmetry.MAX_GROUP_CELLS
#: Entries of the system one symmetry's fixed solutions are counted with, cycles x cycles bytes
#: (2**31; 2 GiB).
MAX_CYCLE_SYSTEM_ENTRIES = _symmetry.MAX_CYCLE_SYSTEM_ENTRIES

# Many boards ----------------------------------------------------------------------------------

#: Bytes of the solution operator solve_many builds for one shape (256 MiB; boards of up to
#: 5,180 cells); larger boards are solved one by one.
MAX_OPERATOR_BYTES = many.MAX_OPERATOR_BYTES
#: Bytes of the byte tables that apply one operator to many boards (1 GiB).
MAX_MANY_TABLE_BYTES = _manyboards.MAX_TABLE_BYTES
#: Nullity of the boards whose fewest presses solve_many finds by trying every solution (16).
MAX_MANY_MINIMAL_NULLITY = _manyboards.MAX_MINIMAL_NULLITY

# Pictures -------------------------------------------------------------------------------------

#: Cells picture.board_svg draws (40,000; an element a lit cell, a few MB at most).
MAX_SVG_CELLS = _drawing.MAX_SVG_CELLS
#: Cells picture.board_png and plot_board draw (2**24; 48 MB of RGB at a pixel a cell).
MAX_PNG_CELLS = _drawing.MAX_PNG_CELLS
#: Pixels picture.render_presses writes (2**40; 1,048,576 x 1,048,576, 128 GiB of one-bit
#: rows); the file must also fit in the disk's free space.
MAX_RENDER_PIXELS = picture.MAX_RENDER_PIXELS
