/* Las Torres de Serans, two players: state with full stacks, line moves, exact search.
 *
 * A board has n*n holes (n <= 4), cell r*n + c. A hole is one byte: 0 when empty, else
 * (1 << h) | colours, where h >= 1 is the tower's height and bit i of colours is the player
 * (0 or 1) of the i-th piece from the bottom, so the top piece is bit h-1 and a residue keeps
 * the lower pieces exactly. Heights stay below 8 (target <= 7, <= 6 when the end is checked at
 * the end of a turn).
 *
 * The search is negamax with alpha-beta over whole turns (a row and a column move, as
 * solver/serans/rules.py defines them under the options below) and over the set-up placements;
 * values are the side to move's result: 0 a draw, +k a win whose tallest tower is k-1 levels
 * above the loser's tallest, -k the same loss. The transposition table stores the whole
 * position (board, side, passes, placements left) in every entry, never a hash of it: a probe
 * can only hit the position it was stored for.
 *
 * Symmetry: a board symmetry g is used only where the rules commute with it (the moves of g(p)
 * are g applied to the moves of p). Slides, collisions and "the free hole farthest back in the
 * moved line" are defined relative to the line and its direction, so they commute with all 8
 * symmetries of the square; the fallback to parallel lines breaks ties toward row 1 / column a
 * (or the other way), which only the transposition (rows <-> columns) preserves. The fallback
 * can only be reached with spawn_next, or with full_line and new_always (docs/serans-rules.md,
 * "Room for generated pieces"); then only {identity, transposition} is used, else all 8.
 * Table entries are keyed by the least image of the board (bytewise) under the group used.
 */
#ifndef SERANS_H
#define SERANS_H

#include <stdint.h>

#define SR_MAXN 4
#define SR_CELLS (SR_MAXN * SR_MAXN)
#define SR_MAX_TURNS (2 * (4 * SR_MAXN) * (2 * SR_MAXN) + 4 * SR_MAXN + SR_CELLS)
#define SR_NO_MOVE 0xFF

typedef struct {
    uint8_t c[SR_CELLS];
    uint8_t side, passes;
    uint8_t setup;    /* set-up placements still to make (0 once the turns have begun) */
} SRPos;

typedef struct {
    int rammer_front;   /* 0: the rear tower rams (passes its top piece) */
    int order_trailing; /* 0: collisions from the leading edge */
    int chain;          /* 1: a merged tower may collide again */
    int spawn_next;     /* 0: generated pieces go to the moved line first */
    int spawn_high;     /* 0: of two lines at the same distance, the lower index first */
    int new_always;     /* 0: a new piece only after a move without collision */
    int stuck;          /* 0 partial, 1 pass, 2 end */
    int end_turn;       /* 0: the game ends as soon as a tower reaches the target */
    int tiebreak_none;  /* 0: equal tallest towers compared by the next ones */
    int full_line;      /* 1: a full line may move when it has a collision */
    int setup_own;      /* 0: in the set-up a player places the opponent's colour (exchange) */
    int no_symmetry;    /* 1: use no board symmetry (for checks and measurements) */
    int no_ordering;    /* 1: plain move order, no table move, no history (measurements) */
    int full_window;    /* 1: sr_solve is one full-window search (measurements) */
    int no_etc;         /* 1: no child table probes before the search (measurements) */
    int no_eval;        /* 1: order by history only, not by the towers made (measurements) */
} SROptions;

typedef struct {
    uint8_t c[SR_CELLS];  /* the canonical board (least image under the symmetries used) */
    uint8_t sp;           /* side | passes << 1 | setup << 3 */
    int8_t lo, hi;
    uint8_t work;
    uint8_t m1, m2;       /* the best (or cutting) turn, in the canonical board's frame */
} SREntry; /* 22 bytes */

typedef struct {
    int n, target;
    SROptions o;
    SREntry *table;
    uint64_t table_buckets;  /* 4 entries per bucket */
    uint64_t nodes, tt_hits, tt_stores;
    int stop;
    int lo, hi;                            /* sr_solve: the bounds proven so far */
    int nsym;                              /* 1, 2 (identity, transposition) or 8 */
    uint8_t cellmap[8][SR_CELLS];          /* symmetry g sends cell i to cellmap[g][i] */
    uint8_t movemap[8][4 * SR_MAXN];       /* and line move m to movemap[g][m] */
    uint8_t inverse[8];
    uint32_t history[2][4 * SR_MAXN + 1][4 * SR_MAXN + 1];
    int (*poll)(void *ctx);
    void *poll_ctx;
} SRSolver;

#define SR_PLACE 0x40 /* m1 = SR_PLACE | cell: a set-up placement (m2 = SR_NO_MOVE) */

typedef struct {
    uint8_t m1, m2;   /* line moves, m = (kind * n + index) * 2 + forward; SR_NO_MOVE if none */
    SRPos pos;        /* the position after the turn */
} SRTurn;

SRSolver *sr_new(int n, int target, const SROptions *o, uint64_t table_bytes);
void sr_free(SRSolver *S);
void sr_clear_table(SRSolver *S);
/* The board after `player` plays line move m from b into out; 0 if the move is illegal. */
int sr_line_move(const SRSolver *S, const uint8_t *b, int player, int m, uint8_t *out);
/* Every legal turn (a pass has m1 == SR_NO_MOVE); -1 when the game ends here instead
 * (stuck == end and no full turn). */
int sr_turns(const SRSolver *S, const SRPos *p, SRTurn *out);
/* 1 and the value (side to move's view) if the game is over in p. */
int sr_terminal(const SRSolver *S, const SRPos *p, int *value);
int sr_search(SRSolver *S, const SRPos *p, int alpha, int beta);
/* The exact value: null-window searches that narrow the value's bounds until they meet. */
int sr_solve(SRSolver *S, const SRPos *p);
/* The symmetries used (1, 2 or 8) for these options, and the canonical form of p (its least
 * image), returning the index of a symmetry that maps p to it. */
int sr_symmetry_count(const SROptions *o);
int sr_canonical(const SRSolver *S, const SRPos *p, SRPos *out);
int sr_version(void);

#endif
