#define _GNU_SOURCE /* posix_memalign, madvise(MADV_HUGEPAGE) */
#include "gent.h"
#include "table_memory.h"

#include <stdlib.h>
#include <string.h>

#define POLL_INTERVAL (1u << 20)
#ifndef ORDER_UB_WEIGHT
#define ORDER_UB_WEIGHT 4
#endif

static inline int pop_lsb(uint64_t *m)
{
    int i = __builtin_ctzll(*m);
    *m &= *m - 1;
    return i;
}

static inline int other_end(const GTSolver *S, int e, int v)
{
    return S->eu[e] == v ? S->ev[e] : S->eu[e];
}

static inline int other_face(const GTSolver *S, int e, int f)
{
    return S->ef[e][0] == f ? S->ef[e][1] : S->ef[e][0];
}

GTSolver *gt_new(int nv, int ne, int nf, int outer, const int *eu, const int *ev,
                 const int *ef0, const int *ef1, uint64_t table_bytes)
{
    if (nv < 1 || nv > GT_MAX || ne < 1 || ne > GT_MAX || nf < 1 || nf > GT_MAX) return NULL;
    if (outer < 0 || outer >= nf) return NULL;
    GTSolver *S = calloc(1, sizeof *S);
    if (!S) return NULL;
    S->nv = nv; S->ne = ne; S->nf = nf; S->outer = outer;
    S->etc_min_live = 12;
    for (int e = 0; e < ne; e++) {
        S->eu[e] = eu[e]; S->ev[e] = ev[e];
        S->ef[e][0] = ef0[e]; S->ef[e][1] = ef1[e];
        S->deg[eu[e]]++; S->deg[ev[e]]++;
        S->vedges[eu[e]] |= 1ull << e;
        S->vedges[ev[e]] |= 1ull << e;
        S->fedges[ef0[e]] |= 1ull << e;
        S->fedges[ef1[e]] |= 1ull << e;
        if (ef0[e] != outer && ef1[e] != outer) S->inner_edges |= 1ull << e;
        S->eends[e] = 1ull << eu[e] | 1ull << ev[e];
        S->efaces[e] = 1ull << ef0[e] | 1ull << ef1[e];
    }
    for (int v = 0; v < nv; v++) S->by_degree[v] = v;
    for (int i = 1; i < nv; i++) { /* stable insertion sort, highest degree first */
        int x = S->by_degree[i], j = i;
        while (j > 0 && S->deg[S->by_degree[j - 1]] < S->deg[x]) { S->by_degree[j] = S->by_degree[j - 1]; j--; }
        S->by_degree[j] = x;
    }
    for (int i = 0; i < nv; i++) S->degree_rank[S->by_degree[i]] = i;
    int buttons = nf - 1;
    for (int i = 0; i < nv && i < buttons; i++) S->max_score += S->deg[S->by_degree[i]];
    /* Half the memory for the alpha-beta table (a power of two of buckets), the rest for the
     * proof-number table (at least one bucket each). */
    uint64_t buckets = 1;
    while (buckets * 2 * 2 * sizeof(GTEntry) <= table_bytes / 2) buckets *= 2;
    S->table_buckets = buckets;
    uint64_t rest = table_bytes > buckets * 2 * sizeof(GTEntry) ? table_bytes - buckets * 2 * sizeof(GTEntry) : 0;
    uint64_t dbuckets = 1;
    while (dbuckets * 2 * GT_PN_WAYS * sizeof(GTProofEntry) <= rest) dbuckets *= 2;
    S->pn_buckets = dbuckets;
    S->pn_ab_live = GT_PN_AB_LIVE;
    S->table = table_alloc(buckets * 2 * sizeof(GTEntry));
    S->pn_table = table_alloc(dbuckets * GT_PN_WAYS * sizeof(GTProofEntry));
    if (!S->table || !S->pn_table) { free(S->table); free(S->pn_table); free(S); return NULL; }
    return S;
}

void gt_free(GTSolver *S)
{
    if (!S) return;
    free(S->table);
    free(S->pn_table);
    free(S);
}

