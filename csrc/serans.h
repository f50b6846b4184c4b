/* Las Torres de Serans, two players: state with full stacks, line moves, exact search.
 *
 * A board has n*n holes (n <= 4), cell r*n + c. A hole is one byte: 0 when empty, else
 * (1 << h) | colours, where h >= 1 is the tower's height and bit i of colours is the player
 * (0 or 1) of the i-th piece from the bottom, so the top piece is bit h-1 and a residue keeps
 * the lower pieces exactly. Heights stay below 8 (target <= 7, <= 6 when the end is checked at
 * the end of a turn).
 *
 * The search is negamax with alpha-beta over whole turns (a row and a column move, as
 * solver/serans/rules.py defines them under the options below); values are the side to move's
 * result: 0 a draw, +k a win whose tallest tower is k-1 levels above the loser's tallest, -k
 * the same loss. The transposition table stores the whole position (board, side, passes) in
 * every entry, never a hash of it: a probe can only hit the position it was stored for.
 */
#ifndef SERANS_H
#define SERANS_H

#include <stdint.h>

#define SR_MAXN 4
#define SR_CELLS (SR_MAXN * SR_MAXN)
#define SR_MAX_TURNS (2 * (4 * SR_MAXN) * (2 * SR_MAXN) + 4 * SR_MAXN)
#define SR_NO_MOVE 0xFF

typedef struct {
    uint8_t c[SR_CELLS];
    uint8_t side, passes;
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
} SROptions;

typedef struct {
    uint8_t c[SR_CELLS];
    uint8_t sp;           /* side | passes << 1 */
    int8_t lo, hi;
    uint8_t work;
} SREntry; /* 20 bytes */

typedef struct {
    int n, target;
    SROptions o;
    SREntry *table;
    uint64_t table_buckets;  /* 4 entries per bucket */
    uint64_t nodes, tt_hits, tt_stores;
    int stop;
    int (*poll)(void *ctx);
    void *poll_ctx;
} SRSolver;

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
int sr_solve(SRSolver *S, const SRPos *p);
int sr_version(void);

#endif
