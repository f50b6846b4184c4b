#define _GNU_SOURCE /* posix_memalign, madvise(MADV_HUGEPAGE) */
#include "sanjego.h"
#include "table_memory.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define BIT(c) ((uint64_t)1 << (c))

_Static_assert(sizeof(SJEntry) == 16, "four table entries per 64-byte cache line");
#define POLL_INTERVAL (1u << 20)
#define CLOCK_INTERVAL (1u << 12)
#ifndef TEMPO_SCORE
#define TEMPO_SCORE 0
#endif

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline int pop_lsb(uint64_t *m)
{
    int c = __builtin_ctzll(*m);
    *m &= *m - 1;
    return c;
}

static int ilog2(uint64_t x)
{
    return x ? 63 - __builtin_clzll(x) : 0;
}

static inline int entry_used(const SJEntry *e)
{
    return e->check != 0 || e->data != 0;
}

static inline int entry_work(const SJEntry *e)
{
    return (int)(e->data >> 48) & 0xFF;
}

static void make_symmetries(SJSolver *S)
{
    int w = S->w, h = S->h;
    S->nsym = 0;
    for (int sw = 0; sw <= (w == h ? 1 : 0); sw++)
        for (int fx = 0; fx < 2; fx++)
            for (int fy = 0; fy < 2; fy++) {
                uint8_t perm[SJ_MAX_CELLS];
                for (int i = 0; i < S->n; i++) {
                    int x = i % w, y = i / w;
                    if (sw) { int t = x; x = y; y = t; }
                    if (fx) x = w - 1 - x;
                    if (fy) y = h - 1 - y;
                    perm[i] = (uint8_t)(x + y * w);
                }
                int dup = 0;
                for (int s = 0; s < S->nsym && !dup; s++)
                    dup = memcmp(S->sym[s], perm, (size_t)S->n) == 0;
                if (dup) continue;
                if (!S->use_symmetry && S->nsym == 1) continue;
                memcpy(S->sym[S->nsym], perm, (size_t)S->n);
                for (int i = 0; i < S->n; i++) S->syminv[S->nsym][perm[i]] = (uint8_t)i;
                S->nsym++;
            }
}

/* The keys toggle needs, laid out by symmetry: the ones a tower changes lie in two cache
 * lines, where zob[sym[s][cell]] spreads them over nsym (measured: see the README). */
static inline size_t sym_keys_bytes(const SJSolver *S)
{
    return (size_t)2 * S->n * (SJ_MAX_CELLS + 1) * 2 * 2 * SJ_MAX_SYMS * sizeof(uint64_t);
}

static inline const uint64_t *sym_keys(const SJSolver *S, int head, int cell, int height, int owner)
{
    return S->zsym + ((((size_t)head * S->n + cell) * (SJ_MAX_CELLS + 1) + height) * 2 + owner) * 2 * SJ_MAX_SYMS;
}

/* Fills S->zsym from zob, zhead and the symmetries (once they are known). */
static int make_sym_keys(SJSolver *S)
{
    S->zsym = calloc(1, sym_keys_bytes(S));
    if (!S->zsym) return 0;
    for (int head = 0; head < 2; head++)
        for (int c = 0; c < S->n; c++)
            for (int k = 0; k <= SJ_MAX_CELLS; k++) /* as zob: any height a position may hold */
                for (int o = 0; o < 2; o++) {
                    uint64_t *z = (uint64_t *)sym_keys(S, head, c, k, o);
                    for (int s = 0; s < S->nsym; s++) {
                        const SJZob *src = head ? &S->zhead[S->sym[s][c]][k][o] : &S->zob[S->sym[s][c]][k][o];
                        z[s] = src->a;
                        z[SJ_MAX_SYMS + s] = src->b;
                    }
                }
    return 1;
}

/* Everything but the geometry: measure, keys and the table. */
/* Measured (session 21): 8 to 4096 give the same nodes within 1 %; 16 lifts a move
 * that takes the reply away over the others of its class (captures 256 apart). */
#define REFUTE_BONUS 16

static SJSolver *alloc_solver(int n, int measure, uint64_t table_bytes, uint64_t seed)
{
    if (n < 1 || n > SJ_MAX_CELLS) return NULL;
    if (measure != SJ_MARGIN && measure != SJ_OUTCOME) return NULL;
    SJSolver *S = calloc(1, sizeof *S);
    if (!S) return NULL;
    S->n = n; S->measure = measure;
    S->reduce_groups = measure == SJ_MARGIN;
    S->table_min_towers = 5; /* measured: fewer table misses outweigh the extra nodes */
    /* Measured: from 16 towers on 6x4 and 5x5 (-15% and -4% time); deeper on bigger boards,
     * from about the tenth ply (8x4 after 5 plies, 22 against 16: -14% time; 6x5 after 4
     * plies, 20 against 16: -14%), where the probes of many small subtrees cost more. */
    S->etc_min_towers = n - 10 > 16 ? n - 10 : 16;
    S->refute_bonus = REFUTE_BONUS;
    /* Measured (session 27, 16 GB table): a probe into a big table misses the caches
     * and the TLB, and most probes are of small positions, whose subtrees are cheap to
     * search again. Kept in the table's first 512 MB (it stays in the caches), positions of
     * at most 20 towers cost 6x6 after 5 plies 12-15 % more nodes at 45-55 % more nodes
     * per second: -21 % worker time. */
    S->near_towers = 20;
    S->near_buckets = (uint64_t)1 << 23; /* 512 MB */
    S->board_mask = n == 64 ? ~(uint64_t)0 : BIT(n) - 1;
    /* Head-tower keys come last so that the keys of the plain game do not depend on them. */
    uint64_t rng = seed;
    for (int c = 0; c < SJ_MAX_CELLS; c++)
        for (int k = 0; k <= SJ_MAX_CELLS; k++)
            for (int o = 0; o < 2; o++) {
                S->zob[c][k][o].a = splitmix64(&rng);
                S->zob[c][k][o].b = splitmix64(&rng);
            }
    for (int o = 0; o < 2; o++)
        for (int j = 0; j < 2; j++)
            for (int k = 0; k <= SJ_MAX_CELLS; k++) {
                S->zbank[o][j][k].a = splitmix64(&rng);
                S->zbank[o][j][k].b = splitmix64(&rng);
            }
    S->zside.a = splitmix64(&rng);
    S->zside.b = splitmix64(&rng);
    for (int o = 0; o < 2; o++)
        for (int k = 0; k <= SJ_MAX_CELLS; k++) {
            S->ztempo[o][k].a = splitmix64(&rng);
            S->ztempo[o][k].b = splitmix64(&rng);
        }
    for (int c = 0; c < SJ_MAX_CELLS; c++)
        for (int k = 0; k <= SJ_MAX_CELLS; k++)
            for (int o = 0; o < 2; o++) {
                S->zhead[c][k][o].a = splitmix64(&rng);
                S->zhead[c][k][o].b = splitmix64(&rng);
            }
    S->zgroup.a = splitmix64(&rng);
    S->zgroup.b = splitmix64(&rng);
    uint64_t buckets = 1;
    while (buckets * 2 * 4 * sizeof(SJEntry) <= table_bytes) buckets *= 2;
    S->table_buckets = buckets;
    S->table_owned = 1;
    S->table = table_alloc(buckets * 4 * sizeof(SJEntry));
    S->clock = &S->own_clock;
    /* Off by default (age_weight 0: the least work goes). Aging pays where searches are
     * short against the table and follow one another, as a run's sub-proofs do, and costs
     * in one search that outlasts many generations (see solver/sanjego/parallel.py). */
    S->age_shift = ilog2(buckets * 4) + 2;
    S->group_memo = calloc(SJ_GROUP_MEMO_SIZE, sizeof *S->group_memo);
    if (!S->table || !S->group_memo) { free(S->table); free(S->group_memo); free(S); return NULL; }
    return S;
}

