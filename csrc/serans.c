#define _GNU_SOURCE /* posix_memalign, madvise(MADV_HUGEPAGE) */
#include "serans.h"
#include "table_memory.h"

#include <stdlib.h>
#include <string.h>

#define POLL_INTERVAL (1u << 20)
#define INF 100

int sr_version(void) { return 2; }

static inline int height(uint8_t x) { return x ? 31 - __builtin_clz(x) : 0; }
static inline int top(uint8_t x) { return (x >> (height(x) - 1)) & 1; }

/* Cells of a line from the leading edge backwards (rules.line_cells). */
static void line_cells(int n, int kind, int index, int forward, int *cells)
{
    for (int i = 0; i < n; i++) {
        int j = forward ? n - 1 - i : i;
        cells[i] = kind == 0 ? index * n + j : j * n + index;
    }
}

int sr_symmetry_count(const SROptions *o)
{
    if (o->no_symmetry) return 1;
    if (o->spawn_next || (o->full_line && o->new_always)) return 2;
    return 8;
}

/* The 8 symmetries of the square, identity and transposition first (the group {0, 1} is the
 * one used when the spawn fallback's tie rule is in play); cellmap, movemap and inverses. */
static void init_symmetries(SRSolver *S)
{
    int n = S->n, nm = 4 * n;
    S->nsym = sr_symmetry_count(&S->o);
    for (int g = 0; g < 8; g++) {
        for (int i = 0; i < SR_CELLS; i++) S->cellmap[g][i] = (uint8_t)i;
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                int a = n - 1 - r, b = n - 1 - c, rr, cc;
                switch (g) {
                case 0: rr = r; cc = c; break;
                case 1: rr = c; cc = r; break;
                case 2: rr = a; cc = c; break;
                case 3: rr = r; cc = b; break;
                case 4: rr = a; cc = b; break;
                case 5: rr = c; cc = a; break;
                case 6: rr = b; cc = r; break;
                default: rr = b; cc = a; break;
                }
                S->cellmap[g][r * n + c] = (uint8_t)(rr * n + cc);
            }
        for (int m = 0; m < nm; m++) {
            int L[SR_MAXN], M[SR_MAXN];
            line_cells(n, (m >> 1) / n, (m >> 1) % n, m & 1, L);
            for (int m2 = 0; m2 < nm; m2++) {
                line_cells(n, (m2 >> 1) / n, (m2 >> 1) % n, m2 & 1, M);
                int same = 1;
                for (int i = 0; i < n; i++) same &= S->cellmap[g][L[i]] == M[i];
                if (same) S->movemap[g][m] = (uint8_t)m2;
            }
        }
    }
    for (int g = 0; g < 8; g++)
        for (int h = 0; h < 8; h++) {
            int id = 1;
            for (int i = 0; i < n * n; i++) id &= S->cellmap[h][S->cellmap[g][i]] == i;
            if (id) S->inverse[g] = (uint8_t)h;
        }
}

static inline uint8_t map_move(const SRSolver *S, int g, uint8_t m)
{
    if (m == SR_NO_MOVE) return m;
    if (m & SR_PLACE) return (uint8_t)(SR_PLACE | S->cellmap[g][m & 0x0F]);
    return S->movemap[g][m];
}

int sr_canonical(const SRSolver *S, const SRPos *p, SRPos *out)
{
    *out = *p;
    int best = 0;
    for (int g = 1; g < S->nsym; g++) {
        uint8_t img[SR_CELLS] = {0};
        for (int i = 0; i < SR_CELLS; i++) img[S->cellmap[g][i]] = p->c[i];
        if (memcmp(img, out->c, SR_CELLS) < 0) { memcpy(out->c, img, SR_CELLS); best = g; }
    }
    return best;
}

