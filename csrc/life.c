#include "life.h"

int bl_geom(BLGeom *g, int w, int h, int torus) {
    if (w < 3 || w > 8 || h < 3 || h > 8)
        return -1;
    g->w = w;
    g->h = h;
    g->torus = torus ? 1 : 0;
    g->full = (w * h == 64) ? ~0ULL : ((1ULL << (w * h)) - 1);
    g->col_first = g->col_last = 0;
    for (int r = 0; r < h; r++) {
        g->col_first |= 1ULL << (r * w);
        g->col_last |= 1ULL << (r * w + w - 1);
    }
    return 0;
}

/* The pattern moved one column right / left, one row down / up. */
static inline uint64_t right(const BLGeom *g, uint64_t x) {
    uint64_t y = (x << 1) & ~g->col_first;
    if (g->torus)
        y |= (x >> (g->w - 1)) & g->col_first;
    return y & g->full;
}

static inline uint64_t left(const BLGeom *g, uint64_t x) {
    uint64_t y = (x >> 1) & ~g->col_last;
    if (g->torus)
        y |= (x << (g->w - 1)) & g->col_last;
    return y & g->full;
}

static inline uint64_t down(const BLGeom *g, uint64_t x) {
    uint64_t y = x << g->w;
    if (g->torus)
        y |= x >> (g->w * (g->h - 1));
    return y & g->full;
}

static inline uint64_t up(const BLGeom *g, uint64_t x) {
    uint64_t y = x >> g->w;
    if (g->torus)
        y |= x << (g->w * (g->h - 1));
    return y & g->full;
}

uint64_t bl_neighbours(const BLGeom *g, uint64_t x) {
    uint64_t row = x | left(g, x) | right(g, x);
    return left(g, x) | right(g, x) | up(g, row) | down(g, row);
}

void bl_step(const BLGeom *g, uint64_t a, uint64_t b, uint64_t *na, uint64_t *nb) {
    uint64_t all = a | b;
    uint64_t l = left(g, all), r = right(g, all);
    uint64_t la = left(g, a), ra = right(g, a);
    uint64_t n[8] = {l, r, up(g, all), down(g, all), up(g, l), up(g, r), down(g, l), down(g, r)};
    uint64_t m[8] = {la, ra, up(g, a), down(g, a), up(g, la), up(g, ra), down(g, la), down(g, ra)};
    /* s2 s1 s0: the number of neighbours mod 8 (8 reads as 0, which is neither 2 nor 3) */
    uint64_t s0 = 0, s1 = 0, s2 = 0, one = 0, two = 0;
    for (int i = 0; i < 8; i++) {
        uint64_t c0 = s0 & n[i];
        s0 ^= n[i];
        uint64_t c1 = s1 & c0;
        s1 ^= c0;
        s2 ^= c1;
        two |= one & m[i];   /* at least two neighbours of the first colour */
        one |= m[i];
    }
    uint64_t two_or_three = s1 & ~s2;
    uint64_t three = two_or_three & s0;
    uint64_t born = three & ~all;
    *na = (a & two_or_three) | (born & two);
    *nb = (b & two_or_three) | (born & ~two);
}

int bl_alone(const BLGeom *g, uint64_t a, int limit, int *start, int *period, int *final_pop) {
    static _Thread_local uint64_t hist[4097];
    uint64_t b = 0;
    *start = *period = 0;
    if (limit > 4096)
        limit = 4096;
    hist[0] = a;
    for (int gen = 1; gen <= limit; gen++) {
        bl_step(g, a, 0, &a, &b);
        if (!a) {
            *final_pop = 0;
            return gen;
        }
        hist[gen] = a;
        if (!*period) {
            for (int k = gen - 1; k >= 0; k--) {
                if (hist[k] == a) {
                    *start = k;
                    *period = gen - k;
                    break;
                }
            }
        }
    }
    *final_pop = __builtin_popcountll(a);
    return 0;
}