void gt_clear_table(GTSolver *S)
{
    memset(S->table, 0, S->table_buckets * 2 * sizeof(GTEntry));
    memset(S->pn_table, 0, S->pn_buckets * GT_PN_WAYS * sizeof(GTProofEntry));
}

/* Edges the thimble may take from v. */
static inline uint64_t open_edges(const GTSolver *S, const GTPos *p, int v)
{
    return S->vedges[v] & p->live;
}

static inline uint64_t faces_beside(const GTSolver *S, uint64_t edges)
{
    uint64_t faces = 0;
    while (edges) faces |= S->efaces[pop_lsb(&edges)];
    return faces;
}

static inline uint64_t edges_around(const GTSolver *S, uint64_t faces)
{
    uint64_t edges = 0;
    while (faces) edges |= S->fedges[pop_lsb(&faces)];
    return edges;
}

/* Drop what can no longer matter, so that equal futures get equal positions.
 * - The thimble only walks live edges from its own vertex: a live edge it cannot reach stays
 *   out of reach (edges are only ever removed), so it is dropped.
 * - A button is captured from a face beside a live edge ("hot" face). Buttons move only over
 *   open edges, so the inner faces fall into components joined by open edges; components only
 *   ever split and hot faces only ever cool. A component without a hot face or without a
 *   button can never yield a capture: its buttons and its edges are dropped (as if sewn). */
void gt_normalize(const GTSolver *S, GTPos *p)
{
    uint64_t reach = 1ull << p->v, todo = reach, near = 0;
    while (todo) {
        int u = pop_lsb(&todo);
        uint64_t m = S->vedges[u] & p->live;
        near |= S->vedges[u];
        while (m) { /* branch-free: the edge's ends not reached yet */
            uint64_t w = S->eends[pop_lsb(&m)] & ~reach;
            reach |= w;
            todo |= w;
        }
    }
    p->live &= near;
    uint64_t hot = faces_beside(S, p->live), left = p->free, free = 0, open = 0;
    while (left) {
        uint64_t comp = left & -left, grow = comp;
        while (grow) {
            int f = pop_lsb(&grow);
            uint64_t m = S->fedges[f] & p->open;
            while (m) {
                uint64_t g = S->efaces[pop_lsb(&m)] & ~comp;
                comp |= g;
                grow |= g;
            }
        }
        left &= ~comp;
        if (comp & hot) {
            free |= p->free & comp;
            open |= edges_around(S, comp);
        }
    }
    p->free = free;
    p->open &= open;
}

void gt_load(const GTSolver *S, GTPos *p, int v, uint64_t sewn, uint64_t free, uint64_t capt, int side)
{
    uint64_t all = S->ne == 64 ? ~0ull : (1ull << S->ne) - 1, blocked = 0;
    while (capt) blocked |= S->vedges[pop_lsb(&capt)];
    p->v = v;
    p->side = side;
    p->live = all & ~sewn & ~blocked;
    p->open = all & ~sewn & S->inner_edges;
    p->free = free & ~(1ull << S->outer);
    gt_normalize(S, p);
}

int gt_moves(const GTSolver *S, const GTPos *p, uint16_t *moves)
{
    uint64_t open = open_edges(S, p, p->v);
    if (!open) return 0; /* the Tailor is stuck: the game is over */
    int n = 0;
    if (p->side == GT_TAILOR) {
        while (open) {
            int e = pop_lsb(&open);
            moves[n++] = (uint16_t)e;
            for (int k = 0; k < 2; k++)
                if (p->free >> S->ef[e][k] & 1) moves[n++] = (uint16_t)(e | (S->ef[e][k] + 1) << 6);
        }
        return n;
    }
    moves[n++] = GT_PASS;
    uint64_t from = p->free;
    while (from) {
        int f = pop_lsb(&from);
        uint64_t edges = S->fedges[f] & p->open, done = 0;
        while (edges) {
            int e = pop_lsb(&edges);
            int g = other_face(S, e, f);
            if ((p->free >> g & 1) || (done >> g & 1)) continue;
            done |= 1ull << g;
            moves[n++] = (uint16_t)(f | g << 6 | GT_BUTTON_FLAG);
        }
    }
    return n;
}