SRSolver *sr_new(int n, int target, const SROptions *o, uint64_t table_bytes)
{
    if (n < 2 || n > SR_MAXN || target < 2) return NULL;
    if (target + (o->end_turn ? 1 : 0) > 7) return NULL;
    SRSolver *S = calloc(1, sizeof *S);
    if (!S) return NULL;
    S->n = n; S->target = target; S->o = *o;
    init_symmetries(S);
    uint64_t buckets = 1;
    while (buckets * 2 * 4 * sizeof(SREntry) <= table_bytes) buckets *= 2;
    S->table_buckets = buckets;
    S->table = table_alloc(buckets * 4 * sizeof(SREntry));
    if (!S->table) { free(S); return NULL; }
    return S;
}

void sr_free(SRSolver *S)
{
    if (!S) return;
    free(S->table);
    free(S);
}

void sr_clear_table(SRSolver *S)
{
    memset(S->table, 0, S->table_buckets * 4 * sizeof(SREntry));
}

/* rules._collide: the new tower and the residue (0 if none) when rear runs into front. */
static void collide(const SRSolver *S, uint8_t front, uint8_t rear, uint8_t *made, uint8_t *residue)
{
    if (S->o.rammer_front) { uint8_t t = front; front = rear; rear = t; }
    int h = height(front);
    int low = front & ((1 << h) - 1);
    *made = (uint8_t)((1 << (h + 1)) | low | (top(rear) << h));
    *residue = h > 1 ? (uint8_t)((1 << (h - 1)) | (rear & ((1 << (h - 1)) - 1))) : 0;
}

int sr_line_move(const SRSolver *S, const uint8_t *b, int player, int m, uint8_t *out)
{
    int n = S->n, forward = m & 1, kind = (m >> 1) / n, index = (m >> 1) % n;
    int cells[SR_MAXN];
    line_cells(n, kind, index, forward, cells);
    uint8_t towers[SR_MAXN];
    int k = 0, mine = 0;
    for (int i = 0; i < n; i++) {
        uint8_t x = b[cells[i]];
        if (x) { towers[k++] = x; mine |= top(x) == player; }
    }
    if (!mine || (k == n && !S->o.full_line)) return 0;
    uint8_t res[SR_MAXN], outl[SR_MAXN];
    int merged[SR_MAXN], nout = 0, nres = 0, collisions = 0;
    for (int j = 0; j < k; j++) {
        uint8_t t = towers[S->o.order_trailing ? k - 1 - j : j];
        if (nout && height(outl[nout - 1]) == height(t) && (S->o.chain || !merged[nout - 1])) {
            uint8_t made, residue;
            if (!S->o.order_trailing) collide(S, outl[nout - 1], t, &made, &residue);
            else collide(S, t, outl[nout - 1], &made, &residue);
            outl[nout - 1] = made;
            merged[nout - 1] = 1;
            collisions++;
            if (residue) res[nres++] = residue;
        } else {
            outl[nout] = t;
            merged[nout++] = 0;
        }
    }
    if (S->o.order_trailing)
        for (int i = 0; i < nout / 2; i++) { uint8_t t = outl[i]; outl[i] = outl[nout - 1 - i]; outl[nout - 1 - i] = t; }
    int moved = 0;
    memcpy(out, b, (size_t)n * n);
    for (int i = 0; i < n; i++) {
        uint8_t x = i < nout ? outl[i] : 0;
        moved |= x != b[cells[i]];
        out[cells[i]] = x;
    }
    if (!moved) return 0;
    int new_piece = collisions == 0 || S->o.new_always;
    if (new_piece) res[nres++] = (uint8_t)(2 | player);
    /* rules.spawn_lines */
    int lines[SR_MAXN], nl = 0;
    if (!S->o.spawn_next) lines[nl++] = index;
    for (int d = 1; d < n; d++) {
        int a = S->o.spawn_high ? index + d : index - d, c = S->o.spawn_high ? index - d : index + d;
        if (a >= 0 && a < n) lines[nl++] = a;
        if (c >= 0 && c < n) lines[nl++] = c;
    }
    if (S->o.spawn_next) lines[nl++] = index;
    for (int r = 0; r < nres; r++) {
        int placed = 0;
        for (int l = 0; l < nl && !placed; l++) {
            int lc[SR_MAXN];
            line_cells(n, kind, lines[l], forward, lc);
            for (int i = n - 1; i >= 0; i--)
                if (!out[lc[i]]) { out[lc[i]] = res[r]; placed = 1; break; }
        }
        /* only the new piece can find no hole (full line, full_line and new_always): dropped */
        if (!placed && !(new_piece && r == nres - 1)) return 0;
    }
    return 1;
}

