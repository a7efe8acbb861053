/* Body of the Walsh kernel for one counter type; included twice by walsh.h with
 * WALSH_T (int16_t or int32_t), WALSH_NAME(x) (name suffix) and WALSH_T_MAX defined.
 * See walsh.h for the algorithm.  No includes, no include guard: on purpose. */

#define WT WALSH_T
#define WN WALSH_NAME
#define WLANES (WALSH_VEC_BYTES / (int)sizeof(WT))

#if WALSH_VECTOR_EXT
#define V WN(walsh_wvec)
#define VADD(a, b) ((a) + (b))
#define VSUB(a, b) ((a) - (b))
#define VSCALE(a, s) ((a) * (WT)(s))
#define VMIN(a, b) WN(walsh_vmin)(a, b)
#define VABS(a) WN(walsh_vabs)(a)
#define VAND(a, b) ((a) & (b))
#define VLANE(v, i) ((v)[i])
WALSH_INLINE V WN(vsplat)(WT s) { V v = {0}; return v + s; }
#define VANY_LE(a, b) WN(walsh_vany_le)(a, b)
#else
#define V WN(walsh_wvec)
typedef struct { WT x[WLANES]; } V;
WALSH_INLINE V WN(vadd)(V a, V b) { for (int i = 0; i < WLANES; i++) a.x[i] += b.x[i]; return a; }
WALSH_INLINE V WN(vsub)(V a, V b) { for (int i = 0; i < WLANES; i++) a.x[i] -= b.x[i]; return a; }
WALSH_INLINE V WN(vscale)(V a, WT s) { for (int i = 0; i < WLANES; i++) a.x[i] *= s; return a; }
WALSH_INLINE V WN(vmin)(V a, V b) {
    for (int i = 0; i < WLANES; i++) a.x[i] = a.x[i] < b.x[i] ? a.x[i] : b.x[i];
    return a;
}
WALSH_INLINE V WN(vand)(V a, V b) { for (int i = 0; i < WLANES; i++) a.x[i] &= b.x[i]; return a; }
WALSH_INLINE V WN(vabs)(V a) { for (int i = 0; i < WLANES; i++) a.x[i] = a.x[i] < 0 ? -a.x[i] : a.x[i]; return a; }
WALSH_INLINE V WN(vsplat)(WT s) { V v; for (int i = 0; i < WLANES; i++) v.x[i] = s; return v; }
WALSH_INLINE int WN(vany_le)(V a, V b) {
    int any = 0;
    for (int i = 0; i < WLANES; i++) any |= a.x[i] <= b.x[i];
    return any;
}
#define VANY_LE(a, b) WN(vany_le)(a, b)
#define VADD(a, b) WN(vadd)(a, b)
#define VSUB(a, b) WN(vsub)(a, b)
#define VSCALE(a, s) WN(vscale)(a, (WT)(s))
#define VMIN(a, b) WN(vmin)(a, b)
#define VABS(a) WN(vabs)(a)
#define VAND(a, b) WN(vand)(a, b)
#define VLANE(v, i) ((v).x[i])
#endif

/* One butterfly on two local vectors: (x, y) -> (x + y, x - y). */
#define BF(x, y) do { V t_ = (x); (x) = VADD(t_, (y)); (y) = VSUB(t_, (y)); } while (0)

/* Levels lo .. lo + R - 1 of one block (sub-blocks of h vectors) whose sub-blocks are read
 * through LOAD(k, at): the 2^R vectors of each j in registers, a fixed-size local array with
 * constant loop bounds that GCC unrolls fully. */
#define WALSH_BLOCK_LEVELS(R, LOAD)                                                     \
    for (ptrdiff_t j = 0; j < h; j++) {                                                \
        V x[1 << R];                                                                   \
        WALSH_UNROLL for (int k = 0; k < (1 << R); k++) x[k] = LOAD(k, block[j + k * h]); \
        WALSH_UNROLL for (int l = 0; l < R; l++)                                       \
            WALSH_UNROLL for (int k = 0; k < (1 << R); k++)                            \
                if (!(k & (1 << l))) BF(x[k], x[k | (1 << l)]);                        \
        WALSH_UNROLL for (int k = 0; k < (1 << R); k++) block[j + k * h] = x[k];       \
    }

