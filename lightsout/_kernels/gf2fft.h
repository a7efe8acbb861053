/* Products in GF(2)[t] by the additive FFT over GF(2^64) (docs/algebra.md section 12).
 *
 * A polynomial of GF(2)[t] is cut into 32-bit pieces: a(t) = sum_i a_i(t) t^(32 i).
 * Each piece is an element of GF(2^64) = GF(2)[x] / (x^64 + x^4 + x^3 + x + 1)
 * (its bits are the coefficients of 1, x, ..., x^31), and a becomes the
 * polynomial A(y) = sum_i a_i y^i over that field.  The product of two pieces
 * has degree at most 62, so it never meets the modulus: the coefficients of
 * A(y) B(y), computed in the field, are exactly the pieces of a b, overlapping
 * by 32 bits.  A(y) B(y) is found by evaluating A and B at 2^K points,
 * multiplying the values and interpolating.
 *
 * The points are the subset sums w_i = sum_{bit j of i} beta_j of a Cantor basis:
 * beta_0 = 1 and beta_j^2 + beta_j = beta_(j-1).  With it the subspace
 * polynomials s_k(y) = prod_{w in span(beta_0..beta_(k-1))} (y - w) have
 * coefficients in GF(2) (s_k = s_1 composed k times, s_1 = y^2 + y), so
 * s_k(y) = sum_{j subset of k} y^(2^j), and s_k(beta_(k+m)) = beta_m.  The
 * evaluation (Lin, Chung and Han's FFT) works in the basis X_i = prod_{bit j of i} s_j:
 * f = g + s_k h splits into g + lambda h on one half of a coset of
 * span(beta_0..beta_k) and g + (lambda + 1) h on the other, lambda = s_k of the
 * coset's shift = w_(2 b) for block b, the same at every level.  One product
 * in GF(2^64) per pair per level: (K / 2) 2^K products per transform.
 *
 * The change from the monomial basis to X is XORs alone.  With L the largest
 * power of two below K, y_L = s_L(y) = y^(2^L) + y has two terms, and so do its
 * powers y_L^(2^r); dividing by them one level at a time writes f as
 * sum_m g_m(y) y_L^m with deg g_m < 2^L (one pass per level).  Since
 * X_(m 2^L + i)(y) = X_i(y) X_m(y_L), the g_m and then the columns (g_m)_i
 * for each i are changed on their own, recursively.  Blocks of 2^16 words
 * stay in the cache for most of the passes.  The change acts on every bit of
 * the elements alike, so a product changes both operands' 32-bit pieces in one
 * array (fft_operand_pair), and its 16-element leaves are a matrix.
 *
 * The levels of the transform above its cached blocks go two at a time (four
 * quarters read and written once), and its last three levels in one pass, eight
 * groups of 8 elements transposed into eight AVX-512 registers where the wide
 * loops run, so that every vector product is full.
 *
 * The field products run eight (AVX-512) or four (AVX2) at a time with VPCLMULQDQ
 * where the CPU has it (fft_wide_on, decided at run time), else two per SSE register
 * with PCLMULQDQ, else (the portable build) by four-bit windows.  The same vector
 * instructions run the product-scanning schoolbook loops (fft_school) that
 * gf2poly.pyx uses below Karatsuba's threshold.
 *
 * Every function returns 0, or -1 (out of memory) or -2 (the poll callback
 * asked to stop); nothing is global but the tables fft_init() fills once, the
 * wide-loop switch (fft_set_wide, for tests) and each thread's count of work since
 * its last poll (fft_poll_work).
 */
#ifndef LIGHTSOUT_GF2FFT_H
#define LIGHTSOUT_GF2FFT_H

#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#if defined(__PCLMUL__)
#include <emmintrin.h>
#include <wmmintrin.h>
#endif
#include "fftcrew.h"
#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif
#if defined(_MSC_VER)
#define FFT_RESTRICT __restrict
#else
#define FFT_RESTRICT restrict
#endif

/* The transforms hold at most 2^FFT_MAX_LOG elements (w_i uses four byte tables). */
#define FFT_MAX_LOG 32
/* Levels of the transform done on blocks of 2^FFT_BLOCK_LOG words, in the cache. */
#define FFT_BLOCK_LOG 14

typedef int (*fft_poll_fn)(void*);

static uint64_t fft_beta[64];
static uint64_t fft_omega_table[4][256];
/* The change of basis on 2^FFT_SMALL_LOG elements as a matrix (see fft_small_change). */
#define FFT_SMALL_LOG 4
static uint16_t fft_small_to[16], fft_small_from[16];
/* The same maps by columns: bit j of fft_small_to_cols[i] when element i feeds element j. */
static uint16_t fft_small_to_cols[16], fft_small_from_cols[16];
static int fft_small_ready = 0;

/* x^64 = x^4 + x^3 + x + 1: fold the high word of a carry-less product. */
static inline uint64_t fft_reduce(uint64_t lo, uint64_t hi) {
    uint64_t t = hi ^ (hi >> 60) ^ (hi >> 61) ^ (hi >> 63);
    return lo ^ t ^ (t << 1) ^ (t << 3) ^ (t << 4);
}

#if defined(__PCLMUL__)
static inline uint64_t fft_mul(uint64_t a, uint64_t b) {
    __m128i p = _mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)a), _mm_cvtsi64_si128((long long)b), 0x00);
    return fft_reduce((uint64_t)_mm_cvtsi128_si64(p), (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(p, p)));
}
#else
/* Portable: four bits of b at a time against the 16 multiples of a. */
static inline uint64_t fft_mul(uint64_t a, uint64_t b) {
    uint64_t tlo[16], thi[16], lo = 0, hi = 0;
    tlo[0] = 0; thi[0] = 0; tlo[1] = a; thi[1] = 0;
    for (int k = 2; k < 16; k += 2) {
        tlo[k] = tlo[k >> 1] << 1;
        thi[k] = (thi[k >> 1] << 1) | (tlo[k >> 1] >> 63);
        tlo[k + 1] = tlo[k] ^ a;
        thi[k + 1] = thi[k];
    }
    for (int s = 60; s >= 0; s -= 4) {
        hi = (hi << 4) | (lo >> 60);
        lo <<= 4;
        unsigned nib = (unsigned)(b >> s) & 15u;
        lo ^= tlo[nib];
        hi ^= thi[nib];
    }
    return fft_reduce(lo, hi);
}
#endif

/* a^2 in the field (a GF(2)-linear map). */
static uint64_t fft_square(uint64_t a) { return fft_mul(a, a); }

static void fft_detect_wide(void);
typedef struct fft_slice fft_slice;
static int fft_to_novel(uint64_t* f, int K, size_t w, size_t nz, const fft_slice* sl, fft_poll_fn poll, void* ps);
static int fft_from_novel(uint64_t* f, int K, size_t w, const fft_slice* sl, fft_poll_fn poll, void* ps);

/* Fill the Cantor basis and the subset-sum tables; -3 if the field arithmetic is broken. */
static int fft_init(void) {
    uint64_t piv_val[64], piv_comb[64];
    int have[64];
    memset(have, 0, sizeof(have));
    /* Echelon form of the images of y^2 + y on the unit vectors, each with the
       combination of unit vectors that makes it (pivot: the highest bit). */
    for (int j = 0; j < 64; j++) {
        uint64_t e = (uint64_t)1 << j;
        uint64_t v = fft_square(e) ^ e, comb = e;
        for (int p = 63; p >= 0 && v; p--) {
            if (!((v >> p) & 1)) continue;
            if (!have[p]) {
                have[p] = 1;
                piv_val[p] = v;
                piv_comb[p] = comb;
                v = 0;
                break;
            }
            v ^= piv_val[p];
            comb ^= piv_comb[p];
        }
    }
    fft_beta[0] = 1;
    for (int i = 1; i < 64; i++) {
        uint64_t c = fft_beta[i - 1], y = 0;
        for (int p = 63; p >= 0 && c; p--) {
            if (!((c >> p) & 1)) continue;
            if (!have[p]) break;
            c ^= piv_val[p];
            y ^= piv_comb[p];
        }
        if (c != 0) {
            if (i < FFT_MAX_LOG + 1) return -3;
            fft_beta[i] = 0;  /* the basis ends here; never used */
            continue;
        }
        fft_beta[i] = y;
    }
    fft_detect_wide();
    for (int t = 0; t < 4; t++) {
        for (int x = 0; x < 256; x++) {
            uint64_t w = 0;
            for (int j = 0; j < 8; j++)
                if ((x >> j) & 1) w ^= fft_beta[8 * t + j];
            fft_omega_table[t][x] = w;
        }
    }
    for (int i = 0; i < 16; i++) {
        uint64_t to[16] = {0}, from[16] = {0};
        to[i] = 1;
        from[i] = 1;
        fft_to_novel(to, FFT_SMALL_LOG, 1, 16, NULL, NULL, NULL);
        fft_from_novel(from, FFT_SMALL_LOG, 1, NULL, NULL, NULL);
        /* column i of each map: element i feeds element j */
        for (int j = 0; j < 16; j++) {
            if (j == i) continue;
            if (to[j]) {
                fft_small_to[j] |= (uint16_t)(1u << i);
                fft_small_to_cols[i] |= (uint16_t)(1u << j);
            }
            if (from[j]) {
                fft_small_from[j] |= (uint16_t)(1u << i);
                fft_small_from_cols[i] |= (uint16_t)(1u << j);
            }
        }
        if (!to[i] || !from[i]) return -3;
    }
    for (int j = 0; j < 16; j++)
        if ((fft_small_to[j] | fft_small_from[j]) & ((1u << (j + 1)) - 1u)) return -3;  /* not triangular */
    fft_small_ready = 1;
    return 0;
}

/* w_i = sum of beta_j over the set bits j of i (i < 2^32). */
static inline uint64_t fft_omega(uint64_t i) {
    return fft_omega_table[0][i & 255] ^ fft_omega_table[1][(i >> 8) & 255] ^
           fft_omega_table[2][(i >> 16) & 255] ^ fft_omega_table[3][(i >> 24) & 255];
}

static inline void fft_xor(uint64_t* FFT_RESTRICT dst, const uint64_t* FFT_RESTRICT src, size_t n) {
    for (size_t i = 0; i < n; i++) dst[i] ^= src[i];
}

static inline int fft_poll_now(fft_poll_fn poll, void* ps) {
    return (poll != NULL && poll(ps) != 0) ? -2 : 0;
}

/* The words of work between two calls of the poll callback (a few ms; fft_poll_work). */
#define FFT_POLL_WORDS ((size_t)1 << 21)

/* The words of work this thread has done since its last look.  A loop of many small steps (the
 * blocks of a level, the pieces of a basis change) counts each with fft_poll_work, which looks once
 * FFT_POLL_WORDS have gone by however the work was cut: no look per step, and none missing where
 * every step is small but the whole is seconds long (a team's subtrees at 10^10 bits). */
static FFT_TLS size_t fft_poll_count = 0;

/* fft_poll_work ignores steps of fewer words (a thread-local variable costs a call in a shared
 * library): the small blocks of a large transform's lower levels go uncounted beside its large
 * ones, and small transforms wholly, whose callers look between them (the half-gcd's nodes). */
#define FFT_POLL_STEP ((size_t)1 << 12)

static inline int fft_poll_work(fft_poll_fn poll, void* ps, size_t words) {
    if (poll == NULL || words < FFT_POLL_STEP) return 0;
    fft_poll_count += words;
    if (fft_poll_count < FFT_POLL_WORDS) return 0;
    fft_poll_count = 0;
    return fft_poll_now(poll, ps);
}

/* A pass of the transform over more words than fft_pass_slice runs in slices of that many, with a
 * poll between them: Ctrl-C lands within a slice's time (milliseconds) even where one pass covers
 * gigabytes.  A power of two, at least 64; tests make it small (fft_set_pass_slice). */
static size_t fft_pass_slice = (size_t)1 << 21;

/* Set fft_pass_slice (a power of two >= 64, else unchanged); returns the previous value. */
static size_t fft_set_pass_slice(size_t words) {
    size_t old = fft_pass_slice;
    if (words >= 64 && (words & (words - 1)) == 0) fft_pass_slice = words;
    return old;
}

/* The end of the slice of [s, hi) that starts at s. */
static inline size_t fft_slice_end(size_t s, size_t hi) {
    return hi - s < fft_pass_slice ? hi : s + fft_pass_slice;
}

/* --- Basis change: monomials <-> X, on 2^K elements of w words each ---------- */

/* A slice of the words of every row: the basis change of elements of `row` words (or of
 * several rows, as in its recursion on columns) is the same on each word of a row, so a thread
 * may run it on words [lo, hi) of every row alone.  Every XOR of such a change starts on a row
 * and covers whole rows; fft_xor_rows does the slice's part of it (all of it without a slice). */
struct fft_slice {
    size_t row, lo, hi;
};

static inline void fft_xor_rows(uint64_t* dst, const uint64_t* src, size_t n, const fft_slice* sl) {
    if (sl == NULL) {
        fft_xor(dst, src, n);
        return;
    }
    for (size_t r = 0; r < n; r += sl->row) fft_xor(dst + r + sl->lo, src + r + sl->lo, sl->hi - sl->lo);
}

/* fft_xor_rows with a look (fft_poll_work) after each fft_pass_slice words when there is no slice
 * of the rows: a run of the top levels' basis change is half the array, a gigabyte at 10^10 bits.
 * -2 when the poll says stop, else 0. */
static int fft_xor_rows_looking(uint64_t* dst, const uint64_t* src, size_t n, const fft_slice* sl, fft_poll_fn poll,
                                void* ps) {
    if (sl != NULL || poll == NULL) {
        fft_xor_rows(dst, src, n, sl);
        return 0;
    }
    for (size_t s = 0, e; s < n; s = e) {
        e = fft_slice_end(s, n);
        fft_xor(dst + s, src + s, e - s);
        if (e < n && fft_poll_work(poll, ps, e - s)) return -2;
    }
    return 0;
}

/* f = sum_m g_m(y) y_L^m (y_L = y^(2^L) + y, deg g_m < 2^L): g_m in elements [m 2^L, (m+1) 2^L).
 * Elements from nz on are zero (and stay zero): blocks whose upper half lies there are skipped. */
static int fft_expand(uint64_t* f, int K, int L, size_t w, size_t nz, const fft_slice* sl, fft_poll_fn poll, void* ps) {
    for (int k = K - 1; k >= L; k--) {
        size_t h = (size_t)1 << k, d = h - ((size_t)1 << (k - L));
        size_t nblocks = (size_t)1 << (K - 1 - k);
        for (size_t b = 0; b < nblocks && 2 * h * b + h < nz; b++) {
            uint64_t* g = f + 2 * h * b * w;
            if (fft_poll_work(poll, ps, 2 * h * w)) return -2;
            /* divide by y^h + y^(h - d): g[i - d] += g[i] for i = 2h - 1 down to h */
            size_t e = 2 * h;
            while (e > h) {
                size_t s = e - h > d ? e - d : h;
                if (fft_xor_rows_looking(g + (s - d) * w, g + s * w, (e - s) * w, sl, poll, ps)) return -2;
                e = s;
            }
        }
    }
    return 0;
}

/* Levels k and k + 1 of fft_unexpand in one pass over a block g of 4h one-word elements
 * (h = 2^k, hq = 2^(k - L), h >= 4 hq; save: room for 3 hq words).  Level k adds, in each half,
 * the upper quarter moved down by h - hq to the lower one, then the upper quarter's last hq
 * elements to its first hq; level k + 1 does the same on the whole block with 2h and 2 hq.
 * In the block's quarters q0 .. q3, for 3 hq <= p < h, the two levels together give
 *     q0[p] += q1[p - hq] + q2[p - 2 hq] + q3[p - 3 hq],  q1[p] += q3[p - 2 hq],  q2[p] += q3[p - hq]
 * (old values on the right; q3 keeps its own), and the first 3 hq places their own cases,
 * which read the last hq of q1 and 2 hq of q2 (saved first).  Going down from p = h - 1, every
 * value read is still the old one: half the passes over memory of two levels.  A look at `poll`
 * after each fft_pass_slice places (a block is a gigabyte at the top of 10^10 bits): -2 when it
 * says stop (the block left half done), else 0. */