static int tallest(const SRSolver *S, const uint8_t *b)
{
    int t = 0;
    for (int i = 0; i < S->n * S->n; i++) { int h = height(b[i]); if (h > t) t = h; }
    return t;
}

/* rules.final_value2 from the first player's view. */
static int final_value(const SRSolver *S, const uint8_t *b)
{
    int cnt[2][9] = {{0}};
    for (int i = 0; i < S->n * S->n; i++)
        if (b[i]) cnt[top(b[i])][height(b[i])]++;
    int t[2] = {0, 0};
    for (int p = 0; p < 2; p++)
        for (int h = 8; h >= 1; h--) if (cnt[p][h]) { t[p] = h; break; }
    int cmp = 0;
    if (S->o.tiebreak_none) {
        cmp = (t[0] > t[1]) - (t[0] < t[1]);
    } else {
        /* lexicographic on the heights sorted downwards; a longer list wins a common prefix */
        for (int h = 8; h >= 1 && !cmp; h--) cmp = (cnt[0][h] > cnt[1][h]) - (cnt[0][h] < cnt[1][h]);
    }
    if (cmp > 0) return 1 + t[0] - t[1];
    if (cmp < 0) return -(1 + t[1] - t[0]);
    return 0;
}

int sr_terminal(const SRSolver *S, const SRPos *p, int *value)
{
    if (p->setup) return 0;
    if (p->passes >= 2 || tallest(S, p->c) >= S->target) {
        int v = final_value(S, p->c);
        *value = p->side ? -v : v;
        return 1;
    }
    return 0;
}

int sr_turns(const SRSolver *S, const SRPos *p, SRTurn *out)
{
    int n = S->n, nm = 4 * n, k = 0, ks = 0;
    if (p->setup) { /* placements: the opponent's colour (exchange) or one's own */
        int colour = S->o.setup_own ? p->side : 1 - p->side;
        for (int cell = 0; cell < n * n; cell++) {
            if (p->c[cell]) continue;
            SRTurn *t = &out[k++];
            memset(t, 0, sizeof *t);
            t->m1 = (uint8_t)(SR_PLACE | cell); t->m2 = SR_NO_MOVE;
            t->pos = *p;
            t->pos.c[cell] = (uint8_t)(2 | colour);
            t->pos.side = (uint8_t)(1 - p->side);
            t->pos.setup = (uint8_t)(p->setup - 1);
        }
        return k;
    }
    uint8_t b1[SR_CELLS] = {0}; /* line moves fill n*n cells; the rest must not hold garbage */
    SRTurn singles[4 * SR_MAXN];
    for (int m1 = 0; m1 < nm; m1++) {
        if (!sr_line_move(S, p->c, p->side, m1, b1)) continue;
        SRTurn *s = &singles[ks++];
        memset(s, 0, sizeof *s);
        s->m1 = (uint8_t)m1; s->m2 = SR_NO_MOVE;
        memcpy(s->pos.c, b1, sizeof b1);
        s->pos.side = (uint8_t)(1 - p->side);
        if (!S->o.end_turn && tallest(S, b1) >= S->target) { out[k++] = *s; continue; }
        int kind = (m1 >> 1) / n;
        for (int m2 = (1 - kind) * 2 * n; m2 < (2 - kind) * 2 * n; m2++) {
            SRTurn *t = &out[k];
            memset(t, 0, sizeof *t);
            if (!sr_line_move(S, b1, p->side, m2, t->pos.c)) continue;
            t->m1 = (uint8_t)m1; t->m2 = (uint8_t)m2;
            t->pos.side = (uint8_t)(1 - p->side);
            k++;
        }
    }
    if (k) return k;
    if (S->o.stuck == 2) return -1;
    if (S->o.stuck == 0 && ks) {
        memcpy(out, singles, ks * sizeof *singles);
        return ks;
    }
    memset(out, 0, sizeof *out);
    out[0].m1 = out[0].m2 = SR_NO_MOVE;
    out[0].pos = *p;
    out[0].pos.side = (uint8_t)(1 - p->side);
    out[0].pos.passes = (uint8_t)(p->passes + 1);
    return 1;
}