/* A block whose mask is the constant M: the compiler drops every load of a sub-block read
 * as zero and every butterfly with a zero (a block with one sub-block of entries only copies
 * and negates it; with two, two sums and their negations). */
#define WALSH_LOAD_IF_SET(k, v) ((M_ >> (k) & 1) ? (v) : zero)
#define WALSH_MASK_CASE(R, M)                                                           \
    case M: { const unsigned M_ = (M); WALSH_BLOCK_LEVELS(R, WALSH_LOAD_IF_SET) } continue;

/* The masks with a loop of their own: the full mask, and every other at R = 1 and 2; at R = 3
 * those of one or two sub-blocks of the eight (most blocks of the all-lit squares' passes: at
 * n = 65 85 % of the first pass's, 37 % of the third's; three sub-blocks measured no faster). */
#define WALSH_MASKS1(X, R) X(R, 0x01) X(R, 0x02) X(R, 0x03)
#define WALSH_MASKS2(X, R) X(R, 0x01) X(R, 0x02) X(R, 0x03) X(R, 0x04) X(R, 0x05) X(R, 0x06) X(R, 0x07) \
    X(R, 0x08) X(R, 0x09) X(R, 0x0a) X(R, 0x0b) X(R, 0x0c) X(R, 0x0d) X(R, 0x0e) X(R, 0x0f)
#define WALSH_MASKS3(X, R) X(R, 0x01) X(R, 0x02) X(R, 0x03) X(R, 0x04) X(R, 0x05) X(R, 0x06) X(R, 0x08) \
    X(R, 0x09) X(R, 0x0a) X(R, 0x0c) X(R, 0x10) X(R, 0x11) X(R, 0x12) X(R, 0x14) X(R, 0x18)        \
    X(R, 0x20) X(R, 0x21) X(R, 0x22) X(R, 0x24) X(R, 0x28) X(R, 0x30) X(R, 0x40) X(R, 0x41)        \
    X(R, 0x42) X(R, 0x44) X(R, 0x48) X(R, 0x50) X(R, 0x60) X(R, 0x80) X(R, 0x81) X(R, 0x82)        \
    X(R, 0x84) X(R, 0x88) X(R, 0x90) X(R, 0xa0) X(R, 0xc0) X(R, 0xff)
#define WALSH_MASKS4(X, R) X(R, 0xffff)

/* Radix-2^R passes: levels lo .. lo + R - 1 (h = 2^lo) on each listed block of 2^R h vectors;
 * a sub-block whose bit of the block's mask is clear is read as zeros (walsh_plan): by a loop
 * for that mask (WALSH_MASKS##R), else by ANDing each load with the mask's lanes. */
#define WALSH_LOAD_KEPT(k, v) VAND((v), keep[k])
#define WALSH_PASS(R)                                                                   \
static void WN(pass##R)(V *WALSH_RESTRICT a, const int32_t *blocks, const uint16_t *masks,      \
                        ptrdiff_t count, ptrdiff_t h) {                                 \
    const V zero = WN(vsplat)(0);                                                       \
    for (ptrdiff_t i = 0; i < count; i++) {                                            \
        V *WALSH_RESTRICT block = a + blocks[i];                                       \
        unsigned mask = masks[i];                                                      \
        switch (mask) {                                                                \
        WALSH_MASKS##R(WALSH_MASK_CASE, R)                                             \
        default: break;                                                                \
        }                                                                              \
        V keep[1 << R];                                                                \
        WALSH_UNROLL for (int k = 0; k < (1 << R); k++)                                \
            keep[k] = (mask >> k & 1) ? WN(vsplat)((WT)-1) : zero;                     \
        WALSH_BLOCK_LEVELS(R, WALSH_LOAD_KEPT)                                         \
    }                                                                                  \
}
WALSH_PASS(1)
WALSH_PASS(2)
WALSH_PASS(3)
#if WALSH_MAX_RADIX_BITS >= 4
WALSH_PASS(4)
#endif
#undef WALSH_PASS
#undef WALSH_LOAD_KEPT
#undef WALSH_MASK_CASE
#undef WALSH_LOAD_IF_SET
#undef WALSH_BLOCK_LEVELS
#undef WALSH_MASKS1
#undef WALSH_MASKS2
#undef WALSH_MASKS3
#undef WALSH_MASKS4