static int fft_unexpand_two(uint64_t* g, size_t h, size_t hq, uint64_t* save, fft_poll_fn poll, void* ps) {
    uint64_t *q0 = g, *q1 = g + h, *q2 = g + 2 * h, *q3 = g + 3 * h;
    size_t p = h, m = 3 * hq;
    memcpy(save, q1 + h - hq, hq * sizeof(uint64_t));
    memcpy(save + hq, q2 + h - 2 * hq, 2 * hq * sizeof(uint64_t));
    while (p >= m + 8) {      /* fft_pass_slice places of each quarter between two looks */
        size_t floor = p - m > fft_pass_slice ? p - fft_pass_slice : m, top = p;
        while (p >= floor + 8) {
            uint64_t n0[8], n1[8], n2[8];
            p -= 8;
            for (int j = 0; j < 8; j++) n0[j] = q0[p + j] ^ q1[p + j - hq] ^ q2[p + j - 2 * hq] ^ q3[p + j - 3 * hq];
            for (int j = 0; j < 8; j++) n1[j] = q1[p + j] ^ q3[p + j - 2 * hq];
            for (int j = 0; j < 8; j++) n2[j] = q2[p + j] ^ q3[p + j - hq];
            memcpy(q0 + p, n0, sizeof n0);
            memcpy(q1 + p, n1, sizeof n1);
            memcpy(q2 + p, n2, sizeof n2);
        }
        if (p >= m + 8 && fft_poll_work(poll, ps, 4 * (top - p))) return -2;
    }
    while (p > m) {
        p--;
        uint64_t n0 = q0[p] ^ q1[p - hq] ^ q2[p - 2 * hq] ^ q3[p - 3 * hq], n1 = q1[p] ^ q3[p - 2 * hq];
        q2[p] ^= q3[p - hq];
        q0[p] = n0;
        q1[p] = n1;
    }
    while (p > 0) {               /* the first 3 hq places, from the levels' cases */
        p--;
        uint64_t a1 = q2[p] ^ (p >= hq ? q3[p - hq] : 0);           /* level k's q2 */
        uint64_t b1 = q3[p] ^ (p < hq ? q3[h - hq + p] : 0);         /* level k's q3 */
        uint64_t a0 = q0[p] ^ (p >= hq ? q1[p - hq] : 0);           /* level k's q0 */
        uint64_t b0 = q1[p] ^ (p < hq ? save[p] : 0);               /* level k's q1 */
        if (p >= 2 * hq) {
            size_t x = p - 2 * hq;                                   /* level k's q2, q3 at x */
            a0 ^= q2[x] ^ (x >= hq ? q3[x - hq] : 0);
            b0 ^= q3[x] ^ (x < hq ? q3[h - hq + x] : 0);
        } else {
            b0 ^= save[hq + p] ^ q3[h - 3 * hq + p];                /* level k's q2 at h - 2 hq + p */
            a1 ^= q3[h - 2 * hq + p];                                /* level k's q3 there */
        }
        q0[p] = a0;
        q1[p] = b0;
        q2[p] = a1;
        q3[p] = b1;
    }
    return 0;
}

/* The inverse of fft_expand: the same XORs in the opposite order (two levels to a pass where
 * fft_unexpand_two can). */
#define FFT_UNEXPAND_SAVE 768
static int fft_unexpand(uint64_t* f, int K, int L, size_t w, const fft_slice* sl, fft_poll_fn poll, void* ps) {
    uint64_t save[FFT_UNEXPAND_SAVE];
    for (int k = L; k < K; k++) {
        size_t h = (size_t)1 << k, d = h - ((size_t)1 << (k - L));
        size_t nblocks = (size_t)1 << (K - 1 - k);
        if (w == 1 && sl == NULL && L >= 2 && k + 1 < K && 3 * (h >> L) <= FFT_UNEXPAND_SAVE) {
            for (size_t b = 0; b < nblocks / 2; b++) {
                if (fft_unexpand_two(f + 4 * h * b, h, h >> L, save, poll, ps)) return -2;
                if (fft_poll_work(poll, ps, 4 * h)) return -2;
            }
            k++;
            continue;
        }
        for (size_t b = 0; b < nblocks; b++) {
            uint64_t* g = f + 2 * h * b * w;
            if (fft_poll_work(poll, ps, 2 * h * w)) return -2;
            size_t s = h;
            while (s < 2 * h) {
                size_t e = 2 * h - s > d ? s + d : 2 * h;
                if (fft_xor_rows_looking(g + (s - d) * w, g + s * w, (e - s) * w, sl, poll, ps)) return -2;
                s = e;
            }
        }
    }
    return 0;
}

static int fft_split_log(int K) {
    int L = 1;
    while (2 * L < K) L *= 2;
    return L;
}

/* The change of basis on at most 16 one-word elements as a matrix (filled by fft_init from
 * the recursion below): new element j = old j + the old elements i in mask[j] (all i > j, as
 * the map is triangular), so one ascending pass works in place.  The recursion's passes on
 * blocks of a few words cost more in loop overhead than these few XORs. */

static void fft_small_change(uint64_t* f, int K, const uint16_t* mask) {
    int n = 1 << K;
    for (int j = 0; j < n; j++) {
        unsigned m = mask[j];
        uint64_t x = f[j];
        for (int i = j + 1; i < n; i++) x ^= f[i] & ((uint64_t)0 - ((m >> i) & 1u));
        f[j] = x;
    }
}

#if defined(__AVX512F__)
#include <immintrin.h>
/* fft_small_change on 16 elements in two AVX-512 registers: each old element, broadcast, is
 * XORed into the new elements its column names (masked), 16 steps without a branch. */
static void fft_small_change16(uint64_t* f, const uint16_t* cols) {
    __m512i lo = _mm512_loadu_si512((const void*)f), hi = _mm512_loadu_si512((const void*)(f + 8));
    for (int i = 0; i < 16; i++) {
        __m512i x = _mm512_set1_epi64((long long)f[i]);
        lo = _mm512_mask_xor_epi64(lo, (__mmask8)(cols[i] & 0xFFu), lo, x);
        hi = _mm512_mask_xor_epi64(hi, (__mmask8)(cols[i] >> 8), hi, x);
    }
    _mm512_storeu_si512((void*)f, lo);
    _mm512_storeu_si512((void*)(f + 8), hi);
}
#define FFT_SMALL_CHANGE(f, K, rows, cols) \
    ((K) == FFT_SMALL_LOG ? fft_small_change16((f), (cols)) : fft_small_change((f), (K), (rows)))
#else
#define FFT_SMALL_CHANGE(f, K, rows, cols) fft_small_change((f), (K), (rows))
#endif

/* The change on the columns: fft_to_novel (or with `inverse` fft_from_novel) of 2^K rows of
 * `row` words, nz of them nonzero, on words [lo, hi) of every row, a slice of the words at a
 * time small enough that its part of the 2^K rows (FFT_COLUMN_BYTES) stays in the cache through
 * every pass of the recursion: one trip to memory where the whole rows would take one a pass. */
#ifndef FFT_COLUMN_BYTES
#define FFT_COLUMN_BYTES ((size_t)1 << 19)
#endif
static int fft_columns(uint64_t* f, int K, size_t row, size_t nz, size_t lo, size_t hi, const int inverse,
                       fft_poll_fn poll, void* ps) {
    size_t slice = (FFT_COLUMN_BYTES / sizeof(uint64_t)) >> K;
    fft_slice sl;
    if (slice < 64) slice = 64;
    sl.row = row;
    for (sl.lo = lo; sl.lo < hi; sl.lo = sl.hi) {
        sl.hi = hi - sl.lo > slice ? sl.lo + slice : hi;
        if (fft_poll_work(poll, ps, (sl.hi - sl.lo) << K)) return -2;
        if (inverse)
            fft_from_novel(f, K, row, &sl, NULL, NULL);
        else
            fft_to_novel(f, K, row, nz, &sl, NULL, NULL);
    }
    return 0;
}

/* Monomial coefficients -> coefficients on X, in place; elements from nz on are zero. */
static int fft_to_novel(uint64_t* f, int K, size_t w, size_t nz, const fft_slice* sl, fft_poll_fn poll, void* ps) {
    if (K <= 1 || nz == 0) return 0;
    if (K <= FFT_SMALL_LOG && w == 1 && sl == NULL && fft_small_ready) {
        FFT_SMALL_CHANGE(f, K, fft_small_to, fft_small_to_cols);
        return 0;
    }
    int L = fft_split_log(K);
    size_t side = (size_t)1 << L, block = side * w;
    if (fft_expand(f, K, L, w, nz, sl, poll, ps)) return -2;
    for (size_t m = 0; m < ((size_t)1 << (K - L)) && m * side < nz; m++) {
        if (fft_to_novel(f + m * block, L, w, nz - m * side < side ? nz - m * side : side, sl, poll, ps)) return -2;
        if (fft_poll_work(poll, ps, block)) return -2;
    }
    if (sl == NULL) return fft_columns(f, K - L, block, (nz + side - 1) / side, 0, block, 0, poll, ps);
    return fft_to_novel(f, K - L, block, (nz + side - 1) / side, sl, poll, ps);
}

/* The inverse of fft_to_novel (on any 2^K elements). */
static int fft_from_novel(uint64_t* f, int K, size_t w, const fft_slice* sl, fft_poll_fn poll, void* ps) {
    if (K <= 1) return 0;
    if (K <= FFT_SMALL_LOG && w == 1 && sl == NULL && fft_small_ready) {
        FFT_SMALL_CHANGE(f, K, fft_small_from, fft_small_from_cols);
        return 0;
    }
    int L = fft_split_log(K);
    size_t side = (size_t)1 << L, block = side * w;
    if (sl == NULL ? fft_columns(f, K - L, block, 0, 0, block, 1, poll, ps) : fft_from_novel(f, K - L, block, sl, poll, ps))
        return -2;
    for (size_t m = 0; m < ((size_t)1 << (K - L)); m++) {
        if (fft_from_novel(f + m * block, L, w, sl, poll, ps)) return -2;
        if (fft_poll_work(poll, ps, block)) return -2;
    }
    return fft_unexpand(f, K, L, w, sl, poll, ps);
}

/* --- The butterflies ------------------------------------------------------- */

/* --- Eight or four products at a time (VPCLMULQDQ, chosen at run time) -------
 *
 * A 128-bit lane holds two field elements; the carry-less products of its low
 * and high elements come from two immediates, their low and high words are
 * regathered by unpacking, and the high words are folded as in fft_reduce.
 */
#if defined(__PCLMUL__) && defined(__AVX512F__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define FFT_WIDE 8
#define FFT_WIDE_TARGET __attribute__((target("vpclmulqdq,avx512f")))
typedef __m512i fft_vec;
#define FFT_VSET1 _mm512_set1_epi64
FFT_WIDE_TARGET static inline fft_vec fft_vfold(fft_vec p0, fft_vec p1) {
    fft_vec lo = _mm512_unpacklo_epi64(p0, p1), hi = _mm512_unpackhi_epi64(p0, p1);
    fft_vec t = _mm512_ternarylogic_epi64(hi, _mm512_srli_epi64(hi, 60), _mm512_srli_epi64(hi, 61), 0x96);
    t = _mm512_xor_si512(t, _mm512_srli_epi64(hi, 63));
    fft_vec r = _mm512_ternarylogic_epi64(lo, t, _mm512_slli_epi64(t, 1), 0x96);
    return _mm512_ternarylogic_epi64(r, _mm512_slli_epi64(t, 3), _mm512_slli_epi64(t, 4), 0x96);
}
#define FFT_VCLMUL _mm512_clmulepi64_epi128
/* x[s .. s + 8), words outside [0, n) read as zero (masked: no access outside). */
FFT_WIDE_TARGET static inline fft_vec fft_vload_window(const uint64_t* x, ptrdiff_t s, ptrdiff_t n) {
    unsigned m = 0xFFu;
    if (s >= 0 && s + 8 <= n) return _mm512_loadu_si512((const void*)(x + s));
    if (s < 0) m &= (unsigned)(0xFFu << (-s < 8 ? -s : 8));
    if (s + 8 > n) m &= (n - s) <= 0 ? 0u : (0xFFu >> (8 - (n - s)));
    return _mm512_maskz_loadu_epi64((__mmask8)m, (const void*)(x + s));
}
/* out[k .. k + 8) ^= acc, words from n on untouched. */
FFT_WIDE_TARGET static inline void fft_vxor_window(uint64_t* out, ptrdiff_t k, ptrdiff_t n, fft_vec acc) {
    __mmask8 m = (__mmask8)(n - k >= 8 ? 0xFFu : (n - k <= 0 ? 0u : 0xFFu >> (8 - (n - k))));
    _mm512_mask_storeu_epi64((void*)(out + k), m, _mm512_xor_si512(_mm512_maskz_loadu_epi64(m, (const void*)(out + k)), acc));
}
#elif defined(__PCLMUL__) && defined(__AVX2__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define FFT_WIDE 4
#define FFT_WIDE_TARGET __attribute__((target("vpclmulqdq,avx2")))
typedef __m256i fft_vec;
#define FFT_VSET1 _mm256_set1_epi64x
FFT_WIDE_TARGET static inline fft_vec fft_vfold(fft_vec p0, fft_vec p1) {
    fft_vec lo = _mm256_unpacklo_epi64(p0, p1), hi = _mm256_unpackhi_epi64(p0, p1);
    fft_vec t = _mm256_xor_si256(_mm256_xor_si256(hi, _mm256_srli_epi64(hi, 60)),
                                 _mm256_xor_si256(_mm256_srli_epi64(hi, 61), _mm256_srli_epi64(hi, 63)));
    fft_vec r = _mm256_xor_si256(_mm256_xor_si256(lo, t), _mm256_slli_epi64(t, 1));
    return _mm256_xor_si256(r, _mm256_xor_si256(_mm256_slli_epi64(t, 3), _mm256_slli_epi64(t, 4)));
}
#define FFT_VCLMUL _mm256_clmulepi64_epi128
/* All ones in the lanes l with 0 <= s + l < n. */
FFT_WIDE_TARGET static inline __m256i fft_window_mask(ptrdiff_t s, ptrdiff_t n) {
    __m256i lane = _mm256_add_epi64(_mm256_set1_epi64x((long long)s), _mm256_set_epi64x(3, 2, 1, 0));
    __m256i low = _mm256_cmpgt_epi64(_mm256_setzero_si256(), lane);              /* s + l < 0 */
    __m256i high = _mm256_cmpgt_epi64(_mm256_set1_epi64x((long long)n), lane);    /* s + l < n */
    return _mm256_andnot_si256(low, high);
}
FFT_WIDE_TARGET static inline fft_vec fft_vload_window(const uint64_t* x, ptrdiff_t s, ptrdiff_t n) {
    if (s >= 0 && s + 4 <= n) return _mm256_loadu_si256((const __m256i*)(x + s));
    return _mm256_maskload_epi64((const long long*)(x + s), fft_window_mask(s, n));
}
FFT_WIDE_TARGET static inline void fft_vxor_window(uint64_t* out, ptrdiff_t k, ptrdiff_t n, fft_vec acc) {
    __m256i m = fft_window_mask(k, n);
    _mm256_maskstore_epi64((long long*)(out + k), m,
                           _mm256_xor_si256(_mm256_maskload_epi64((const long long*)(out + k), m), acc));
}
#endif

#ifdef FFT_WIDE
/* What both widths share: fft_vec is a GCC/Clang vector type either way, so loads and stores
   go through its unaligned alias and XOR is the operator; FFT_VSET1 broadcasts a word,
   FFT_VCLMUL multiplies the low or high words of lanes (its immediate); then the low (high)
   word of each lane of x times the low word of the lane of y, products by a constant lam
   broadcast to every word, and products of the words of x and y. */
typedef fft_vec fft_vec_unaligned __attribute__((aligned(1), may_alias));
FFT_WIDE_TARGET static inline fft_vec fft_vload(const uint64_t* p) { return *(const fft_vec_unaligned*)p; }
FFT_WIDE_TARGET static inline void fft_vstore(uint64_t* p, fft_vec x) { *(fft_vec_unaligned*)p = x; }
FFT_WIDE_TARGET static inline fft_vec fft_vset1(uint64_t x) { return FFT_VSET1((long long)x); }
FFT_WIDE_TARGET static inline fft_vec fft_vxor(fft_vec x, fft_vec y) { return x ^ y; }
FFT_WIDE_TARGET static inline fft_vec fft_vclmul_low(fft_vec x, fft_vec y) { return FFT_VCLMUL(x, y, 0x00); }
FFT_WIDE_TARGET static inline fft_vec fft_vclmul_high(fft_vec x, fft_vec y) { return FFT_VCLMUL(x, y, 0x01); }
FFT_WIDE_TARGET static inline fft_vec fft_vmul_const(fft_vec x, fft_vec lam) {
    return fft_vfold(fft_vclmul_low(x, lam), fft_vclmul_high(x, lam));
}
FFT_WIDE_TARGET static inline fft_vec fft_vmul(fft_vec x, fft_vec y) {
    return fft_vfold(FFT_VCLMUL(x, y, 0x00), FFT_VCLMUL(x, y, 0x11));
}
#endif

