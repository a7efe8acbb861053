"""Slow, obviously correct Lights Out arithmetic used as the tests' independent checker.

Nothing here imports lightsout: the board is a list of lists of 0/1 ints (or a
numpy array) and every function is plain Python, so a bug in the package cannot
hide behind the same bug here.
"""
from __future__ import annotations

import itertools

import numpy as np


def replay(board, presses):
    """The board after pressing every cell marked 1 in ``presses`` (same shape)."""
    b = np.array(board, dtype=np.uint8) % 2
    p = np.array(presses, dtype=np.uint8) % 2
    assert b.shape == p.shape, (b.shape, p.shape)
    rows, cols = b.shape
    out = b.copy()
    for i in range(rows):
        for j in range(cols):
            if p[i, j]:
                for di, dj in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
                    a, c = i + di, j + dj
                    if 0 <= a < rows and 0 <= c < cols:
                        out[a, c] ^= 1
    return out


def clears(board, presses) -> bool:
    """True when pressing ``presses`` turns every light of ``board`` off."""
    return not replay(board, presses).any()


def chase(board, first_row):
    """Presses of every row, from ``first_row`` by light chasing, and the lights left on."""
    b = np.array(board, dtype=np.uint8) % 2
    rows, cols = b.shape
    presses = np.zeros((rows, cols), dtype=np.uint8)
    presses[0] = np.array(first_row, dtype=np.uint8) % 2
    for i in range(1, rows):
        # Row i-1 must end dark: press below every light still on in row i-1.
        state = replay(b[: i + 1], np.vstack([presses[:i], np.zeros((1, cols), np.uint8)]))
        presses[i] = state[i - 1]
    return presses, replay(b, presses)


def press_matrix(rows: int, cols: int) -> np.ndarray:
    """The (rows*cols) x (rows*cols) 0/1 matrix whose column k is the effect of pressing cell k."""
    n = rows * cols
    a = np.zeros((n, n), dtype=np.uint8)
    for i in range(rows):
        for j in range(cols):
            k = i * cols + j
            for di, dj in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
                r, c = i + di, j + dj
                if 0 <= r < rows and 0 <= c < cols:
                    a[r * cols + c, k] = 1
    return a


def gf2_rank(matrix) -> int:
    """Rank over GF(2) of a 0/1 matrix, by textbook elimination."""
    m = [list(map(int, row)) for row in np.array(matrix, dtype=np.uint8) % 2]
    rank, ncols = 0, (len(m[0]) if m else 0)
    for col in range(ncols):
        pivot = next((r for r in range(rank, len(m)) if m[r][col]), None)
        if pivot is None:
            continue
        m[rank], m[pivot] = m[pivot], m[rank]
        for r in range(len(m)):
            if r != rank and m[r][col]:
                m[r] = [x ^ y for x, y in zip(m[r], m[rank])]
        rank += 1
    return rank


def nullity(rows: int, cols: int) -> int:
    """Dimension of the quiet-pattern space of the rows x cols board (full-matrix rank)."""
    return rows * cols - gf2_rank(press_matrix(rows, cols))


def brute_force_first_rows(board) -> list[tuple[int, ...]]:
    """Every first row (as a tuple) that, chased down, clears ``board``: 2**cols tries."""
    b = np.array(board, dtype=np.uint8) % 2
    good = []
    for first in itertools.product((0, 1), repeat=b.shape[1]):
        _, left = chase(b, first)
        if not left.any():
            good.append(first)
    return good


def min_presses_brute(board) -> int | None:
    """Fewest presses that clear ``board`` (None when unsolvable), by trying every first row."""
    b = np.array(board, dtype=np.uint8) % 2
    best = None
    for first in brute_force_first_rows(b):
        presses, _ = chase(b, first)
        count = int(presses.sum())
        best = count if best is None else min(best, count)
    return best


def replay_fast(board, presses):
    """Same as :func:`replay`, by shifting whole arrays (for boards too big for the loop)."""
    b = np.array(board, dtype=bool)
    p = np.array(presses, dtype=bool)
    assert b.shape == p.shape, (b.shape, p.shape)
    out = b ^ p
    out[1:] ^= p[:-1]
    out[:-1] ^= p[1:]
    out[:, 1:] ^= p[:, :-1]
    out[:, :-1] ^= p[:, 1:]
    return out