static inline uint64_t hash_pos(const SRPos *p)
{
    uint64_t a, b;
    memcpy(&a, p->c, 8);
    memcpy(&b, p->c + 8, 8);
    uint64_t h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full
                 ^ (uint64_t)(p->side | p->passes << 1 | p->setup << 3) * 0x165667B19E3779F9ull;
    h ^= h >> 31; h *= 0xBF58476D1CE4E5B9ull; h ^= h >> 29;
    return h;
}

static inline uint8_t sp_of(const SRPos *p) { return (uint8_t)(p->side | p->passes << 1 | p->setup << 3); }

static inline int same(const SREntry *e, const SRPos *p)
{
    return e->work && e->sp == sp_of(p) && !memcmp(e->c, p->c, SR_CELLS);
}

static SREntry *probe(SRSolver *S, const SRPos *p)
{
    SREntry *bucket = S->table + (hash_pos(p) & (S->table_buckets - 1)) * 4;
    for (int i = 0; i < 4; i++) if (same(&bucket[i], p)) return &bucket[i];
    return NULL;
}

/* p is canonical; m1, m2 the best turn in its frame (SR_NO_MOVE if none known). */
static void store(SRSolver *S, const SRPos *p, int lo, int hi, uint64_t work_nodes, uint8_t m1, uint8_t m2)
{
    SREntry *bucket = S->table + (hash_pos(p) & (S->table_buckets - 1)) * 4, *e = NULL;
    for (int i = 0; i < 4 && !e; i++) if (same(&bucket[i], p)) e = &bucket[i];
    int w = 1;
    while (work_nodes > 1 && w < 63) { work_nodes >>= 1; w++; }
    if (!e) {
        e = &bucket[0];
        for (int i = 1; i < 4; i++) if (bucket[i].work < e->work) e = &bucket[i];
        memcpy(e->c, p->c, SR_CELLS);
        e->sp = sp_of(p);
        e->lo = -INF; e->hi = INF;
        e->work = 0;
        e->m1 = e->m2 = SR_NO_MOVE;
    }
    if (lo > e->lo) e->lo = (int8_t)lo;
    if (hi < e->hi) e->hi = (int8_t)hi;
    if (w > e->work) e->work = (uint8_t)w;
    if (m1 != SR_NO_MOVE || m2 != SR_NO_MOVE) { e->m1 = m1; e->m2 = m2; }
    S->tt_stores++;
}

static inline uint32_t *hist(SRSolver *S, int side, const SRTurn *t)
{
    int nm = 4 * S->n;
    if (t->m1 & SR_PLACE && t->m1 != SR_NO_MOVE) return NULL;
    int a = t->m1 == SR_NO_MOVE ? nm : t->m1, b = t->m2 == SR_NO_MOVE ? nm : t->m2;
    return &S->history[side][a][b];
}

/* Ordering score of the position after the mover's turn, from the mover's view: first the
 * mover's tallest tower minus the opponent's, then a bonus when the mover keeps a threat to
 * build a target tower (two towers of height target-1 next to each other in a line, one of
 * them the mover's, the line not full and holding a tower of the mover's: a rough test), then
 * the sum of the squared heights of the mover's towers minus the opponent's. Only an order;
 * never a bound. */
