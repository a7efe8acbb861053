/* The fewest-presses search kernel: every weight of a GF(2) coset by a Walsh-Hadamard transform.
 *
 * The maths is in lightsout/_search/minweight.py's module docstring; in short, with the coset
 * coordinates c (d bits) split as  c = [task | lane | low]  (t, lb and m bits, top to
 * bottom), one task fixes `task` and computes, for all 2^lb lanes and 2^m low
 * coordinates at once,
 *
 *     S(c) = sum over entries e of  val_e * (-1)^{form_e . c}
 *
 * in three steps:
 *   1. scatter: G[low_e] += val_e * (-1)^{top_e . task} * P[mid_e], where P[mid] is the
 *      lane vector ((-1)^{mid . lane})_lane, so lane coordinates cost no transform work;
 *   2. transform: an in-place Walsh-Hadamard transform of G over its m-bit index, done as
 *      register-blocked radix-2^r passes: the low levels on blocks of WALSH_BLOCK_BYTES,
 *      which stay in the L1 cache from one pass to the next, the levels above them over
 *      each chunk (levels 0..b-1), each pass only on the blocks that some entry's position
 *      falls in, reading the sub-blocks without one as zeros (walsh_plan: few positions
 *      receive an entry, at n = 65 532 of 16,384; nothing clears the array between tasks), and
 *   3. final levels (the top f = m - b, walsh_final_bits: up to five, so that at the usual
 *      m nothing runs over whole chunks) by a bound: each group of 2^f vectors at stride 2^b
 *      (+ one vector of padding, so they fall in different cache sets) has sums
 *      x_0 +- x_1 +- ..., each at least x_0 - |x_1| - ...; only a group where that bound may
 *      match or beat the best sum in some lane is transformed, a level at a time with each
 *      half bounded again, and, when some lane of its minimum does, offered lane by lane (the
 *      bound rules out most groups).
 *
 * Speed (AMD EPYC 4th generation, one core, CPU time, shared machine): about 0.125 ns per coset
 * element at n = 65 (d = 42, m = 14) with AVX-512, 4 ns per 64-byte vector of 32 sums: the
 * L1 blocks' passes about half, the pass over the chunks and the final pass a sixth and a
 * quarter, the scatter a tenth.  Before the blocks and the fused zeroing (a separate pass of
 * stores), 0.16 ns.  Skipping the blocks without an entry, the final levels by a bound and no
 * clearing between tasks: see CHANGELOG.md (issue 32) for the figures.
 *
 * A vector holds LANES counters (int16 or int32) of WALSH_VEC_BYTES bytes: 64 with
 * AVX-512BW, 32 with AVX2, 16 otherwise; the code below uses GCC/Clang vector types, so
 * the same source compiles to SSE2, AVX2 or AVX-512 as the build's -march allows, with a
 * plain-loop fallback for other compilers.  This file is included by walsh.pyx; its
 * body (walsh_body.h) is instantiated once per counter type.
 */
#ifndef LIGHTSOUT_WALSH_H
#define LIGHTSOUT_WALSH_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__AVX512BW__)
#define WALSH_VEC_BYTES 64
#define WALSH_MAX_RADIX_BITS 4      /* 32 vector registers: 16-vector passes fit */
#elif defined(__AVX2__)
#define WALSH_VEC_BYTES 32
#define WALSH_MAX_RADIX_BITS 3
#else
#define WALSH_VEC_BYTES 16
#define WALSH_MAX_RADIX_BITS 3
#endif

#if defined(__GNUC__) || defined(__clang__)
#define WALSH_VECTOR_EXT 1
#define WALSH_RESTRICT __restrict__
#define WALSH_INLINE static inline __attribute__((always_inline))
#define WALSH_PRAGMA(x) _Pragma(#x)
#if defined(__clang__)
#define WALSH_UNROLL WALSH_PRAGMA(unroll)
#else
#define WALSH_UNROLL WALSH_PRAGMA(GCC unroll 64)
#endif
#else
#define WALSH_VECTOR_EXT 0
#if defined(_MSC_VER)
#define WALSH_RESTRICT __restrict
#else
#define WALSH_RESTRICT
#endif
#define WALSH_INLINE static inline
#define WALSH_UNROLL
#endif

