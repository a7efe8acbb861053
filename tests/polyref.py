"""Plain-integer reference arithmetic in GF(2)[t] for the polynomial-kernel tests.

A polynomial is a Python int whose bit k is the coefficient of t^k.  Nothing here
uses the package, so the kernels are checked against independent code.
"""
from __future__ import annotations


def ref_mul(a: int, b: int) -> int:
    out = 0
    while b:
        if b & 1:
            out ^= a
        a <<= 1
        b >>= 1
    return out


def ref_divmod(a: int, b: int) -> tuple[int, int]:
    if b == 0:
        raise ZeroDivisionError
    q, db = 0, b.bit_length()
    while a.bit_length() >= db:
        s = a.bit_length() - db
        q |= 1 << s
        a ^= b << s
    return q, a


def ref_gcd(a: int, b: int) -> int:
    while b:
        a, b = b, ref_divmod(a, b)[1]
    return a


def ref_xgcd(a: int, b: int) -> tuple[int, int, int]:
    """Textbook extended Euclid: (g, s, t) with s a + t b = g."""
    r0, r1, s0, s1, t0, t1 = a, b, 1, 0, 0, 1
    while r1:
        q, r = ref_divmod(r0, r1)
        r0, r1 = r1, r
        s0, s1 = s1, s0 ^ ref_mul(q, s1)
        t0, t1 = t1, t0 ^ ref_mul(q, t1)
    return r0, s0, t0


def ref_taylor(a: int) -> int:
    """a(t + 1) by expanding every (t + 1)^k."""
    out, power = 0, 1  # power = (t + 1)^k
    for k in range(a.bit_length()):
        if (a >> k) & 1:
            out ^= power
        power = ref_mul(power, 0b11)
    return out


def ref_compose_s(a: int) -> int:
    """a(t^2 + t) by Horner's rule: multiplying by t^2 + t is (x << 2) ^ (x << 1)."""
    out = 0
    for k in range(a.bit_length() - 1, -1, -1):
        out = (out << 2) ^ (out << 1) ^ ((a >> k) & 1)
    return out


def ref_u(k: int) -> int:
    prev, cur = 0, 1
    if k == 0:
        return 0
    for _ in range(k - 1):
        prev, cur = cur, (cur << 1) ^ prev
    return cur


def ref_apply_t(v: int, ncols: int) -> int:
    return (v ^ (v << 1) ^ (v >> 1)) & ((1 << ncols) - 1)


def ref_phi(f: int, ncols: int) -> int:
    out = 0
    for i in reversed(range(f.bit_length())):
        out = ref_apply_t(out, ncols) ^ ((f >> i) & 1)
    return out


def ref_w_combination(c: int, ncols: int) -> int:
    """sum_j c_j W_j for j = 1..ncols (bit j-1 of c), by the recurrence W_{j+1} = (t + 1) W_j + W_{j-1}."""
    out, w_prev, w = 0, 0, 1
    for j in range(1, ncols + 1):
        if (c >> (j - 1)) & 1:
            out ^= w
        w_prev, w = w, w ^ (w << 1) ^ w_prev
    return out