/* One pass of the plan on the blocks first .. stop - 1 of its list. */
static void WN(run_pass)(V *a, const walsh_pass *pass, ptrdiff_t first, ptrdiff_t stop) {
    const int32_t *blocks = pass->blocks + first;
    const uint16_t *masks = pass->masks + first;
    ptrdiff_t count = stop - first, h = (ptrdiff_t)1 << pass->lo;
    switch (pass->r) {
#if WALSH_MAX_RADIX_BITS >= 4
    case 4: WN(pass4)(a, blocks, masks, count, h); break;
#endif
    case 3: WN(pass3)(a, blocks, masks, count, h); break;
    case 2: WN(pass2)(a, blocks, masks, count, h); break;
    default: WN(pass1)(a, blocks, masks, count, h); break;
    }
}

/* Run the blocks of pass p that start below `end` and have not run yet (next[p]: the first). */
static void WN(run_until)(V *a, const walsh_plan *plan, ptrdiff_t *next, int p, ptrdiff_t end) {
    const walsh_pass *pass = &plan->pass[p];
    ptrdiff_t stop = next[p];
    while (stop < pass->count && pass->blocks[stop] < end) stop++;
    if (stop > next[p]) WN(run_pass)(a, pass, next[p], stop);
    next[p] = stop;
}

/* Levels 0 .. b - 1 of each of the 2^f chunks (2^b vectors, `stride` apart), by the plan,
 * chunk by chunk: the levels below `inner` L1 block by L1 block (blocks of WALSH_BLOCK_BYTES,
 * so that every pass after a block's first finds it in the L1 cache; the last inner pass lists
 * the L1 blocks with an entry), then the passes above them.  Blocks with no entry are skipped
 * and read as zeros by the passes above (walsh_plan). */
static void WN(transform_planned)(V *a, const walsh_plan *plan, int f, ptrdiff_t chunk, ptrdiff_t stride) {
    ptrdiff_t next[WALSH_MAX_PASSES] = {0};
    int inner_passes = plan->inner_passes;
    ptrdiff_t size = (ptrdiff_t)1 << plan->inner;
    for (ptrdiff_t q = 0; q < ((ptrdiff_t)1 << f); q++) {
        ptrdiff_t end = q * stride + chunk;
        if (inner_passes > 0) {
            const walsh_pass *outer = &plan->pass[inner_passes - 1];
            while (next[inner_passes - 1] < outer->count && outer->blocks[next[inner_passes - 1]] < end) {
                ptrdiff_t block_end = outer->blocks[next[inner_passes - 1]] + size;
                for (int p = 0; p < inner_passes; p++) WN(run_until)(a, plan, next, p, block_end);
            }
        }
        for (int p = inner_passes; p < plan->passes; p++) WN(run_until)(a, plan, next, p, end);
    }
}

/* The best sum so far in every lane, clipped to the counter range: what a bound or a sum must
 * be at most to be offered. */
WALSH_INLINE V WN(threshold)(const walsh_best *best) {
    const WT big = (WT)WALSH_T_MAX;
    return WN(vsplat)((WT)(best->sum < big ? best->sum : big));
}

/* The cold path of the final levels, for a group whose bound may match or beat the best: x,
 * its 2^f vectors with none of the f levels done (vector k at low = p + k * chunk), in place.
 * Above three levels, the top level is done, which leaves two groups of 2^(f-1) vectors with
 * the levels below still to do (the second at low = p + 2^(f-1) chunk), and each is bounded as
 * its whole was and refined only if its bound still may match or beat the best.  At three or
 * fewer the levels are done and, when some lane of their minimum matches or beats the best,
 * every sum <= the best is offered lane by lane (c = base | lane << m | low, lanes below
 * nlanes only).  A half's bound stays in the counter range as the whole's does:
 * |x_k +- x_(k + half)| <= |x_k| + |x_(k + half)|. */