int gt_play(const GTSolver *S, const GTPos *p, GTPos *q, uint16_t move)
{
    *q = *p;
    q->side ^= 1;
    if (move == GT_PASS) return 0;
    if (move & GT_BUTTON_FLAG) {
        q->free &= ~(1ull << (move & 63));
        q->free |= 1ull << (move >> 6 & 63);
        return 0;
    }
    int e = move & 63, cap = (move >> 6) - 1, gain = 0;
    q->live &= ~(1ull << e);
    q->open &= ~(1ull << e);
    if (cap >= 0) {
        q->free &= ~(1ull << cap);
        q->live &= ~S->vedges[p->v]; /* the button on p->v bars the thimble from it */
        gain = S->deg[p->v];
    }
    q->v = other_end(S, e, p->v);
    gt_normalize(S, q);
    return gain;
}

/* An upper bound is the Tailor's best against any one strategy of Mr. Button; take "always
 * pass". Then buttons never move, so only the buttons now in faces beside live edges can be
 * captured, and only from a vertex with such a face beside one of its live edges. Every capture
 * puts a button on the vertex the thimble leaves, which then cannot be entered again, so each
 * vertex captures at most once; a vertex other than the thimble's needs two live edges (in and
 * out). The bound is the sum of the highest degrees of such vertices, one per capturable button. */
int gt_upper_bound(const GTSolver *S, const GTPos *p)
{
    uint64_t targets = 0, beside = 0, left = p->free;
    while (left) { /* capturable buttons, and the live edges beside them */
        int f = pop_lsb(&left);
        uint64_t e = S->fedges[f] & p->live;
        if (e) { targets |= 1ull << f; beside |= e; }
    }
    int k = __builtin_popcountll(targets);
    if (k == 0) return 0;
    uint64_t ends = 0, by_rank = 0;
    while (beside) ends |= S->eends[pop_lsb(&beside)];
    while (ends) { /* a vertex beside a capturable button that can still leave after arriving */
        int u = pop_lsb(&ends);
        if (__builtin_popcountll(S->vedges[u] & p->live) >= (u == p->v ? 1 : 2))
            by_rank |= 1ull << S->degree_rank[u];
    }
    int bound = 0;
    while (by_rank && k-- > 0) bound += S->deg[S->by_degree[pop_lsb(&by_rank)]];
    return bound;
}

static inline uint64_t mix(uint64_t x)
{
    x ^= x >> 31; x *= 0x7fb5d329728ea185ull;
    x ^= x >> 27; x *= 0x81dadef4bc2dd44dull;
    x ^= x >> 33;
    return x;
}

/* A hash of the reduced position, and of the threshold k for the proof-number table (0 for the
 * alpha-beta table, whose entries hold bounds for every k). */
static inline uint64_t position_hash(const GTPos *p, int k)
{
    return mix(p->live * 0x9E3779B97F4A7C15ull ^ mix(p->free ^ (uint64_t)p->v << 58 ^ (uint64_t)k << 50)
               ^ mix(p->open + ((uint64_t)p->side << 63) + 0x632BE59BD9B4E019ull));
}

static inline GTEntry *bucket_of(const GTSolver *S, const GTPos *p)
{
    return &S->table[(position_hash(p, 0) & (S->table_buckets - 1)) * 2];
}

static inline int same(const GTEntry *e, const GTPos *p)
{
    return e->used && e->live == p->live && e->open == p->open && e->free == p->free
        && e->v == p->v && e->side == p->side;
}

static int ilog2(uint64_t x)
{
    return x ? 63 - __builtin_clzll(x) : 0;
}

static void store(GTSolver *S, GTEntry *bucket, const GTPos *p, int lo, int hi, uint16_t move, int work)
{
    GTEntry *victim = NULL;
    for (int i = 0; i < 2; i++) {
        GTEntry *e = &bucket[i];
        if (same(e, p)) {
            if (e->lo > lo) lo = e->lo;
            if (e->hi < hi) hi = e->hi;
            if (move == GT_NO_MOVE) move = e->move;
            if (e->work > work) work = e->work;
            victim = e;
            break;
        }
        if (!victim || !e->used || (victim->used && e->work < victim->work)) victim = e;
    }
    victim->live = p->live; victim->open = p->open; victim->free = p->free;
    victim->v = (uint8_t)p->v; victim->side = (uint8_t)p->side;
    victim->lo = (uint8_t)lo; victim->hi = (uint8_t)hi;
    victim->move = move; victim->work = (uint8_t)work; victim->used = 1;
    S->tt_stores++;
}