SJSolver *sj_new(int w, int h, int measure, uint64_t table_bytes, uint64_t seed, int use_symmetry)
{
    if (w < 1 || h < 1 || w * h > SJ_MAX_CELLS) return NULL;
    SJSolver *S = alloc_solver(w * h, measure, table_bytes, seed);
    if (!S) return NULL;
    S->w = w; S->h = h; S->grid = 1;
    /* Measured (idle machine): time -16% (6x4), -30% (5x5), -33% (8x4 after 6 plies). Off with the
     * symmetries: such a core keys every tower by its cell, for checks independent of both. */
    S->free_group_max = use_symmetry ? SJ_FREE_GROUP_MAX : 0;
    S->use_symmetry = use_symmetry;
    uint64_t col0 = 0, collast = 0;
    for (int r = 0; r < h; r++) { col0 |= BIT(r * w); collast |= BIT(r * w + w - 1); }
    S->not_col0 = S->board_mask & ~col0;
    S->not_collast = S->board_mask & ~collast;
    for (int i = 0; i < S->n; i++) {
        int x = i % w, y = i / w;
        uint64_t m = 0;
        if (x > 0) m |= BIT(i - 1);
        if (x < w - 1) m |= BIT(i + 1);
        if (y > 0) m |= BIT(i - w);
        if (y < h - 1) m |= BIT(i + w);
        S->nb[i] = m;
    }
    make_symmetries(S);
    if (!make_sym_keys(S)) { sj_free(S); return NULL; }
    return S;
}

static int is_automorphism(int n, const uint64_t *nb, const uint8_t *perm)
{
    uint64_t seen = 0;
    for (int c = 0; c < n; c++) {
        if (perm[c] >= n || (seen >> perm[c]) & 1) return 0;
        seen |= BIT(perm[c]);
    }
    for (int c = 0; c < n; c++)
        for (int d = 0; d < n; d++)
            if (((nb[c] >> d) & 1) != ((nb[perm[c]] >> perm[d]) & 1)) return 0;
    return 1;
}

SJSolver *sj_new_graph(int n, const uint64_t *nb, int nsym, const uint8_t *syms, int measure,
                       uint64_t table_bytes, uint64_t seed)
{
    if (n < 1 || n > SJ_MAX_CELLS || nsym < 1 || nsym > SJ_MAX_SYMS) return NULL;
    uint64_t mask = n == 64 ? ~(uint64_t)0 : BIT(n) - 1;
    int pairs = 0;
    for (int c = 0; c < n; c++) pairs += __builtin_popcountll(nb[c]);
    if (pairs > SJ_MAX_MOVES) return NULL;
    for (int c = 0; c < n; c++) {
        if ((nb[c] & ~mask) || ((nb[c] >> c) & 1)) return NULL;
        for (int d = 0; d < n; d++)
            if (((nb[c] >> d) & 1) != ((nb[d] >> c) & 1)) return NULL;
    }
    for (int c = 0; c < n; c++)
        if (syms[c] != c) return NULL;
    for (int s = 0; s < nsym; s++)
        if (!is_automorphism(n, nb, syms + (size_t)s * n)) return NULL;
    SJSolver *S = alloc_solver(n, measure, table_bytes, seed);
    if (!S) return NULL;
    S->grid = 0;
    S->use_symmetry = nsym > 1;
    memcpy(S->nb, nb, (size_t)n * sizeof *nb);
    S->nsym = nsym;
    for (int s = 0; s < nsym; s++) {
        memcpy(S->sym[s], syms + (size_t)s * n, (size_t)n);
        for (int i = 0; i < n; i++) S->syminv[s][S->sym[s][i]] = (uint8_t)i;
    }
    if (!make_sym_keys(S)) { sj_free(S); return NULL; }
    return S;
}

void sj_set_heads(SJSolver *S, int on)
{
    S->heads = on != 0;
    S->reduce_groups = !S->heads && S->measure == SJ_MARGIN;
}

void sj_free(SJSolver *S)
{
    if (!S) return;
    if (S->table_owned) free(S->table);
    free(S->group_memo);
    free(S->zsym);
    free(S->book);
    free(S);
}

SJSolver *sj_new_sharing(const SJSolver *owner)
{
    SJSolver *S = malloc(sizeof *S);
    if (!S) return NULL;
    *S = *owner;
    S->table_owned = 0;
    S->group_memo = calloc(SJ_GROUP_MEMO_SIZE, sizeof *S->group_memo); /* one per thread */
    S->zsym = malloc(sym_keys_bytes(S));
    if (!S->group_memo || !S->zsym) { free(S->group_memo); free(S->zsym); free(S); return NULL; }
    memcpy(S->zsym, owner->zsym, sym_keys_bytes(S));
    S->nodes = S->tt_hits = S->tt_stores = 0;
    S->stop = 0;
    S->book = NULL; /* each thread has its own */
    S->order_hints = NULL; /* each thread sets its own */
    S->hints_same_keys = 0;
    S->hint_hits = 0;
    S->book_len = S->book_cap = 0;
    S->poll = NULL;
    S->poll_ctx = NULL;
    return S;
}

void sj_clear_table(SJSolver *S)
{
    memset(S->table, 0, S->table_buckets * 4 * sizeof(SJEntry));
}

static inline int owner_of(const SJPos *p, int c)
{
    return (p->own0 >> c) & 1 ? 0 : 1;
}

/* The owner, plus 2 for a head-tower: the last index of the Zobrist keys. */
static inline int key_owner(const SJPos *p, int c)
{
    return owner_of(p, c) | (int)((p->head >> c) & 1) << 1;
}

/* owner: 0 or 1, plus 2 for a head-tower (see key_owner). */
static inline void toggle(const SJSolver *S, SJPos *p, int cell, int height, int owner)
{
    if ((p->free >> cell) & 1) return; /* keyed by its group's code instead */
    const uint64_t *z = sym_keys(S, owner >> 1, cell, height, owner & 1);
    for (int s = 0; s < SJ_MAX_SYMS; s++) {
        p->k1[s] ^= z[s];
        p->k2[s] ^= z[SJ_MAX_SYMS + s];
    }
}

static inline void bank(const SJSolver *S, SJPos *p, int owner, int height)
{
    uint8_t *b = p->best[owner];
    if (S->measure == SJ_MARGIN) {
        if (height > b[0]) b[0] = (uint8_t)height;
    } else if (height > b[0]) {
        b[1] = b[0];
        b[0] = (uint8_t)height;
    } else if (height > b[1]) {
        b[1] = (uint8_t)height;
    }
}

static inline uint64_t expand(const SJSolver *S, uint64_t m)
{
    return ((m << 1) & S->not_col0) | ((m >> 1) & S->not_collast)
         | ((m << S->w) & S->board_mask) | (m >> S->w);
}

static inline uint64_t group_of(const SJSolver *S, uint64_t occ, uint64_t seed)
{
    uint64_t group = seed;
    if (S->grid) {
        uint64_t prev;
        do {
            prev = group;
            group |= expand(S, group) & occ;
        } while (group != prev);
        return group;
    }
    uint64_t frontier = seed;
    while (frontier) {
        uint64_t next = 0;
        while (frontier) next |= S->nb[pop_lsb(&frontier)];
        frontier = next & occ & ~group;
        group |= frontier;
    }
    return group;
}

/* The group through seed when all its towers have one owner; otherwise part of it,
 * found before the flood fill met both owners. */
static inline uint64_t one_owner_group(const SJSolver *S, const SJPos *p, uint64_t seed, int *mixed)
{
    uint64_t occ = p->occ, own0 = p->own0;
    uint64_t group = seed, frontier = seed;
    int first = (seed & own0) != 0;
    uint64_t other = first ? occ & ~own0 : occ & own0;
    *mixed = 1;
    while (frontier) {
        uint64_t next;
        if (S->grid) {
            next = expand(S, frontier);
        } else {
            next = 0;
            uint64_t f = frontier;
            while (f) next |= S->nb[pop_lsb(&f)];
        }
        if (next & other) return group;
        frontier = next & occ & ~group;
        group |= frontier;
    }
    *mixed = 0;
    return group;
}

/* Only the difference of the two tempo counts matters: while both players
 * have one, a tempo move can be answered by a tempo move, which restores the
 * position (a mirror strategy proves both values equal; with group reduction
 * no one is ever forced to spend one). And a surplus beyond the number of
 * active towers can never be used: each spare move must be answered by a real
 * move of the opponent, which removes a tower. */
