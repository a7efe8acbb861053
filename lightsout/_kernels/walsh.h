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
 *      each chunk (levels 0..b-1), and
 *   3. final levels (the top f = m - b) fused with the minimum: each group of 2^f vectors
 *      at stride 2^b (+ one vector of padding, so they fall in different cache sets) is
 *      loaded and zeroed at once (which leaves the array clear for the next task's
 *      scatter), transformed in registers, the last level as min(x + y, x - y) = x - |y|,
 *      and its lane-wise minimum compared with the best sum; only a group where some lane
 *      may match or beat it is offered lane by lane (rare: a few times per search).
 *
 * Speed (AMD EPYC 4th generation, one core, CPU time, shared machine): about 0.125 ns per coset
 * element at n = 65 (d = 42, m = 14) with AVX-512, 4 ns per 64-byte vector of 32 sums: the
 * L1 blocks' passes about half, the pass over the chunks and the final pass a sixth and a
 * quarter, the scatter a tenth.  Before the blocks and the fused zeroing (a separate pass of
 * stores), 0.16 ns.
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

#if WALSH_VECTOR_EXT
typedef int16_t walsh_wvec_i16 __attribute__((vector_size(WALSH_VEC_BYTES)));
typedef int32_t walsh_wvec_i32 __attribute__((vector_size(WALSH_VEC_BYTES)));
#if defined(__SSE2__)
#include <immintrin.h>
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
    int32_t pad;
} walsh_entry;

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