int gt_probe(const GTSolver *S, const GTPos *p, int *lo, int *hi, uint16_t *move)
{
    const GTEntry *b = bucket_of(S, p);
    for (int i = 0; i < 2; i++)
        if (same(&b[i], p)) { *lo = b[i].lo; *hi = b[i].hi; *move = b[i].move; return 1; }
    return 0;
}

typedef struct {
    uint16_t move;
    int16_t kid;   /* index of the child already played (ETC), or -1 */
    int score;
} GTMove;

/* How exposed a face's button is: unsewn edges at the thimble's vertex beside it. */
static inline int exposure(const GTSolver *S, uint64_t open, int f)
{
    return __builtin_popcountll(open & S->fedges[f]);
}

/* The Tailor to move with a button beside one of his edges can take it now. Mr. Button
 * to move can take at most one such button away, so with two the Tailor takes one next. */
static inline int sure_lower(const GTSolver *S, const GTPos *p, uint64_t open)
{
    uint64_t at_hand = faces_beside(S, open) & p->free;
    int sure = p->side == GT_TAILOR ? at_hand != 0 : (at_hand & (at_hand - 1)) != 0;
    if (!sure && at_hand) { /* one button at hand: sure when it cannot move away */
        int f = __builtin_ctzll(at_hand);
        uint64_t exits = S->fedges[f] & p->open;
        sure = 1;
        while (exits && sure)
            if (!(p->free >> other_face(S, pop_lsb(&exits), f) & 1)) sure = 0;
    }
    return sure ? S->deg[p->v] : 0;
}

/* The static move order: the table's move, then for the Tailor captures first (of the button
 * hardest to reach later), then towards high-degree vertices with many ways on; for Mr. Button
 * moving the most exposed button to the least exposed face. */
static inline int order_score(const GTSolver *S, const GTPos *p, uint64_t open, uint16_t m, uint16_t hint)
{
    if (m == hint) return 1 << 20;
    if (p->side == GT_TAILOR) {
        int e = m & 63, w = other_end(S, e, p->v), cap = (m >> 6) - 1;
        int score = (cap >= 0 ? 1000 : 0) + 4 * S->deg[w] + __builtin_popcountll(open_edges(S, p, w));
        if (cap >= 0) score -= 8 * exposure(S, open, cap);
        return score;
    }
    if (m == GT_PASS) return 0;
    int f = m & 63, g = m >> 6 & 63;
    return 8 * (exposure(S, open, f) - exposure(S, open, g))
         + 4 * (exposure(S, p->live, f) - exposure(S, p->live, g)) - 1;
}