static inline void normalize_tempo(SJPos *p)
{
    int m = p->tempo[0] < p->tempo[1] ? p->tempo[0] : p->tempo[1];
    int cap = __builtin_popcountll(p->occ);
    for (int o = 0; o < 2; o++) {
        int t = p->tempo[o] - m;
        p->tempo[o] = (uint8_t)(t < cap ? t : cap);
    }
}

/* The group keys below read a tower as (height, owner plus 2 for a head), 10 bits. */
static inline uint64_t tower_label(const SJPos *p, int c)
{
    return (uint64_t)p->height[c] << 2 | (uint64_t)key_owner(p, c);
}

static inline void sort_labels(uint64_t *l, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && l[j - 1] > l[j]; j--) { uint64_t t = l[j]; l[j] = l[j - 1]; l[j - 1] = t; }
}

/* The cells of a path (from the end `at`) or of a cycle (from `at`): each next cell is the
 * neighbour not yet taken. Indices into cell[]. */
static inline void walk(const SJSolver *S, uint64_t g, const int *cell, int n, int at, int *order)
{
    uint64_t taken = 0;
    for (int k = 0; k < n; k++) {
        order[k] = at;
        taken |= BIT(cell[at]);
        uint64_t next = S->nb[cell[at]] & g & ~taken;
        if (!next) break;
        int c = __builtin_ctzll(next);
        for (int i = 0; i < n; i++) if (cell[i] == c) at = i;
    }
}

/* A code of the group g (2 to 5 towers of a grid board) that two groups share exactly when
 * one is the other's image under an isomorphism of their adjacency graphs that keeps every
 * tower's height and owner (and head). Groups never interact and a group's future depends
 * on nothing but that labelled graph, so such groups are worth the same wherever they lie.
 * On a grid these graphs are bipartite, and the degrees tell them apart: of 2 or 3 towers
 * the path; of 4 the path, the star and the 4-cycle (a 2x2 block); of 5 the path, the star,
 * the chair (a centre with legs of 2, 1 and 1) and the banner (a 4-cycle and a pendant).
 * Each code lists the labels in an order fixed by the graph, taking the least order where
 * the graph has symmetries (a path read both ways, a cycle from every cell both ways,
 * leaves that may be swapped sorted). */
static uint64_t group_code(const SJSolver *S, const SJPos *p, uint64_t g)
{
    int cell[5] = {0}, deg[5] = {0}, n = 0;
    uint64_t lab[5];
    for (uint64_t m = g; m && n < 5;) {
        int c = pop_lsb(&m);
        cell[n] = c;
        lab[n] = tower_label(p, c);
        deg[n] = __builtin_popcountll(S->nb[c] & g);
        n++;
    }
    int top = 0, end = -1, degree_sum = 0;
    for (int i = 0; i < n; i++) {
        degree_sum += deg[i];
        if (deg[i] > deg[top]) top = i;
        if (deg[i] == 1 && end < 0) end = i;
    }
    uint64_t kind = (uint64_t)n << 60, code;
    if (n == 1) return kind | lab[0]; /* not reached: a lone tower is banked at once */
    uint64_t l[5];
    int order[5] = {0, 1, 2, 3, 4};
    if (deg[top] == n - 1 && n > 2) { /* a star (the path of 3 is one): centre, sorted leaves */
        int k = 0;
        for (int i = 0; i < n; i++) if (i != top) l[k++] = lab[i];
        sort_labels(l, k);
        code = lab[top];
        for (int i = 0; i < k; i++) code = code << 10 | l[i];
        return kind | (uint64_t)1 << 57 | code;
    }
    if (degree_sum == 2 * (n - 1) && deg[top] <= 2) { /* a path: from the end that reads least */
        walk(S, g, cell, n, end, order);
        uint64_t fwd = 0, bwd = 0;
        for (int i = 0; i < n; i++) {
            fwd = fwd << 10 | lab[order[i]];
            bwd = bwd << 10 | lab[order[n - 1 - i]];
        }
        return kind | (uint64_t)2 << 57 | (fwd < bwd ? fwd : bwd);
    }
    if (n == 4) { /* the 4-cycle: every rotation, both ways */
        walk(S, g, cell, n, 0, order);
        uint64_t best = ~(uint64_t)0;
        for (int r = 0; r < 4; r++) {
            uint64_t fwd = 0, bwd = 0;
            for (int i = 0; i < 4; i++) {
                fwd = fwd << 10 | lab[order[(r + i) % 4]];
                bwd = bwd << 10 | lab[order[(r + 4 - i) % 4]];
            }
            if (fwd < best) best = fwd;
            if (bwd < best) best = bwd;
        }
        return kind | (uint64_t)3 << 57 | best;
    }
    /* Five towers with a centre of degree 3 (top): the chair, or the banner. */
    int near[3] = {0, 0, 0}, k = 0;
    for (int i = 0; i < n; i++)
        if (i != top && (S->nb[cell[top]] >> cell[i] & 1)) near[k++] = i;
    if (degree_sum == 8) { /* chair: centre, the leg of 2 (inner, outer cell), the two leaves sorted */
        int inner = deg[near[0]] == 2 ? near[0] : deg[near[1]] == 2 ? near[1] : near[2], outer = -1, j = 0;
        for (int i = 0; i < n; i++)
            if (i != top && i != inner && (S->nb[cell[inner]] >> cell[i] & 1)) outer = i;
        for (int i = 0; i < 3; i++) if (near[i] != inner) l[j++] = lab[near[i]];
        sort_labels(l, 2);
        return kind | (uint64_t)4 << 57 | lab[top] << 40 | lab[inner] << 30 | lab[outer] << 20 | l[0] << 10 | l[1];
    }
    /* banner: pendant, centre, the cycle's cell across from the centre, its two sides sorted */
    int pendant = deg[near[0]] == 1 ? near[0] : deg[near[1]] == 1 ? near[1] : near[2], across = -1, j = 0;
    for (int i = 0; i < n; i++)
        if (i != top && i != pendant && !(S->nb[cell[top]] >> cell[i] & 1)) across = i;
    for (int i = 0; i < 3; i++) if (near[i] != pendant) l[j++] = lab[near[i]];
    sort_labels(l, 2);
    return kind | (uint64_t)5 << 57 | lab[pendant] << 40 | lab[top] << 30 | lab[across] << 20 | l[0] << 10 | l[1];
}

/* The two hashes of group g's code. A move in a group keyed free needs the hash of the
 * group it changed, computed when that group was made a ply before, so the hashes are
 * remembered by the group's exact cells and labels (group_code costs more than the look-up). */
static inline void group_hash(const SJSolver *S, const SJPos *p, uint64_t g, uint64_t *h1, uint64_t *h2)
{
    uint64_t labels = 0;
    for (uint64_t m = g; m;) labels = labels << 10 | tower_label(p, pop_lsb(&m));
    uint64_t slot = ((g * 0x9E3779B97F4A7C15ULL) ^ (labels * 0xC2B2AE3D27D4EB4FULL)) >> (64 - SJ_GROUP_MEMO_BITS);
    SJGroupMemo *e = &S->group_memo[slot];
    if (e->cells == g && e->labels == labels) {
        *h1 = e->h1;
        *h2 = e->h2;
        return;
    }
    uint64_t code = group_code(S, p, g), s1 = code ^ S->zgroup.a, s2 = code ^ S->zgroup.b;
    *h1 = splitmix64(&s1);
    *h2 = splitmix64(&s2);
    e->cells = g;
    e->labels = labels;
    e->h1 = *h1;
    e->h2 = *h2;
}

/* The group through seed when it has at most max towers, else 0 (found without
 * flooding a big group further than max + 1 cells' worth of steps). */
static inline uint64_t small_group(const SJSolver *S, uint64_t occ, uint64_t seed, int max)
{
    uint64_t group = seed, frontier = seed;
    while (frontier) {
        uint64_t next = 0;
        if (S->grid) {
            next = expand(S, frontier);
        } else {
            uint64_t f = frontier;
            while (f) next |= S->nb[pop_lsb(&f)];
        }
        frontier = next & occ & ~group;
        group |= frontier;
        if (__builtin_popcountll(group) > max) return 0;
    }
    return group;
}

/* The group g joins the groups keyed free: its code's hash joins the sums p->g1, p->g2
 * (sums, so that equal groups do not cancel). */