/* The in-chunk transform's low levels run on blocks of this many bytes (half an L1 cache). */
#ifndef WALSH_BLOCK_BYTES
#define WALSH_BLOCK_BYTES 16384
#endif
/* Vectors of padding between chunks of the task array. */
#define WALSH_PAD 1
/* Groups whose final bounds are made together (walsh_body.h, WALSH_FINAL). */
#define WALSH_TILE 8

/* Levels of an L1 block: the largest l with 2^l vectors in WALSH_BLOCK_BYTES. */
static int walsh_block_levels(void) {
    int levels = 0;
    while (((size_t)2 << levels) * WALSH_VEC_BYTES <= WALSH_BLOCK_BYTES) levels++;
    return levels;
}

/* The final levels, done by a bound (walsh_tasks' f): those above the L1 blocks' levels, so
 * that no pass over whole chunks is left (at m = 14 with 32-byte vectors, 5), at least
 * WALSH_MAX_RADIX_BITS (the count before) and at most WALSH_MAX_FINAL_BITS.  The bound rules
 * out fewer groups as f grows: of the groups of a task from the middle of the coset at n = 65
 * and 119, against the best of the search's first tasks, with f = 3 0.05 % or fewer need the
 * levels, with 4 about 0.3 %, with 5 1-14 %, with 6 30-85 %; a group that does is refined a
 * level at a time (offer_group), so 5 costs less than the pass over the chunks it saves. */
#ifndef WALSH_MAX_FINAL_BITS
#define WALSH_MAX_FINAL_BITS 5
#endif
static int walsh_final_bits(int m) {
    int f = m - walsh_block_levels();
    if (f < WALSH_MAX_RADIX_BITS) f = WALSH_MAX_RADIX_BITS;
    if (f > WALSH_MAX_FINAL_BITS) f = WALSH_MAX_FINAL_BITS;
    return f < m ? f : m;
}

#if WALSH_VECTOR_EXT
typedef int16_t walsh_wvec_i16 __attribute__((vector_size(WALSH_VEC_BYTES)));
typedef int32_t walsh_wvec_i32 __attribute__((vector_size(WALSH_VEC_BYTES)));
#if defined(__SSE2__)
#include <immintrin.h>
#endif
/* Nonzero if some lane of a is <= the same lane of b: one compare into a mask where the ISA
 * has it, else the compare's lanes ORed as words. */
#if defined(__AVX512BW__)
#define walsh_vany_le_i16(a, b) (_mm512_cmple_epi16_mask((__m512i)(a), (__m512i)(b)) != 0)
#define walsh_vany_le_i32(a, b) (_mm512_cmple_epi32_mask((__m512i)(a), (__m512i)(b)) != 0)
#elif defined(__AVX2__)
#define walsh_vany_le_i16(a, b) (_mm256_movemask_epi8(_mm256_cmpgt_epi16((__m256i)(a), (__m256i)(b))) != -1)
#define walsh_vany_le_i32(a, b) (_mm256_movemask_epi8(_mm256_cmpgt_epi32((__m256i)(a), (__m256i)(b))) != -1)
#else
#define WALSH_ANY_LE(T)                                                                 \
WALSH_INLINE int walsh_vany_le_##T(walsh_wvec_##T a, walsh_wvec_##T b) {               \
    walsh_wvec_##T m = (walsh_wvec_##T)(a <= b);                                        \
    uint64_t w[WALSH_VEC_BYTES / 8], acc = 0;                                           \
    memcpy(w, &m, sizeof m);                                                            \
    for (int i = 0; i < WALSH_VEC_BYTES / 8; i++) acc |= w[i];                          \
    return acc != 0;                                                                    \
}
WALSH_ANY_LE(i16)
WALSH_ANY_LE(i32)
#undef WALSH_ANY_LE
#endif
/* Lane-wise minimum and absolute value: one instruction where the ISA has it, else by
 * compare masks and shifts (which GCC still vectorises). */