int bl_duel(const BLGeom *g, uint64_t a, uint64_t b, int limit, int both_extinct,
            int count_at_limit, int *gens) {
    uint64_t a1 = ~0ULL, b1 = ~0ULL, a2 = ~0ULL, b2 = ~0ULL; /* one and two generations ago */
    for (int gen = 1; gen <= limit; gen++) {
        a2 = a1; b2 = b1; a1 = a; b1 = b;
        bl_step(g, a, b, &a, &b);
        if (!a || !b) {
            *gens = gen;
            return !a && !b ? both_extinct : (a ? 1 : -1);
        }
        if ((a == a1 && b == b1) || (a == a2 && b == b2)) {
            /* period 1 or 2 from here on: the state at the limit follows from the parity */
            if (a == a2 && b == b2 && (limit - gen) % 2 == 1) {
                a = a1;
                b = b1;
            }
            break;
        }
    }
    *gens = limit;
    if (!count_at_limit)
        return 0;
    int pa = __builtin_popcountll(a), pb = __builtin_popcountll(b);
    return pa > pb ? 1 : (pa < pb ? -1 : 0);
}

void bl_best_replies(const BLGeom *g, const uint64_t *as, int na, const uint64_t *bs, int nb,
                     int limit, int both_extinct, int count_at_limit,
                     int *best, int *reply, int64_t *counts, volatile int *stop) {
    for (int i = 0; i < na; i++) {
        if (stop && *stop)
            return;
        int lo = 2, arg = -1, gens;
        int64_t *c = counts + 3 * i;
        c[0] = c[1] = c[2] = 0;
        for (int j = 0; j < nb; j++) {
            int r = bl_duel(g, as[i], bs[j], limit, both_extinct, count_at_limit, &gens);
            c[r + 1]++;
            if (r < lo) {
                lo = r;
                arg = j;
            }
        }
        best[i] = lo;
        reply[i] = arg;
    }
}

/* ---- exact search ---- */
#include <stdlib.h>

BLSolver *bl_solver_new(int w, int h, int torus, int place_first, int place_every, int extra,
                        int optional, int order, int coin_against, int both_extinct,
                        int count_at_limit, int generations, uint64_t table_bytes) {
    BLSolver *S = calloc(1, sizeof(BLSolver));
    if (!S)
        return NULL;
    if (bl_geom(&S->g, w, h, torus) != 0 || extra < 1 || extra > 5) {
        free(S);
        return NULL;
    }
    S->place_first = place_first;
    S->place_every = place_every;
    S->extra = extra;
    S->optional = optional;
    S->order = order;
    S->coin_against = coin_against;
    S->both_extinct = both_extinct;
    S->count_at_limit = count_at_limit;
    S->generations = generations;
    uint64_t n = 1024;
    while (n * 2 * sizeof(BLEntry) <= table_bytes)
        n *= 2;
    S->table = calloc(n, sizeof(BLEntry));
    if (!S->table) {
        free(S);
        return NULL;
    }
    S->table_size = n;
    return S;
}

void bl_solver_free(BLSolver *S) {
    if (S) {
        free(S->table);
        free(S);
    }
}

/* The result once generation gen has produced (a, b), or 2 if the game goes on. */
static int end_value(const BLSolver *S, uint64_t a, uint64_t b, int gen) {
    if (!a || !b)
        return !a && !b ? S->both_extinct : (a ? 1 : -1);
    if (gen >= S->generations) {
        if (!S->count_at_limit)
            return 0;
        int pa = __builtin_popcountll(a), pb = __builtin_popcountll(b);
        return pa > pb ? 1 : (pa < pb ? -1 : 0);
    }
    return 2;
}

static int placement_before(const BLSolver *S, int gen) {
    return S->place_every > 0 && gen >= S->place_first && (gen - S->place_first) % S->place_every == 0;
}