static inline void add_free_group(const SJSolver *S, SJPos *p, uint64_t g)
{
    uint64_t h1, h2;
    group_hash(S, p, g, &h1, &h2);
    p->g1 += h1; p->g2 += h2;
    p->free |= g;
}

/* Keys the group g free of its place: its cells leave the keys kept per symmetry. */
static inline void free_group(const SJSolver *S, SJPos *p, uint64_t g)
{
    for (uint64_t m = g; m;) {
        int c = pop_lsb(&m);
        toggle(S, p, c, p->height[c], key_owner(p, c));
    }
    add_free_group(S, p, g);
}

/* Keys free every group of at most S->free_group_max towers through the seeds that is
 * not keyed free yet (groups only ever shrink, so a small group stays small). */
static inline void free_small_groups(const SJSolver *S, SJPos *p, uint64_t seeds)
{
    int max = S->free_group_max < SJ_FREE_GROUP_MAX ? S->free_group_max : SJ_FREE_GROUP_MAX;
    seeds &= p->occ & ~p->free;
    while (seeds) {
        uint64_t seed = seeds & (~seeds + 1);
        uint64_t g = small_group(S, p->occ, seed, max);
        seeds &= ~seed;
        if (g) {
            free_group(S, p, g);
            seeds &= ~g;
        }
    }
}

/* Banks the groups through the candidate towers that can no longer interact
 * with the rest: isolated towers, and with group reduction one-player groups. */
static void bank_groups(const SJSolver *S, SJPos *p, uint64_t candidates)
{
    candidates &= p->occ;
    while (candidates) {
        uint64_t seed = candidates & (~candidates + 1);
        uint64_t group = seed;
        if (S->nb[__builtin_ctzll(seed)] & p->occ) {
            if (!S->heads) {
                if (!S->reduce_groups) { candidates &= ~seed; continue; }
                int mixed;
                group = one_owner_group(S, p, seed, &mixed);
                if (mixed) { candidates &= ~group; continue; }
            } else {
                group = group_of(S, p->occ, seed);
            }
        }
        candidates &= ~group;
        if (group != seed && (group & ~p->head) == 0) {
            /* Two head-towers that touch only each other: neither can ever move. */
            p->occ &= ~group;
            p->head &= ~group;
            while (group) {
                int c = pop_lsb(&group);
                int o = owner_of(p, c);
                toggle(S, p, c, p->height[c], o | 2);
                bank(S, p, o, p->height[c]);
                p->active -= p->height[c];
                p->height[c] = 0;
            }
            p->own0 = p->own0 & p->occ;
            continue;
        }
        uint64_t mine0 = group & p->own0;
        if (mine0 && mine0 != group) continue;
        if (group != seed && !S->reduce_groups) continue;
        int o = mine0 ? 0 : 1, total = 0;
        uint64_t heads = group & p->head;
        p->occ &= ~group;
        p->own0 &= ~group;
        p->head &= ~group;
        while (group) {
            int c = pop_lsb(&group);
            toggle(S, p, c, p->height[c], o | (int)((heads >> c) & 1) << 1);
            total += p->height[c];
            p->height[c] = 0;
            if (group) p->tempo[o]++;
        }
        bank(S, p, o, total);
        p->active -= total;
    }
    normalize_tempo(p);
}

void sj_load(const SJSolver *S, SJPos *p, const uint8_t *heights, const uint8_t *owners, int side)
{
    memset(p, 0, sizeof *p);
    p->side = side;
    for (int c = 0; c < S->n; c++) {
        if (!heights[c]) continue;
        p->occ |= BIT(c);
        int owner = owners[c] & (S->heads ? 3 : 1); /* head marks count only with heads on */
        if ((owner & 1) == 0) p->own0 |= BIT(c);
        if (owner & 2) p->head |= BIT(c);
        p->height[c] = heights[c];
        p->active += heights[c];
        toggle(S, p, c, heights[c], owner);
    }
    bank_groups(S, p, p->occ);
    if (S->free_group_max) free_small_groups(S, p, p->occ);
}

static inline uint64_t movable(const SJPos *p)
{
    return p->side == 0 ? p->occ & p->own0 : p->occ & ~p->own0;
}

/* Whether the side to move has a move. Without heads every active tower has one. */
static inline int can_move(const SJSolver *S, const SJPos *p)
{
    uint64_t mine = movable(p);
    if (!S->heads) return mine != 0;
    uint64_t targets = p->occ & ~p->head;
    while (mine)
        if (S->nb[pop_lsb(&mine)] & targets) return 1;
    return 0;
}

int sj_moves(const SJSolver *S, const SJPos *p, uint8_t *from, uint8_t *to)
{
    int n = 0;
    uint64_t mine = movable(p);
    while (mine) {
        int f = pop_lsb(&mine);
        uint64_t targets = S->nb[f] & p->occ & ~p->head;
        while (targets) {
            from[n] = (uint8_t)f;
            to[n] = (uint8_t)pop_lsb(&targets);
            n++;
        }
    }
    return n;
}

void sj_play(const SJSolver *S, const SJPos *p, SJPos *q, int from, int to)
{
    *q = *p;
    int side = p->side;
    int hf = p->height[from], ht = p->height[to];
    int moved = key_owner(p, from); /* side, plus 2 when the head rides along */
    /* A move in a group keyed free: the group leaves the sums now and its remains join
     * them again below (toggle skips its cells meanwhile). */
    uint64_t was_free = (p->free >> from) & 1 ? group_of(S, p->occ, BIT(from)) : 0;
    if (was_free) {
        uint64_t h1, h2;
        group_hash(S, p, was_free, &h1, &h2);
        q->g1 -= h1; q->g2 -= h2;
    }
    toggle(S, q, from, hf, moved);
    toggle(S, q, to, ht, owner_of(p, to));
    q->occ &= ~BIT(from);
    q->own0 &= ~BIT(from);
    if (moved & 2) q->head ^= BIT(from) | BIT(to);
    q->height[from] = 0;
    q->height[to] = (uint8_t)(hf + ht);
    if (side == 0) q->own0 |= BIT(to); else q->own0 &= ~BIT(to);
    toggle(S, q, to, hf + ht, moved);
    bank_groups(S, q, S->nb[from]);
    q->free &= q->occ;
    if (was_free) {
        /* The remains are small and never joined the per-symmetry keys: no toggles. */
        uint64_t rest = was_free & q->occ;
        q->free &= ~rest;
        while (rest) {
            uint64_t g = group_of(S, q->occ, rest & (~rest + 1));
            rest &= ~g;
            add_free_group(S, q, g);
        }
    } else if (S->free_group_max) {
        free_small_groups(S, q, S->nb[from]);
    }
    q->side = side ^ 1;
}

static uint64_t perft(const SJSolver *S, const SJPos *p, int depth)
{
    if (depth == 0 || p->occ == 0) return 1;
    if (!can_move(S, p)) {
        SJPos q = *p;
        q.side ^= 1;
        return perft(S, &q, depth - 1);
    }
    uint8_t from[SJ_MAX_MOVES], to[SJ_MAX_MOVES];
    int n = sj_moves(S, p, from, to);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        SJPos q;
        sj_play(S, p, &q, from[i], to[i]);
        total += perft(S, &q, depth - 1);
    }
    return total;
}

uint64_t sj_perft(SJSolver *S, const uint8_t *heights, const uint8_t *owners, int side, int depth)
{
    int reduce = S->reduce_groups, free = S->free_group_max;
    S->reduce_groups = S->free_group_max = 0; /* perft uses no keys */
    SJPos p;
    sj_load(S, &p, heights, owners, side);
    uint64_t n = perft(S, &p, depth);
    S->reduce_groups = reduce;
    S->free_group_max = free;
    return n;
}

static int eval_final(const SJSolver *S, const SJPos *p)
{
    const uint8_t *a = p->best[0], *b = p->best[1];
    if (S->measure == SJ_MARGIN) return a[0] - b[0];
    if (a[0] != b[0]) return a[0] > b[0] ? 2 : -2;
    if (a[1] != b[1]) return a[1] > b[1] ? 1 : -1;
    return 0;
}