static int search(GTSolver *S, const GTPos *p, int alpha, int beta)
{
    if ((++S->nodes & (POLL_INTERVAL - 1)) == 0 && S->poll && S->poll(S->poll_ctx))
        S->stop = 1;
    if (S->stop) return 0;
    uint64_t open = open_edges(S, p, p->v);
    if (!open || !p->free) return 0;
    GTEntry *bucket = bucket_of(S, p);
    __builtin_prefetch(bucket); /* a table probe misses the caches: fetch while the bounds are found */
    int lo = sure_lower(S, p, open);
    int hi = gt_upper_bound(S, p);
    if (lo >= beta) return lo; /* after a capture the window can lie below zero */
    if (hi <= alpha || lo == hi) return hi;
    uint16_t hint = GT_NO_MOVE;
    for (int i = 0; i < 2; i++) {
        const GTEntry *e = &bucket[i];
        if (!same(e, p)) continue;
        S->tt_hits++;
        if (e->lo > lo) lo = e->lo;
        if (e->hi < hi) hi = e->hi;
        if (lo >= beta) return lo;
        if (hi <= alpha) return hi;
        if (lo == hi) return lo;
        hint = e->move;
        break;
    }
    if (alpha < lo) alpha = lo;
    if (beta > hi) beta = hi;
    int alpha0 = alpha, beta0 = beta;

    uint16_t raw[4 * GT_MAX + 8];
    GTMove moves[4 * GT_MAX + 8];
    int n = gt_moves(S, p, raw);
    for (int i = 0; i < n; i++) {
        uint16_t m = raw[i];
        int score = order_score(S, p, open, m, hint);
        int j = i;
        while (j > 0 && moves[j - 1].score < score) { moves[j] = moves[j - 1]; j--; }
        moves[j].move = m;
        moves[j].kid = -1;
        moves[j].score = score;
    }

    int tailor = p->side == GT_TAILOR;
    /* Enhanced transposition cut-off: a child whose stored bound already refutes the window
     * ends the node before any child is searched. Near the leaves the extra probes cost more
     * than they save. */
    int big = __builtin_popcountll(p->live) >= S->etc_min_live;
    GTPos kids[4 * GT_MAX + 8];
    int gains[4 * GT_MAX + 8];
    if (big)  /* play every move first and fetch the children's buckets all at once */
        for (int i = 0; i < n; i++) {
            gains[i] = gt_play(S, p, &kids[i], moves[i].move);
            moves[i].kid = (int16_t)i;
            __builtin_prefetch(bucket_of(S, &kids[i]));
        }
    for (int i = 0; i < n && big; i++) {
        const GTPos *q = &kids[i];
        int gain = gains[i], clo, chi;
        uint16_t cm;
        if (moves[i].score < (1 << 20)) { /* order by the bound after the move */
            int ub = gain + gt_upper_bound(S, q);
            moves[i].score += (tailor ? ub : -ub) * ORDER_UB_WEIGHT;
        }
        if (!gt_probe(S, q, &clo, &chi, &cm)) continue;
        if (tailor && clo + gain >= beta) {
            store(S, bucket, p, clo + gain, hi, moves[i].move, 0);
            return clo + gain;
        }
        if (!tailor && chi + gain <= alpha) {
            store(S, bucket, p, lo, chi + gain, moves[i].move, 0);
            return chi + gain;
        }
    }
    if (big)
        for (int i = 1; i < n; i++) {
            GTMove x = moves[i];
            int j = i;
            while (j > 0 && moves[j - 1].score < x.score) { moves[j] = moves[j - 1]; j--; }
            moves[j] = x;
        }
    uint64_t nodes0 = S->nodes;
    int best = tailor ? -1 : 1 << 20;
    uint16_t best_move = GT_NO_MOVE;
    for (int i = 0; i < n; i++) {
        GTPos played;
        const GTPos *q = &played;
        int gain;
        if (moves[i].kid >= 0) {
            q = &kids[moves[i].kid];
            gain = gains[moves[i].kid];
        } else {
            gain = gt_play(S, p, &played, moves[i].move);
        }
        int v = gain + search(S, q, alpha - gain, beta - gain);
        if (S->stop) return 0;
        if (tailor ? v > best : v < best) { best = v; best_move = moves[i].move; }
        if (tailor) { if (v > alpha) alpha = v; }
        else if (v < beta) beta = v;
        if (alpha >= beta) break;
    }
    if (best < beta0 && best < hi) hi = best;
    if (best > alpha0 && best > lo) lo = best;
    store(S, bucket, p, lo, hi, best_move, ilog2(S->nodes - nodes0 + 1));
    return best;
}

int gt_search(GTSolver *S, const GTPos *p, int alpha, int beta)
{
    S->stop = 0;
    return search(S, p, alpha, beta);
}

int gt_solve_between(GTSolver *S, const GTPos *p, int lo, int hi)
{
    int ub = gt_upper_bound(S, p);
    if (lo < 0) lo = 0;
    if (hi > ub) hi = ub;
    S->stop = 0;
    while (lo < hi && !S->stop) {
        int med = lo + (hi - lo) / 2;
        int r = search(S, p, med, med + 1);
        if (r <= med) hi = r; else lo = r;
    }
    return lo;
}