def chase_fast(board, first_rows):
    """Chase many first rows at once: first_rows (k, cols) -> presses (k, rows, cols), lights left (k, rows, cols)."""
    b = np.array(board, dtype=bool)
    f = np.atleast_2d(np.array(first_rows, dtype=bool))
    rows, cols = b.shape
    k = f.shape[0]
    presses = np.zeros((k, rows, cols), dtype=bool)
    lights = np.broadcast_to(b, (k, rows, cols)).copy()
    for i in range(rows):
        p = (f if i == 0 else lights[:, i - 1]).copy()
        presses[:, i] = p
        # Apply row i's presses to rows i-1, i, i+1.
        lights[:, i] ^= p
        lights[:, i, 1:] ^= p[:, :-1]
        lights[:, i, :-1] ^= p[:, 1:]
        if i > 0:
            lights[:, i - 1] ^= p
        if i + 1 < rows:
            lights[:, i + 1] ^= p
    return presses, lights


def all_first_rows(cols: int) -> np.ndarray:
    """Every 0/1 row of length cols, in lexicographic order (column 0 most significant)."""
    idx = np.arange(2**cols, dtype=np.int64)
    return ((idx[:, None] >> np.arange(cols - 1, -1, -1)) & 1).astype(bool)


def solving_first_rows(board) -> np.ndarray:
    """Every first row that clears ``board``, in lexicographic order: exhaustive, 2**cols chases."""
    b = np.array(board, dtype=bool)
    candidates = all_first_rows(b.shape[1])
    _, lights = chase_fast(b, candidates)
    return candidates[~lights.reshape(len(candidates), -1).any(axis=1)]


# ---------------------------------------------------------------------------
# Boards of any shape, wrap-around axes, the sigma rule, k states, graphs.
# Cells are numbered in row-major (C) order; everything below is plain loops.


def cell_index(shape, cell) -> int:
    """Row-major number of ``cell`` (a tuple) on a board of ``shape``."""
    index = 0
    for size, coord in zip(shape, cell):
        index = index * size + coord
    return index


def neighbour_sets(shape, torus=False, self_toggle=True):
    """For every cell number, the set of cell numbers a press there changes.

    Neighbours are the other cells one step along an axis, wrapping where that
    axis wraps; they form a set, so on a wrapping axis of length 1 or 2 a cell
    reached twice (or the cell itself) is counted once and the press never
    adds its own cell through a wrap.  ``self_toggle`` adds the cell itself.
    """
    shape = tuple(int(s) for s in shape)
    wraps = tuple(torus) if isinstance(torus, (tuple, list)) else (bool(torus),) * len(shape)
    out = []
    for cell in itertools.product(*(range(s) for s in shape)):
        me = cell_index(shape, cell)
        hit = {me} if self_toggle else set()
        for axis, size in enumerate(shape):
            for step in (-1, 1):
                coord = cell[axis] + step
                if wraps[axis]:
                    coord %= size
                elif not 0 <= coord < size:
                    continue
                other = cell_index(shape, cell[:axis] + (coord,) + cell[axis + 1:])
                if other != me:
                    hit.add(other)
        out.append(hit)
    return out


def graph_neighbour_sets(nvertices, edges, self_toggle=True):
    """Like :func:`neighbour_sets` for an undirected simple graph given by an edge list."""
    out = [({v} if self_toggle else set()) for v in range(nvertices)]
    for a, b in edges:
        out[a].add(b)
        out[b].add(a)
    return out


def effect_matrix(sets) -> np.ndarray:
    """The cells x cells 0/1 matrix whose column j marks the cells a press on j changes."""
    n = len(sets)
    a = np.zeros((n, n), dtype=np.int64)
    for j, hit in enumerate(sets):
        for i in hit:
            a[i, j] = 1
    return a


def replay_sets(sets, board, presses, states=2):
    """Flat board after pressing cell j presses[j] times: each press adds 1 mod ``states``."""
    out = [int(v) % states for v in np.asarray(board).ravel()]
    for j, count in enumerate(np.asarray(presses).ravel()):
        for i in sets[j]:
            out[i] = (out[i] + int(count)) % states
    return np.array(out, dtype=np.int64)