/* Pieces in the largest group of connected active towers: no tower can grow taller.
 * The bounds use it only through max(best, it) for each player's tallest banked tower, so
 * the search stops as soon as the answer can no longer change them: once the towers not yet
 * grouped hold no more than the largest group found, or no more than either player's best
 * (with that group no taller). And past limit no cut-off can come of it: the first group
 * of more than limit gives all active pieces, a bound as good for that purpose. */
static int largest_group(const SJSolver *S, const SJPos *p, int limit)
{
    int least_best = p->best[0][0] < p->best[1][0] ? p->best[0][0] : p->best[1][0];
    uint64_t rest = p->occ;
    int largest = 0, left = p->active;
    while (rest) {
        if (left <= largest) return largest;
        if (left <= least_best) return left; /* every group left, and the largest, below both */
        uint64_t group = group_of(S, p->occ, rest & (~rest + 1));
        rest &= ~group;
        int sum = 0;
        while (group) sum += p->height[pop_lsb(&group)];
        if (sum > limit) return p->active;
        if (sum > largest) largest = sum;
        left -= sum;
    }
    return largest;
}

/* The tallest tower the side to move can bank at once: a move onto a tower whose
 * other neighbours are all empty leaves it isolated. */
static int bank_now(const SJSolver *S, const SJPos *p)
{
    uint8_t from[SJ_MAX_MOVES], to[SJ_MAX_MOVES];
    int n = sj_moves(S, p, from, to), x = 0;
    for (int i = 0; i < n; i++) {
        int f = from[i], t = to[i];
        if ((S->nb[t] & p->occ & ~BIT(f)) == 0 && p->height[f] + p->height[t] > x)
            x = p->height[f] + p->height[t];
    }
    return x;
}

/* Bounds for a largest group of g (and x = bank_now(S, p), margin only). */
static void bounds_with(const SJSolver *S, const SJPos *p, int x, int g, int *lo, int *hi);

/* The players' tallest banked towers, counting x, the tower the side to move can bank at once. */
static inline void banked_with_now(const SJPos *p, int x, int *b0, int *b1)
{
    *b0 = p->best[0][0];
    *b1 = p->best[1][0];
    if (p->side == 0 && x > *b0) *b0 = x;
    if (p->side == 1 && x > *b1) *b1 = x;
}

/* sj_bounds, given x = bank_now(S, p) (margin only) and pair, the most pieces of two
 * neighbouring active towers. In a null window the largest group g is found only when it
 * could decide a cut-off: otherwise bounds with g at its most (all active towers in one
 * group) are returned, weaker but still sound. (A wider window is narrowed by the bounds,
 * so there they are exact.) */
static void bounds(const SJSolver *S, const SJPos *p, int x, int pair, int alpha, int beta, int *lo, int *hi)
{
    if (p->occ == 0) { *lo = *hi = eval_final(S, p); return; }
    int g_least = x > pair ? x : pair; /* some group holds a neighbouring pair, and the pair banked now */
    if (g_least < 2) g_least = 2;
    bounds_with(S, p, x, g_least, lo, hi);
    if (beta == alpha + 1 && *lo < beta && *hi > alpha && *lo < *hi) {
        bounds_with(S, p, x, p->active, lo, hi);
        return;
    }
    int limit = p->active;
    if (beta == alpha + 1 && S->measure == SJ_MARGIN && *lo != *hi) {
        /* The largest g that still decides the window: lo = b0' - max(b1, g) >= beta, or
         * hi = max(b0, g) - b1' <= alpha (b0', b1': the banked bests with x counted). */
        int b0 = p->best[0][0], b1 = p->best[1][0], b0x, b1x;
        banked_with_now(p, x, &b0x, &b1x);
        int t_lo = b1 <= b0x - beta ? b0x - beta : -1, t_hi = b0 <= alpha + b1x ? alpha + b1x : -1;
        limit = t_lo > t_hi ? t_lo : t_hi;
    }
    bounds_with(S, p, x, largest_group(S, p, limit), lo, hi);
}

static void bounds_with(const SJSolver *S, const SJPos *p, int x, int g, int *lo, int *hi)
{
    int b0 = p->best[0][0], b1 = p->best[1][0];
    int u0 = b0 > g ? b0 : g, u1 = b1 > g ? b1 : g;
    if (S->measure == SJ_MARGIN) {
        banked_with_now(p, x, &b0, &b1);
        *lo = b0 - u1;
        *hi = u0 - b1;
        return;
    }
    *lo = -2; *hi = 2;
    if (b0 > u1) { *lo = *hi = 2; return; }
    if (u0 < b1) { *lo = *hi = -2; return; }
    if (u0 <= b1) *hi = 1;
    if (u1 <= b0) *lo = -1;
}

void sj_bounds(const SJSolver *S, const SJPos *p, int *lo, int *hi)
{
    if (p->occ == 0) { *lo = *hi = eval_final(S, p); return; }
    int x = S->measure == SJ_MARGIN ? bank_now(S, p) : 0;
    bounds_with(S, p, x, largest_group(S, p, p->active), lo, hi);
}

static inline int canonical(const SJSolver *S, const SJPos *p, uint64_t *key1, uint64_t *key2)
{
    uint64_t e1 = 0, e2 = 0;
    for (int o = 0; o < 2; o++)
        for (int j = 0; j < 2; j++) {
            const SJZob *z = &S->zbank[o][j][p->best[o][j]];
            e1 ^= z->a; e2 ^= z->b;
        }
    if (p->side) { e1 ^= S->zside.a; e2 ^= S->zside.b; }
    for (int o = 0; o < 2; o++) {
        const SJZob *z = &S->ztempo[o][p->tempo[o]];
        e1 ^= z->a; e2 ^= z->b;
    }
    int best = 0;
    for (int s = 1; s < S->nsym; s++)
        if (p->k1[s] < p->k1[best]) best = s;
    *key1 = (p->k1[best] ^ e1) + p->g1;
    *key2 = (p->k2[best] ^ e2) + p->g2;
    return best;
}

/* An entry unpacked. Entries are written as two words, check = lock1 ^ data, and read
 * as two words: a reader that sees half of another thread's write fails the check. */
typedef struct {
    uint16_t lock2;
    int8_t lo, hi;
    uint8_t from, to, work, gen;
} SJSlot;

static inline uint64_t pack(const SJSlot *e)
{
    return (uint64_t)e->lock2 | (uint64_t)(uint8_t)e->lo << 16 | (uint64_t)(uint8_t)e->hi << 24
         | (uint64_t)e->from << 32 | (uint64_t)e->to << 40 | (uint64_t)e->work << 48
         | (uint64_t)e->gen << 56;
}

/* Reads entry i of a bucket; returns 1 when it holds the position (key1, lock2). */
static inline int read_entry(const SJEntry *bucket, int i, uint64_t key1, uint16_t lock2, SJSlot *out)
{
    uint64_t check = __atomic_load_n(&bucket[i].check, __ATOMIC_RELAXED);
    uint64_t data = __atomic_load_n(&bucket[i].data, __ATOMIC_RELAXED);
    out->lock2 = (uint16_t)data;
    out->lo = (int8_t)(data >> 16);
    out->hi = (int8_t)(data >> 24);
    out->from = (uint8_t)(data >> 32);
    out->to = (uint8_t)(data >> 40);
    out->work = (uint8_t)(data >> 48);
    out->gen = (uint8_t)(data >> 56);
    if ((check ^ data) != key1) return 0; /* another position, torn or empty (its work still counts) */
    return out->lock2 == lock2 && out->lo <= out->hi;
}

/* Generations since the entry was stored or last found (0 for one stored by a thread
 * whose clock ran ahead). */
static inline int age(const SJSolver *S, const SJSlot *e)
{
    int a = (int8_t)(S->generation - e->gen);
    return a > 0 ? a : 0;
}