static void WN(offer_group)(V *x, int f, ptrdiff_t p, ptrdiff_t chunk, int m, int nlanes, uint64_t base,
                            walsh_best *best) {
    if (f > 3) {
        int half = 1 << (f - 1);
        for (int k = 0; k < half; k++) BF(x[k], x[k + half]);
        for (int h = 0; h < 2; h++) {
            V *y = x + h * half;
            V bound = y[0];
            for (int k = 1; k < half; k++) bound = VSUB(bound, VABS(y[k]));
            if (VANY_LE(bound, WN(threshold)(best)))
                WN(offer_group)(y, f - 1, p + h * half * chunk, chunk, m, nlanes, base, best);
        }
        return;
    }
    for (int l = 0; l < f; l++)
        for (int k = 0; k < (1 << f); k++)
            if (!(k & (1 << l))) BF(x[k], x[k | (1 << l)]);
    V vm = x[0];
    for (int k = 1; k < (1 << f); k++) vm = VMIN(vm, x[k]);
    if (!VANY_LE(vm, WN(threshold)(best))) return;
    for (int k = 0; k < (1 << f); k++)
        for (int lane = 0; lane < nlanes; lane++) {
            int64_t s = VLANE(x[k], lane);
            if (s <= best->sum)
                walsh_offer(best, s, base | ((uint64_t)lane << m) | (uint64_t)(p + k * chunk));
        }
}

/* Group p's 2^F vectors gathered (vector k at p + k * stride) and refined by offer_group:
 * the cold path of a group whose bound may match or beat the best. */
static void WN(refine_group)(const V *a, int F, ptrdiff_t p, ptrdiff_t groups, ptrdiff_t stride, int m,
                             int nlanes, uint64_t base, walsh_best *best) {
    V x[1 << WALSH_MAX_FINAL_BITS];
    for (int k = 0; k < (1 << F); k++) x[k] = a[p + k * stride];
    WN(offer_group)(x, F, p, groups, m, nlanes, base, best);
}

/* The final F levels with the minimum over the 2^m x nlanes sums of one task, by a bound
 * first.  The array holds 2^F chunks of `groups` vectors, `stride` apart; group p is vector
 * p of each chunk, x_0 .. x_(2^F - 1), and its 2^F sums are x_0 +- x_1 +- ... +- x_(2^F - 1), each
 * >= x_0 - |x_1| - ... - |x_(2^F - 1)|.  That bound costs an absolute value and a subtraction a
 * vector where the levels cost F butterflies and a minimum; it is above the best in nearly
 * every group of a search with a good bound (walsh_final_bits has the shares), and only a
 * group where some lane's bound matches or beats the best goes through the levels
 * (refine_group).  The bounds of WALSH_TILE neighbouring groups are made together, a chunk's
 * row of them at a time through one pointer, so that they stay in registers (a group at a
 * time, the compiler kept the 2^F - 1 addresses on the stack), and compared with the best
 * through their minimum.  Nothing is written: the next task's passes overwrite what they
 * read (walsh_plan).  The bound stays in the counter range: the |x_k| sum to at most the sum
 * of |val|, which the counter type holds. */