def replay_nd(board, presses, torus=False, self_toggle=True, states=2):
    """The board (any shape) after the presses, as an int array of the board's shape."""
    b = np.asarray(board)
    sets = neighbour_sets(b.shape, torus, self_toggle)
    return replay_sets(sets, b, presses, states).reshape(b.shape)


def all_press_vectors(ncells: int, states: int = 2) -> np.ndarray:
    """Every press vector over ``ncells`` cells in lexicographic order (cell 0 most significant)."""
    total = states ** ncells
    idx = np.arange(total, dtype=np.int64)
    digits = np.empty((total, ncells), dtype=np.int64)
    for pos in range(ncells - 1, -1, -1):
        digits[:, pos] = idx % states
        idx //= states
    return digits


def all_effects(sets, states=2) -> np.ndarray:
    """The effect (mod ``states``) of every press vector, in the order of :func:`all_press_vectors`.

    Built one cell at a time: the effects over cells 0..j are every effect over
    cells 0..j-1 plus each multiple of column j, so row r is the effect of the
    r-th press vector.
    """
    a = effect_matrix(sets).astype(np.int16)
    effects = np.zeros((1, len(sets)), dtype=np.int16)
    multiples = np.arange(states, dtype=np.int16)[:, None]
    for j in range(len(sets)):
        effects = ((effects[:, None, :] + multiples * a[:, j]) % states).reshape(-1, len(sets))
    return effects


def exhaustive(sets, board, states=2):
    """Every solution of a board, by trying every press vector: (solutions in lexicographic order, quiet count).

    Returns the solutions as a (count, cells) int array (the first row is the
    lexicographically smallest) and the number of quiet patterns (press
    vectors that change no light).  Use only when states**cells is small.
    """
    b = np.asarray(board, dtype=np.int64).ravel() % states
    vectors = all_press_vectors(len(sets), states)
    effect = all_effects(sets, states)
    solutions = vectors[((effect + b) % states == 0).all(axis=1)]
    quiet = int((effect == 0).all(axis=1).sum())
    return solutions, quiet


def rank_mod_prime(matrix, p: int) -> int:
    """Rank of an integer matrix over GF(p), by textbook elimination."""
    rows = np.asarray(matrix)
    return len(_reduce_mod_prime([[int(x) % p for x in row] for row in rows], rows.shape[1] if rows.size else 0, p))


def _reduce_mod_prime(m, ncols: int, p: int) -> list[int]:
    """Gauss-Jordan elimination of the row lists ``m`` over GF(p), in place, on its first ``ncols``
    columns; the pivot columns, pivot rows first."""
    rank, pivots = 0, []
    for col in range(ncols):
        pivot = next((r for r in range(rank, len(m)) if m[r][col]), None)
        if pivot is None:
            continue
        m[rank], m[pivot] = m[pivot], m[rank]
        inv = pow(m[rank][col], p - 2, p)
        m[rank] = [(x * inv) % p for x in m[rank]]
        for r in range(len(m)):
            if r != rank and m[r][col]:
                f = m[r][col]
                m[r] = [(x - f * y) % p for x, y in zip(m[r], m[rank])]
        pivots.append(col)
        rank += 1
    return pivots


# -- press stencils and masks (issue 30), from the conventions alone ---------------------------------------

def stencil_matrix(shape, torus, weights, centre, states):
    """The cells x cells int matrix A[light, press] of a stencil rule, mod ``states``.

    Pressing cell p adds ``weights[i]`` to the cell ``p + (i - centre)`` for every index i of
    ``weights``: a target past an open axis is dropped, a wrapping axis wraps it (targets one
    by one, so two weights landing on one cell both add).
    """
    shape = tuple(int(s) for s in shape)
    wraps = tuple(bool(t) for t in torus) if isinstance(torus, (tuple, list)) else (bool(torus),) * len(shape)
    w = np.asarray(weights)
    cells = list(itertools.product(*(range(s) for s in shape)))
    a = np.zeros((len(cells), len(cells)), dtype=np.int64)
    for p in cells:
        column = cell_index(shape, p)
        for index in itertools.product(*(range(s) for s in w.shape)):
            weight = int(w[index])
            if not weight:
                continue
            target = []
            for axis, size in enumerate(shape):
                coord = p[axis] + index[axis] - centre[axis]
                if wraps[axis]:
                    coord %= size
                elif not 0 <= coord < size:
                    break
                target.append(coord)
            else:
                row = cell_index(shape, tuple(target))
                a[row, column] = (a[row, column] + weight) % states
    return a


