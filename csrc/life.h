/* Buntes Leben (coloured Game of Life): the bitboard step and batch analyses.
 *
 * A board of w x h cells (3 <= w, h <= 8) is one 64-bit word per colour: cell (row r, column c)
 * is bit r*w + c, row 0 at the top. `a` holds the first player's tokens, `b` the second's; a
 * cell is never in both. One generation (bl_step) is Conway's Life with colours: a token with
 * 2 or 3 tokens of any colour among its 8 neighbours survives with its colour, every other
 * token dies; an empty cell with exactly 3 neighbours is born in the colour that holds at least
 * 2 of them. Outside the board cells are dead (edge 0) or the board wraps around (edge 1).
 */
#ifndef LIFE_H
#define LIFE_H

#include <stdint.h>

#define BL_DEAD 0
#define BL_TORUS 1

typedef struct {
    int w, h, torus;
    uint64_t full;        /* every cell of the board */
    uint64_t col_first;   /* column 0 */
    uint64_t col_last;    /* column w-1 */
} BLGeom;

/* 0 on success, -1 on a size outside 3..8. */
int bl_geom(BLGeom *g, int w, int h, int torus);

/* One generation: (a, b) -> (*na, *nb). */
void bl_step(const BLGeom *g, uint64_t a, uint64_t b, uint64_t *na, uint64_t *nb);

/* The cells next to (8-neighbourhood) some cell of x, x itself excluded unless a neighbour. */
uint64_t bl_neighbours(const BLGeom *g, uint64_t x);

/* A pattern of one colour on its own for up to `limit` generations. Returns the generation at
 * which it died out (>= 1), or 0 if it was still alive after `limit` generations; then *start is
 * the first generation of a repeating cycle of length *period (both 0 if none was found within
 * the limit), and *final_pop the population after `limit` generations. `limit` <= 4096. */
int bl_alone(const BLGeom *g, uint64_t a, int limit, int *start, int *period, int *final_pop);

/* Set-up duel without placements: a against b for `limit` generations. Result for the first
 * player: +1, 0, -1; *gens the generation at which it was decided (extinction), or limit.
 * both_extinct: score when both die in the same generation (usually 0). count_at_limit: at the
 * limit more tokens wins (1) or it is a draw (0). */
int bl_duel(const BLGeom *g, uint64_t a, uint64_t b, int limit, int both_extinct,
            int count_at_limit, int *gens);

/* For every a in as[0..na) the best result of the second player over bs[0..nb) in a duel,
 * written to best[i] (the first player's result, lowest is best for the second) and the index
 * of the first b reaching it to reply[i]; counts[i*3 + r+1] counts the b's with result r.
 * Checks *stop between rows (a caller may set it from another thread). */
void bl_best_replies(const BLGeom *g, const uint64_t *as, int na, const uint64_t *bs, int nb,
                     int limit, int both_extinct, int count_at_limit,
                     int *best, int *reply, int64_t *counts, volatile int *stop);

/* ---- exact search of the whole game after the set-ups ----
 * Values are the first player's result: +1, 0, -1. Placement rounds come before generation
 * gen when gen >= place_first and (gen - place_first) % place_every == 0 (place_every 0: none).
 * order: 0 the first player places first, 1 the second, 2 alternate (first player in the first
 * round), 3 a coin, searched as falling against player coin_against (0 or 1). */
#define BL_ORDER_FIRST 0
#define BL_ORDER_SECOND 1
#define BL_ORDER_ALTERNATE 2
#define BL_ORDER_COIN 3

typedef struct {
    uint64_t a, b;
    int32_t gen;
    int8_t lo, hi;
    uint8_t used, pad;
} BLEntry; /* 24 bytes */

typedef struct {
    BLGeom g;
    int place_first, place_every, extra, optional, order, coin_against;
    int both_extinct, count_at_limit, generations;
    BLEntry *table;
    uint64_t table_size;      /* a power of two */
    uint64_t nodes;
    int stop;
    int (*poll)(void *ctx);
    void *poll_ctx;
} BLSolver;

/* NULL on bad sizes or no memory. */
BLSolver *bl_solver_new(int w, int h, int torus, int place_first, int place_every, int extra,
                        int optional, int order, int coin_against, int both_extinct,
                        int count_at_limit, int generations, uint64_t table_bytes);
void bl_solver_free(BLSolver *S);
/* Value of (a, b) after `gen` generations, the game not over; fail-soft in (alpha, beta). */
int bl_search(BLSolver *S, uint64_t a, uint64_t b, int gen, int alpha, int beta);

#endif