#if defined(__AVX512BW__)
#define walsh_vmin_i16(a, b) ((walsh_wvec_i16)_mm512_min_epi16((__m512i)(a), (__m512i)(b)))
#define walsh_vabs_i16(a) ((walsh_wvec_i16)_mm512_abs_epi16((__m512i)(a)))
#define walsh_vmin_i32(a, b) ((walsh_wvec_i32)_mm512_min_epi32((__m512i)(a), (__m512i)(b)))
#define walsh_vabs_i32(a) ((walsh_wvec_i32)_mm512_abs_epi32((__m512i)(a)))
#elif defined(__AVX2__)
#define walsh_vmin_i16(a, b) ((walsh_wvec_i16)_mm256_min_epi16((__m256i)(a), (__m256i)(b)))
#define walsh_vabs_i16(a) ((walsh_wvec_i16)_mm256_abs_epi16((__m256i)(a)))
#define walsh_vmin_i32(a, b) ((walsh_wvec_i32)_mm256_min_epi32((__m256i)(a), (__m256i)(b)))
#define walsh_vabs_i32(a) ((walsh_wvec_i32)_mm256_abs_epi32((__m256i)(a)))
#else
#if defined(__SSE2__) && WALSH_VEC_BYTES == 16
#define walsh_vmin_i16(a, b) ((walsh_wvec_i16)_mm_min_epi16((__m128i)(a), (__m128i)(b)))
#else
WALSH_INLINE walsh_wvec_i16 walsh_vmin_i16(walsh_wvec_i16 a, walsh_wvec_i16 b) {
    walsh_wvec_i16 m = (walsh_wvec_i16)(a < b);
    return (a & m) | (b & ~m);
}
#endif
WALSH_INLINE walsh_wvec_i16 walsh_vabs_i16(walsh_wvec_i16 a) {
    walsh_wvec_i16 s = a >> 15;
    return (a ^ s) - s;
}
WALSH_INLINE walsh_wvec_i32 walsh_vmin_i32(walsh_wvec_i32 a, walsh_wvec_i32 b) {
    walsh_wvec_i32 m = (walsh_wvec_i32)(a < b);
    return (a & m) | (b & ~m);
}
WALSH_INLINE walsh_wvec_i32 walsh_vabs_i32(walsh_wvec_i32 a) {
    walsh_wvec_i32 s = a >> 31;
    return (a ^ s) - s;
}
#endif
#endif

/* One entry of the sparse signed histogram, split by the task's coordinate layout. */
typedef struct {
    uint64_t top;    /* form bits of the task coordinates */
    int32_t pos;     /* scatter position of the form bits of the array coordinates */
    int32_t val;     /* g = (cells with this form and press 1) - (cells with press 0) */
    int32_t mid;     /* form bits of the lane coordinates */
    int32_t same;    /* all ones when the entry before (by position) has the same position, else 0 */
} walsh_entry;

/* The transform's passes below the final levels, over the blocks that can hold a nonzero value.
 * Few of a task's 2^m positions receive an entry (at n = 65, 532 of 16,384; they cluster).  A
 * pass over levels lo .. lo + r - 1 runs only on the blocks of 2^(lo + r) positions that some
 * entry's position falls in, and reads only their sub-blocks of 2^lo positions with an entry:
 * the others would hold zeros after the levels below (which leave a block of zeros at zero),
 * so they are read as zeros (their memory holds the last task's values: nothing clears the
 * array between tasks).  A pass writes every vector of its blocks, so once the last pass has
 * run, every chunk with an entry holds this task's values, and a chunk without one was never
 * written (zero since the array was made).  The same blocks for every task of a search: the
 * plan is made once a call. */
#define WALSH_MAX_PASSES 64
typedef struct {
    int lo, r;              /* the levels lo .. lo + r - 1 */
    const int32_t *blocks;  /* the vector offsets of the blocks of 2^(lo + r) positions with an entry, increasing */
    const uint16_t *masks;  /* for each: bit s set when its sub-block s (2^lo positions) has an entry */
    ptrdiff_t count;
} walsh_pass;

typedef struct {
    int passes;             /* passes[0 .. passes - 1], levels from 0 up to the chunk's b */
    int inner_passes;       /* the first ones: levels 0 .. inner - 1, run L1 block by L1 block */
    int inner;
    walsh_pass pass[WALSH_MAX_PASSES];
    int32_t *storage;
    uint16_t *mask_storage;
} walsh_plan;