/* ---- Proof-number search ---------------------------------------------------------------------
 * "Does the Tailor earn more than k from here?" by depth-first proof-number search (df-pn, with
 * the 1 + 1/4 threshold of Pawlewicz and Lew) over positions with at least pn_ab_live live
 * edges, and by the null-window alpha-beta search below that. The Tailor's moves are OR nodes,
 * Mr. Button's AND nodes; a child's question is k less what the move captured. Leaves are
 * decided by the same sound bounds as the alpha-beta search (and by its table). Where the
 * Tailor has a narrow way to his score, df-pn goes straight to it: on the start questions of
 * the 17-vertex boards that the runs had needed 10^8 nodes and more for, it answers "yes" in
 * 10^4 to 10^6. A "no" needs every Tailor move refuted, and there alpha-beta's move order
 * does better, so callers fall back to it (solver/gent/proof.py). The game is acyclic (every
 * Tailor move sews an edge), so df-pn needs no cycle handling. Entries hold the whole position
 * and k, never a hash of them. */
#define PN_INF 100000000u

static inline GTProofEntry *pn_bucket(const GTSolver *S, const GTPos *p, int k)
{
    return &S->pn_table[(position_hash(p, k) & (S->pn_buckets - 1)) * GT_PN_WAYS];
}

static inline int pn_same(const GTProofEntry *e, const GTPos *p, int k)
{
    return e->used && e->live == p->live && e->open == p->open && e->free == p->free
        && e->v == p->v && e->side == p->side && e->k == k;
}

static int pn_lookup(const GTSolver *S, const GTPos *p, int k, uint32_t *pn, uint32_t *dn)
{
    const GTProofEntry *b = pn_bucket(S, p, k);
    for (int i = 0; i < GT_PN_WAYS; i++)
        if (pn_same(&b[i], p, k)) { *pn = b[i].pn; *dn = b[i].dn; return 1; }
    return 0;
}

/* Replaces the entry with the least work; answers found are kept before open questions. */
static void pn_store(GTSolver *S, const GTPos *p, int k, uint32_t pn, uint32_t dn, int work)
{
    GTProofEntry *b = pn_bucket(S, p, k), *victim = NULL;
    if (pn == 0 || dn == 0) work = 255;
    for (int i = 0; i < GT_PN_WAYS; i++) {
        if (pn_same(&b[i], p, k)) { victim = &b[i]; break; }
        if (!victim || !b[i].used || (victim->used && b[i].work < victim->work)) victim = &b[i];
    }
    victim->live = p->live; victim->open = p->open; victim->free = p->free;
    victim->v = (uint8_t)p->v; victim->side = (uint8_t)p->side; victim->k = (uint8_t)k;
    victim->pn = pn; victim->dn = dn; victim->work = (uint8_t)work; victim->used = 1;
}

/* The proof and disproof numbers of a question without expanding it: 0 and PN_INF when decided
 * by the bounds or a table, else what the proof-number table holds, else 1 and 1. */
static void pn_peek(const GTSolver *S, const GTPos *p, int k, uint32_t *pn, uint32_t *dn)
{
    uint64_t open = open_edges(S, p, p->v);
    int lo = 0, hi = 0;
    uint16_t m;
    if (k < 0) lo = 1; /* already more than k: the score to come is never negative */
    else if (open && p->free) {
        lo = sure_lower(S, p, open);
        hi = gt_upper_bound(S, p);
        int tlo, thi;
        if (lo <= k && hi > k && gt_probe(S, p, &tlo, &thi, &m)) {
            if (tlo > lo) lo = tlo;
            if (thi < hi) hi = thi;
        }
    }
    if (lo > k) { *pn = 0; *dn = PN_INF; return; }
    if (hi <= k) { *pn = PN_INF; *dn = 0; return; }
    if (!pn_lookup(S, p, k, pn, dn)) *pn = *dn = 1;
}

static inline uint32_t pn_add(uint32_t a, uint32_t b)
{
    uint64_t c = (uint64_t)a + b;
    return c >= PN_INF ? PN_INF : (uint32_t)c;
}

