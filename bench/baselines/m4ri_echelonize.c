/* Baseline timing of M4RI's mzd_echelonize on a random packed GF(2) matrix.
 *
 * Usage: m4ri_echelonize [nrows [ncols [repeats]]]   (default 10000 10001 3)
 * Prints the best wall time over `repeats` fresh copies for full=1 (reduced
 * row echelon form, what lightsout's rref_inplace computes) and full=0 (plain
 * row echelon form), plus the rank, so results can be compared with
 * bench/bench_gf2elim.py.  Built and run by run_m4ri.sh; not part of CI.
 */
#include <m4ri/m4ri.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Best-of-`repeats` time of mzd_echelonize(copy of source, full). */
static double time_echelonize(const mzd_t *source, int full, int repeats, rci_t *rank_out) {
    double best = 1e300;
    for (int r = 0; r < repeats; ++r) {
        mzd_t *work = mzd_copy(NULL, source);
        double start = now_seconds();
        rci_t rank = mzd_echelonize(work, full);
        double elapsed = now_seconds() - start;
        if (elapsed < best) best = elapsed;
        *rank_out = rank;
        mzd_free(work);
    }
    return best;
}

int main(int argc, char **argv) {
    rci_t nrows = argc > 1 ? atoi(argv[1]) : 10000;
    rci_t ncols = argc > 2 ? atoi(argv[2]) : 10001;
    int repeats = argc > 3 ? atoi(argv[3]) : 3;

    srandom(20261121);  /* mzd_randomize draws from random(): fixed seed, same matrix each run */
    mzd_t *source = mzd_init(nrows, ncols);
    mzd_randomize(source);

    rci_t rank_full = 0, rank_half = 0;
    double t_full = time_echelonize(source, 1, repeats, &rank_full);
    double t_half = time_echelonize(source, 0, repeats, &rank_half);
    printf("m4ri %d x %d  mzd_echelonize(A, 1): %.4f s  rank %d\n", nrows, ncols, t_full, rank_full);
    printf("m4ri %d x %d  mzd_echelonize(A, 0): %.4f s  rank %d\n", nrows, ncols, t_half, rank_half);
    mzd_free(source);
    return 0;
}