#define WALSH_FINAL(F)                                                                  \
static void WN(final##F)(V *WALSH_RESTRICT a, ptrdiff_t groups, ptrdiff_t stride, int m, int nlanes, \
                         uint64_t base, walsh_best *best) {                            \
    V thr = WN(threshold)(best);                                                        \
    ptrdiff_t p = 0;                                                                    \
    for (; p + WALSH_TILE <= groups; p += WALSH_TILE) {                                 \
        const V *row = a + p;                                                           \
        V bound[WALSH_TILE];                                                            \
        WALSH_UNROLL for (int t = 0; t < WALSH_TILE; t++) bound[t] = row[t];            \
        for (int k = 1; k < (1 << F); k++) {                                            \
            row += stride;                                                              \
            WALSH_UNROLL for (int t = 0; t < WALSH_TILE; t++)                           \
                bound[t] = VSUB(bound[t], VABS(row[t]));                                \
        }                                                                               \
        V low = bound[0];                                                               \
        WALSH_UNROLL for (int t = 1; t < WALSH_TILE; t++) low = VMIN(low, bound[t]);    \
        if (!VANY_LE(low, thr)) continue;                                               \
        for (int t = 0; t < WALSH_TILE; t++)                                            \
            if (VANY_LE(bound[t], thr)) {                                               \
                WN(refine_group)(a, F, p + t, groups, stride, m, nlanes, base, best);   \
                thr = WN(threshold)(best);                                              \
            }                                                                           \
    }                                                                                   \
    for (; p < groups; p++) {                                                           \
        V bound = a[p];                                                                 \
        for (int k = 1; k < (1 << F); k++) bound = VSUB(bound, VABS(a[p + k * stride])); \
        if (VANY_LE(bound, thr)) {                                                      \
            WN(refine_group)(a, F, p, groups, stride, m, nlanes, base, best);           \
            thr = WN(threshold)(best);                                                  \
        }                                                                               \
    }                                                                                   \
}
WALSH_FINAL(0)
WALSH_FINAL(1)
WALSH_FINAL(2)
WALSH_FINAL(3)
WALSH_FINAL(4)
#if WALSH_MAX_FINAL_BITS >= 5
WALSH_FINAL(5)
#endif
#undef WALSH_FINAL

/* Run `count` tasks: list[i] when `list` is given, else first + i.  Layout: c = task <<
 * (lb + m) | lane << m | low.  With `sums`, each task is searched against its own record
 * (ties with earlier tasks included): sums[i] is the task's smallest sum when that is <=
 * the best before it, else INT64_MAX, and the record is merged into `best`.
 * `scratch` holds the 2^f chunks of 2^b vectors, `stride` = 2^b + WALSH_PAD apart (the
 * padding keeps the final pass's 2^f loads out of one cache set), zeroed when made; after
 * that the plan's passes never read what a task did not write.  `pat` has room for 2^lb
 * vectors.  Entries have val in the counter range and pos = their scatter position in that
 * layout, sorted by it. */
static void WN(walsh_tasks)(const walsh_entry *ent, ptrdiff_t nent, int m, int lb,
                            const uint64_t *list, uint64_t first, uint64_t count, int64_t *sums,
                            const walsh_plan *plan, V *WALSH_RESTRICT scratch, V *WALSH_RESTRICT pat,
                            walsh_best *best) {
    int f = walsh_final_bits(m);
    int b = m - f;
    ptrdiff_t chunk = (ptrdiff_t)1 << b, stride = chunk + WALSH_PAD;
    int nlanes = 1 << lb;
    for (int mid = 0; mid < nlanes; mid++) {
        V v = WN(vsplat)(1);
        for (int lane = 0; lane < WLANES; lane++)
            VLANE(v, lane) = walsh_parity32((uint32_t)(mid & lane)) ? (WT)-1 : (WT)1;
        pat[mid] = v;
    }
    for (uint64_t i = 0; i < count; i++) {
        uint64_t task = list != NULL ? list[i] : first + i;
        walsh_best own = *best;
        walsh_best *record = best;
        if (sums != NULL) {
            own.found = 0;
            record = &own;
        }
        /* the entries come sorted by position: each position's sum is made in a register,
         * restarted at the position's first entry (its `same` is 0, else all ones) and stored
         * after every entry, the last store over the last task's value; no branch on where a
         * position's entries end (their counts vary, and the branch mispredicted) */
        V sum = WN(vsplat)(0);
        for (ptrdiff_t e = 0; e < nent; e++) {
            WT s = (WT)(walsh_parity64(ent[e].top & task) ? -ent[e].val : ent[e].val);
            sum = VADD(VAND(sum, WN(vsplat)((WT)ent[e].same)), VSCALE(pat[ent[e].mid], s));
            scratch[ent[e].pos] = sum;
        }
        WN(transform_planned)(scratch, plan, f, chunk, stride);
        uint64_t base = task << (lb + m);
        switch (f) {
#if WALSH_MAX_FINAL_BITS >= 5
        case 5: WN(final5)(scratch, chunk, stride, m, nlanes, base, record); break;
#endif
        case 4: WN(final4)(scratch, chunk, stride, m, nlanes, base, record); break;
        case 3: WN(final3)(scratch, chunk, stride, m, nlanes, base, record); break;
        case 2: WN(final2)(scratch, chunk, stride, m, nlanes, base, record); break;
        case 1: WN(final1)(scratch, chunk, stride, m, nlanes, base, record); break;
        default: WN(final0)(scratch, chunk, stride, m, nlanes, base, record); break;
        }
        if (sums != NULL) {
            sums[i] = own.found ? own.sum : INT64_MAX;
            if (own.found) walsh_offer(best, own.sum, own.index);
        }
    }
}