static void store(SJSolver *S, SJEntry *bucket, uint64_t key1, uint16_t lock2,
                  int lo, int hi, int from, int to, int work)
{
    int victim = -1, victim_score = 0;
    for (int i = 0; i < 4; i++) {
        SJSlot e;
        int used = entry_used(&bucket[i]);
        if (read_entry(bucket, i, key1, lock2, &e)) {
            if (e.lo > lo) lo = e.lo;
            if (e.hi < hi) hi = e.hi;
            if (from == to) { from = e.from; to = e.to; }
            if (e.work > work) work = e.work;
            victim = i;
            break;
        }
        int score = used ? e.work - S->age_weight * age(S, &e) : INT_MIN;
        if (victim < 0 || score < victim_score) { victim = i; victim_score = score; }
    }
    SJSlot e = {lock2, (int8_t)lo, (int8_t)hi, (uint8_t)from, (uint8_t)to, (uint8_t)work, S->generation};
    uint64_t data = pack(&e);
    __atomic_store_n(&bucket[victim].data, data, __ATOMIC_RELAXED);
    __atomic_store_n(&bucket[victim].check, key1 ^ data, __ATOMIC_RELAXED);
    S->tt_stores++;
}

typedef struct {
    uint8_t from, to;
    int score;
} SJMove;

static inline SJEntry *bucket_of(const SJSolver *S, uint64_t key2, uint64_t occ)
{
    uint64_t buckets = __builtin_popcountll(occ) <= S->near_towers && S->near_buckets < S->table_buckets
                       ? S->near_buckets : S->table_buckets;
    return &S->table[(key2 & (buckets - 1)) * 4];
}

/* 1 + the index of the bucket's entry of the position, or 0. */
static inline int find(const SJEntry *bucket, uint64_t key1, uint16_t lock2, SJSlot *out)
{
    for (int i = 0; i < 4; i++)
        if (read_entry(bucket, i, key1, lock2, out)) return i + 1;
    return 0;
}

/* An entry found in an earlier generation is of this one from now on: it is still in use. */
static inline void touch(const SJSolver *S, SJEntry *entry, uint64_t key1, SJSlot *e)
{
    if (e->gen == S->generation) return;
    e->gen = S->generation;
    uint64_t data = pack(e);
    __atomic_store_n(&entry->data, data, __ATOMIC_RELAXED);
    __atomic_store_n(&entry->check, key1 ^ data, __ATOMIC_RELAXED);
}

/* Puts the first of the best-scored moves of moves[i..n) at i, the others keeping their
 * order; returns i + 1. Picked one at a time, as the search asks for them, the moves come
 * in the order of a stable sort by descending score, and a node that is cut off by its
 * first move or two never sorts the rest. */
static inline int pick_next(SJMove *moves, int i, int n)
{
    int best = i;
    for (int j = i + 1; j < n; j++)
        if (moves[j].score > moves[best].score) best = j;
    if (best != i) {
        SJMove m = moves[best];
        memmove(&moves[i + 1], &moves[i], (size_t)(best - i) * sizeof m);
        moves[i] = m;
    }
    return i + 1;
}

static void book_add(SJSolver *S, const SJPos *p, int lo, int hi, int work, int from, int to)
{
    while (S->book_len == S->book_cap) {
        /* Full: only costlier subtrees from now on, and only those kept. */
        S->book_min_work++;
        uint64_t kept = 0;
        for (uint64_t i = 0; i < S->book_len; i++)
            if (S->book[i].work >= S->book_min_work) S->book[kept++] = S->book[i];
        S->book_len = kept;
    }
    if (work < S->book_min_work) return;
    SJBookEntry *e = &S->book[S->book_len++];
    memset(e, 0, sizeof *e);
    e->occ = p->occ;
    e->own0 = p->own0;
    e->head = p->head;
    for (uint64_t m = p->occ; m;) {
        int c = pop_lsb(&m);
        e->height[c] = p->height[c];
    }
    memcpy(e->best, p->best, sizeof e->best);
    memcpy(e->tempo, p->tempo, sizeof e->tempo);
    e->side = (uint8_t)p->side;
    e->lo = (int8_t)lo;
    e->hi = (int8_t)hi;
    e->work = (uint8_t)work;
    e->from = (uint8_t)from;
    e->to = (uint8_t)to;
}

/* The move H's table stores for a position of the keys (key1, key2) under symmetry s and
 * occupied cells occ, in the position's own cells: 1 with *from, *to set (SJ_TEMPO for a
 * tempo move), or 0. */
static int stored_move(const SJSolver *H, uint64_t key1, uint64_t key2, int s, uint64_t occ, int *from, int *to)
{
    SJSlot e;
    if (!find(bucket_of(H, key2, occ), key1, (uint16_t)(key2 >> 32), &e)) return 0;
    if (e.from == SJ_TEMPO) {
        *from = SJ_TEMPO;
        *to = 0;
        return 1;
    }
    if (e.from == e.to) return 0;
    *from = H->syminv[s][e.from];
    *to = H->syminv[s][e.to];
    return 1;
}

/* The move H's table stores for p (see sj_set_order_hints): p keyed afresh with H's keys. */
static int order_hint(SJSolver *H, const SJPos *p, int *from, int *to)
{
    SJPos q = *p;
    memset(q.k1, 0, sizeof q.k1);
    memset(q.k2, 0, sizeof q.k2);
    q.g1 = q.g2 = 0;
    q.free = 0;
    for (uint64_t m = q.occ; m;) {
        int c = pop_lsb(&m);
        toggle(H, &q, c, q.height[c], key_owner(&q, c));
    }
    if (H->free_group_max) free_small_groups(H, &q, q.occ);
    uint64_t key1, key2;
    int s = canonical(H, &q, &key1, &key2);
    return stored_move(H, key1, key2, s, q.occ, from, to);
}

/* Puts the move (from, to) first, the others keeping their order; 1 when it is among them. */
static inline int move_first(SJMove *moves, int n, int from, int to)
{
    for (int i = 0; i < n; i++)
        if (moves[i].from == from && moves[i].to == to) {
            SJMove m = moves[i];
            memmove(&moves[1], &moves[0], (size_t)i * sizeof m);
            moves[0] = m;
            return 1;
        }
    return 0;
}

