/* Baseline timing of gf2x's product in GF(2)[t] (Brent, Gaudry, Thome, Zimmermann), the
 * library NTL multiplies with.
 *
 * Usage: gf2x_mul A.bin B.bin C.bin [repeats]
 * A.bin and B.bin hold little-endian 64-bit words (bit i of the file is the
 * coefficient of t^i, as in lightsout's packed rows); the product is written to
 * C.bin in the same form (na + nb words) and the best wall time over `repeats`
 * runs is printed.  Built and run by bench/poly_product.py --gf2x, which also
 * compares the product with lightsout's bit for bit; a measurement aid, not part
 * of CI and never a dependency of lightsout.
 */
#include <gf2x.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static unsigned long* read_words(const char* path, unsigned long* n) {
    FILE* f = fopen(path, "rb");
    if (f == NULL) { perror(path); exit(2); }
    fseek(f, 0, SEEK_END);
    long bytes = ftell(f);
    fseek(f, 0, SEEK_SET);
    *n = (unsigned long)bytes / 8;
    unsigned long* w = malloc((size_t)bytes);
    if (w == NULL || fread(w, 8, *n, f) != *n) { fprintf(stderr, "cannot read %s\n", path); exit(2); }
    fclose(f);
    return w;
}

int main(int argc, char** argv) {
    if (argc < 4) { fprintf(stderr, "usage: gf2x_mul A.bin B.bin C.bin [repeats]\n"); return 2; }
    int repeats = argc > 4 ? atoi(argv[4]) : 1;
    unsigned long na, nb;
    unsigned long* a = read_words(argv[1], &na);
    unsigned long* b = read_words(argv[2], &nb);
    unsigned long* c = malloc((na + nb) * sizeof(unsigned long));
    double best = 1e300;
    for (int i = 0; i < repeats; i++) {
        double t0 = now_seconds();
        gf2x_mul(c, a, na, b, nb);
        double t1 = now_seconds();
        if (t1 - t0 < best) best = t1 - t0;
    }
    FILE* out = fopen(argv[3], "wb");
    if (out == NULL || fwrite(c, 8, na + nb, out) != na + nb) { perror(argv[3]); return 2; }
    fclose(out);
    printf("%.6f\n", best);
    return 0;
}