static inline int eval_after(const SRSolver *S, const uint8_t *b, int mover)
{
    int n = S->n, t[2] = {0, 0}, s = 0, threat = 0;
    for (int i = 0; i < n * n; i++)
        if (b[i]) {
            int h = height(b[i]), o = top(b[i]);
            if (h > t[o]) t[o] = h;
            s += o == mover ? h * h : -h * h;
        }
    for (int kind = 0; kind < 2 && !threat; kind++)
        for (int idx = 0; idx < n && !threat; idx++) {
            int L[SR_MAXN], k = 0, mine = 0;
            uint8_t tw[SR_MAXN];
            line_cells(n, kind, idx, 1, L);
            for (int i = 0; i < n; i++)
                if (b[L[i]]) { tw[k++] = b[L[i]]; mine |= top(b[L[i]]) == mover; }
            if (!mine || (k == n && !S->o.full_line)) continue;
            for (int i = 0; i + 1 < k; i++)
                if (height(tw[i]) == S->target - 1 && height(tw[i + 1]) == S->target - 1
                    && (top(tw[i]) == mover || top(tw[i + 1]) == mover)) threat = 1;
        }
    return (t[mover] - t[1 - mover]) * 1024 + threat * 512 + s;
}

static int search_c(SRSolver *S, const SRPos *p, const SRPos *cp, int g, int alpha, int beta);

static int search(SRSolver *S, const SRPos *p, int alpha, int beta)
{
    int v;
    if (S->stop) return 0;
    if (sr_terminal(S, p, &v)) {
        if ((++S->nodes & (POLL_INTERVAL - 1)) == 0 && S->poll && S->poll(S->poll_ctx)) S->stop = 1;
        return S->stop ? 0 : v;
    }
    SRPos cp;
    int g = sr_canonical(S, p, &cp);
    return search_c(S, p, &cp, g, alpha, beta);
}