/* Whether the wide loops run: set by fft_init from the CPU, changed by fft_set_wide (tests). */
static int fft_wide_available = 0, fft_wide_on = 0;

#ifdef FFT_WIDE
FFT_WIDE_TARGET static size_t fft_pair_forward_wide(uint64_t* u, uint64_t* v, size_t h, uint64_t lam) {
    fft_vec l = fft_vset1(lam);
    size_t i = 0;
    for (; i + FFT_WIDE <= h; i += FFT_WIDE) {
        fft_vec x = fft_vxor(fft_vload(u + i), fft_vmul_const(fft_vload(v + i), l));
        fft_vstore(u + i, x);
        fft_vstore(v + i, fft_vxor(fft_vload(v + i), x));
    }
    return i;
}
FFT_WIDE_TARGET static size_t fft_pair_inverse_wide(uint64_t* u, uint64_t* v, size_t h, uint64_t lam) {
    fft_vec l = fft_vset1(lam);
    size_t i = 0;
    for (; i + FFT_WIDE <= h; i += FFT_WIDE) {
        fft_vec y = fft_vxor(fft_vload(v + i), fft_vload(u + i));
        fft_vstore(v + i, y);
        fft_vstore(u + i, fft_vxor(fft_vload(u + i), fft_vmul_const(y, l)));
    }
    return i;
}
FFT_WIDE_TARGET static size_t fft_pointwise_wide(uint64_t* a, const uint64_t* b, size_t n) {
    size_t i = 0;
    for (; i + FFT_WIDE <= n; i += FFT_WIDE)
        fft_vstore(a + i, fft_vmul(fft_vload(a + i), fft_vload(b + i)));
    return i;
}
FFT_WIDE_TARGET static size_t fft_pointwise_acc_wide(uint64_t* acc, const uint64_t* a, const uint64_t* b, size_t n) {
    size_t i = 0;
    for (; i + FFT_WIDE <= n; i += FFT_WIDE)
        fft_vstore(acc + i, fft_vxor(fft_vload(acc + i), fft_vmul(fft_vload(a + i), fft_vload(b + i))));
    return i;
}
#endif

/* --- Schoolbook products, FFT_WIDE output words at a time ---------------------
 *
 * out[0 : nx + ny) ^= x y by product scanning: for each window of FFT_WIDE output
 * words, the words of y one by one against the matching window of x.  In a 128-bit
 * lane, immediate 0x00 multiplies the low word of x by y_j and lands on the lane's
 * own two output words; 0x01 multiplies the high word and lands one word further,
 * so two accumulators, the second stored one word up, take every product.  Words
 * of x outside [0, nx) are read as zero through masked loads.  Worthwhile below
 * Karatsuba's threshold, where the one-word-at-a-time loop spends its time.
 */
#ifdef FFT_WIDE
FFT_WIDE_TARGET static void fft_school_wide(uint64_t* out, const uint64_t* x, ptrdiff_t nx,
                                            const uint64_t* y, ptrdiff_t ny) {
    ptrdiff_t nout = nx + ny;
    for (ptrdiff_t k = 0; k < nout; k += FFT_WIDE) {
        fft_vec acc0 = fft_vset1(0), acc1 = fft_vset1(0);
        ptrdiff_t jlo = k - nx + 1 > 0 ? k - nx + 1 : 0, jhi = k + FFT_WIDE < ny ? k + FFT_WIDE : ny;
        for (ptrdiff_t j = jlo; j < jhi; j++) {
            fft_vec xv = fft_vload_window(x, k - j, nx), yv = fft_vset1(y[j]);
            acc0 = fft_vxor(acc0, fft_vclmul_low(xv, yv));
            acc1 = fft_vxor(acc1, fft_vclmul_high(xv, yv));
        }
        fft_vxor_window(out, k, nout, acc0);
        fft_vxor_window(out, k + 1, nout, acc1);
    }
}
#define FFT_HAVE_SCHOOL_WIDE 1
#endif

#if defined(__PCLMUL__)
/* The same product scanning two output words at a time in SSE registers, for CPUs with
 * PCLMULQDQ alone: two carry-less products per load, no store in the inner loop. */
static inline __m128i fft_load_pair(const uint64_t* x, ptrdiff_t s, ptrdiff_t nx) {
    if (s >= 0 && s + 2 <= nx) return _mm_loadu_si128((const __m128i*)(x + s));
    return _mm_set_epi64x(s + 1 >= 0 && s + 1 < nx ? (long long)x[s + 1] : 0,
                          s >= 0 && s < nx ? (long long)x[s] : 0);
}
static void fft_school_pairs(uint64_t* out, const uint64_t* x, ptrdiff_t nx, const uint64_t* y, ptrdiff_t ny) {
    ptrdiff_t nout = nx + ny;
    __m128i carry = _mm_setzero_si128();  /* the odd accumulator's word that lands past the window */
    for (ptrdiff_t k = 0; k < nout; k += 2) {
        __m128i acc0 = _mm_setzero_si128(), acc1 = _mm_setzero_si128();
        ptrdiff_t jlo = k - nx + 1 > 0 ? k - nx + 1 : 0, jhi = k + 2 < ny ? k + 2 : ny;
        for (ptrdiff_t j = jlo; j < jhi; j++) {
            __m128i xv = fft_load_pair(x, k - j, nx);
            __m128i yv = _mm_cvtsi64_si128((long long)y[j]);
            acc0 = _mm_xor_si128(acc0, _mm_clmulepi64_si128(xv, yv, 0x00));
            acc1 = _mm_xor_si128(acc1, _mm_clmulepi64_si128(xv, yv, 0x01));
        }
        /* words k, k + 1: acc0, the low word of acc1 moved up one, and the carried word */
        __m128i w = _mm_xor_si128(_mm_xor_si128(acc0, _mm_slli_si128(acc1, 8)), carry);
        carry = _mm_srli_si128(acc1, 8);
        out[k] ^= (uint64_t)_mm_cvtsi128_si64(w);
        if (k + 1 < nout) out[k + 1] ^= (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(w, w));
    }
}
#endif

/* out[0 : nx + ny) ^= x y by product scanning where a carry-less multiply exists; 0 when the
 * caller must do it (the portable build). */
static int fft_school(uint64_t* out, const uint64_t* x, ptrdiff_t nx, const uint64_t* y, ptrdiff_t ny) {
    if (nx <= 0 || ny <= 0) return 1;
#ifdef FFT_HAVE_SCHOOL_WIDE
    if (fft_wide_on) {
        fft_school_wide(out, x, nx, y, ny);
        return 1;
    }
#endif
#if defined(__PCLMUL__)
    fft_school_pairs(out, x, nx, y, ny);
    return 1;
#else
    (void)out; (void)x; (void)y;
    return 0;
#endif
}

static void fft_detect_wide(void) {
#if defined(FFT_WIDE) && defined(__GNUC__)
    __builtin_cpu_init();
    fft_wide_available = __builtin_cpu_supports("vpclmulqdq") ? 1 : 0;
#endif
    fft_wide_on = fft_wide_available;
}

/* Turn the wide loops on or off (on only where the CPU has them); returns the previous state. */
static int fft_set_wide(int on) {
    int old = fft_wide_on;
    fft_wide_on = on && fft_wide_available;
    return old;
}

#if defined(__PCLMUL__)
/* Two field products per 128-bit register, for CPUs with PCLMULQDQ but not VPCLMULQDQ: the
 * fold of fft_reduce on both 64-bit lanes at once, nothing moved to general registers. */
static inline __m128i fft_fold2(__m128i p0, __m128i p1) {
    __m128i lo = _mm_unpacklo_epi64(p0, p1), hi = _mm_unpackhi_epi64(p0, p1);
    __m128i t = _mm_xor_si128(_mm_xor_si128(hi, _mm_srli_epi64(hi, 60)),
                              _mm_xor_si128(_mm_srli_epi64(hi, 61), _mm_srli_epi64(hi, 63)));
    __m128i r = _mm_xor_si128(_mm_xor_si128(lo, t), _mm_slli_epi64(t, 1));
    return _mm_xor_si128(r, _mm_xor_si128(_mm_slli_epi64(t, 3), _mm_slli_epi64(t, 4)));
}
static inline __m128i fft_mul2_const(__m128i x, __m128i lam) {
    return fft_fold2(_mm_clmulepi64_si128(x, lam, 0x00), _mm_clmulepi64_si128(x, lam, 0x01));
}
static inline __m128i fft_mul2(__m128i x, __m128i y) {
    return fft_fold2(_mm_clmulepi64_si128(x, y, 0x00), _mm_clmulepi64_si128(x, y, 0x11));
}
#define FFT_LD2(p) _mm_loadu_si128((const __m128i*)(p))
#define FFT_ST2(p, x) _mm_storeu_si128((__m128i*)(p), (x))
static size_t fft_pair_forward_2(uint64_t* u, uint64_t* v, size_t h, uint64_t lam) {
    __m128i l = _mm_cvtsi64_si128((long long)lam);
    size_t i = 0;
    for (; i + 2 <= h; i += 2) {
        __m128i x = _mm_xor_si128(FFT_LD2(u + i), fft_mul2_const(FFT_LD2(v + i), l));
        FFT_ST2(u + i, x);
        FFT_ST2(v + i, _mm_xor_si128(FFT_LD2(v + i), x));
    }
    return i;
}
static size_t fft_pair_inverse_2(uint64_t* u, uint64_t* v, size_t h, uint64_t lam) {
    __m128i l = _mm_cvtsi64_si128((long long)lam);
    size_t i = 0;
    for (; i + 2 <= h; i += 2) {
        __m128i y = _mm_xor_si128(FFT_LD2(v + i), FFT_LD2(u + i));
        FFT_ST2(v + i, y);
        FFT_ST2(u + i, _mm_xor_si128(FFT_LD2(u + i), fft_mul2_const(y, l)));
    }
    return i;
}
static size_t fft_pointwise_2(uint64_t* a, const uint64_t* b, size_t n) {
    size_t i = 0;
    for (; i + 2 <= n; i += 2) FFT_ST2(a + i, fft_mul2(FFT_LD2(a + i), FFT_LD2(b + i)));
    return i;
}
static size_t fft_pointwise_acc_2(uint64_t* acc, const uint64_t* a, const uint64_t* b, size_t n) {
    size_t i = 0;
    for (; i + 2 <= n; i += 2)
        FFT_ST2(acc + i, _mm_xor_si128(FFT_LD2(acc + i), fft_mul2(FFT_LD2(a + i), FFT_LD2(b + i))));
    return i;
}
#define FFT_TWO(call) call
#else
#define FFT_TWO(call) 0
#endif

/* i = the elements done by the widest vector loop this build and CPU run: NAME##_wide (when
 * the wide loops are on), else NAME##_2 (two at a time), else none; each step's scalar loop
 * then does the rest. */
#ifdef FFT_WIDE
#define FFT_VECTOR_LOOPS(i, NAME, ARGS) do {       \
        if (fft_wide_on) i = NAME##_wide ARGS;     \
        if (i == 0) i = FFT_TWO(NAME##_2 ARGS);    \
    } while (0)
#else
#define FFT_VECTOR_LOOPS(i, NAME, ARGS) do { i = FFT_TWO(NAME##_2 ARGS); } while (0)
#endif

/* u += lam v, v += u (one level of the forward transform on a pair of half-blocks). */
static void fft_pair_forward(uint64_t* FFT_RESTRICT u, uint64_t* FFT_RESTRICT v, size_t h, uint64_t lam) {
    size_t i = 0;
    FFT_VECTOR_LOOPS(i, fft_pair_forward, (u, v, h, lam));
    for (; i < h; i++) {
        uint64_t x = u[i] ^ fft_mul(lam, v[i]);
        u[i] = x;
        v[i] ^= x;
    }
}

/* v += u, u += lam v: the inverse of fft_pair_forward. */
static void fft_pair_inverse(uint64_t* FFT_RESTRICT u, uint64_t* FFT_RESTRICT v, size_t h, uint64_t lam) {
    size_t i = 0;
    FFT_VECTOR_LOOPS(i, fft_pair_inverse, (u, v, h, lam));
    for (; i < h; i++) {
        uint64_t y = v[i] ^ u[i];
        v[i] = y;
        u[i] ^= fft_mul(lam, y);
    }
}

/* a[i] = a[i] b[i] in GF(2^64). */
static void fft_pointwise(uint64_t* FFT_RESTRICT a, const uint64_t* FFT_RESTRICT b, size_t n) {
    size_t i = 0;
    FFT_VECTOR_LOOPS(i, fft_pointwise, (a, b, n));
    for (; i < n; i++) a[i] = fft_mul(a[i], b[i]);
}

/* acc[i] += a[i] b[i] in GF(2^64). */
static void fft_pointwise_acc(uint64_t* FFT_RESTRICT acc, const uint64_t* FFT_RESTRICT a,
                              const uint64_t* FFT_RESTRICT b, size_t n) {
    size_t i = 0;
    FFT_VECTOR_LOOPS(i, fft_pointwise_acc, (acc, a, b, n));
    for (; i < n; i++) acc[i] ^= fft_mul(a[i], b[i]);
}

/* Level k on nblocks blocks of 2^(k+1) elements, the first being block number b0: forward,
 * or with `inverse` its inverse (callers pass a constant).  A block whose twiddle is zero is
 * one XOR of its halves either way. */
static inline void fft_level(uint64_t* f, int k, size_t b0, size_t nblocks, const int inverse) {
    size_t h = (size_t)1 << k;
    for (size_t b = 0; b < nblocks; b++) {
        uint64_t lam = fft_omega(2 * (b0 + b));
        uint64_t* u = f + 2 * h * b;
        if (lam == 0)
            fft_xor(u + h, u, h);
        else if (inverse)
            fft_pair_inverse(u, u + h, h, lam);
        else
            fft_pair_forward(u, u + h, h, lam);
    }
}

/* One butterfly of the forward transform (u += lam v, v += u) or, with `inverse`, of its
 * inverse (v += u, u += lam v). */
static inline void fft_butterfly(uint64_t* u, uint64_t* v, uint64_t lam, const int inverse) {
    if (inverse) {
        *v ^= *u;
        *u ^= fft_mul(lam, *v);
    } else {
        *u ^= fft_mul(lam, *v);
        *v ^= *u;
    }
}

/* Level k (2, 1 or 0: butterflies 4, 2 or 1 apart) of a group g of 8 elements whose first
 * block has the twiddle lam; block t of the level adds the betas of t's bits. */
static inline void fft_last3_level(uint64_t* g, int k, uint64_t lam, const int inverse) {
    const int d = 1 << k;
    for (int t = 0; t < (4 >> k); t++) {
        uint64_t l = lam ^ ((t & 1) ? fft_beta[1] : 0) ^ ((t & 2) ? fft_beta[2] : 0);
        for (int i = 2 * d * t; i < 2 * d * t + d; i++) fft_butterfly(g + i, g + i + d, l, inverse);
    }
}

#if defined(FFT_WIDE) && FFT_WIDE == 8
/* The last three levels with a group of 8 elements in one AVX-512 register.  Level k pairs
 * element i with i + 2^k: swap(x, k) brings each partner into its place, and the twiddle
 * vector holds a block's lam in the low word of each 128-bit lane of its lower half (0 in the
 * upper half, whose lanes thus get no product), so u += lam v is one product of swap(x) and
 * v += u one masked XOR.  Level 0's partners share a lane: the twiddles sit in the low words
 * and pair with swap(x)'s low words (fft_vmul), the high words with zeros. */
