"""The quiet-pattern basis kept packed, one bit a cell: the bit transpose, graphs, the N-D route.

Every packed basis is unpacked here with numpy's own ``unpackbits`` and checked against the
independent oracle (each row replays to no change of light, the rows are independent, and
there are ``nullity`` of them), and against the unpacked basis where one exists.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lightsout
import lightsout._base.packing as packing
from lightsout._core.rules import Rules
from lightsout._routes.nd import quiet_basis_words
from lightsout._solution import fromcoset as _fromcoset
from lightsout._solution import result as _result
from lightsout._solution import Solution

import oracle



def unpack_numpy(words: np.ndarray, nbits: int) -> np.ndarray:
    """Packed rows to 0/1 bytes with numpy alone (little-endian words, least-significant bit first)."""
    raw = np.ascontiguousarray(words, dtype="<u8").view(np.uint8).reshape(len(words), 8 * words.shape[1])
    return np.unpackbits(raw, axis=1, count=nbits, bitorder="little")


def pack_numpy(bits: np.ndarray) -> np.ndarray:
    bits = np.asarray(bits, dtype=np.uint8)
    nwords = (bits.shape[1] + 63) // 64
    raw = np.zeros((bits.shape[0], 8 * nwords), dtype=np.uint8)
    raw[:, : (bits.shape[1] + 7) // 8] = np.packbits(bits, axis=1, bitorder="little")
    return raw.view("<u8").astype(np.uint64)


# --- the bit transpose ----------------------------------------------------------------------------

@settings(max_examples=150, deadline=None)
@given(nrows=st.integers(0, 300), ncols=st.integers(0, 200), block=st.sampled_from([8, 16, 64, 1 << 16]),
       seed=st.integers(0, 2**32 - 1))
def test_transpose_bits_is_numpys_transpose(nrows, ncols, block, seed):
    bits = np.random.default_rng(seed).integers(0, 2, (nrows, ncols)).astype(np.uint8)
    saved = packing.TRANSPOSE_BLOCK
    packing.TRANSPOSE_BLOCK = block  # small blocks reach the block seams and the padded last tile
    try:
        out = packing.transpose_bits(pack_numpy(bits), ncols)
    finally:
        packing.TRANSPOSE_BLOCK = saved
    assert out.dtype == np.uint64 and out.shape == (ncols, (nrows + 63) // 64)
    assert np.array_equal(out, pack_numpy(bits.T))  # the bits past each row's end are zero too


def test_transpose_bits_reads_wider_rows_than_it_needs():
    bits = np.random.default_rng(3).integers(0, 2, (70, 9)).astype(np.uint8)
    wide = np.zeros((70, 3), dtype=np.uint64)  # two spare words per row, all zero
    wide[:, :1] = pack_numpy(bits)
    assert np.array_equal(packing.transpose_bits(wide, 9), pack_numpy(bits.T))


# --- Solution.packed_quiet_patterns on every kind of board ------------------------------------------

def check_basis(words: np.ndarray, solution: Solution, sets) -> np.ndarray:
    cells = solution.board.size
    assert words.dtype == np.uint64 and words.shape == (solution.nullity, (cells + 63) // 64)
    rows = unpack_numpy(words, cells)
    assert np.array_equal(pack_numpy(rows), words)  # no stray bits past the last cell
    for row in rows:
        assert not oracle.replay_sets(sets, np.zeros(cells, np.int64), row, 2).any()
    assert oracle.rank_mod_prime(rows, 2) == solution.nullity
    return rows


BOARDS = [
    ((5, 5), False, True), ((4, 4), False, True), ((9, 9), False, True), ((5, 7), False, True),
    ((6, 6), True, True), ((5, 5), True, True), ((4, 6), (True, False), True), ((6, 6), False, False),
    ((3, 4, 5), False, True), ((4, 4, 4), True, True), ((2, 3, 4), (True, False, True), False), ((12,), True, True),
    ((17, 3), False, True), ((3, 17), True, True),
]


@pytest.mark.parametrize("shape, torus, self_toggle", BOARDS)
def test_packed_basis_is_quiet_patterns_packed(shape, torus, self_toggle):
    s = lightsout.solve(np.zeros(shape, dtype=bool), torus=torus, self_toggle=self_toggle)
    sets = oracle.neighbour_sets(shape, torus, self_toggle)
    rows = check_basis(s.packed_quiet_patterns(), s, sets)
    assert np.array_equal(rows.reshape((-1,) + shape), s.quiet_patterns().astype(np.uint8))


@pytest.mark.parametrize("shape, torus, self_toggle", BOARDS)
def test_packed_basis_beyond_the_pattern_limit_comes_from_the_nd_route(shape, torus, self_toggle, monkeypatch):
    s = lightsout.solve(np.ones(shape, dtype=bool) if self_toggle else np.zeros(shape, dtype=bool),
                        torus=torus, self_toggle=self_toggle)
    patterns = s.quiet_patterns().reshape(s.nullity, s.board.size).astype(np.uint8)
    monkeypatch.setattr(_result, "MAX_PATTERN_CELLS", 0)
    bare = Solution(s.board, s.presses, s.nullity, s.method, s.quiet_first_rows, s.states, s.torus,
                    s.self_toggle, None, s.quiet_count, None)  # as if the patterns were too big to keep
    rows = check_basis(bare.packed_quiet_patterns(), bare, oracle.neighbour_sets(shape, torus, self_toggle))
    both = np.concatenate([rows, patterns])
    assert oracle.rank_mod_prime(both, 2) == s.nullity  # the same space


def test_quiet_basis_words_matches_the_nd_routes_kernel_for_every_chase_axis():
    from lightsout._routes.nd import _Plan, solve_nd

    rng = np.random.default_rng(17)
    axes = set()
    for _ in range(120):
        shape = tuple(int(x) for x in rng.integers(1, 10, rng.integers(1, 4)))
        torus = tuple(bool(x) for x in rng.integers(0, 2, len(shape)))
        self_toggle = bool(rng.integers(0, 2))
        words = quiet_basis_words(Rules.check(shape, torus=torus, self_toggle=self_toggle))
        kernel = solve_nd(Rules.check(shape, torus=torus, self_toggle=self_toggle), np.zeros(shape, np.uint8)).kernel
        assert np.array_equal(words, pack_numpy(kernel).reshape(words.shape))
        axes.add(_Plan(Rules.check(shape, torus=torus)).axis)
    assert axes == {0, 1, 2}


def test_packed_basis_in_batches_of_64():
    # the 10 x 10 x 10 torus has more than 64 quiet patterns: two chases, two transposes
    shape = (10, 10, 10)
    words = quiet_basis_words(Rules.check(shape, torus=True))
    assert len(words) > 64
    rows = unpack_numpy(words, 1000)
    sets = oracle.neighbour_sets(shape, True, True)
    assert all(not oracle.replay_sets(sets, np.zeros(1000, np.int64), row, 2).any() for row in rows)
    assert oracle.rank_mod_prime(rows, 2) == len(rows) == lightsout.nullity(shape, torus=True)


def test_packed_basis_is_for_two_states_only():
    s = lightsout.solve(np.zeros((3, 3), np.uint8), states=3)
    with pytest.raises(lightsout.InvalidBoardError, match="two states"):
        s.packed_quiet_patterns()


# --- graphs: the basis stays packed -------------------------------------------------------------------

def grid_edges(n: int) -> np.ndarray:
    index = np.arange(n * n).reshape(n, n)
    across = np.stack([index[:, :-1].ravel(), index[:, 1:].ravel()], axis=1)
    down = np.stack([index[:-1].ravel(), index[1:].ravel()], axis=1)
    return np.concatenate([across, down])


@pytest.mark.parametrize("self_toggle", [True, False])
@pytest.mark.parametrize("method", ["forcing", "elimination"])
def test_graph_basis_is_packed_and_quiet(self_toggle, method):
    rng = np.random.default_rng(5 + self_toggle)
    for n in (1, 7, 40, 65, 130):
        edges = [(int(a), int(b)) for a, b in rng.integers(0, n, (2 * n, 2)) if a != b]
        s = lightsout.solve_graph(edges, np.zeros(n, np.uint8), nvertices=n, self_toggle=self_toggle,
                                  method=method)
        sets = oracle.graph_neighbour_sets(n, edges, self_toggle)
        assert s.quiet_words is not None
        rows = check_basis(s.packed_quiet_patterns(), s, sets)
        assert np.array_equal(rows, s.quiet_patterns().astype(np.uint8))
        assert np.array_equal(s.quiet_first_rows, rows[:, 0])


@pytest.mark.thorough
def test_big_graph_basis_is_unpacked_only_on_request(monkeypatch):
    monkeypatch.setattr(_fromcoset, "EAGER_PATTERN_BYTES", 1000)
    n = 30
    edges = [tuple(e) for e in grid_edges(n).tolist()]
    s = lightsout.solve_graph(edges, nvertices=n * n, self_toggle=False)
    sets = oracle.graph_neighbour_sets(n * n, edges, False)
    assert s.nullity == n * n - oracle.rank_mod_prime(oracle.effect_matrix(sets), 2) > 0
    assert s.quiet_generators is None and s.quiet_words is not None and s.verify()
    patterns = s.quiet_patterns()
    assert patterns.shape == (s.nullity, n * n) and patterns.dtype == bool
    rows = check_basis(s.packed_quiet_patterns(), s, sets)
    assert np.array_equal(rows, patterns.astype(np.uint8))
    copy = s.packed_quiet_patterns()
    copy[:] = 0  # the solution's own basis is not handed out
    assert np.array_equal(s.packed_quiet_patterns(), pack_numpy(rows))


def test_million_vertex_sigma_grid_solves_in_little_memory():
    # the 1000 x 1000 sigma grid has 1000 quiet patterns: a byte per vertex and pattern was 1 GB three
    # times over (4 GB peak); packed they are 125 MB.  Under a 1.5 GiB address-space cap:
    program = textwrap.dedent("""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (1536 << 20, 1536 << 20))
        import numpy as np
        import lightsout
        n = 1000
        index = np.arange(n * n).reshape(n, n)
        edges = np.concatenate([np.stack([index[:, :-1].ravel(), index[:, 1:].ravel()], 1),
                                np.stack([index[:-1].ravel(), index[1:].ravel()], 1)])
        s = lightsout.solve_graph(edges, nvertices=n * n, self_toggle=False)
        # the N-D route counts the same board's quiet patterns its own way
        print(s.nullity == lightsout.nullity((n, n), self_toggle=False), s.verify(),
              s.packed_quiet_patterns().shape == (s.nullity, (n * n + 63) // 64), s.nullity > 0)
    """)
    env = {key: value for key, value in os.environ.items() if key != "LIGHTSOUT_SIMD"}
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=300,
                          env=env, cwd=tempfile.gettempdir())
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.split() == ["True"] * 4