/* p is not terminal; cp its canonical form, g a symmetry mapping p to cp. */
static int search_c(SRSolver *S, const SRPos *p, const SRPos *cp, int g, int alpha, int beta)
{
    if (S->stop) return 0;
    if ((++S->nodes & (POLL_INTERVAL - 1)) == 0 && S->poll && S->poll(S->poll_ctx)) {
        S->stop = 1;
        return 0;
    }
    int v;
    uint8_t hm1 = SR_NO_MOVE, hm2 = SR_NO_MOVE;
    SREntry *e = probe(S, cp);
    if (e) {
        S->tt_hits++;
        if (e->lo == e->hi) return e->lo;
        if (e->lo >= beta) return e->lo;
        if (e->hi <= alpha) return e->hi;
        if (e->lo > alpha) alpha = e->lo;
        if (e->hi < beta) beta = e->hi;
        int gi = S->inverse[g];
        hm1 = map_move(S, gi, e->m1);
        hm2 = map_move(S, gi, e->m2);
    }
    SRTurn turns[SR_MAX_TURNS];
    int k = sr_turns(S, p, turns);
    if (k < 0) {
        int f = final_value(S, p->c);
        return p->side ? -f : f;
    }
    uint64_t before = S->nodes;
    int a0 = alpha, best = -INF, besti = -1;
    /* finished games first: an immediate win cuts at once; they need no search */
    int rest[SR_MAX_TURNS], nrest = 0;
    for (int i = 0; i < k; i++) {
        if (!sr_terminal(S, &turns[i].pos, &v)) { rest[nrest++] = i; continue; }
        v = -v;
        if (v > best) { best = v; besti = i; }
        if (v > alpha) alpha = v;
        if (alpha >= beta) break;
    }
    SRPos ccp[SR_MAX_TURNS];
    uint8_t cg[SR_MAX_TURNS];
    int etc = !S->o.no_etc;
    if (alpha < beta && etc) {
        /* the children's canonical forms, once each: equal children (two turns to the same
         * position up to symmetry) are searched once; a child whose table entry already
         * proves a cut-off ends the node (enhanced transposition cut-off), and one whose
         * entry proves it cannot raise alpha needs no search (its bound counts toward best) */
        uint64_t hh[SR_MAX_TURNS];
        int nr = 0;
        for (int j = 0; j < nrest; j++) {
            int i = rest[j];
            cg[i] = (uint8_t)sr_canonical(S, &turns[i].pos, &ccp[i]);
            uint64_t h = hash_pos(&ccp[i]);
            int dup = 0;
            for (int l = 0; l < nr && !dup; l++)
                dup = hh[l] == h && !memcmp(ccp[rest[l]].c, ccp[i].c, SR_CELLS) && sp_of(&ccp[rest[l]]) == sp_of(&ccp[i]);
            if (dup) continue;
            SREntry *ce = probe(S, &ccp[i]);
            if (ce) {
                int ub = -ce->lo, lb = -ce->hi; /* bounds on this turn's value for the mover */
                if (lb > best) { best = lb; besti = i; }
                if (lb > alpha) alpha = lb;
                if (alpha >= beta) break;
                if (ub <= alpha) { if (ub > best) { best = ub; besti = i; } continue; }
            }
            hh[nr] = h;
            rest[nr++] = i;
        }
        if (alpha < beta) nrest = nr;
    }
    if (alpha < beta) {
        int ordering = !S->o.no_ordering;
        int64_t score[SR_MAX_TURNS];
        if (ordering)
            for (int j = 0; j < nrest; j++) {
                const SRTurn *t = &turns[rest[j]];
                uint32_t *h = hist(S, p->side, t);
                int64_t hs = h ? *h : 0;
                if (t->m1 == hm1 && t->m2 == hm2) score[j] = INT64_MAX;
                else if (S->o.no_eval) score[j] = hs;
                else score[j] = ((int64_t)eval_after(S, t->pos.c, p->side) << 32) + hs;
            }
        for (int j = 0; j < nrest; j++) {
            if (ordering) { /* the best remaining by score (selection: cut-offs come early) */
                int bj = j;
                for (int l = j + 1; l < nrest; l++) if (score[l] > score[bj]) bj = l;
                if (bj != j) {
                    int ti = rest[j]; rest[j] = rest[bj]; rest[bj] = ti;
                    int64_t ts = score[j]; score[j] = score[bj]; score[bj] = ts;
                }
            }
            int i = rest[j];
            v = etc ? -search_c(S, &turns[i].pos, &ccp[i], cg[i], -beta, -alpha)
                    : -search(S, &turns[i].pos, -beta, -alpha);
            if (S->stop) return 0;
            if (v > best) { best = v; besti = i; }
            if (v > alpha) alpha = v;
            if (alpha >= beta) {
                uint32_t *h = hist(S, p->side, &turns[i]);
                if (ordering && h && (*h += 1) > (1u << 30))
                    for (int s = 0; s < 2 * (4 * SR_MAXN + 1) * (4 * SR_MAXN + 1); s++)
                        (&S->history[0][0][0])[s] >>= 1;
                break;
            }
        }
    }
    uint8_t bm1 = SR_NO_MOVE, bm2 = SR_NO_MOVE;
    if (besti >= 0 && best > a0) { /* a move worth trying first next time */
        bm1 = map_move(S, g, turns[besti].m1);
        bm2 = map_move(S, g, turns[besti].m2);
    }
    if (best <= a0) store(S, cp, -INF, best, S->nodes - before, bm1, bm2);
    else if (best >= beta) store(S, cp, best, INF, S->nodes - before, bm1, bm2);
    else store(S, cp, best, best, S->nodes - before, bm1, bm2);
    return best;
}

int sr_search(SRSolver *S, const SRPos *p, int alpha, int beta)
{
    S->stop = 0;
    return search(S, p, alpha, beta);
}

int sr_solve(SRSolver *S, const SRPos *p)
{
    if (S->o.full_window) {
        int v = sr_search(S, p, -INF, INF);
        if (S->stop) { S->lo = -INF; S->hi = INF; } else S->lo = S->hi = v;
        return v;
    }
    /* MTD(f) from a guess of 0: each null-window search tightens one bound (fail-soft) */
    int g = 0;
    S->lo = -INF; S->hi = INF; S->stop = 0;
    while (S->lo < S->hi) {
        int b = g == S->lo ? g + 1 : g;
        int r = search(S, p, b - 1, b);
        if (S->stop) return 0;
        if (r < b) S->hi = r; else S->lo = r;
        g = r;
    }
    return S->lo;
}