FFT_WIDE_TARGET static inline __m512i fft_last3_swap(__m512i x, const int k) {
    if (k == 0) return _mm512_shuffle_epi32(x, (_MM_PERM_ENUM)0x4E); /* words 1 0 3 2 ... */
    if (k == 1) return _mm512_shuffle_i64x2(x, x, 0xB1);             /* lanes 1 0 3 2 */
    return _mm512_shuffle_i64x2(x, x, 0x4E);                         /* lanes 2 3 0 1 */
}
FFT_WIDE_TARGET static inline __m512i fft_last3_wide_level(__m512i x, const int k, __m512i lamv, const int inverse) {
    const __mmask8 upper = k == 0 ? 0xAA : (k == 1 ? 0xCC : 0xF0);
    if (inverse) x = _mm512_mask_xor_epi64(x, upper, x, fft_last3_swap(x, k));
    __m512i s = fft_last3_swap(x, k);
    x = _mm512_xor_si512(x, k == 0 ? fft_vmul(s, lamv) : fft_vmul_const(s, lamv));
    if (!inverse) x = _mm512_mask_xor_epi64(x, upper, x, fft_last3_swap(x, k));
    return x;
}
/* r[0 .. 8) as an 8 x 8 matrix of words, transposed in place (its own inverse). */
FFT_WIDE_TARGET static inline void fft_transpose8(__m512i* r) {
    const __m512i ia = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0), ib = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
    const __m512i ic = _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0), id = _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4);
    __m512i t[8], u[8];
    for (int i = 0; i < 8; i += 2) {
        t[i] = _mm512_unpacklo_epi64(r[i], r[i + 1]);
        t[i + 1] = _mm512_unpackhi_epi64(r[i], r[i + 1]);
    }
    for (int i = 0; i < 8; i += 4) {
        u[i] = _mm512_permutex2var_epi64(t[i], ia, t[i + 2]);
        u[i + 2] = _mm512_permutex2var_epi64(t[i], ib, t[i + 2]);
        u[i + 1] = _mm512_permutex2var_epi64(t[i + 1], ia, t[i + 3]);
        u[i + 3] = _mm512_permutex2var_epi64(t[i + 1], ib, t[i + 3]);
    }
    for (int i = 0; i < 4; i++) {
        r[i] = _mm512_permutex2var_epi64(u[i], ic, u[i + 4]);
        r[i + 4] = _mm512_permutex2var_epi64(u[i], id, u[i + 4]);
    }
}
/* One butterfly on whole registers, a twiddle per lane (see fft_butterfly). */
FFT_WIDE_TARGET static inline void fft_vbutterfly(__m512i* u, __m512i* v, __m512i lam, const int inverse) {
    if (inverse) {
        *v = _mm512_xor_si512(*v, *u);
        *u = _mm512_xor_si512(*u, fft_vmul(*v, lam));
    } else {
        *u = _mm512_xor_si512(*u, fft_vmul(*v, lam));
        *v = _mm512_xor_si512(*v, *u);
    }
}
/* Eight groups at a time, transposed: register e holds element e of each group, so every
 * butterfly is eight full-width products; the twiddles of group q0 + g (q0 a multiple of 8)
 * are those of q0 plus those of g (w_i is linear in the bits of i), three lookups for all. */
FFT_WIDE_TARGET static size_t fft_last3_wide8(uint64_t* f, size_t q0, size_t n8, const int inverse) {
    if (q0 & 7) return 0;
    const __m512i b1 = _mm512_set1_epi64((long long)fft_beta[1]), b2 = _mm512_set1_epi64((long long)fft_beta[2]);
    __m512i c2, c1, c0;
    {
        uint64_t o2[8], o1[8], o0[8];
        for (int g = 0; g < 8; g++) {
            o2[g] = fft_omega(2 * (uint64_t)g);
            o1[g] = fft_omega(4 * (uint64_t)g);
            o0[g] = fft_omega(8 * (uint64_t)g);
        }
        c2 = _mm512_loadu_si512((const void*)o2);
        c1 = _mm512_loadu_si512((const void*)o1);
        c0 = _mm512_loadu_si512((const void*)o0);
    }
    size_t j = 0;
    for (; j + 8 <= n8; j += 8) {
        uint64_t* g = f + 8 * j;
        size_t q = q0 + j;
        __m512i r[8];
        __m512i l2 = _mm512_xor_si512(_mm512_set1_epi64((long long)fft_omega(2 * q)), c2);
        __m512i l1 = _mm512_xor_si512(_mm512_set1_epi64((long long)fft_omega(4 * q)), c1);
        __m512i l0 = _mm512_xor_si512(_mm512_set1_epi64((long long)fft_omega(8 * q)), c0);
        __m512i l1b = _mm512_xor_si512(l1, b1);
        __m512i l0b1 = _mm512_xor_si512(l0, b1), l0b2 = _mm512_xor_si512(l0, b2);
        __m512i l0b3 = _mm512_xor_si512(l0b1, b2);
        for (int e = 0; e < 8; e++) r[e] = _mm512_loadu_si512((const void*)(g + 8 * e));
        fft_transpose8(r);
        if (inverse) {
            fft_vbutterfly(&r[0], &r[1], l0, 1);
            fft_vbutterfly(&r[2], &r[3], l0b1, 1);
            fft_vbutterfly(&r[4], &r[5], l0b2, 1);
            fft_vbutterfly(&r[6], &r[7], l0b3, 1);
            fft_vbutterfly(&r[0], &r[2], l1, 1);
            fft_vbutterfly(&r[1], &r[3], l1, 1);
            fft_vbutterfly(&r[4], &r[6], l1b, 1);
            fft_vbutterfly(&r[5], &r[7], l1b, 1);
            for (int e = 0; e < 4; e++) fft_vbutterfly(&r[e], &r[e + 4], l2, 1);
        } else {
            for (int e = 0; e < 4; e++) fft_vbutterfly(&r[e], &r[e + 4], l2, 0);
            fft_vbutterfly(&r[0], &r[2], l1, 0);
            fft_vbutterfly(&r[1], &r[3], l1, 0);
            fft_vbutterfly(&r[4], &r[6], l1b, 0);
            fft_vbutterfly(&r[5], &r[7], l1b, 0);
            fft_vbutterfly(&r[0], &r[1], l0, 0);
            fft_vbutterfly(&r[2], &r[3], l0b1, 0);
            fft_vbutterfly(&r[4], &r[5], l0b2, 0);
            fft_vbutterfly(&r[6], &r[7], l0b3, 0);
        }
        fft_transpose8(r);
        for (int e = 0; e < 8; e++) _mm512_storeu_si512((void*)(g + 8 * e), r[e]);
    }
    return j;
}
FFT_WIDE_TARGET static void fft_last3_wide(uint64_t* f, size_t q0, size_t n8, const int inverse) {
    const long long b1 = (long long)fft_beta[1], b2 = (long long)fft_beta[2];
    const __m512i c1 = _mm512_set_epi64(0, 0, 0, b1, 0, 0, 0, 0);
    const __m512i c0 = _mm512_set_epi64(0, b1 ^ b2, 0, b2, 0, b1, 0, 0);
    size_t done = fft_last3_wide8(f, q0, n8, inverse);
    f += 8 * done;
    q0 += done;
    n8 -= done;
    for (size_t j = 0; j < n8; j++) {
        uint64_t* g = f + 8 * j;
        size_t q = q0 + j;
        __m512i v2 = _mm512_maskz_set1_epi64(0x05, (long long)fft_omega(2 * q));
        __m512i v1 = _mm512_xor_si512(_mm512_maskz_set1_epi64(0x11, (long long)fft_omega(4 * q)), c1);
        __m512i v0 = _mm512_xor_si512(_mm512_maskz_set1_epi64(0x55, (long long)fft_omega(8 * q)), c0);
        __m512i x = _mm512_loadu_si512((const void*)g);
        if (inverse) {
            x = fft_last3_wide_level(x, 0, v0, 1);
            x = fft_last3_wide_level(x, 1, v1, 1);
            x = fft_last3_wide_level(x, 2, v2, 1);
        } else {
            x = fft_last3_wide_level(x, 2, v2, 0);
            x = fft_last3_wide_level(x, 1, v1, 0);
            x = fft_last3_wide_level(x, 0, v0, 0);
        }
        _mm512_storeu_si512((void*)g, x);
    }
}
#endif

/* The last three levels of the transform (forward, or its inverse) on n8 groups of 8 elements,
 * the first being group q0: one pass instead of three, with the twiddles from three table
 * lookups per group (in one AVX-512 register per group where the wide loops run). */
static inline void fft_last3(uint64_t* f, size_t q0, size_t n8, const int inverse) {
#if defined(FFT_WIDE) && FFT_WIDE == 8
    if (fft_wide_on) {
        if (inverse)
            fft_last3_wide(f, q0, n8, 1);
        else
            fft_last3_wide(f, q0, n8, 0);
        return;
    }
#endif
    for (size_t j = 0; j < n8; j++) {
        uint64_t* g = f + 8 * j;
        size_t q = q0 + j;
        uint64_t l2 = fft_omega(2 * q), l1 = fft_omega(4 * q), l0 = fft_omega(8 * q);
        if (inverse) {
            fft_last3_level(g, 0, l0, 1);
            fft_last3_level(g, 1, l1, 1);
            fft_last3_level(g, 2, l2, 1);
        } else {
            fft_last3_level(g, 2, l2, 0);
            fft_last3_level(g, 1, l1, 0);
            fft_last3_level(g, 0, l0, 0);
        }
    }
}

/* The levels below B of the forward transform on block c (2^B elements, in the cache). */
static inline void fft_forward_block(uint64_t* f, int B, size_t c) {
    uint64_t* g = f + (c << B);
    int low = B >= 3 ? 3 : 0;
    for (int j = B - 1; j >= low; j--)
        fft_level(g, j, c << (B - 1 - j), (size_t)1 << (B - 1 - j), 0);
    if (low) fft_last3(g, c << (B - 3), (size_t)1 << (B - 3), 0);
}

/* The inverse of fft_forward_block. */
static inline void fft_inverse_block(uint64_t* f, int B, size_t c) {
    uint64_t* g = f + (c << B);
    int low = B >= 3 ? 3 : 0;
    if (low) fft_last3(g, c << (B - 3), (size_t)1 << (B - 3), 1);
    for (int k = low; k < B; k++)
        fft_level(g, k, c << (B - 1 - k), (size_t)1 << (B - 1 - k), 1);
}

/* Levels k and k - 1 in one pass over nblocks blocks of 2^(k+1) elements (the first block
 * number b0), forward or with `inverse` its inverse: each block's quarters q0..q3 are read and
 * written once for both levels (the top levels run out of the cache, so this halves their
 * memory traffic).  Level k pairs q0, q2 and q1, q3 (twiddle w_(2 b)), level k - 1 q0, q1
 * (w_(4 b)) and q2, q3 (w_(4 b + 2)), as fft_level's blocks.  0 where the wide loops are off. */
#if defined(FFT_WIDE)
FFT_WIDE_TARGET static int fft_level_pair_wide(uint64_t* f, int k, size_t b0, size_t nblocks, size_t i0, size_t i1,
                                                const int inverse) {
    size_t h = (size_t)1 << (k - 1);
    if (!fft_wide_on || h % FFT_WIDE) return 0;
    for (size_t b = b0; b < b0 + nblocks; b++) {
        uint64_t* q = f + 4 * h * (b - b0);
        fft_vec l1 = fft_vset1(fft_omega(2 * b)), la = fft_vset1(fft_omega(4 * b)), lb = fft_vset1(fft_omega(4 * b + 2));
        for (size_t i = i0; i < i1; i += FFT_WIDE) {
            fft_vec x0 = fft_vload(q + i), x1 = fft_vload(q + h + i);
            fft_vec x2 = fft_vload(q + 2 * h + i), x3 = fft_vload(q + 3 * h + i);
            if (inverse) {
                x1 = fft_vxor(x1, x0);
                x0 = fft_vxor(x0, fft_vmul_const(x1, la));
                x3 = fft_vxor(x3, x2);
                x2 = fft_vxor(x2, fft_vmul_const(x3, lb));
                x2 = fft_vxor(x2, x0);
                x0 = fft_vxor(x0, fft_vmul_const(x2, l1));
                x3 = fft_vxor(x3, x1);
                x1 = fft_vxor(x1, fft_vmul_const(x3, l1));
            } else {
                x0 = fft_vxor(x0, fft_vmul_const(x2, l1));
                x2 = fft_vxor(x2, x0);
                x1 = fft_vxor(x1, fft_vmul_const(x3, l1));
                x3 = fft_vxor(x3, x1);
                x0 = fft_vxor(x0, fft_vmul_const(x1, la));
                x1 = fft_vxor(x1, x0);
                x2 = fft_vxor(x2, fft_vmul_const(x3, lb));
                x3 = fft_vxor(x3, x2);
            }
            fft_vstore(q + i, x0);
            fft_vstore(q + h + i, x1);
            fft_vstore(q + 2 * h + i, x2);
            fft_vstore(q + 3 * h + i, x3);
        }
    }
    return 1;
}
#define FFT_LEVEL_PAIR_PART(f, k, b0, nblocks, i0, i1, inverse) \
    fft_level_pair_wide((f), (k), (b0), (nblocks), (i0), (i1), (inverse))
#else
#define FFT_LEVEL_PAIR_PART(f, k, b0, nblocks, i0, i1, inverse) \
    ((void)(f), (void)(k), (void)(b0), (void)(nblocks), (void)(i0), (void)(i1), (void)(inverse), 0)
#endif
/* Levels k and k - 1 on whole blocks (places i0 <= i < i1 of each block's quarters with _PART). */
#define FFT_LEVEL_PAIR(f, k, b0, nblocks, inverse) \
    FFT_LEVEL_PAIR_PART((f), (k), (b0), (nblocks), 0, (size_t)1 << ((k) - 1), (inverse))

/* Butterflies [lo, hi) of level k (butterfly j: block j >> k, pair j mod 2^k), forward or inverse. */
static void fft_level_range(uint64_t* f, int k, size_t lo, size_t hi, const int inverse) {
    size_t h = (size_t)1 << k;
    while (lo < hi) {
        size_t b = lo >> k, i = lo & (h - 1), end = (b + 1) << k < hi ? (b + 1) << k : hi;
        uint64_t lam = fft_omega(2 * b);
        uint64_t* u = f + 2 * h * b + i;
        if (lam == 0)
            fft_xor(u + h, u, end - lo);
        else if (inverse)
            fft_pair_inverse(u, u + h, end - lo, lam);
        else
            fft_pair_forward(u, u + h, end - lo, lam);
        lo = end;
    }
}

/* The pointwise step of a product in slices of fft_pass_slice words, with a look (fft_poll_work)
 * after each: dst = dst b (FFT_TIMES, a unused), dst = a b (FFT_TIMES_INTO) or dst += a b
 * (FFT_PLUS_TIMES) on n elements; -2 when the poll says stop, else 0. */
enum { FFT_TIMES, FFT_TIMES_INTO, FFT_PLUS_TIMES };
static int fft_pointwise_looking(uint64_t* dst, const uint64_t* a, const uint64_t* b, size_t n, int op,
                                 fft_poll_fn poll, void* ps) {
    for (size_t s = 0, e; s < n; s = e) {
        e = fft_slice_end(s, n);
        if (op == FFT_PLUS_TIMES) {
            fft_pointwise_acc(dst + s, a + s, b + s, e - s);
        } else {
            if (op == FFT_TIMES_INTO) memcpy(dst + s, a + s, (e - s) * sizeof(uint64_t));
            fft_pointwise(dst + s, b + s, e - s);
        }
        if (fft_poll_work(poll, ps, e - s)) return -2;
    }
    return 0;
}

/* fft_level_range in slices of fft_pass_slice / 2 butterflies, their words counted by
 * fft_poll_work after each: -2 when it says stop, else 0. */
static int fft_level_range_looking(uint64_t* f, int k, size_t lo, size_t hi, const int inverse, fft_poll_fn poll,
                                   void* ps) {
    for (size_t s = lo, e; s < hi; s = e) {
        e = hi - s < fft_pass_slice / 2 ? hi : s + fft_pass_slice / 2;
        fft_level_range(f, k, s, e, inverse);
        if (fft_poll_work(poll, ps, 2 * (e - s))) return -2;
    }
    return 0;
}

/* The levels two to a pass of fft_pass over 2^K elements, in slices; 1 when done, 0 where the
 * wide loops cannot (nothing done), -2 when the poll says stop.  f may be a subtree of a larger
 * transform, whose level-`top` blocks are numbered from b0 there (0: f is the whole). */
static int fft_pair_pass(uint64_t* f, int K, int top, size_t b0, const int inverse, fft_poll_fn poll, void* ps) {
    size_t q = (size_t)1 << (top - 1), nblocks = (size_t)1 << (K - 1 - top), slice = fft_pass_slice;
    if (4 * q <= slice) {   /* whole blocks, slice / 4q of them at a time */
        size_t group = slice / (4 * q);
        for (size_t b = 0; b < nblocks; b += group) {
            size_t count = nblocks - b < group ? nblocks - b : group;
            if (!FFT_LEVEL_PAIR(f + 4 * q * b, top, b0 + b, count, inverse)) return 0;
            if (fft_poll_work(poll, ps, 4 * q * count)) return -2;
        }
        return 1;
    }
    for (size_t b = 0; b < nblocks; b++)     /* a slice of each quarter's places at a time */
        for (size_t i = 0; i < q; i += slice / 4) {
            size_t end = q - i < slice / 4 ? q : i + slice / 4;
            if (!FFT_LEVEL_PAIR_PART(f + 4 * q * b, top, b0 + b, 1, i, end, inverse)) return 0;
            if (fft_poll_work(poll, ps, 4 * (end - i))) return -2;
        }
    return 1;
}

