/* The Tailor of Ghent: state, move generation and exact search.
 *
 * Positions enter as the thimble's vertex, the sewn edges, the faces holding a free button, the
 * vertices holding a captured button and the side to move (gt_load). Inside, a position keeps
 * only what can still matter, as 64-bit masks (see gt_normalize): `live` edges the thimble can
 * still walk, `open` unsewn edges between inner faces that buttons can still usefully cross,
 * and the `free` buttons that can still be captured. Positions that differ only in what can no
 * longer matter become equal, and Mr. Button's moves that cannot matter are never generated. The search
 * value is the score the Tailor still earns from here (the score so far is additive and kept by
 * the caller), so the transposition table needs only the remaining position. Entries store the
 * whole position, never a hash of it: a probe can only hit the position it was stored for.
 */
#ifndef GENT_H
#define GENT_H

#include <stdint.h>

#define GT_MAX 64
#define GT_TAILOR 0
#define GT_BUTTON 1
#define GT_PASS 0xFFFF
#define GT_NO_MOVE 0xFFFE

/* Moves are 16 bits. Tailor: edge | (capture face + 1) << 6 (0: no capture).
 * Button: from face | to face << 6 | 1 << 12. */
#define GT_BUTTON_FLAG (1 << 12)

typedef struct {
    uint64_t live, open, free;
    int v, side;
} GTPos;

typedef struct {
    uint64_t live, open, free;
    uint8_t v, side, lo, hi;
    uint16_t move;
    uint8_t work, used;
} GTEntry; /* 32 bytes */

/* A proof-number search entry: the whole position, the question's k, its proof and disproof
 * numbers (0 when answered), and the log of the nodes spent on it. */
typedef struct {
    uint64_t live, open, free;
    uint32_t pn, dn;
    uint8_t v, side, k, work, used;
} GTProofEntry; /* 40 bytes */

#define GT_PN_WAYS 4
/* Measured on start questions of ghent17 1-4-11-5 ("start 1 > 46?"): from 12 live edges on
 * 122,504 nodes, from 16 on 541,192. */
#define GT_PN_AB_LIVE 12

typedef struct {
    int nv, ne, nf, outer;
    int eu[GT_MAX], ev[GT_MAX], ef[GT_MAX][2];
    int deg[GT_MAX];
    uint64_t vedges[GT_MAX];      /* edges at each vertex */
    uint64_t fedges[GT_MAX];      /* edges around each face */
    uint64_t inner_edges;         /* edges between two inner faces */
    int by_degree[GT_MAX];        /* vertices, highest degree first */
    int degree_rank[GT_MAX];      /* each vertex's place in by_degree */
    uint64_t eends[GT_MAX];       /* the two ends of each edge */
    uint64_t efaces[GT_MAX];      /* the two faces beside each edge */
    int max_score;
    GTEntry *table;
    uint64_t table_buckets;       /* two entries per bucket */
    uint64_t nodes, tt_hits, tt_stores;
    int stop;
    int etc_min_live;             /* enhanced transposition cut-offs with this many live edges */
    int (*poll)(void *ctx);
    void *poll_ctx;
    GTProofEntry *pn_table;       /* the proof-number search's table, GT_PN_WAYS entries a bucket */
    uint64_t pn_buckets;
    int pn_ab_live;               /* below this many live edges gt_prove asks the alpha-beta search */
} GTSolver;

/* eu/ev: edge endpoints; ef: the two faces of each edge; degrees follow from the edges. */
/* table_bytes is shared by the alpha-beta table (half, a power of two) and the proof-number
 * table (the rest). */
GTSolver *gt_new(int nv, int ne, int nf, int outer, const int *eu, const int *ev,
                 const int *ef0, const int *ef1, uint64_t table_bytes);
void gt_free(GTSolver *S);
void gt_clear_table(GTSolver *S);
void gt_load(const GTSolver *S, GTPos *p, int v, uint64_t sewn, uint64_t free, uint64_t capt, int side);
void gt_normalize(const GTSolver *S, GTPos *p);
int gt_moves(const GTSolver *S, const GTPos *p, uint16_t *moves);
int gt_play(const GTSolver *S, const GTPos *p, GTPos *q, uint16_t move);  /* returns the gain */
int gt_upper_bound(const GTSolver *S, const GTPos *p);
int gt_search(GTSolver *S, const GTPos *p, int alpha, int beta);
int gt_solve_between(GTSolver *S, const GTPos *p, int lo, int hi);
/* 1 when the Tailor earns more than k from p, 0 when not, -1 when poll() stopped it. */
int gt_prove(GTSolver *S, const GTPos *p, int k);
int gt_probe(const GTSolver *S, const GTPos *p, int *lo, int *hi, uint16_t *move);

#endif
