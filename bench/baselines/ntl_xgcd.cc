/* Baseline timing of NTL's GF2X XGCD and GCD on two random polynomials of degree N.
 *
 * Usage: ntl_xgcd [N [repeats]]   (default 1000000 3)
 * Prints the best wall time over `repeats` runs of XGCD(d, s, t, a, b) and of
 * GCD(d, a, b), plus DivRem of a degree-2N polynomial by a degree-N one, for a
 * side-by-side comparison with lightsout's poly_gcd_cofactor / poly_gcd /
 * poly_divmod (bench/bench_gf2poly_fast.py).  Built and run by run_ntl.sh;
 * a measurement aid, not part of CI and never a dependency of lightsout.
 */
#include <NTL/GF2X.h>
#include <NTL/version.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>

using namespace NTL;

static double now_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/* A random polynomial of degree exactly n (random below, leading coefficient set). */
static GF2X random_of_degree(long n) {
    GF2X x;
    random(x, n);
    SetCoeff(x, n);
    return x;
}

int main(int argc, char **argv) {
    long n = argc > 1 ? std::atol(argv[1]) : 1000000;
    int repeats = argc > 2 ? std::atoi(argv[2]) : 3;

    SetSeed(ZZ(20261122));  /* fixed seed: the same polynomials every run */
    GF2X a = random_of_degree(n), b = random_of_degree(n), a2 = random_of_degree(2 * n);
    GF2X d, s, t, q, r;

    double best_x = 1e300, best_g = 1e300, best_dr = 1e300;
    for (int i = 0; i < repeats; ++i) {
        double t0 = now_seconds();
        XGCD(d, s, t, a, b);
        double t1 = now_seconds();
        if (t1 - t0 < best_x) best_x = t1 - t0;
    }
    long deg_x = deg(d);
    for (int i = 0; i < repeats; ++i) {
        double t0 = now_seconds();
        GCD(d, a, b);
        double t1 = now_seconds();
        if (t1 - t0 < best_g) best_g = t1 - t0;
    }
    for (int i = 0; i < repeats; ++i) {
        double t0 = now_seconds();
        DivRem(q, r, a2, b);
        double t1 = now_seconds();
        if (t1 - t0 < best_dr) best_dr = t1 - t0;
    }
    std::printf("ntl %s  N=%ld  XGCD: %.4f s  GCD: %.4f s  (deg gcd %ld)  DivRem %ld/%ld: %.4f s\n",
                NTL_VERSION, n, best_x, best_g, deg_x, 2 * n, n, best_dr);
    return 0;
}