/* One pass of fft_forward (or, with `inverse`, of fft_inverse) over all 2^K elements: level k,
 * or with `two`, where the wide loops can, levels k and k - 1 (inverse: k and k + 1); returns
 * the levels done, or -2 when the poll says stop.  Polls after each fft_pass_slice words. */
static int fft_pass(uint64_t* f, int K, int k, int two, const int inverse, fft_poll_fn poll, void* ps) {
    if (two) {
        int st = fft_pair_pass(f, K, inverse ? k + 1 : k, 0, inverse, poll, ps);
        if (st) return st < 0 ? st : 2;
    }
    return fft_level_range_looking(f, k, 0, (size_t)1 << (K - 1), inverse, poll, ps) ? -2 : 1;
}

/* The levels of fft_forward above its cached blocks of 2^B elements (K - 1 down to B).
 * While nz <= 2^k, every block of level k has a zero upper half, and its butterflies
 * copy the lower half into it. */
static int fft_forward_above(uint64_t* f, int K, size_t nz, fft_poll_fn poll, void* ps) {
    int B = K < FFT_BLOCK_LOG ? K : FFT_BLOCK_LOG;
    int k = K - 1;
    for (; k >= B && nz <= ((size_t)1 << k); k--) {
        size_t h = (size_t)1 << k;
        for (size_t b = 0; b < ((size_t)1 << (K - 1 - k)); b++)
            for (size_t s = 0, e; s < nz; s = e) {
                e = fft_slice_end(s, nz);
                memcpy(f + 2 * h * b + h + s, f + 2 * h * b + s, (e - s) * sizeof(uint64_t));
                if (fft_poll_work(poll, ps, e - s)) return -2;
            }
    }
    while (k >= B) {
        int done = fft_pass(f, K, k, k > B, 0, poll, ps);
        if (done < 0) return -2;
        k -= done;
    }
    return 0;
}

/* Values at w_0 .. w_(2^K - 1) of f = sum_i f[i] X_i, in place; f[i] = 0 for i >= nz. */
static int fft_forward(uint64_t* f, int K, size_t nz, fft_poll_fn poll, void* ps) {
    int B = K < FFT_BLOCK_LOG ? K : FFT_BLOCK_LOG;
    if (fft_forward_above(f, K, nz, poll, ps)) return -2;
    for (size_t c = 0; c < ((size_t)1 << (K - B)); c++) {
        fft_forward_block(f, B, c);
        if (fft_poll_work(poll, ps, (size_t)1 << B)) return -2;
    }
    return 0;
}

/* Block c's levels of fft_inverse below B.  With g, f and g are the two factors of a product,
 * both transformed above the blocks alone (fft_forward_above): first both blocks' forward levels
 * and their pointwise product into f's block, which thus is read and written once where it
 * would be three times. */
static inline void fft_inverse_block_of(uint64_t* f, uint64_t* g, int B, size_t c) {
    if (g != NULL) {
        fft_forward_block(f, B, c);
        fft_forward_block(g, B, c);
        fft_pointwise(f + (c << B), g + (c << B), (size_t)1 << B);
    }
    fft_inverse_block(f, B, c);
}

/* The inverse of fft_forward; with g (not NULL), of the product of f and g whose forward
 * transforms stopped above the blocks (fft_inverse_block_of). */
static int fft_inverse(uint64_t* f, uint64_t* g, int K, fft_poll_fn poll, void* ps) {
    int B = K < FFT_BLOCK_LOG ? K : FFT_BLOCK_LOG;
    for (size_t c = 0; c < ((size_t)1 << (K - B)); c++) {
        fft_inverse_block_of(f, g, B, c);
        if (fft_poll_work(poll, ps, (size_t)1 << B)) return -2;
    }
    for (int k = B; k < K;) {
        int done = fft_pass(f, K, k, k + 1 < K, 1, poll, ps);
        if (done < 0) return -2;
        k += done;
    }
    return 0;
}

/* --- The product ----------------------------------------------------------- */

/* Transforms of FFT_MAP_BYTES and more are mappings of their own (fft_alloc; glibc maps such
 * blocks afresh anyway: 32 MiB is its highest mmap threshold), whose pages come from the kernel
 * zeroed.  A page before the transform holds a head: a magic word tied to the address and a
 * fresh flag, set while no word has been written.  The operands' writers skip zeroing the
 * tail of a fresh transform (the kernel did it; memset would fault the pages in only to zero
 * them again) and clear the flag; every other buffer (smaller, taken from the arena, or not
 * from fft_alloc at all: the magic does not match) is zeroed as before. */
#define FFT_MAP_BYTES ((size_t)1 << 25)
#define FFT_MAP_HEAD ((size_t)4096)
#define FFT_FRESH_MAGIC ((uint64_t)0x9E3779B97F4A7C15u)

/* Whether f, a transform of 2^K words, is fresh from the kernel (all zero, never written). */
static int fft_is_fresh(const uint64_t* f, int K) {
#if defined(__linux__) && defined(MAP_ANONYMOUS)
    if (((size_t)1 << K) * sizeof(uint64_t) >= FFT_MAP_BYTES)
        return f[-2] == (FFT_FRESH_MAGIC ^ (uint64_t)(uintptr_t)f) && f[-1] == 1;
#endif
    (void)f;
    (void)K;
    return 0;
}

/* Marks f (2^K words) as written: no longer known to be zero. */
static void fft_written(uint64_t* f, int K) {
    if (fft_is_fresh(f, K)) f[-1] = 0;
}

/* The loops over the words of a transform's array below (packing, zeroing, splitting, copying,
 * summing) run fft_pass_slice words at a time and check in with the poll between slices, as the
 * passes of the transform do: at 10^9 bits and up each touches gigabytes of fresh pages.  They
 * return -2 when the poll says stop, else 0; a team's member gives fft_team_poll and itself. */
/* f[lo : hi) = 0, where `fresh` (fft_is_fresh before any write) does not say it is zero already. */
static int fft_zero_unless_fresh(uint64_t* f, size_t lo, size_t hi, int fresh, fft_poll_fn poll, void* ps) {
    if (fresh) return 0;
    for (size_t s = lo, e; s < hi; s = e) {
        e = fft_slice_end(s, hi);
        memset(f + s, 0, (e - s) * sizeof(uint64_t));
        if (fft_poll_work(poll, ps, e - s)) return -2;
    }
    return 0;
}

/* The transform size 2^K for a product of na- and nb-word operands. */
static int fft_log_size(size_t na, size_t nb) {
    size_t pieces = 2 * (na + nb) - 1;
    int K = 0;
    while (((size_t)1 << K) < pieces) K++;
    return K;
}

/* Words [lo, hi) of a as 32-bit pieces: dst[2 i] the low half of a[i], dst[2 i + 1] the high. */
static int fft_pack(uint64_t* dst, const uint64_t* a, size_t lo, size_t hi, fft_poll_fn poll, void* ps) {
    for (size_t s = lo, e; s < hi; s = e) {
        e = fft_slice_end(s, hi);
        for (size_t i = s; i < e; i++) {
            dst[2 * i] = a[i] & 0xFFFFFFFFu;
            dst[2 * i + 1] = a[i] >> 32;
        }
        if (fft_poll_work(poll, ps, e - s)) return -2;
    }
    return 0;
}

/* Words [lo, hi) of a (na words) and b (nb) as 32-bit pieces in one array, a's in the low and
 * b's in the high halves of fa's words (zero past either's end). */
static int fft_pack_pair(uint64_t* fa, const uint64_t* a, size_t na, const uint64_t* b, size_t nb, size_t lo,
                         size_t hi, fft_poll_fn poll, void* ps) {
    const uint64_t low = 0xFFFFFFFFu;
    for (size_t s = lo, e; s < hi; s = e) {
        e = fft_slice_end(s, hi);
        for (size_t i = s; i < e; i++) {
            uint64_t x = i < na ? a[i] : 0, y = i < nb ? b[i] : 0;
            fa[2 * i] = (x & low) | (y << 32);
            fa[2 * i + 1] = (x >> 32) | (y & ~low);
        }
        if (fft_poll_work(poll, ps, e - s)) return -2;
    }
    return 0;
}

/* Elements [lo, hi) of fft_pack_pair's array split: b's halves to fb, a's stay in fa. */
static int fft_split_pair(uint64_t* fa, uint64_t* fb, size_t lo, size_t hi, fft_poll_fn poll, void* ps) {
    for (size_t s = lo, e; s < hi; s = e) {
        e = fft_slice_end(s, hi);
        for (size_t j = s; j < e; j++) {
            fb[j] = fa[j] >> 32;
            fa[j] &= 0xFFFFFFFFu;
        }
        if (fft_poll_work(poll, ps, e - s)) return -2;
    }
    return 0;
}

/* Words [lo, hi) of the product: out[w] ^= the sum of the pieces (32 bits apart) that reach it,
 * from the first `pieces` elements of f. */
static int fft_sum_pieces(uint64_t* out, const uint64_t* f, size_t pieces, size_t lo, size_t hi, fft_poll_fn poll,
                          void* ps) {
    for (size_t s = lo, e; s < hi; s = e) {
        e = fft_slice_end(s, hi);
        for (size_t w = s; w < e; w++) {
            uint64_t x = 0;
            if (2 * w < pieces) x ^= f[2 * w];
            if (2 * w + 1 < pieces) x ^= f[2 * w + 1] << 32;
            if (w > 0 && 2 * w - 1 < pieces) x ^= f[2 * w - 1] >> 32;
            out[w] ^= x;
        }
        if (fft_poll_work(poll, ps, e - s)) return -2;
    }
    return 0;
}

/* dst[0 : 2^K) = the values at w_0 .. w_(2^K - 1) of a[0 : na) cut into 32-bit pieces. */
static int fft_operand(uint64_t* dst, const uint64_t* a, size_t na, int K, fft_poll_fn poll, void* ps) {
    int fresh = fft_is_fresh(dst, K);
    fft_written(dst, K);
    if (fft_pack(dst, a, 0, na, poll, ps) || fft_zero_unless_fresh(dst, 2 * na, (size_t)1 << K, fresh, poll, ps))
        return -2;
    if (fft_to_novel(dst, K, 1, 2 * na, NULL, poll, ps)) return -2;
    return fft_forward(dst, K, 2 * na, poll, ps);
}

/* fa, fb = fft_operand of a and b (2^K words each) as far as the cached blocks (fft_forward_above:
 * the product's inverse does the blocks, fft_inverse(fa, fb, ...)), with one basis change for
 * both: a piece has 32 bits and the change acts on every bit of the elements alike (it is XORs
 * of whole elements), so a's pieces ride in the low and b's in the high halves of fa's words
 * through fft_to_novel, which thus reads and writes half the words of two calls. */
static int fft_operand_pair(uint64_t* fa, uint64_t* fb, const uint64_t* a, size_t na, const uint64_t* b,
                            size_t nb, int K, fft_poll_fn poll, void* ps) {
    size_t n = (size_t)1 << K, m = na > nb ? na : nb;
    int fresh_a = fft_is_fresh(fa, K), fresh_b = fft_is_fresh(fb, K);
    fft_written(fa, K);
    fft_written(fb, K);
    if (fft_pack_pair(fa, a, na, b, nb, 0, m, poll, ps) || fft_zero_unless_fresh(fa, 2 * m, n, fresh_a, poll, ps))
        return -2;
    if (fft_to_novel(fa, K, 1, 2 * m, NULL, poll, ps)) return -2;
    /* the change is triangular: a's elements from 2 na on and b's from 2 nb on stay zero */
    if (fft_split_pair(fa, fb, 0, 2 * m, poll, ps) || fft_zero_unless_fresh(fb, 2 * m, n, fresh_b, poll, ps))
        return -2;
    if (fft_forward_above(fa, K, 2 * na, poll, ps)) return -2;
    return fft_forward_above(fb, K, 2 * nb, poll, ps);
}

/* out[0 : nout) ^= the polynomial whose coefficients in the basis X f holds (destroyed), pieces
 * overlapped by 32 bits. */
static int fft_coefficients(uint64_t* out, size_t nout, uint64_t* f, int K, fft_poll_fn poll, void* ps) {
    size_t n = (size_t)1 << K, pieces = 2 * nout < n ? 2 * nout : n;
    if (fft_from_novel(f, K, 1, NULL, poll, ps)) return -2;
    return fft_sum_pieces(out, f, pieces, 0, nout, poll, ps);
}

/* out[0 : nout) ^= the polynomial whose values f holds (destroyed). */
static int fft_result(uint64_t* out, size_t nout, uint64_t* f, int K, fft_poll_fn poll, void* ps) {
    int st = fft_inverse(f, NULL, K, poll, ps);
    return st != 0 ? st : fft_coefficients(out, nout, f, K, poll, ps);
}

/* --- Every core: the product spread over a crew of threads (fftcrew.h) -----------
 *
 * A team is the members of a crew that share one piece of work: member tid of n takes
 * its range of each step (fft_share), and the team meets at its barrier after each step
 * whose output another member reads.  Splitting changes which thread computes a value,
 * never the value: the product has the same bits at every thread count.
 *   - the forward transform: each level whose blocks are larger than the cache by ranges
 *     of its butterflies, a barrier after each; then the cached blocks, whole, by ranges;
 *     the inverse: the same in the opposite order;
 *   - the basis change at the top: each run of fft_expand's XORs by ranges (two runs and
 *     two barriers per level), the 2^(K-L) small changes by ranges of m, and the change on
 *     the columns by slices of the words of a row (fft_slice); its inverse backwards;
 *   - the packing of pieces and the pointwise products by ranges; the sum of the pieces by
 *     runs the members claim (fft_claim);
 *   - one product's forward transforms stop above the blocks, which its inverse's subtrees
 *     finish with the pointwise product (fft_inverse_block_of), where the team cuts the
 *     array at whole blocks.
 * With an even number of threads two operands go to the two halves of the crew, each
 * transformed by its half alone (two threads: one operand each, no barrier inside the
 * transforms); from 2^FFT_SHARED_CHANGE_LOG elements they first share one basis change
 * (fft_operand_pair's packing) by the whole crew, below that each half changes its own.
 * Only member 0, the calling thread, calls the caller's poll (it may take the GIL); the
 * others read the crew's stop flag, which member 0 sets when the poll says stop, and
 * every member leaves at the next barrier.  Nothing is allocated by the members.
 */
typedef struct {
    fft_crew* crew;
    fft_barrier* bar;        /* the team's meeting point */
    int tid, n;              /* this member, the team's size */
    int caller;              /* the calling thread: the one member that runs `poll` */
    fft_poll_fn poll;        /* the caller's poll (or NULL) and its state */
    void* ps;
} fft_team;

/* The poll of the serial code run by a member: nonzero once the crew stops; on the calling
 * thread the caller's poll first, which stops the crew when it says stop. */
static int fft_team_poll(void* arg) {
    fft_team* t = (fft_team*)arg;
    if (fft_atomic_get(&t->crew->stop)) return 1;
    if (t->caller && t->poll != NULL && t->poll(t->ps) != 0) {
        fft_atomic_set(&t->crew->stop, 1);
        return 1;
    }
    return 0;
}

/* Whether to stop now: with `look` (a transform large enough to poll) the caller's poll on the
 * calling thread, else the crew's flag alone. */
static inline int fft_team_stopped(fft_team* t, int look) {
    return look ? fft_team_poll(t) : fft_atomic_get(&t->crew->stop) != 0;
}

/* Meet the team (after a look, as in fft_team_stopped): -2 when the crew stops, the same
 * answer on every member. */
static int fft_team_sync(fft_team* t, int look) {
    if (look) fft_team_poll(t);
    /* the calling thread keeps looking while it waits (fft_barrier_wait_looking) */
    int (*waiting)(void*) = t->caller && t->poll != NULL ? fft_team_poll : NULL;
    return fft_barrier_wait_looking(t->bar, waiting, t) ? -2 : 0;
}

/* This member's share [lo, hi) of n items, cut at multiples of `grain`. */
static inline void fft_share(size_t n, const fft_team* t, size_t grain, size_t* lo, size_t* hi) {
    size_t units = (n + grain - 1) / grain;
    size_t a = units * (size_t)t->tid / (size_t)t->n * grain, b = units * (size_t)(t->tid + 1) / (size_t)t->n * grain;
    *lo = a < n ? a : n;
    *hi = b < n ? b : n;
}

