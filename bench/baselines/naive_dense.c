/* Naive reference for the dense route: the A/B two-row iteration on full
 * C x (C+1) bit matrices, one step at a time, then Gauss-Jordan elimination.
 *
 * Same algorithm as lightsout's dense route (docs/algebra.md section 1),
 * written plainly: rows packed into uint64 words, simple loops, no blocking,
 * no SIMD intrinsics.  For the all-lit n x n board:
 *     A = U_1(T) = [I | 0], B = U_0(T) = 0
 *     repeat n times: A' = T A + B + [0 | 1], B' = A
 *     solve A[:, :C] f = A[:, C] by Gauss-Jordan
 * and prints the popcount of the solution's first row f and the seconds taken.
 *
 * Build and run: bench/baselines/run_naive.sh N
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    if (n <= 0) {
        fprintf(stderr, "usage: %s N\n", argv[0]);
        return 2;
    }
    int C = n, R = n;
    int nw = (C + 1 + 63) / 64; /* words per row of the augmented matrix */
    size_t size = (size_t)C * nw;
    uint64_t *A = calloc(size, sizeof(uint64_t));
    uint64_t *B = calloc(size, sizeof(uint64_t));
    uint64_t *N = calloc(size, sizeof(uint64_t));
    if (!A || !B || !N) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    double t0 = now();

    /* A = [I | 0], B = 0. */
    for (int j = 0; j < C; j++)
        A[(size_t)j * nw + j / 64] |= (uint64_t)1 << (j % 64);

    /* R steps of A' = T A + B + [0 | b_k], B' = A; row j of T A is A[j-1] + A[j] + A[j+1]. */
    for (int k = 0; k < R; k++) {
        for (int j = 0; j < C; j++) {
            uint64_t *dst = N + (size_t)j * nw;
            const uint64_t *a = A + (size_t)j * nw;
            const uint64_t *b = B + (size_t)j * nw;
            for (int w = 0; w < nw; w++) {
                uint64_t x = a[w] ^ b[w];
                if (j > 0) x ^= a[w - nw];
                if (j < C - 1) x ^= a[w + nw];
                dst[w] = x;
            }
            dst[C / 64] ^= (uint64_t)1 << (C % 64); /* all-lit: b_k = 1 in every row */
        }
        uint64_t *tmp = B; /* B' = A, A' = N; the old B becomes the next scratch */
        B = A;
        A = N;
        N = tmp;
    }
    double t1 = now();

    /* Gauss-Jordan on the C x (C+1) augmented system A. */
    int rank = 0;
    for (int col = 0; col < C && rank < C; col++) {
        int w = col / 64;
        uint64_t bit = (uint64_t)1 << (col % 64);
        int piv = -1;
        for (int i = rank; i < C; i++)
            if (A[(size_t)i * nw + w] & bit) {
                piv = i;
                break;
            }
        if (piv < 0)
            continue;
        if (piv != rank)
            for (int x = 0; x < nw; x++) {
                uint64_t t = A[(size_t)piv * nw + x];
                A[(size_t)piv * nw + x] = A[(size_t)rank * nw + x];
                A[(size_t)rank * nw + x] = t;
            }
        const uint64_t *p = A + (size_t)rank * nw;
        for (int i = 0; i < C; i++) {
            uint64_t *r = A + (size_t)i * nw;
            if (i != rank && (r[w] & bit))
                for (int x = w; x < nw; x++)
                    r[x] ^= p[x];
        }
        rank++;
    }
    double t2 = now();

    /* Read off a solution (free variables 0): pivot row i has its pivot in
       the first set column; its constant bit is f at that column. */
    int pop = 0, solvable = 1;
    for (int i = 0; i < C; i++) {
        const uint64_t *r = A + (size_t)i * nw;
        int c = (int)((r[C / 64] >> (C % 64)) & 1);
        int has_pivot = 0;
        for (int x = 0; x < nw && !has_pivot; x++) {
            uint64_t v = r[x];
            if (x == C / 64) v &= ((uint64_t)1 << (C % 64)) - 1;
            if (v) has_pivot = 1;
        }
        if (!has_pivot && c) solvable = 0;
        pop += has_pivot && c;
    }
    printf("n=%d rank=%d nullity=%d solvable=%d first_row_popcount=%d\n", n, rank, C - rank, solvable, pop);
    printf("iteration %.3f s, elimination %.3f s, total %.3f s\n", t1 - t0, t2 - t1, t2 - t0);
    free(A);
    free(B);
    free(N);
    return 0;
}