/* Entry point: returns 0, or -1 when out of memory.  forms/vals: the sparse histogram
 * (nent entries); d = lb + m + t coordinates; `best` holds the bound on entry; the
 * tasks and `sums` as in walsh_tasks. */
static int WN(walsh_search)(const uint64_t *forms, const int32_t *vals, ptrdiff_t nent,
                            int m, int lb, const uint64_t *list, uint64_t first, uint64_t count,
                            int64_t *sums, walsh_best *best) {
    int f = walsh_final_bits(m);
    int b = m - f;
    size_t chunk = (size_t)1 << b, stride = chunk + WALSH_PAD;
    size_t nvec = stride << f;
    int inner = walsh_block_levels();   /* the levels of an L1 block */
    if (inner > b) inner = b;
    walsh_plan plan;
    size_t positions = (size_t)1 << m;
    walsh_entry *ent = (walsh_entry *)malloc((size_t)(nent > 0 ? nent : 1) * sizeof(walsh_entry));
    size_t *place = (size_t *)calloc(positions + 1, sizeof(size_t));
    void *raw = malloc((nvec + ((size_t)1 << lb) + 1) * sizeof(V));
    if (walsh_plan_make(&plan, forms, nent, m, b, (ptrdiff_t)stride, inner, WALSH_MAX_RADIX_BITS) != 0
            || ent == NULL || place == NULL || raw == NULL) {
        walsh_plan_free(&plan);
        free(ent);
        free(place);
        free(raw);
        return -1;
    }
    V *scratch = (V *)(((uintptr_t)raw + sizeof(V) - 1) & ~(uintptr_t)(sizeof(V) - 1));
    V *pat = scratch + nvec;
    memset(scratch, 0, nvec * sizeof(V));
    /* the entries in order of position (a counting sort on the low m bits), as walsh_tasks wants them */
    for (ptrdiff_t e = 0; e < nent; e++) place[(forms[e] & (positions - 1)) + 1]++;
    for (size_t k = 0; k < positions; k++) place[k + 1] += place[k];
    for (ptrdiff_t e = 0; e < nent; e++) {
        uint64_t low = forms[e] & (positions - 1);
        walsh_entry *out = &ent[place[low]++];
        out->pos = (int32_t)((low >> b) * stride + (low & (chunk - 1)));
        out->mid = (int32_t)((forms[e] >> m) & (((uint64_t)1 << lb) - 1));
        out->top = (lb + m >= 64) ? 0 : forms[e] >> (lb + m);
        out->val = vals[e];
    }
    free(place);
    for (ptrdiff_t e = 0; e < nent; e++) ent[e].same = (e > 0 && ent[e - 1].pos == ent[e].pos) ? -1 : 0;
    WN(walsh_tasks)(ent, nent, m, lb, list, first, count, sums, &plan, scratch, pat, best);
    walsh_plan_free(&plan);
    free(ent);
    free(raw);
    return 0;
}

#undef BF
#undef VADD
#undef VSUB
#undef VSCALE
#undef VMIN
#undef VABS
#undef VAND
#undef VANY_LE
#undef VLANE
#undef V
#undef WLANES
#undef WN
#undef WT