static void pn_search(GTSolver *S, const GTPos *p, int k, uint32_t thpn, uint32_t thdn, uint32_t *pn_out, uint32_t *dn_out)
{
    if ((++S->nodes & (POLL_INTERVAL - 1)) == 0 && S->poll && S->poll(S->poll_ctx))
        S->stop = 1;
    uint64_t nodes0 = S->nodes;
    if (__builtin_popcountll(p->live) < S->pn_ab_live) {
        int r = search(S, p, k, k + 1);
        *pn_out = *dn_out = 1;
        if (S->stop) return;
        if (r > k) *pn_out = 0, *dn_out = PN_INF;
        else *pn_out = PN_INF, *dn_out = 0;
        pn_store(S, p, k, *pn_out, *dn_out, 255);
        return;
    }
    uint16_t moves[4 * GT_MAX + 8];
    int n = gt_moves(S, p, moves);
    {   /* in the alpha-beta search's order: ties in the numbers go to the earlier move */
        uint64_t open = open_edges(S, p, p->v);
        int lo, hi;
        uint16_t hint = GT_NO_MOVE;
        gt_probe(S, p, &lo, &hi, &hint);
        int score[4 * GT_MAX + 8];
        for (int i = 0; i < n; i++) {
            uint16_t m = moves[i];
            int x = order_score(S, p, open, m, hint), j = i;
            while (j > 0 && score[j - 1] < x) { score[j] = score[j - 1]; moves[j] = moves[j - 1]; j--; }
            score[j] = x;
            moves[j] = m;
        }
    }
    GTPos kids[4 * GT_MAX + 8];
    int kk[4 * GT_MAX + 8];
    uint32_t cpn[4 * GT_MAX + 8], cdn[4 * GT_MAX + 8];
    for (int i = 0; i < n; i++) kk[i] = k - gt_play(S, p, &kids[i], moves[i]);
    int tailor = p->side == GT_TAILOR;
    uint32_t pn, dn;
    /* The children's numbers are looked up once; after that only the child searched changes,
     * to the numbers its search returns (a table entry could be gone by the time it is looked
     * up again, and a child that looked new each time would be searched for ever). */
    for (int i = 0; i < n; i++) pn_peek(S, &kids[i], kk[i], &cpn[i], &cdn[i]);
    for (;;) {
        /* OR (the Tailor): pn the least, dn the sum; AND (Mr. Button) the other way round.
         * `best` is the child with the least pn (OR) or dn (AND), `second` the next value. */
        int best = 0;
        uint32_t first = PN_INF + 1, second = PN_INF;
        pn = tailor ? PN_INF : 0;
        dn = tailor ? 0 : PN_INF;
        for (int i = 0; i < n; i++) {
            uint32_t x = tailor ? cpn[i] : cdn[i];
            if (tailor) { if (cpn[i] < pn) pn = cpn[i]; dn = pn_add(dn, cdn[i]); }
            else { pn = pn_add(pn, cpn[i]); if (cdn[i] < dn) dn = cdn[i]; }
            if (x < first) { second = first; first = x; best = i; }
            else if (x < second) second = x;
        }
        if (pn == 0 || dn == 0 || pn >= thpn || dn >= thdn || S->stop) break;
        if (second > PN_INF) second = PN_INF;
        uint32_t grow = second + second / 4 + 1;
        uint32_t tp, td;
        if (tailor) {
            tp = thpn < grow ? thpn : grow;
            td = thdn - dn + cdn[best];
        } else {
            td = thdn < grow ? thdn : grow;
            tp = thpn - pn + cpn[best];
        }
        pn_search(S, &kids[best], kk[best], tp, td, &cpn[best], &cdn[best]);
    }
    if (!S->stop) pn_store(S, p, k, pn, dn, ilog2(S->nodes - nodes0 + 1));
    *pn_out = pn;
    *dn_out = dn;
}

int gt_prove(GTSolver *S, const GTPos *p, int k)
{
    S->stop = 0;
    uint32_t pn, dn;
    pn_peek(S, p, k, &pn, &dn);
    while (pn != 0 && dn != 0 && !S->stop)
        pn_search(S, p, k, PN_INF - 1, PN_INF - 1, &pn, &dn);
    return S->stop ? -1 : pn == 0;
}