/* How many levels at the top a team splits by ranges of butterflies (a barrier after each):
 * below them the array is 2^S subtrees that members take whole, none shared, so no member
 * waits for another there (2 threads: the top level alone).  2^S is a multiple of the team's
 * size or at least four times it, and a subtree has at least 8 elements. */
static int fft_team_depth(int K, const fft_team* t) {
    int S = 0;
    while (((size_t)1 << S) < (size_t)t->n || (((size_t)1 << S) % (size_t)t->n && ((size_t)1 << S) < 4 * (size_t)t->n))
        S++;
    return S < K - 3 ? S : (K > 3 ? K - 3 : 0);
}

/* Level k of the forward transform (or, with `inverse`, its inverse) on subtree u of 2^(K-S)
 * elements, and where `two` allows and the wide loops can, the next level in the same pass
 * (k - 1 forward, k + 1 inverse); returns the levels done, or -2 when the crew stops (the
 * member looks between slices: a subtree is half the transform with two threads).  While every
 * block's upper half is zero (nz <= 2^k, forward only), copies. */
static int fft_subtree_level(uint64_t* f, int K, int S, size_t u, int k, size_t nz, int two, const int inverse,
                             fft_team* t) {
    size_t h = (size_t)1 << k, nblocks = (size_t)1 << (K - S - 1 - k);
    uint64_t* g = f + (u << (K - S));
    if (!inverse && nz <= h) {
        for (size_t b = 0; b < nblocks; b++)
            for (size_t s = 0, e; s < nz; s = e) {
                e = fft_slice_end(s, nz);
                memcpy(g + 2 * h * b + h + s, g + 2 * h * b + s, (e - s) * sizeof(uint64_t));
                if (fft_poll_work(fft_team_poll, t, e - s)) return -2;
            }
        return 1;
    }
    if (two) {
        int top = inverse ? k + 1 : k;
        int st = fft_pair_pass(g, K - S, top, u << (K - S - 1 - top), inverse, fft_team_poll, t);
        if (st) return st < 0 ? st : 2;
    }
    return fft_level_range_looking(f, k, u << (K - S - 1), (u + 1) << (K - S - 1), inverse, fft_team_poll, t) ? -2 : 1;
}

/* fft_forward by a team: the top S levels by ranges, then each member its subtrees; without
 * `blocks`, fft_forward_above. */
static int fft_forward_team(uint64_t* f, int K, size_t nz, fft_team* t, int blocks) {
    if (t->n == 1) return blocks ? fft_forward(f, K, nz, fft_team_poll, t) : fft_forward_above(f, K, nz, fft_team_poll, t);
    int S = fft_team_depth(K, t), B = K - S < FFT_BLOCK_LOG ? K - S : FFT_BLOCK_LOG, k;
    int look = ((size_t)1 << K) >= FFT_POLL_WORDS;
    size_t lo, hi;
    for (k = K - 1; k >= K - S; k--) {
        size_t h = (size_t)1 << k;
        if (nz <= h) {
            fft_share(nz << (K - 1 - k), t, 64, &lo, &hi);   /* nz words copied in each block */
            while (lo < hi) {   /* a stop shows at the sync */
                size_t b = lo / nz, i = lo % nz, end = (b + 1) * nz < hi ? (b + 1) * nz : hi;
                if (end - lo > fft_pass_slice) end = lo + fft_pass_slice;
                memcpy(f + 2 * h * b + h + i, f + 2 * h * b + i, (end - lo) * sizeof(uint64_t));
                if (fft_poll_work(fft_team_poll, t, end - lo)) break;
                lo = end;
            }
        } else {
            fft_share((size_t)1 << (K - 1), t, 64, &lo, &hi);
            fft_level_range_looking(f, k, lo, hi, 0, fft_team_poll, t);   /* a stop shows at the sync */
        }
        if (fft_team_sync(t, look)) return -2;
    }
    fft_share((size_t)1 << S, t, 1, &lo, &hi);
    for (size_t u = lo; u < hi; u++) {
        size_t c0 = u << (K - S - B), c1 = (u + 1) << (K - S - B);
        int stop = 0;
        for (k = K - S - 1; k >= B && !stop;) {
            int done = fft_subtree_level(f, K, S, u, k, nz, k > B, 0, t);
            stop = done < 0 || fft_team_stopped(t, look);
            k -= done;
        }
        for (size_t c = c0; c < c1 && blocks && !stop; c++) {
            fft_forward_block(f, B, c);
            stop = fft_poll_work(fft_team_poll, t, (size_t)1 << B) != 0;
        }
        if (stop || fft_team_stopped(t, look)) break;
    }
    return fft_team_sync(t, look);
}

/* fft_inverse (with g: of the product of f and g) by a team: each member its subtrees, then the
 * top S levels by ranges. */
static int fft_inverse_team(uint64_t* f, uint64_t* g, int K, fft_team* t) {
    if (t->n == 1) return fft_inverse(f, g, K, fft_team_poll, t);
    int S = fft_team_depth(K, t), B = K - S < FFT_BLOCK_LOG ? K - S : FFT_BLOCK_LOG, k = B, stop = 0;
    int look = ((size_t)1 << K) >= FFT_POLL_WORDS;
    size_t lo, hi;
    fft_share((size_t)1 << S, t, 1, &lo, &hi);
    for (size_t u = lo; u < hi && !stop; u++) {
        size_t c0 = u << (K - S - B), c1 = (u + 1) << (K - S - B);
        for (size_t c = c0; c < c1 && !stop; c++) {
            fft_inverse_block_of(f, g, B, c);
            stop = fft_poll_work(fft_team_poll, t, (size_t)1 << B) != 0;
        }
        for (k = B; k < K - S && !stop;) {
            int done = fft_subtree_level(f, K, S, u, k, 0, k + 1 < K - S, 1, t);
            stop = done < 0 || fft_team_stopped(t, look);
            k += done;
        }
    }
    if (fft_team_sync(t, look)) return -2;
    for (k = K - S; k < K; k++) {
        fft_share((size_t)1 << (K - 1), t, 64, &lo, &hi);
        fft_level_range_looking(f, k, lo, hi, 1, fft_team_poll, t);   /* a stop shows at the sync */
        if (fft_team_sync(t, look)) return -2;
    }
    return 0;
}

/* The XORs g[i - d] += g[i], i in [s, e), of every block b < nblocks of level k (blocks of 2^(k+1)
 * one-word elements), by a team: one run of fft_expand or fft_unexpand. */
static int fft_xor_run_team(uint64_t* f, int k, size_t nblocks, size_t s, size_t e, size_t d, fft_team* t,
                            int look) {
    size_t len = e - s, lo, hi;
    fft_share(nblocks * len, t, 64, &lo, &hi);
    while (lo < hi) {   /* a stop shows at the sync */
        size_t b = lo / len, i = lo % len, end = (b + 1) * len < hi ? (b + 1) * len : hi;
        uint64_t* g = f + ((size_t)2 << k) * b;
        if (end - lo > fft_pass_slice) end = lo + fft_pass_slice;
        fft_xor(g + s - d + i, g + s + i, end - lo);
        if (fft_poll_work(fft_team_poll, t, end - lo)) break;
        lo = end;
    }
    return fft_team_sync(t, look);
}

/* fft_to_novel on one-word elements by a team. */
static int fft_to_novel_team(uint64_t* f, int K, size_t nz, fft_team* t) {
    if (t->n == 1 || K <= FFT_SMALL_LOG) {
        int st = t->tid == 0 ? fft_to_novel(f, K, 1, nz, NULL, fft_team_poll, t) : 0;
        (void)st;
        return t->n == 1 ? st : fft_team_sync(t, 0);
    }
    int L = fft_split_log(K), look = ((size_t)1 << K) >= FFT_POLL_WORDS;
    size_t side = (size_t)1 << L, lo, hi;
    for (int k = K - 1; k >= L; k--) {           /* fft_expand */
        size_t h = (size_t)1 << k, d = h - ((size_t)1 << (k - L)), nblocks = (size_t)1 << (K - 1 - k);
        size_t active = nz > h ? (nz - h + 2 * h - 1) / (2 * h) : 0;   /* blocks with 2 h b + h < nz */
        size_t e = 2 * h;
        if (active > nblocks) active = nblocks;
        while (e > h) {
            size_t s = e - h > d ? e - d : h;
            if (fft_xor_run_team(f, k, active, s, e, d, t, look)) return -2;
            e = s;
        }
    }
    size_t nm = (nz + side - 1) / side;
    fft_share(nm, t, 1, &lo, &hi);
    for (size_t m = lo; m < hi; m++)
        if (fft_to_novel(f + m * side, L, 1, nz - m * side < side ? nz - m * side : side, NULL, fft_team_poll, t))
            break;
    if (fft_team_sync(t, look)) return -2;
    fft_share(side, t, 8, &lo, &hi);
    fft_columns(f, K - L, side, nm, lo, hi, 0, fft_team_poll, t);
    return fft_team_sync(t, look);
}

/* fft_from_novel on one-word elements by a team: the columns by slices, then each member the
 * small changes and the lower levels of fft_unexpand on its subtrees, then the top levels by ranges. */
static int fft_from_novel_team(uint64_t* f, int K, fft_team* t) {
    if (t->n == 1 || K <= FFT_SMALL_LOG) {
        int st = t->tid == 0 ? fft_from_novel(f, K, 1, NULL, fft_team_poll, t) : 0;
        (void)st;
        return t->n == 1 ? st : fft_team_sync(t, 0);
    }
    int L = fft_split_log(K), look = ((size_t)1 << K) >= FFT_POLL_WORDS, S = fft_team_depth(K, t), k;
    size_t side = (size_t)1 << L, lo, hi;
    if (S > K - L) S = K - L;
    fft_share(side, t, 8, &lo, &hi);
    fft_columns(f, K - L, side, 0, lo, hi, 1, fft_team_poll, t);
    if (fft_team_sync(t, look)) return -2;
    fft_share((size_t)1 << S, t, 1, &lo, &hi);
    for (size_t u = lo; u < hi; u++) {
        size_t m0 = u << (K - S - L), m1 = (u + 1) << (K - S - L);
        int stop = 0;
        for (size_t m = m0; m < m1 && !stop; m++) stop = fft_from_novel(f + m * side, L, 1, NULL, fft_team_poll, t) != 0;
        /* fft_unexpand's levels inside the subtree are its levels on 2^(K - S) elements (two to a pass) */
        if (stop || fft_unexpand(f + (u << (K - S)), K - S, L, 1, NULL, fft_team_poll, t)) break;
    }
    if (fft_team_sync(t, look)) return -2;
    for (k = K - S; k < K; k++) {                /* fft_unexpand's top levels */
        size_t h = (size_t)1 << k, d = h - ((size_t)1 << (k - L)), nblocks = (size_t)1 << (K - 1 - k);
        for (size_t s = h, e; s < 2 * h; s = e) {
            e = 2 * h - s > d ? s + d : 2 * h;
            if (fft_xor_run_team(f, k, nblocks, s, e, d, t, look)) return -2;
        }
    }
    return 0;
}

/* fft_operand by a team (without `blocks`, its forward transform fft_forward_above). */
static int fft_operand_team(uint64_t* dst, const uint64_t* a, size_t na, int K, fft_team* t, int blocks) {
    size_t lo, hi;
    int fresh = fft_is_fresh(dst, K); /* every member reads the flag before the sync; one clears it after */
    fft_share(na, t, 64, &lo, &hi);
    fft_pack(dst, a, lo, hi, fft_team_poll, t);    /* a stop shows at the sync */
    fft_share(((size_t)1 << K) - 2 * na, t, 64, &lo, &hi);
    fft_zero_unless_fresh(dst, 2 * na + lo, 2 * na + hi, fresh, fft_team_poll, t);
    int stop = fft_team_sync(t, 0);
    if (t->tid == 0) fft_written(dst, K);
    if (stop) return -2;
    if (fft_to_novel_team(dst, K, 2 * na, t)) return -2;
    return fft_forward_team(dst, K, 2 * na, t, blocks);
}

/* fft_operand_pair by a crew of an even size: the packing and the one basis change for both
 * operands by the whole crew, then each half the forward transform of its own (the lower half
 * fa's, the upper half fb's), with or without the blocks. */
static int fft_operand_pair_team(uint64_t* fa, uint64_t* fb, const uint64_t* a, size_t na, const uint64_t* b,
                                 size_t nb, int K, fft_team* all, fft_team* half, int upper, int blocks) {
    size_t n = (size_t)1 << K, m = na > nb ? na : nb, lo, hi;
    int fresh_a = fft_is_fresh(fa, K), fresh_b = fft_is_fresh(fb, K); /* read by all before the sync */
    fft_share(m, all, 64, &lo, &hi);
    fft_pack_pair(fa, a, na, b, nb, lo, hi, fft_team_poll, all);    /* a stop shows at the sync */
    fft_share(n - 2 * m, all, 64, &lo, &hi);
    fft_zero_unless_fresh(fa, 2 * m + lo, 2 * m + hi, fresh_a, fft_team_poll, all);
    fft_zero_unless_fresh(fb, 2 * m + lo, 2 * m + hi, fresh_b, fft_team_poll, all);
    int stop = fft_team_sync(all, 0);
    if (all->tid == 0) {
        fft_written(fa, K);
        fft_written(fb, K);
    }
    if (stop || fft_to_novel_team(fa, K, 2 * m, all)) return -2;
    fft_share(2 * m, all, 64, &lo, &hi);
    fft_split_pair(fa, fb, lo, hi, fft_team_poll, all);
    if (fft_team_sync(all, 0)) return -2;
    return upper ? fft_forward_team(fb, K, 2 * nb, half, blocks) : fft_forward_team(fa, K, 2 * na, half, blocks);
}

/* fft_coefficients by a team: the members claim the pieces' sums in runs of FFT_SUM_RUN output
 * words (the first touch of out's pages costs some cores far more than others). */
#define FFT_SUM_RUN ((size_t)1 << 15)
static int fft_coefficients_team(uint64_t* out, size_t nout, uint64_t* f, int K, fft_team* t) {
    size_t n = (size_t)1 << K, pieces = 2 * nout < n ? 2 * nout : n, runs = (nout + FFT_SUM_RUN - 1) / FFT_SUM_RUN, r;
    if (t->tid == 0) fft_atomic_set(&t->crew->claimed, 0);
    if (fft_from_novel_team(f, K, t)) return -2;   /* ends at a meeting: no claim before it */
    while ((r = fft_claim(t->crew, runs)) < runs) {
        size_t lo = r * FFT_SUM_RUN, hi = nout - lo < FFT_SUM_RUN ? nout : lo + FFT_SUM_RUN;
        if (fft_sum_pieces(out, f, pieces, lo, hi, fft_team_poll, t)) break;
    }
    return fft_team_sync(t, 0);
}

/* fft_result by a team. */
static int fft_result_team(uint64_t* out, size_t nout, uint64_t* f, int K, fft_team* t) {
    return fft_inverse_team(f, NULL, K, t) ? -2 : fft_coefficients_team(out, nout, f, K, t);
}

/* The threads a product of this thread runs on (set by the caller around a call: fft_set_threads). */
static FFT_TLS int fft_threads_here = 1;

/* Set the threads of this thread's products (at least 1); returns the previous setting. */
static int fft_set_threads(int nthreads) {
    int old = fft_threads_here;
    fft_threads_here = nthreads < 1 ? 1 : (nthreads > FFT_MAX_THREADS ? FFT_MAX_THREADS : nthreads);
    return old;
}

static int fft_get_threads(void) { return fft_threads_here; }

/* The transforms of n operands (dst[i] from src[i] of len[i] > 0 words) by a crew: with an even
 * number of members two operands at a time, their basis change by the whole crew and their
 * transforms by its two halves, one each (below 2^FFT_SHARED_CHANGE_LOG elements, where the
 * crew's barriers cost more than the work they share, each half changes its own operand), else
 * (and for an odd last one) the whole crew each in turn.  Every member calls it alike; -2 when
 * the crew stops. */
#define FFT_SHARED_CHANGE_LOG 18
typedef struct {
    fft_barrier all, half[2];
    fft_poll_fn poll;
    void* ps;
} fft_crew_meeting;

static void fft_meeting_init(fft_crew_meeting* m, fft_crew* crew) {
    fft_barrier_init(&m->all, crew, crew->nthreads);
    fft_barrier_init(&m->half[0], crew, crew->nthreads / 2);
    fft_barrier_init(&m->half[1], crew, crew->nthreads - crew->nthreads / 2);
}

static fft_team fft_whole_team(fft_crew* crew, fft_crew_meeting* m, int tid) {
    fft_team t = {crew, &m->all, tid, crew->nthreads, tid == 0, m->poll, m->ps};
    return t;
}