static inline uint64_t hash_key(uint64_t a, uint64_t b, int gen) {
    uint64_t x = a * 0x9E3779B97F4A7C15ULL ^ (b + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL ^ (uint64_t)gen * 0x165667B19E3779F9ULL;
    return x ^ (x >> 29);
}

static int child(BLSolver *S, uint64_t a, uint64_t b, int gen, int alpha, int beta) {
    int e = end_value(S, a, b, gen);
    return e != 2 ? e : bl_search(S, a, b, gen, alpha, beta);
}

/* Every placement of up to `left` more cells from `cand` (cells above `from` only), for the
 * player to place; opening: the other player places after this one. */
static int place(BLSolver *S, uint64_t a, uint64_t b, int gen, int player, int opening,
                 int alpha, int beta);

static int place_sets(BLSolver *S, uint64_t a, uint64_t b, int gen, int player, int opening,
                      uint64_t cand, int left, int must, int *alpha, int *beta, int *best) {
    /* the set chosen so far is already in a or b; try it as a whole if allowed */
    int maximise = player == 0;
    if (must <= 0) {
        int v;
        if (opening) {
            v = place(S, a, b, gen, 1 - player, 0, *alpha, *beta);
        } else {
            uint64_t na, nb;
            bl_step(&S->g, a, b, &na, &nb);
            v = child(S, na, nb, gen + 1, *alpha, *beta);
        }
        if (maximise) {
            if (v > *best) *best = v;
            if (v > *alpha) *alpha = v;
        } else {
            if (v < *best) *best = v;
            if (v < *beta) *beta = v;
        }
        if (*alpha >= *beta || S->stop)
            return 1;
    }
    if (left == 0)
        return 0;
    while (cand) {
        uint64_t bit = cand & -cand;
        cand ^= bit;
        if (place_sets(S, player == 0 ? a | bit : a, player == 1 ? b | bit : b, gen, player, opening,
                       cand, left - 1, must - 1, alpha, beta, best))
            return 1;
    }
    return 0;
}

static int place(BLSolver *S, uint64_t a, uint64_t b, int gen, int player, int opening,
                 int alpha, int beta) {
    uint64_t own = player == 0 ? a : b;
    uint64_t cand = bl_neighbours(&S->g, own) & ~(a | b) & S->g.full;
    int n = __builtin_popcountll(cand);
    int k = n < S->extra ? n : S->extra;
    int must = S->optional ? 0 : k;
    int best = player == 0 ? -2 : 2;
    place_sets(S, a, b, gen, player, opening, cand, k, must, &alpha, &beta, &best);
    return best;
}

int bl_search(BLSolver *S, uint64_t a, uint64_t b, int gen, int alpha, int beta) {
    S->nodes++;
    if ((S->nodes & ((1u << 20) - 1)) == 0 && S->poll && S->poll(S->poll_ctx))
        S->stop = 1;
    if (S->stop)
        return 0;
    BLEntry *e = &S->table[hash_key(a, b, gen) & (S->table_size - 1)];
    int lo = -1, hi = 1;
    if (e->used && e->a == a && e->b == b && e->gen == gen) {
        lo = e->lo;
        hi = e->hi;
        if (lo == hi || lo >= beta)
            return lo;
        if (hi <= alpha)
            return hi;
    }
    int a0 = alpha > lo ? alpha : lo, b0 = beta < hi ? beta : hi;
    int v;
    if (placement_before(S, gen + 1)) {
        int order = S->order;
        if (order == BL_ORDER_ALTERNATE)
            order = ((gen + 1 - S->place_first) / S->place_every) % 2;
        if (order == BL_ORDER_COIN) {
            /* the coin falls against coin_against: the worse of the two orders for them */
            int against_first = S->coin_against == 0;
            v = place(S, a, b, gen, against_first ? 1 : 0, 1, a0, b0);
            if (against_first ? v > a0 : v < b0) {
                int w = place(S, a, b, gen, against_first ? 0 : 1, 1, a0, b0);
                v = against_first ? (w < v ? w : v) : (w > v ? w : v);
            }
        } else {
            v = place(S, a, b, gen, order, 1, a0, b0);
        }
    } else {
        uint64_t na, nb;
        bl_step(&S->g, a, b, &na, &nb);
        v = child(S, na, nb, gen + 1, a0, b0);
    }
    if (S->stop)
        return 0;
    if (v <= a0)
        hi = v < hi ? v : hi;
    else if (v >= b0)
        lo = v > lo ? v : lo;
    else
        lo = hi = v;
    e->a = a;
    e->b = b;
    e->gen = gen;
    e->lo = (int8_t)lo;
    e->hi = (int8_t)hi;
    e->used = 1;
    return v;
}