static int search(SJSolver *S, const SJPos *p, int alpha, int beta)
{
    if ((++S->nodes & (CLOCK_INTERVAL - 1)) == 0) {
        S->generation = (uint8_t)(__atomic_add_fetch(S->clock, CLOCK_INTERVAL, __ATOMIC_RELAXED) >> S->age_shift);
        if ((S->nodes & (POLL_INTERVAL - 1)) == 0 && S->poll && S->poll(S->poll_ctx)) S->stop = 1;
    }
    if (S->stop) return 0;
    S->reply_from = -1;
    if (p->occ == 0) return eval_final(S, p);
    if (!can_move(S, p)) {
        SJPos q = *p;
        q.side ^= 1;
        return search(S, &q, alpha, beta);
    }
    if (S->reduce_groups && __builtin_popcountll(p->occ) == 2) {
        /* Two towers left: with group reduction they are neighbours of different
         * owners. Stacking one's own tower onto the other ends the game with the
         * whole height for the mover; spending a tempo move instead only lets the
         * opponent (who has no tempo left after normalize_tempo) do the same. */
        int height = p->height[__builtin_ctzll(p->occ)] + p->height[63 - __builtin_clzll(p->occ)];
        int b0 = p->best[0][0], b1 = p->best[1][0];
        if (p->side == 0) { if (height > b0) b0 = height; }
        else if (height > b1) b1 = height;
        return b0 - b1;
    }
    uint64_t key1 = 0, key2 = 0;
    int s = 0;
    SJEntry *bucket = NULL;
    uint16_t lock2 = 0;
    int use_table = __builtin_popcountll(p->occ) >= S->table_min_towers;
    if (use_table) {
        /* Fetch the bucket while the moves and bounds are computed: a table probe
         * misses the caches, and the work below hides most of its latency. */
        s = canonical(S, p, &key1, &key2);
        bucket = bucket_of(S, key2, p->occ);
        lock2 = (uint16_t)(key2 >> 32);
        __builtin_prefetch(bucket);
    }

    SJMove moves[SJ_MAX_MOVES + 1]; /* + a tempo move */
    int n = 0;
    int side = p->side;
    int x = 0; /* bank_now(S, p), from the same scan */
    int pair = 0; /* the tallest tower one move could make: no group holds fewer pieces */
    uint64_t mine = movable(p);
    uint64_t theirs = p->occ & ~mine; /* the opponent's active towers */
    uint64_t targetable = p->occ & ~p->head;
    while (mine) {
        int f = pop_lsb(&mine);
        uint64_t targets = S->nb[f] & targetable;
        /* Fastest first (as in Edax's endgame): count the opponent's replies the move
         * takes away, those onto f and, when t is his, t's own; fewer replies leave
         * smaller subtrees to refute. */
        int taken_f = (targetable >> f) & 1 ? __builtin_popcountll(S->nb[f] & theirs) : 0;
        while (targets) {
            int t = pop_lsb(&targets);
            int around = __builtin_popcountll(S->nb[t] & p->occ);
            int stacked = p->height[f] + p->height[t];
            if (stacked > pair) pair = stacked;
            if (around == 1 && stacked > x) x = stacked;
            int taken = taken_f;
            if ((theirs >> t) & 1) taken += __builtin_popcountll(S->nb[t] & targetable & ~BIT(f));
            int score = ((theirs >> t) & 1 ? 256 : 0)
                      + 8 * taken + 8 * p->height[t] - 2 * p->height[f];
            moves[n].from = (uint8_t)f;
            moves[n].to = (uint8_t)t;
            moves[n].score = score;
            n++;
        }
    }
    if (p->tempo[side]) {
        moves[n].from = SJ_TEMPO;
        moves[n].to = 0;
        moves[n].score = TEMPO_SCORE;
        n++;
    }
    int ordered = 0; /* moves[0..ordered) are in search order; the rest are picked as needed */

    int lo, hi;
    bounds(S, p, S->measure == SJ_MARGIN ? x : 0, pair, alpha, beta, &lo, &hi);
    if (lo >= beta) return lo;
    if (hi <= alpha) return hi;
    if (lo == hi) return lo;

    if (use_table) {
        SJSlot e;
        int found = find(bucket, key1, lock2, &e);
        if (found) {
            S->tt_hits++;
            touch(S, &bucket[found - 1], key1, &e);
            if (e.lo > lo) lo = e.lo;
            if (e.hi < hi) hi = e.hi;
            int hint_from = -1, hint_to = -1;
            if (e.from == SJ_TEMPO) {
                hint_from = SJ_TEMPO;
                hint_to = 0;
            } else if (e.from != e.to) {
                hint_from = S->syminv[s][e.from];
                hint_to = S->syminv[s][e.to];
            }
            if (lo >= beta || hi <= alpha || lo == hi) {
                S->reply_from = hint_from; /* the stored move, for the parent's order */
                S->reply_to = hint_to;
                return lo >= beta ? lo : hi <= alpha ? hi : lo;
            }
            /* The stored best move goes first, the others in their order. */
            ordered = move_first(moves, n, hint_from, hint_to);
        }
    }
    if (!ordered && S->order_hints && __builtin_popcountll(p->occ) >= S->hint_min_towers) {
        int hint_from, hint_to;
        int found;
        if (S->hints_same_keys) { /* S's key is H's (computed here below table_min_towers) */
            uint64_t k1 = key1, k2 = key2;
            int hs = use_table ? s : canonical(S, p, &k1, &k2);
            found = stored_move(S->order_hints, k1, k2, hs, p->occ, &hint_from, &hint_to);
        } else {
            found = order_hint(S->order_hints, p, &hint_from, &hint_to);
        }
        if (found && move_first(moves, n, hint_from, hint_to)) {
            ordered = 1;
            S->hint_hits++;
        }
    }
    if (alpha < lo) alpha = lo;
    if (beta > hi) beta = hi;
    int alpha0 = alpha, beta0 = beta;

    /* Enhanced transposition cut-off: in big positions, a child whose stored
     * bound already refutes the window ends the node before any search. Below
     * etc_min_towers the extra probes cost more than they save. */
    if (use_table && __builtin_popcountll(p->occ) >= S->etc_min_towers) {
        for (int i = 0; i < n; i++) {
            if (i >= ordered) ordered = pick_next(moves, i, n);
            if (moves[i].from == SJ_TEMPO) continue;
            SJPos q;
            sj_play(S, p, &q, moves[i].from, moves[i].to);
            if (__builtin_popcountll(q.occ) < S->table_min_towers) continue;
            uint64_t c1, c2;
            canonical(S, &q, &c1, &c2);
            SJSlot ce;
            if (!find(bucket_of(S, c2, q.occ), c1, (uint16_t)(c2 >> 32), &ce)) continue;
            if (side == 0 && ce.lo >= beta) return ce.lo;
            if (side == 1 && ce.hi <= alpha) return ce.hi;
        }
    }
    uint64_t nodes0 = S->nodes;
    int best = side == 0 ? -SJ_INF : SJ_INF, best_from = 0, best_to = 0;
    for (int i = 0; i < n; i++) {
        if (i >= ordered) ordered = pick_next(moves, i, n);
        SJPos q;
        if (moves[i].from == SJ_TEMPO) {
            q = *p;
            q.tempo[side]--;
            q.side ^= 1;
        } else {
            sj_play(S, p, &q, moves[i].from, moves[i].to);
        }
        int v = search(S, &q, alpha, beta);
        if (S->stop) return 0;
        int reply_from = S->reply_from, reply_to = S->reply_to;
        if (side == 0 ? v > best : v < best) {
            best = v;
            best_from = moves[i].from;
            best_to = moves[i].to;
        }
        if (side == 0) { if (v > alpha) alpha = v; }
        else if (v < beta) beta = v;
        if (alpha >= beta) break;
        if (S->refute_bonus && reply_from >= 0 && reply_from != SJ_TEMPO && i + 1 < n) {
            /* The move failed to the opponent's reply: the moves that take that reply
             * away (stacking onto its source, or moving our tower off its target) go
             * first among the rest, since the reply likely refutes the others too.
             * 6x5 after 4 plies: 29.3 M -> 21.1 M nodes; 8x4 after 5: 108.9 M -> 73.3 M. */
            for (int j = i + 1; j < n; j++)
                if (moves[j].from != SJ_TEMPO && (moves[j].to == reply_from || moves[j].from == reply_to))
                    moves[j].score += S->refute_bonus;
            ordered = i + 1;
        }
    }
    S->reply_from = best_from;
    S->reply_to = best_to;
    if (!use_table) return best;
    if (best < beta0 && best < hi) hi = best;
    if (best > alpha0 && best > lo) lo = best;
    int work = ilog2(S->nodes - nodes0 + 1) / 2;
    if (S->book && work >= S->book_min_work) book_add(S, p, lo, hi, work, best_from, best_to);
    if (best_from == SJ_TEMPO)
        store(S, bucket, key1, lock2, lo, hi, SJ_TEMPO, 0, work);
    else
        store(S, bucket, key1, lock2, lo, hi, S->sym[s][best_from], S->sym[s][best_to], work);
    return best;
}

int sj_search(SJSolver *S, const SJPos *p, int alpha, int beta)
{
    S->stop = 0;
    S->generation = (uint8_t)(__atomic_load_n(S->clock, __ATOMIC_RELAXED) >> S->age_shift);
    return search(S, p, alpha, beta);
}

void sj_table_work_counts(const SJSolver *S, uint64_t *counts)
{
    memset(counts, 0, 256 * sizeof *counts);
    for (uint64_t i = 0; i < S->table_buckets * 4; i++)
        if (entry_used(&S->table[i])) counts[entry_work(&S->table[i])]++;
}

uint64_t sj_table_export(const SJSolver *S, int min_work, uint8_t *out, uint64_t max)
{
    uint64_t n = 0;
    for (uint64_t i = 0; i < S->table_buckets * 4; i++) {
        const SJEntry *e = &S->table[i];
        if (!entry_used(e) || entry_work(e) < min_work) continue;
        if (out && n < max) {
            uint64_t words[3] = {i, e->check, e->data};
            memcpy(out + 24 * n, words, sizeof words);
        }
        n++;
    }
    return n;
}

static inline int same_position(const SJEntry *a, const SJEntry *b)
{
    return (a->check ^ a->data) == (b->check ^ b->data) && (uint16_t)a->data == (uint16_t)b->data;
}

/* Into its bucket's slot of the same position (an entry met twice keeps the costlier copy),
 * else its empty or least-worked slot when it has done more work. */