static int fft_operands_team(uint64_t* const* dst, const uint64_t* const* src, const size_t* len, int n, int K,
                             fft_crew* crew, fft_crew_meeting* m, int tid, int blocks) {
    int T = crew->nthreads, i = 0;
    fft_team all = fft_whole_team(crew, m, tid);
    if (T % 2 == 0) {
        int upper = tid >= T / 2;
        fft_team half = {crew, &m->half[upper], tid - upper * (T / 2), T / 2, tid == 0, m->poll, m->ps};
        for (; i + 1 < n; i += 2)
            if (K >= FFT_SHARED_CHANGE_LOG)
                fft_operand_pair_team(dst[i], dst[i + 1], src[i], len[i], src[i + 1], len[i + 1], K, &all, &half, upper,
                                      blocks);
            else
                fft_operand_team(dst[i + upper], src[i + upper], len[i + upper], K, &half, blocks);
    }
    for (; i < n; i++) fft_operand_team(dst[i], src[i], len[i], K, &all, blocks);
    return fft_team_sync(&all, 0);
}

/* One product on a crew: out ^= a b through fa and fb (2^K words each); with piece > 0, b in
 * pieces of that many words (fft_pieces_member). */
typedef struct {
    fft_crew_meeting meet;
    uint64_t* out;
    const uint64_t* a;
    const uint64_t* b;
    size_t na, nb, piece;
    uint64_t* fa;
    uint64_t* fb;
    int K;
} fft_mul_job;

static void fft_mul_prepare(fft_crew* crew) { fft_meeting_init(&((fft_mul_job*)crew->job)->meet, crew); }

static void fft_give(uint64_t* f, int K);

static int fft_mul_member(fft_crew* crew, int tid) {
    fft_mul_job* job = (fft_mul_job*)crew->job;
    uint64_t* dst[2] = {job->fa, job->fb};
    const uint64_t* src[2] = {job->a, job->b};
    size_t len[2] = {job->na, job->nb}, lo, hi;
    fft_team all = fft_whole_team(crew, &job->meet, tid);
    /* the forward transforms leave their blocks to the inverse where every team involved cuts the
     * array at blocks of 2^FFT_BLOCK_LOG elements (the crew's subtrees are no smaller) */
    int fuse = job->K - fft_team_depth(job->K, &all) >= FFT_BLOCK_LOG;
    if (fft_operands_team(dst, src, len, 2, job->K, crew, &job->meet, tid, !fuse)) return -2;
    if (!fuse) {
        fft_share((size_t)1 << job->K, &all, 64, &lo, &hi);
        fft_pointwise_looking(job->fa + lo, NULL, job->fb + lo, hi - lo, FFT_TIMES, fft_team_poll, &all);
        if (fft_team_sync(&all, 0)) return -2;   /* a stop above shows here */
    }
    if (fft_inverse_team(job->fa, fuse ? job->fb : NULL, job->K, &all)) return -2;
    if (tid == 0) { /* no member reads fb past the inverse's last meeting: it goes back before the
                     * sums fault out's pages in (fft_mul_run does the same alone) */
        fft_give(job->fb, job->K);
        job->fb = NULL;
    }
    return fft_coefficients_team(job->out, job->na + job->nb, job->fa, job->K, &all);
}

/* fft_matmul2's work on a crew (its buffers allocated by the caller). */
typedef struct {
    fft_crew_meeting meet;
    uint64_t* const* out;
    const size_t* nout;
    const uint64_t* const* s;
    const size_t* ns;
    const uint64_t* const* t;
    const size_t* nt;
    int rows, cols, K;
    uint64_t* fs[4];
    uint64_t* ft[2];
    uint64_t* acc;
} fft_matmul_job;

static void fft_matmul_prepare(fft_crew* crew) { fft_meeting_init(&((fft_matmul_job*)crew->job)->meet, crew); }

static int fft_matmul_member(fft_crew* crew, int tid) {
    fft_matmul_job* job = (fft_matmul_job*)crew->job;
    fft_team all = fft_whole_team(crew, &job->meet, tid);
    uint64_t* dst[4];
    const uint64_t* src[4];
    size_t len[4], n = (size_t)1 << job->K, lo, hi;
    int nops = 0;
    for (int i = 0; i < 2 * job->rows; i++)
        if (job->ns[i]) {
            dst[nops] = job->fs[i];
            src[nops] = job->s[i];
            len[nops++] = job->ns[i];
        }
    if (fft_operands_team(dst, src, len, nops, job->K, crew, &job->meet, tid, 1)) return -2;
    fft_share(n, &all, 64, &lo, &hi);
    for (int c = 0; c < job->cols; c++) {
        nops = 0;
        for (int k = 0; k < 2; k++)
            if (job->nt[k * job->cols + c]) {
                dst[nops] = job->ft[k];
                src[nops] = job->t[k * job->cols + c];
                len[nops++] = job->nt[k * job->cols + c];
            }
        if (fft_operands_team(dst, src, len, nops, job->K, crew, &job->meet, tid, 1)) return -2;
        for (int r = 0; r < job->rows; r++) {
            int any = 0;
            for (int k = 0; k < 2; k++) {
                if (job->ns[2 * r + k] == 0 || job->nt[k * job->cols + c] == 0) continue;
                /* a stop shows at the sync below */
                fft_pointwise_looking(job->acc + lo, job->fs[2 * r + k] + lo, job->ft[k] + lo, hi - lo,
                                      any ? FFT_PLUS_TIMES : FFT_TIMES_INTO, fft_team_poll, &all);
                any = 1;
            }
            if (!any) continue;
            if (fft_team_sync(&all, 0)) return -2;
            if (fft_result_team(job->out[r * job->cols + c], job->nout[r * job->cols + c], job->acc, job->K, &all))
                return -2;
        }
    }
    return 0;
}

/* fft_matmul2's work on a crew for one column (cols = 1: a 2x2 or 1x2 matrix times a vector) in
 * four transforms instead of seven: ft[0], ft[1] hold the vector's, and each row in turn
 * transforms its two entries into fs[0] and fs[1], multiplies them in place (fs[0] the sum) and
 * sums fs[0]'s pieces into its output.  The same transforms, products and sums as
 * fft_matmul_member, in fewer fresh pages. */
static int fft_matvec_member(fft_crew* crew, int tid) {
    fft_matmul_job* job = (fft_matmul_job*)crew->job;
    fft_team all = fft_whole_team(crew, &job->meet, tid);
    uint64_t* dst[2];
    const uint64_t* src[2];
    size_t len[2], n = (size_t)1 << job->K, lo, hi;
    int nops = 0, which[2];
    for (int k = 0; k < 2; k++)
        if (job->nt[k]) {
            dst[nops] = job->ft[k];
            src[nops] = job->t[k];
            len[nops++] = job->nt[k];
        }
    if (fft_operands_team(dst, src, len, nops, job->K, crew, &job->meet, tid, 1)) return -2;
    fft_share(n, &all, 64, &lo, &hi);
    for (int r = 0; r < job->rows; r++) {
        nops = 0;
        for (int k = 0; k < 2; k++)
            if (job->ns[2 * r + k] && job->nt[k]) {
                dst[nops] = job->fs[nops];
                src[nops] = job->s[2 * r + k];
                len[nops] = job->ns[2 * r + k];
                which[nops++] = k;
            }
        if (nops == 0) continue;
        if (fft_operands_team(dst, src, len, nops, job->K, crew, &job->meet, tid, 1)) return -2;
        /* a stop shows at the sync */
        if (fft_pointwise_looking(job->fs[0] + lo, NULL, job->ft[which[0]] + lo, hi - lo, FFT_TIMES, fft_team_poll, &all)
            == 0 && nops == 2)
            fft_pointwise_looking(job->fs[0] + lo, job->fs[1] + lo, job->ft[which[1]] + lo, hi - lo, FFT_PLUS_TIMES,
                                  fft_team_poll, &all);
        if (fft_team_sync(&all, 0)) return -2;
        if (fft_result_team(job->out[r], job->nout[r], job->fs[0], job->K, &all)) return -2;
    }
    return 0;
}

/* Transforms from this many bytes up sit on 2 MiB pages where Linux allows it (madvise): their
 * passes stride across megabytes, and a fresh transform faults 512 times fewer. */
#define FFT_HUGE_BYTES ((size_t)1 << 21)

/* A transform of 2^K words (fft_free gives it back): from FFT_MAP_BYTES a mapping of its own with
 * its head (fft_is_fresh) in the page before, 2 MiB-aligned; from FFT_HUGE_BYTES 2 MiB-aligned
 * memory; smaller ones from malloc. */
static uint64_t* fft_alloc(int K) {
    size_t bytes = ((size_t)1 << K) * sizeof(uint64_t);
#if defined(__linux__) && defined(MAP_ANONYMOUS)
    if (bytes >= FFT_MAP_BYTES) {
        size_t span = bytes + FFT_HUGE_BYTES; /* room for the head page and the alignment */
        char* base = (char*)mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (base == (char*)MAP_FAILED) return NULL;
        uintptr_t start = ((uintptr_t)base + FFT_MAP_HEAD + FFT_HUGE_BYTES - 1) & ~(uintptr_t)(FFT_HUGE_BYTES - 1);
        char* head = (char*)start - FFT_MAP_HEAD;
        char* end = (char*)start + bytes;
        if (head > base) munmap(base, (size_t)(head - base));
        if (base + span > end) munmap(end, (size_t)(base + span - end));
#if defined(MADV_HUGEPAGE)
        madvise((void*)start, bytes, MADV_HUGEPAGE); /* advice only */
#endif
        uint64_t* f = (uint64_t*)start;
        f[-2] = FFT_FRESH_MAGIC ^ (uint64_t)start;
        f[-1] = 1;
        return f;
    }
#endif
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= FFT_HUGE_BYTES) {
        void* p = NULL;
        if (posix_memalign(&p, FFT_HUGE_BYTES, bytes) != 0) return NULL;
        madvise(p, bytes, MADV_HUGEPAGE); /* advice only: a refusal leaves small pages */
        return (uint64_t*)p;
    }
#endif
    return (uint64_t*)malloc(bytes);
}

/* Gives back a transform of `bytes` bytes from fft_alloc (NULL: nothing). */
static void fft_free_bytes(uint64_t* f, size_t bytes) {
    if (f == NULL) return;
#if defined(__linux__) && defined(MAP_ANONYMOUS)
    if (bytes >= FFT_MAP_BYTES) {
        munmap((char*)f - FFT_MAP_HEAD, bytes + FFT_MAP_HEAD);
        return;
    }
#endif
    free(f);
}

/* Gives back a transform of 2^K words from fft_alloc (NULL: nothing). */
static void fft_free(uint64_t* f, int K) { fft_free_bytes(f, ((size_t)1 << K) * sizeof(uint64_t)); }

/* The scratch arena: transforms of FFT_ARENA_MIN_BYTES and more that a product gives back are kept
 * (FFT_ARENA_SLOTS of them, at most fft_arena_limit bytes in all, and only while the machine's
 * free memory is at least four times what would be held) for the next product of the same
 * size, which then finds its pages mapped instead of faulting and zeroing them afresh (at
 * 2^22-2^23 words a product, 15-20 % of its time; at 2^13-2^15 words, whose transforms glibc
 * maps afresh or trims off its heap each time, 100-500 page faults a product).  Only a size
 * asked for again is kept: a product's transforms are kept once the two products before it had
 * that size too (more than FFT_ARENA_AFTER takes of it in a row), as in a loop of equal
 * products; the polynomial route, whose sizes change from one product to the next, keeps
 * nothing (first_row(10**8) held 64 MiB at its peak when every product kept).  A request of
 * another size first frees what is held, so the arena never adds to a peak made of transforms;
 * fft_arena_release frees all of it, and fft_arena_set_limit(0) turns it off.  Every use overwrites a transform whole
 * (fft_operand, fft_operand_pair and their team versions write or zero all 2^K words), so a
 * kept buffer needs no clearing.  One process-wide arena behind a spin lock held only for a
 * few pointer moves: threads do not each keep their own, and none of it outlives a release. */
#define FFT_ARENA_SLOTS 2
#define FFT_ARENA_MIN_BYTES ((size_t)1 << 17) /* 2^14 words: glibc's first mmap threshold */
static volatile long fft_arena_lock = 0;
static uint64_t* fft_arena_buf[FFT_ARENA_SLOTS];
static size_t fft_arena_bytes[FFT_ARENA_SLOTS];
static size_t fft_arena_limit = (size_t)1 << 29;
static size_t fft_arena_size = 0; /* the bytes of the latest take */
static long fft_arena_takes = 0;  /* takes of that size in a row */
#define FFT_ARENA_AFTER 4

static void fft_arena_enter(void) {
    while (fft_atomic_swap(&fft_arena_lock, 1)) FFT_CPU_RELAX();
}

static void fft_arena_leave(void) { fft_atomic_set(&fft_arena_lock, 0); }

/* Moves what the arena holds into out[0 : FFT_ARENA_SLOTS) (NULL where empty), their bytes into
 * sizes; under the lock. */
static void fft_arena_empty_into(uint64_t** out, size_t* sizes) {
    for (int i = 0; i < FFT_ARENA_SLOTS; i++) {
        out[i] = fft_arena_buf[i];
        sizes[i] = fft_arena_bytes[i];
        fft_arena_buf[i] = NULL;
        fft_arena_bytes[i] = 0;
    }
}

/* Frees every transform the arena holds; returns their bytes. */
static size_t fft_arena_release(void) {
    uint64_t* old[FFT_ARENA_SLOTS];
    size_t held = 0, sizes[FFT_ARENA_SLOTS];
    fft_arena_enter();
    for (int i = 0; i < FFT_ARENA_SLOTS; i++) held += fft_arena_bytes[i];
    fft_arena_empty_into(old, sizes);
    fft_arena_leave();
    for (int i = 0; i < FFT_ARENA_SLOTS; i++) fft_free_bytes(old[i], sizes[i]);
    return held;
}

/* Sets the most bytes the arena may hold between products (0: none, and frees what it holds
 * beyond the new limit); returns the previous limit. */
static size_t fft_arena_set_limit(size_t limit) {
    size_t old = fft_arena_limit, held = 0;
    fft_arena_enter();
    fft_arena_limit = limit;
    for (int i = 0; i < FFT_ARENA_SLOTS; i++) held += fft_arena_bytes[i];
    fft_arena_leave();
    if (held > limit) fft_arena_release();
    return old;
}

static size_t fft_arena_get_limit(void) { return fft_arena_limit; }

/* Whether this thread's products give their transforms to the arena (1, the default) or free them:
 * the polynomial route turns it off for its run, whose peak a kept transform would raise. */
static FFT_TLS int fft_arena_keep_here = 1;

/* Sets whether this thread's products keep their transforms; returns the previous setting. */
static int fft_arena_set_keep(int keep) {
    int old = fft_arena_keep_here;
    fft_arena_keep_here = keep != 0;
    return old;
}

/* A hold: between fft_hold_begin and fft_hold_end (nested: the outermost end counts) this thread's
 * products keep the transforms of 2 MiB and more they give back (FFT_HOLD_SLOTS of them, on this
 * thread alone) for its next product of the same size, and free them when it takes another size
 * (nothing held beside a new transform) or at the end.  For the few steps whose products follow
 * one another at one size with no more allocated between than the product itself needs (a
 * division's quotient and remainder products): the pages are mapped once, and the peak is the
 * one the second product has anyway.  Outside a hold nothing changes. */
#define FFT_HOLD_SLOTS 2
static FFT_TLS int fft_hold_depth = 0;
static FFT_TLS uint64_t* fft_hold_buf[FFT_HOLD_SLOTS];
static FFT_TLS size_t fft_hold_bytes[FFT_HOLD_SLOTS];

/* Frees what this thread holds. */
static void fft_hold_free(void) {
    for (int i = 0; i < FFT_HOLD_SLOTS; i++) {
        fft_free_bytes(fft_hold_buf[i], fft_hold_bytes[i]);
        fft_hold_buf[i] = NULL;
        fft_hold_bytes[i] = 0;
    }
}

static void fft_hold_begin(void) { fft_hold_depth++; }

static void fft_hold_end(void) {
    if (fft_hold_depth > 0 && --fft_hold_depth == 0) fft_hold_free();
}

/* A held transform of `bytes` (NULL: none; then what is held, of other sizes, is freed). */
static uint64_t* fft_hold_take(size_t bytes) {
    for (int i = 0; i < FFT_HOLD_SLOTS; i++)
        if (fft_hold_buf[i] != NULL && fft_hold_bytes[i] == bytes) {
            uint64_t* f = fft_hold_buf[i];
            fft_hold_buf[i] = NULL;
            fft_hold_bytes[i] = 0;
            return f;
        }
    fft_hold_free();
    return NULL;
}