static void walsh_plan_free(walsh_plan *plan) {
    free(plan->storage);
    free(plan->mask_storage);
    plan->storage = NULL;
    plan->mask_storage = NULL;
}

/* Make the plan of the levels 0 .. b - 1 of every chunk (chunks of 2^b positions, `stride`
 * vectors apart) for the entries' positions (the low m bits of `forms`), in radix-2^r passes
 * (r <= max_radix <= 4), the levels below `inner` apart from those above.  Returns 0, or -1 when
 * out of memory; walsh_plan_free frees it (either way). */
static int walsh_plan_make(walsh_plan *plan, const uint64_t *forms, ptrdiff_t nent, int m, int b,
                           ptrdiff_t stride, int inner, int max_radix) {
    size_t positions = (size_t)1 << m;
    unsigned char *active = (unsigned char *)calloc(positions, 1);
    plan->passes = plan->inner_passes = 0;
    plan->inner = inner;
    plan->storage = (int32_t *)malloc(positions * sizeof(int32_t) + sizeof(int32_t));
    plan->mask_storage = (uint16_t *)malloc(positions * sizeof(uint16_t) + sizeof(uint16_t));
    if (active == NULL || plan->storage == NULL || plan->mask_storage == NULL) {
        free(active);
        return -1;
    }
    for (ptrdiff_t e = 0; e < nent; e++) active[forms[e] & (positions - 1)] = 1;
    int32_t *out = plan->storage;
    uint16_t *mask_out = plan->mask_storage;
    /* active[k]: the block k of 2^lo positions holds an entry */
    for (int lo = 0; lo < b;) {
        int top = lo < inner ? inner : b;
        int r = top - lo < max_radix ? top - lo : max_radix;
        int hi = lo + r;
        walsh_pass *pass = &plan->pass[plan->passes++];
        pass->lo = lo;
        pass->r = r;
        pass->blocks = out;
        pass->masks = mask_out;
        for (size_t k = 0; k < positions >> hi; k++) {
            unsigned mask = 0;
            for (int sub = 0; sub < (1 << r); sub++) mask |= (unsigned)active[(k << r) + sub] << sub;
            active[k] = mask != 0;
            if (mask) {
                size_t low = k << hi;
                *out++ = (int32_t)((low >> b) * (size_t)stride + (low & (((size_t)1 << b) - 1)));
                *mask_out++ = (uint16_t)mask;
            }
        }
        pass->count = out - pass->blocks;
        lo = hi;
        if (lo <= inner) plan->inner_passes = plan->passes;
    }
    free(active);
    return 0;
}

/* The best (smallest sum, then smallest coordinate) found so far. */
typedef struct {
    int64_t sum;     /* only sums <= sum are reported; updated as better ones are found */
    uint64_t index;  /* coordinate c of the best, valid when found */
    int found;
} walsh_best;

WALSH_INLINE int walsh_parity64(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_parityll(x);
#else
    x ^= x >> 32; x ^= x >> 16; x ^= x >> 8; x ^= x >> 4; x ^= x >> 2; x ^= x >> 1;
    return (int)(x & 1);
#endif
}

WALSH_INLINE int walsh_parity32(uint32_t x) {
    return walsh_parity64(x);
}

/* Offer sum s at coordinate c: keep it if it beats the best (ties: smaller c). */
WALSH_INLINE void walsh_offer(walsh_best *best, int64_t s, uint64_t c) {
    if (s < best->sum || (s == best->sum && (!best->found || c < best->index))) {
        best->sum = s;
        best->index = c;
        best->found = 1;
    }
}

#define WALSH_T int16_t
#define WALSH_NAME(x) x##_i16
#define WALSH_T_MAX 32767
#include "walsh_body.h"
#undef WALSH_T
#undef WALSH_NAME
#undef WALSH_T_MAX

#define WALSH_T int32_t
#define WALSH_NAME(x) x##_i32
#define WALSH_T_MAX 2147483647
#include "walsh_body.h"
#undef WALSH_T
#undef WALSH_NAME
#undef WALSH_T_MAX

#endif /* LIGHTSOUT_WALSH_H */