def masked_system(matrix, holes, unpressable, free_lights):
    """(A restricted to required lights x pressable cells, required cell numbers, pressable cell numbers)."""
    n = matrix.shape[0]
    holes = np.zeros(n, bool) if holes is None else np.asarray(holes, bool).ravel()
    unpressable = np.zeros(n, bool) if unpressable is None else np.asarray(unpressable, bool).ravel()
    free_lights = np.zeros(n, bool) if free_lights is None else np.asarray(free_lights, bool).ravel()
    required = [i for i in range(n) if not holes[i] and not free_lights[i]]
    pressable = [j for j in range(n) if not holes[j] and not unpressable[j]]
    return matrix[np.ix_(required, pressable)], required, pressable


def stencil_replay(board, presses, matrix, states, holes=None):
    """The board after the presses under the press matrix: ``(b + A x) mod k``, holes left as they were."""
    b = np.asarray(board, dtype=np.int64).ravel()
    x = np.asarray(presses, dtype=np.int64).ravel()
    out = (b + matrix @ x) % states
    if holes is not None:
        mask = np.asarray(holes, bool).ravel()
        out[mask] = b[mask]
    return out.reshape(np.asarray(board).shape)


def solve_mod_prime(matrix, rhs, p):
    """One solution of ``matrix @ x == rhs (mod p)`` by textbook Gauss-Jordan elimination, or None."""
    m = [[int(x) % p for x in row] + [int(r) % p] for row, r in zip(np.asarray(matrix), np.asarray(rhs))]
    ncols = np.asarray(matrix).shape[1]
    pivots = _reduce_mod_prime(m, ncols, p)
    if any(row[-1] for row in m[len(pivots):]):
        return None
    x = [0] * ncols
    for r, col in enumerate(pivots):
        x[col] = m[r][-1]
    return np.array(x, dtype=np.int64)


def prime_factors(k: int) -> list[int]:
    """The distinct primes dividing k."""
    out, d = [], 2
    while d * d <= k:
        if k % d == 0:
            out.append(d)
            while k % d == 0:
                k //= d
        d += 1
    if k > 1:
        out.append(k)
    return out


def masked_nullity(system, states):
    """The project's nullity of a restricted system: the largest, over primes p | k, of columns - rank mod p."""
    ncols = system.shape[1]
    if system.shape[0] == 0 or ncols == 0:
        return ncols
    return max(ncols - rank_mod_prime(system, p) for p in prime_factors(states))


def brute_force_system(system, rhs, states):
    """Every x over Z/k with ``system @ x + rhs == 0 (mod k)``, and the number with ``system @ x == 0``
    (tries every vector: use when k ** columns is small)."""
    ncols = system.shape[1]
    vectors = all_press_vectors(ncols, states)
    effect = (vectors @ system.T) % states if system.size else np.zeros((len(vectors), system.shape[0]), np.int64)
    rhs = np.asarray(rhs, dtype=np.int64) % states
    solutions = vectors[((effect + rhs) % states == 0).all(axis=1)]
    quiet = int((effect == 0).all(axis=1).sum())
    return solutions, quiet


def proves_unsolvable(proof, board, matrix, states, required, pressable) -> bool:
    """Whether ``proof`` (weights on the lights) proves a board unsolvable: zero off the required lights,
    ``y A == 0 (mod k)`` on every pressable column, ``y . b != 0 (mod k)``."""
    y = np.asarray(proof, dtype=np.int64).ravel() % states
    b = np.asarray(board, dtype=np.int64).ravel()
    outside = np.ones(y.size, bool)
    outside[list(required)] = False
    if y[outside].any():
        return False
    if ((y @ matrix)[list(pressable)] % states).any():
        return False
    return int(y @ b) % states != 0