static int import_into(SJEntry *bucket, SJEntry incoming)
{
    int victim = -1;
    for (int i = 0; i < 4 && victim < 0; i++)
        if (entry_used(&bucket[i]) && same_position(&bucket[i], &incoming)) victim = i;
    if (victim < 0) {
        victim = 0;
        for (int i = 0; i < 4; i++) {
            if (!entry_used(&bucket[i])) { victim = i; break; }
            if (entry_work(&bucket[i]) < entry_work(&bucket[victim])) victim = i;
        }
    }
    if (entry_used(&bucket[victim]) && entry_work(&bucket[victim]) >= entry_work(&incoming)) return 0;
    bucket[victim] = incoming;
    return 1;
}

/* An entry's bucket is the low bits of key2, and an entry keeps only its slot. Into a
 * table of fewer buckets, the slot's low bits give the bucket. Into one of more buckets,
 * the bits the smaller table did not use are unknown, so a copy goes into every bucket
 * the entry could belong to: the copies in the wrong buckets cannot match another
 * position (they still need key1 and lock2 to agree), and saved entries are at most one
 * slot in 64, so the copies fill at most that share of the bigger table too. An entry
 * saved with the near part this table has is where its position is looked for; one
 * saved with another (or none, as before session 27) does not say how many towers its
 * position has, so one more copy goes to the near bucket it would have if it were
 * small (see bucket_of). Only then: the copy of a big position's entry is never found,
 * and in the near part it takes a slot from the small positions that are searched most. */
uint64_t sj_table_import(SJSolver *S, const uint8_t *in, uint64_t n, uint64_t saved_buckets,
                         uint64_t saved_near_buckets)
{
    if (saved_buckets == 0 || (saved_buckets & (saved_buckets - 1))) return 0;
    uint64_t copies = S->table_buckets > saved_buckets ? S->table_buckets / saved_buckets : 1;
    uint64_t near_here = sj_near_part(S);
    int near = near_here && near_here < saved_buckets && saved_near_buckets != near_here;
    uint64_t placed = 0;
    for (uint64_t k = 0; k < n; k++) {
        uint64_t words[3];
        memcpy(words, in + 24 * k, sizeof words);
        if (words[0] >= saved_buckets * 4) continue;
        /* of this generation: the clock that dated it is gone */
        uint64_t data = (words[2] & ~((uint64_t)0xFF << 56)) | (uint64_t)S->generation << 56;
        SJEntry incoming = {words[1] ^ words[2] ^ data, data};
        int any = 0;
        for (uint64_t c = 0; c < copies; c++)
            any |= import_into(&S->table[((words[0] / 4 + c * saved_buckets) & (S->table_buckets - 1)) * 4],
                               incoming);
        if (near) any |= import_into(&S->table[((words[0] / 4) & (near_here - 1)) * 4], incoming);
        placed += any;
    }
    return placed;
}

uint64_t sj_near_part(const SJSolver *S)
{
    return S->near_towers > 0 && S->near_buckets < S->table_buckets ? S->near_buckets : 0;
}

int sj_book_start(SJSolver *S, int min_work, uint64_t capacity)
{
    free(S->book);
    S->book = NULL;
    S->book_len = S->book_cap = 0;
    if (capacity == 0) return 0;
    S->book = malloc(capacity * sizeof *S->book);
    if (!S->book) return -1;
    S->book_cap = capacity;
    S->book_min_work = S->book_base_work = min_work;
    return 0;
}

uint64_t sj_book_len(const SJSolver *S)
{
    return S->book_len;
}

uint64_t sj_book_take(SJSolver *S, uint8_t *out, uint64_t max)
{
    uint64_t n = S->book_len < max ? S->book_len : max;
    for (uint64_t i = 0; i < n; i++) {
        const SJBookEntry *e = &S->book[i];
        uint8_t *o = out + SJ_BOOK_ENTRY_BYTES * i;
        memcpy(o, &e->occ, 8);
        memcpy(o + 8, &e->own0, 8);
        memcpy(o + 16, &e->head, 8);
        memcpy(o + 24, e->height, SJ_MAX_CELLS);
        memcpy(o + 88, e->best, 4);
        memcpy(o + 92, e->tempo, 2);
        o[94] = e->side;
        o[95] = (uint8_t)e->lo;
        o[96] = (uint8_t)e->hi;
        o[97] = e->work;
        o[98] = e->from;
        o[99] = e->to;
    }
    S->book_len = 0;
    S->book_min_work = S->book_base_work;
    return n;
}

uint64_t sj_book_put(SJSolver *S, const uint8_t *in, uint64_t n, int with_moves)
{
    uint64_t placed = 0;
    for (uint64_t i = 0; i < n; i++) {
        const uint8_t *o = in + SJ_BOOK_ENTRY_BYTES * i;
        uint64_t occ, own0, head;
        memcpy(&occ, o, 8);
        memcpy(&own0, o + 8, 8);
        memcpy(&head, o + 16, 8);
        int side = o[94], lo = (int8_t)o[95], hi = (int8_t)o[96], work = o[97];
        if ((occ & ~S->board_mask) || (own0 & ~occ) || (head & ~occ) || side > 1 || lo > hi) continue;
        uint8_t heights[SJ_MAX_CELLS] = {0}, owners[SJ_MAX_CELLS] = {0};
        int ok = 1;
        for (int c = 0; c < S->n; c++) {
            heights[c] = o[24 + c];
            if ((heights[c] != 0) != (int)((occ >> c) & 1)) ok = 0;
            owners[c] = (uint8_t)(((own0 >> c) & 1 ? 0 : 1) | ((head >> c) & 1 ? 2 : 0));
        }
        if (!ok) continue;
        SJPos p;
        sj_load(S, &p, heights, owners, side);
        if (p.occ != occ || p.head != head) continue; /* not a position the search holds */
        memcpy(p.best, o + 88, 4);
        memcpy(p.tempo, o + 92, 2);
        int from = o[98], to = o[99]; /* kept only if it is one of the position's moves */
        int move = !with_moves ? 0
                 : from == SJ_TEMPO ? to == 0 && p.tempo[side] > 0
                                    : from < S->n && to < S->n && ((movable(&p) >> from) & 1)
                                      && ((S->nb[from] & p.occ & ~p.head) >> to) & 1;
        uint64_t key1, key2;
        int s = canonical(S, &p, &key1, &key2);
        if (!move) from = to = 0;
        else if (from != SJ_TEMPO) { from = S->sym[s][from]; to = S->sym[s][to]; }
        store(S, bucket_of(S, key2, p.occ), key1, (uint16_t)(key2 >> 32), lo, hi, from, to, work);
        placed++;
    }
    return placed;
}

#ifndef SJ_CORE_SOURCE
#define SJ_CORE_SOURCE "unknown"
#endif

const char *sj_core_source(void)
{
    return SJ_CORE_SOURCE;
}

void sj_keys(const SJSolver *S, const SJPos *p, uint64_t *key1, uint64_t *key2)
{
    canonical(S, p, key1, key2);
}

int sj_table_bounds(const SJSolver *S, const SJPos *p, int *lo, int *hi)
{
    SJPos q = *p;
    if (q.occ && !can_move(S, &q)) q.side ^= 1; /* as search passes before it looks */
    uint64_t key1, key2;
    canonical(S, &q, &key1, &key2);
    SJSlot e;
    if (!find(bucket_of(S, key2, q.occ), key1, (uint16_t)(key2 >> 32), &e)) return 0;
    *lo = e.lo;
    *hi = e.hi;
    return 1;
}

void sj_set_order_hints(SJSolver *S, SJSolver *H, int min_towers)
{
    S->order_hints = H;
    S->hint_min_towers = min_towers;
    S->hints_same_keys = H && H->nsym == S->nsym && !memcmp(H->sym, S->sym, sizeof S->sym)
                         && !memcmp(H->zob, S->zob, sizeof S->zob) && !memcmp(H->zhead, S->zhead, sizeof S->zhead)
                         && !memcmp(H->zbank, S->zbank, sizeof S->zbank) && !memcmp(&H->zside, &S->zside, sizeof S->zside)
                         && !memcmp(H->ztempo, S->ztempo, sizeof S->ztempo)
                         && !memcmp(&H->zgroup, &S->zgroup, sizeof S->zgroup);
}