/* Holds f (`bytes`, written) when a hold is open and a slot is free; nonzero if held. */
static int fft_hold_keep(uint64_t* f, size_t bytes) {
    if (fft_hold_depth == 0 || bytes < FFT_HUGE_BYTES) return 0;
    for (int i = 0; i < FFT_HOLD_SLOTS; i++)
        if (fft_hold_buf[i] == NULL) {
            fft_hold_buf[i] = f;
            fft_hold_bytes[i] = bytes;
            return 1;
        }
    return 0;
}

/* A transform of 2^K words: a held one of that size (fft_hold_begin) or a kept one when the arena
 * has it, else fft_alloc. */
static uint64_t* fft_take(int K) {
    size_t bytes = ((size_t)1 << K) * sizeof(uint64_t);
    uint64_t* found = NULL;
    uint64_t* other[FFT_ARENA_SLOTS] = {NULL};
    size_t sizes[FFT_ARENA_SLOTS] = {0};
    if (fft_hold_depth > 0 && bytes >= FFT_HUGE_BYTES && (found = fft_hold_take(bytes)) != NULL) return found;
    if (bytes < FFT_ARENA_MIN_BYTES) return fft_alloc(K);
    fft_arena_enter();
    fft_arena_takes = fft_arena_size == bytes ? fft_arena_takes + 1 : 1;
    fft_arena_size = bytes;
    for (int i = 0; i < FFT_ARENA_SLOTS && found == NULL; i++)
        if (fft_arena_buf[i] != NULL && fft_arena_bytes[i] == bytes) {
            found = fft_arena_buf[i];
            fft_arena_buf[i] = NULL;
            fft_arena_bytes[i] = 0;
        }
    if (found == NULL) fft_arena_empty_into(other, sizes); /* another size: nothing held beside the new */
    fft_arena_leave();
    for (int i = 0; i < FFT_ARENA_SLOTS; i++) fft_free_bytes(other[i], sizes[i]);
    return found != NULL ? found : fft_alloc(K);
}

/* True when the machine's free memory is at least four times bytes (no measure: true). */
static int fft_memory_allows(size_t bytes) {
#if defined(__linux__) && defined(_SC_AVPHYS_PAGES) && defined(_SC_PAGESIZE)
    long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0) return (size_t)pages / 4 >= bytes / (size_t)page;
#endif
    (void)bytes;
    return 1;
}

/* Gives back a transform of 2^K words from fft_take (NULL: nothing): kept when its size is the one
 * asked for more than FFT_ARENA_AFTER times in a row, the arena has a free slot, stays within its
 * limit and memory allows; else freed. */
static void fft_give(uint64_t* f, int K) {
    size_t bytes = ((size_t)1 << K) * sizeof(uint64_t), held = 0;
    int slot = -1;
    if (f == NULL) return;
    fft_written(f, K); /* a kept transform is never taken for a fresh one */
    if (fft_hold_keep(f, bytes)) return;
    if (bytes >= FFT_ARENA_MIN_BYTES && fft_arena_keep_here) {
        fft_arena_enter();
        for (int i = 0; i < FFT_ARENA_SLOTS; i++) {
            held += fft_arena_bytes[i];
            if (fft_arena_buf[i] == NULL && slot < 0) slot = i;
        }
        if (slot >= 0 && held + bytes <= fft_arena_limit && fft_arena_size == bytes &&
            fft_arena_takes > FFT_ARENA_AFTER) {
            fft_arena_leave();
            int allows = fft_memory_allows(held + bytes);
            fft_arena_enter();
            if (allows && fft_arena_buf[slot] == NULL) {
                fft_arena_buf[slot] = f;
                fft_arena_bytes[slot] = bytes;
                f = NULL;
            }
        }
        fft_arena_leave();
    }
    fft_free(f, K);
}

/* fft_mul_job's pieces on a crew: a's transform (fa) made once and used for every piece of b,
 * each piece transformed into fb, multiplied in place and summed into its part of out. */
static int fft_pieces_member(fft_crew* crew, int tid) {
    fft_mul_job* job = (fft_mul_job*)crew->job;
    fft_team all = fft_whole_team(crew, &job->meet, tid);
    uint64_t* dst[1] = {job->fa};
    const uint64_t* src[1] = {job->a};
    size_t len[1] = {job->na}, lo, hi;
    if (fft_operands_team(dst, src, len, 1, job->K, crew, &job->meet, tid, 1)) return -2;
    fft_share((size_t)1 << job->K, &all, 64, &lo, &hi);
    for (size_t off = 0; off < job->nb; off += job->piece) {
        size_t step = job->nb - off < job->piece ? job->nb - off : job->piece;
        dst[0] = job->fb;
        src[0] = job->b + off;
        len[0] = step;
        if (fft_operands_team(dst, src, len, 1, job->K, crew, &job->meet, tid, 1)) return -2;
        fft_pointwise_looking(job->fb + lo, NULL, job->fa + lo, hi - lo, FFT_TIMES, fft_team_poll, &all);
        if (fft_team_sync(&all, 0)) return -2;   /* a stop above shows here */
        if (fft_result_team(job->out + off, job->na + step, job->fb, job->K, &all)) return -2;
    }
    return 0;
}

/* fft_mul_job's pieces on this thread (fft_pieces_member's steps). */
static int fft_pieces_alone(const fft_mul_job* job, fft_poll_fn poll, void* ps) {
    int st = fft_operand(job->fa, job->a, job->na, job->K, poll, ps);
    for (size_t off = 0; off < job->nb && st == 0; off += job->piece) {
        size_t step = job->nb - off < job->piece ? job->nb - off : job->piece;
        st = fft_operand(job->fb, job->b + off, step, job->K, poll, ps);
        if (st != 0) break;
        st = fft_pointwise_looking(job->fb, NULL, job->fa, (size_t)1 << job->K, FFT_TIMES, poll, ps);
        if (st == 0) st = fft_result(job->out + off, job->na + step, job->fb, job->K, poll, ps);
    }
    return st;
}

/* out[0 : na + nb) ^= a b through two transforms of 2^K elements, taken here and given back:
 * one product (piece 0), or b in pieces of `piece` words with a transformed once; on nthreads
 * threads (fftcrew.h) when more than one. */
static int fft_mul_run(uint64_t* out, const uint64_t* a, size_t na, const uint64_t* b, size_t nb, int K,
                       size_t piece, fft_poll_fn poll, void* ps, int nthreads) {
    fft_mul_job job = {.out = out, .a = a, .b = b, .na = na, .nb = nb, .piece = piece, .K = K};
    int st;
    if (K > FFT_MAX_LOG) return -1;
    job.fa = fft_take(K);
    job.fb = fft_take(K);
    if (job.fa == NULL || job.fb == NULL) {
        fft_give(job.fa, K);
        fft_give(job.fb, K);
        return -1;
    }
    job.meet.poll = poll;
    job.meet.ps = ps;
    if (nthreads > 1) {
        fft_crew crew;
        crew.nthreads = nthreads;
        crew.body = piece > 0 ? fft_pieces_member : fft_mul_member;
        crew.job = &job;
        st = fft_crew_run(&crew, fft_mul_prepare);
    } else if (piece > 0) {
        st = fft_pieces_alone(&job, poll, ps);
    } else {
        st = fft_operand_pair(job.fa, job.fb, a, na, b, nb, K, poll, ps);
        if (st == 0) st = fft_inverse(job.fa, job.fb, K, poll, ps);
        fft_give(job.fb, K); /* the sums need one transform: the other goes back first */
        job.fb = NULL;
        if (st == 0) st = fft_coefficients(out, na + nb, job.fa, K, poll, ps);
    }
    fft_give(job.fa, K);
    fft_give(job.fb, K);
    return st;
}

/* out[0 : na + nb) ^= a b; a and b nonempty; on nthreads threads (fftcrew.h) when more than one. */
static int fft_mul_words(uint64_t* out, const uint64_t* a, size_t na, const uint64_t* b, size_t nb,
                         fft_poll_fn poll, void* ps, int nthreads) {
    return fft_mul_run(out, a, na, b, nb, fft_log_size(na, nb), 0, poll, ps, nthreads);
}

/* The longest piece of b that fft_mul_pieces fits beside an na-word a in transforms of 2^K
 * elements (0: none). */
static size_t fft_piece_words(size_t na, int K) {
    size_t room = (size_t)1 << (K - 1); /* 2 (na + piece) - 1 <= 2^K */
    return room > na ? room - na : 0;
}

/* out[0 : na + nb) ^= a b with transforms of 2^K elements smaller than one product's: b in pieces of
 * fft_piece_words(na, K) words (at least 1), a transformed once for all of them, so each piece
 * costs two transforms, not three.  It holds two transforms of 2^K elements, as one product of
 * that size does.  polyproducts.pxi's product_log_size chooses K (a long b, or one product's
 * transforms mostly padding). */
static int fft_mul_pieces(uint64_t* out, const uint64_t* a, size_t na, const uint64_t* b, size_t nb, int K,
                          fft_poll_fn poll, void* ps, int nthreads) {
    size_t piece = fft_piece_words(na, K);
    return piece == 0 ? -1 : fft_mul_run(out, a, na, b, nb, K, piece, poll, ps, nthreads);
}

/* What fft_matmul2 will hold: transforms of 2^K elements, 2^K >= 2 (ns + nt) - 1 for its longest
 * term, and how many at once (0: no term, nothing to do).  A matrix times a vector (cols 1) holds
 * four: the vector's two and two for a row's entries; a matrix times a matrix one per nonzero
 * entry of s, two of t and an accumulator.  The caller's transform limit reads the same plan. */
typedef struct {
    int K;
    size_t transforms;
} fft_matmul_shape;

static fft_matmul_shape fft_matmul_plan(const size_t* ns, const size_t* nt, int rows, int cols) {
    fft_matmul_shape plan = {0, 0};
    size_t big = 0;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            for (int k = 0; k < 2; k++)
                if (ns[2 * r + k] && nt[k * cols + c] && ns[2 * r + k] + nt[k * cols + c] > big)
                    big = ns[2 * r + k] + nt[k * cols + c];
    if (big == 0) return plan;
    while (((size_t)1 << plan.K) < 2 * big - 1) plan.K++;
    if (cols == 1) {
        plan.transforms = 4;
    } else {
        plan.transforms = 3;
        for (int i = 0; i < 2 * rows; i++)
            if (ns[i]) plan.transforms++;
    }
    return plan;
}

/* fft_matmul2 for one column (cols = 1) on this thread, in four transforms instead of seven (as
 * fft_matvec_member): ft[0], ft[1] hold the vector's; each row transforms its entries into fs[0]
 * and fs[1] in turn, multiplies them in place (fs[0] the sum) and sums fs[0]'s pieces. */
static int fft_matvec_alone(uint64_t* const* out, const size_t* nout, const uint64_t* const* s, const size_t* ns,
                            const uint64_t* const* t, const size_t* nt, int rows, int K, fft_poll_fn poll,
                            void* ps) {
    size_t n = (size_t)1 << K;
    uint64_t* ft[2] = {NULL, NULL};
    uint64_t* fs[2] = {NULL, NULL};
    int st = 0;
    for (int k = 0; k < 2 && st == 0; k++) {
        if (nt[k] == 0) continue;
        ft[k] = fft_alloc(K);
        st = ft[k] == NULL ? -1 : fft_operand(ft[k], t[k], nt[k], K, poll, ps);
    }
    for (int r = 0; r < rows && st == 0; r++) {
        int terms = 0;
        for (int k = 0; k < 2 && st == 0; k++) {
            if (ns[2 * r + k] == 0 || ft[k] == NULL) continue;
            if (fs[terms] == NULL) fs[terms] = fft_alloc(K);
            st = fs[terms] == NULL ? -1 : fft_operand(fs[terms], s[2 * r + k], ns[2 * r + k], K, poll, ps);
            if (st != 0) break;
            st = fft_pointwise_looking(fs[0], fs[1], ft[k], n, terms == 0 ? FFT_TIMES : FFT_PLUS_TIMES, poll, ps);
            terms++;
        }
        if (st == 0 && terms > 0) st = fft_result(out[r], nout[r], fs[0], K, poll, ps);
    }
    for (int i = 0; i < 2; i++) {
        fft_free(fs[i], K);
        fft_free(ft[i], K);
    }
    return st;
}

/* out[r cols + c][0 : nout[..]) ^= s[2 r] t[c] + s[2 r + 1] t[cols + c] for r < rows, c < cols
 * (rows, cols <= 2): a 2x2 (or 1x2) matrix times a 2x2 (or 2x1) one, each operand
 * transformed once.  Operands of no words are zero.  nout bounds each output. */
static int fft_matmul2(uint64_t* const* out, const size_t* nout, const uint64_t* const* s, const size_t* ns,
                       const uint64_t* const* t, const size_t* nt, int rows, int cols,
                       fft_poll_fn poll, void* ps, int nthreads) {
    fft_matmul_shape plan = fft_matmul_plan(ns, nt, rows, cols);
    int K = plan.K, st = 0;
    uint64_t* fs[4] = {NULL, NULL, NULL, NULL};
    uint64_t* ft[2] = {NULL, NULL};
    uint64_t* acc = NULL;
    if (plan.transforms == 0) return 0;
    if (K > FFT_MAX_LOG) return -1;
    size_t n = (size_t)1 << K;
    if (nthreads > 1) {
        fft_matmul_job job;
        fft_crew crew;
        int lean = cols == 1; /* fft_matvec_member: four transforms, no acc */
        for (int i = 0; i < (lean ? 2 : 2 * rows) && st == 0; i++)
            if ((lean || ns[i]) && (fs[i] = fft_alloc(K)) == NULL) st = -1;
        for (int k = 0; k < 2 && st == 0; k++)
            if ((ft[k] = fft_alloc(K)) == NULL) st = -1;
        if (st == 0 && !lean && (acc = fft_alloc(K)) == NULL) st = -1;
        if (st == 0) {
            job.meet.poll = poll;
            job.meet.ps = ps;
            job.out = out;
            job.nout = nout;
            job.s = s;
            job.ns = ns;
            job.t = t;
            job.nt = nt;
            job.rows = rows;
            job.cols = cols;
            job.K = K;
            for (int i = 0; i < 4; i++) job.fs[i] = fs[i];
            job.ft[0] = ft[0];
            job.ft[1] = ft[1];
            job.acc = acc;
            crew.nthreads = nthreads;
            crew.body = lean ? fft_matvec_member : fft_matmul_member;
            crew.job = &job;
            st = fft_crew_run(&crew, fft_matmul_prepare);
        }
        for (int i = 0; i < 4; i++) fft_free(fs[i], K);
        fft_free(ft[0], K);
        fft_free(ft[1], K);
        fft_free(acc, K);
        return st;
    }
    if (cols == 1) return fft_matvec_alone(out, nout, s, ns, t, nt, rows, K, poll, ps);
    for (int i = 0; i < 2 * rows && st == 0; i++) {
        if (ns[i] == 0) continue;
        fs[i] = fft_alloc(K);
        st = fs[i] == NULL ? -1 : fft_operand(fs[i], s[i], ns[i], K, poll, ps);
    }
    acc = st == 0 ? fft_alloc(K) : NULL;
    if (st == 0 && acc == NULL) st = -1;
    for (int c = 0; c < cols && st == 0; c++) {
        for (int k = 0; k < 2 && st == 0; k++) {
            if (nt[k * cols + c] == 0) {
                fft_free(ft[k], K);
                ft[k] = NULL;
                continue;
            }
            if (ft[k] == NULL) ft[k] = fft_alloc(K); /* a column's transform serves the next */
            st = ft[k] == NULL ? -1 : fft_operand(ft[k], t[k * cols + c], nt[k * cols + c], K, poll, ps);
        }
        for (int r = 0; r < rows && st == 0; r++) {
            int any = 0;
            for (int k = 0; k < 2; k++) {
                if (fs[2 * r + k] == NULL || ft[k] == NULL) continue;
                if (st == 0)
                    st = fft_pointwise_looking(acc, fs[2 * r + k], ft[k], n, any ? FFT_PLUS_TIMES : FFT_TIMES_INTO,
                                               poll, ps);
                any = 1;
            }
            if (any && st == 0) st = fft_result(out[r * cols + c], nout[r * cols + c], acc, K, poll, ps);
        }
    }
    for (int i = 0; i < 4; i++) fft_free(fs[i], K);
    fft_free(ft[0], K);
    fft_free(ft[1], K);
    fft_free(acc, K);
    return st;
}

#endif
