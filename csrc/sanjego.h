/* San Jego core: state, move generation, hashing, transposition table, search.
 *
 * Cells are numbered c + r*W (column c, row r, both from 0), W*H <= 64.
 * Values are always from the first player's view.
 *
 * Empty cells stay empty, so the towers fall apart into groups (connected
 * components) that never join again. A position keeps only the "active"
 * towers; a group leaves the board and is "banked" when it can no longer
 * interact with the rest:
 *  - An isolated tower never changes again: only its height counts for its
 *    owner (the top one for the margin, the top two for the rules outcome).
 *  - Group reduction (margin only): a group whose towers all belong to one
 *    player P counts as one finished tower of its total height for P plus
 *    (towers - 1) "tempo" moves that P may spend at any time, each one changing
 *    nothing else. Why this is exact: only P can move in the group and every
 *    such move only merges two of its towers, so it affects the rest of the
 *    game only as a move that changes nothing else there. Merging leaf-first
 *    along a spanning tree keeps the group connected, so P can spend any
 *    number of its k-1 moves whenever he likes and still end with one tower of
 *    the whole height, the most the group can give him; any other way of
 *    playing it spends moves the same way and ends no taller. A spare tempo
 *    move is an optional pass; when P has nothing else it is forced, like the
 *    pass it replaces. (For the outcome the second-tallest tower matters, and
 *    splitting a group can be better than merging it, so there only isolated
 *    towers are banked.)
 * With group reduction every active group holds towers of both players, so
 * both players always have a real move until the board is empty.
 *
 * Table keys: a position's Zobrist key under the board symmetry that gives the
 * least, plus for each group of at most free_group_max towers (grid boards; 5 by
 * default, 0 when the symmetries are off) a hash of its graph labelled with heights
 * and owners (group_code): such a group is worth the same wherever it lies and
 * however it is turned or bent, so equal groups in different places share entries.
 * A position keeps those groups' cells out of its per-symmetry keys (free) and the
 * sums of their hashes (g1, g2); sj_play updates them where the move changed a group.
 *
 * Boards: the W x H rectangle (sj_new), or any graph of at most 64 cells given
 * by its neighbour masks and up to SJ_MAX_SYMS automorphisms (sj_new_graph).
 *
 * Heads ("Koepfchen" variant, sj_set_heads): a head-tower may move but no tower
 * may be put onto it; the head rides on top of the tower it moved onto. Group
 * reduction is off then (a head that cuts a one-player group keeps it from
 * merging into one tower), a side whose towers only touch head-towers passes,
 * and two head-towers that touch only each other are banked as finished.
 */
#ifndef SANJEGO_H
#define SANJEGO_H

#include <stdint.h>

#define SJ_MAX_CELLS 64
#define SJ_MAX_SYMS 8
#define SJ_MAX_MOVES 512   /* at most one move per (cell, neighbour) pair; graphs are held to it */
#define SJ_MARGIN 0
#define SJ_OUTCOME 1
#define SJ_INF 127
#define SJ_FREE_GROUP_MAX 5  /* group_code knows the groups of up to five towers */

typedef struct {
    uint64_t occ;          /* active towers */
    uint64_t own0;         /* active towers whose top belongs to the first player */
    uint64_t head;         /* active head-towers (heads variant) */
    uint64_t free;         /* towers of groups keyed free of their place (see free_group_max) */
    uint64_t g1, g2;       /* sums of those groups' hashes */
    uint8_t height[SJ_MAX_CELLS];
    uint8_t best[2][2];    /* banked towers: [player][0] tallest, [1] second */
    uint8_t tempo[2];      /* spare moves in banked one-player groups */
    uint16_t active;       /* total height of the active towers */
    int side;              /* 0: first player to move, 1: second */
    uint64_t k1[SJ_MAX_SYMS], k2[SJ_MAX_SYMS]; /* Zobrist keys of active towers, one per symmetry */
} SJPos;

typedef struct {
    uint64_t check;        /* lock1 ^ data: an entry torn by a concurrent writer fails the check */
    uint64_t data;         /* lock2 (16 bits), lo, hi, from, to, work, generation (8 bits each) */
} SJEntry;

typedef struct {
    uint64_t a, b;
} SJZob;

/* A book entry: a position as the search holds it (active towers only, banked towers and
 * tempo moves apart) whose search took at least 4^work nodes, with the bounds it proved
 * and its best move (cells of this position; SJ_TEMPO, 0 for a tempo move; 0, 0: none).
 * Unlike a table entry it names the position itself, so it means the same to any core
 * with the same rules, keys and table size (see sj_book_start). */
typedef struct {
    uint64_t occ, own0, head;
    uint8_t height[SJ_MAX_CELLS];   /* 0 off occ */
    uint8_t best[2][2];
    uint8_t tempo[2];
    uint8_t side;
    int8_t lo, hi;
    uint8_t work;
    uint8_t from, to;
} SJBookEntry;
#define SJ_BOOK_ENTRY_BYTES 100     /* packed, little-endian, in the order above (98 before session 47: no move) */

/* A remembered group hash (see group_hash): the group's cells and their labels, 10 bits each. */
typedef struct {
    uint64_t cells, labels, h1, h2;
} SJGroupMemo;
#define SJ_GROUP_MEMO_BITS 12
#define SJ_GROUP_MEMO_SIZE (1u << SJ_GROUP_MEMO_BITS)

typedef struct SJSolver_ {
    int w, h, n, measure, use_symmetry;
    int table_min_towers;       /* smaller positions are searched without the table */
    int near_towers;            /* positions of at most this many towers use only the table's first
                                   near_buckets (0: off), which stay in the caches and the TLB */
    uint64_t near_buckets;      /* power of two */
    int etc_min_towers;         /* enhanced transposition cut-offs from this many towers */
    int free_group_max;         /* grid boards: groups of up to this many towers (at most SJ_FREE_GROUP_MAX; 0: off)
                                   are keyed free of their place (see group_code) */
    int reduce_groups;          /* bank one-player groups (margin only; off for perft and heads) */
    int heads;                  /* heads variant: no tower may be put onto a head-tower */
    int grid;                   /* 1: the rectangle (neighbours by shifts); 0: a graph (by nb) */
    uint64_t board_mask, not_col0, not_collast;
    uint64_t nb[SJ_MAX_CELLS];
    int nsym;
    uint8_t sym[SJ_MAX_SYMS][SJ_MAX_CELLS];
    uint8_t syminv[SJ_MAX_SYMS][SJ_MAX_CELLS];
    SJZob zob[SJ_MAX_CELLS][SJ_MAX_CELLS + 1][2];   /* [cell][height][owner] */
    SJZob zhead[SJ_MAX_CELLS][SJ_MAX_CELLS + 1][2]; /* the same for head-towers */
    SJZob zbank[2][2][SJ_MAX_CELLS + 1];
    SJZob zside;
    SJZob ztempo[2][SJ_MAX_CELLS + 1];
    SJZob zgroup;               /* seeds the keys of groups keyed free of their place */
    uint64_t *zsym;             /* zob and zhead by symmetry, for toggle: at sym_keys(S, head, cell,
                                   height, owner) SJ_MAX_SYMS a-words then SJ_MAX_SYMS b-words
                                   (zero past nsym); each core has its own copy */
    SJGroupMemo *group_memo;    /* this thread's remembered group hashes (SJ_GROUP_MEMO_SIZE) */
    SJEntry *table;
    uint64_t table_buckets;     /* power of two; four 16-byte entries per 64-byte bucket */
    int table_owned;            /* 0 for a solver made by sj_new_sharing */
    uint64_t nodes, tt_hits, tt_stores;
    int stop;                   /* set when poll() asked to abort; results are then meaningless */
    int reply_from, reply_to;   /* the best move found or stored for the node searched last
                                 * (reply_from -1: none, e.g. decided by its bounds) */
    uint64_t *clock;            /* nodes searched with this table by all the solvers that share it, counted
                                   every 2^12 (a sharing solver points to its owner's own_clock) */
    uint64_t own_clock;
    int age_shift;              /* a generation is 2^age_shift nodes of the clock */
    int age_weight;             /* a new entry replaces the bucket's slot of least work - age_weight x the
                                   generations since it was stored or last found (0: least work) */
    uint8_t generation;         /* the clock's, at this solver's last look */
    int refute_bonus;           /* score added to the moves that take away a reply that
                                 * refuted an earlier move of the same node (0: off) */
    SJBookEntry *book;          /* this thread's book (NULL: off), see sj_book_start */
    uint64_t book_len, book_cap;
    int book_min_work, book_base_work;
    struct SJSolver_ *order_hints; /* another core's table, read for move order only (NULL: off), see
                                   sj_set_order_hints */
    int hint_min_towers;
    int hints_same_keys;        /* order_hints has this solver's keys: no keying afresh */
    uint64_t hint_hits;
    int (*poll)(void *ctx);     /* called every 2^20 nodes; nonzero aborts the search */
    void *poll_ctx;
} SJSolver;

/* Returns NULL on bad arguments or out of memory. table_bytes is rounded down
 * to a power of two number of 64-byte buckets (at least one). */
SJSolver *sj_new(int w, int h, int measure, uint64_t table_bytes, uint64_t seed, int use_symmetry);
/* A graph board of n cells: nb[c] is the mask of c's neighbours (symmetric, no loops,
 * at most SJ_MAX_MOVES (cell, neighbour) pairs in all); syms holds nsym cell permutations
 * (nsym * n bytes), the first the identity, each an automorphism of the graph. Returns
 * NULL when any of that does not hold. */
SJSolver *sj_new_graph(int n, const uint64_t *nb, int nsym, const uint8_t *syms, int measure,
                       uint64_t table_bytes, uint64_t seed);
/* Switches the heads variant on or off (before any search). */
void sj_set_heads(SJSolver *S, int on);
/* A solver for another thread that searches with `owner`'s table: threads that search at
 * the same time see each other's results (entries are checked, never locked). Free it
 * before the owner. */
SJSolver *sj_new_sharing(const SJSolver *owner);
void sj_free(SJSolver *S);
void sj_clear_table(SJSolver *S);

/* Saving the costly part of a table between sessions (no search may run meanwhile).
 * Entries travel as raw (slot, check, data) triples of 24 bytes, little-endian: keys,
 * bounds and work exactly as stored, so they only mean something to a solver with the
 * same keys (board, seed, measure and core). */
/* counts[w] = used entries of work w, for w in 0..255. */
void sj_table_work_counts(const SJSolver *S, uint64_t *counts);
/* Writes up to max entries of work >= min_work to out (room for 24 * max bytes; NULL
 * writes none); returns how many the table holds. */
uint64_t sj_table_export(const SJSolver *S, int min_work, uint8_t *out, uint64_t max);
/* Puts n exported entries back, each into its bucket's empty or least-worked slot when
 * it has done more work (or over a copy of itself with less); the table they came from had
 * saved_buckets buckets, a power of two (into a bigger table an entry goes into every
 * bucket it could belong to), and a near part of saved_near_buckets (see sj_near_part).
 * Returns how many were placed. */
uint64_t sj_table_import(SJSolver *S, const uint8_t *in, uint64_t n, uint64_t saved_buckets,
                         uint64_t saved_near_buckets);
/* The buckets at the table's start that positions of at most near_towers towers keep to
 * (see bucket_of), or 0 when they use the whole table. */
uint64_t sj_near_part(const SJSolver *S);
/* The book: while on, every search of this solver (one thread) records the positions whose
 * subtrees took at least 4^min_work nodes, with their bounds and best moves; a search stopped midway keeps
 * what it finished. Full at `capacity`, it keeps only the costlier ones (min_work goes up).
 * capacity 0 turns it off. Returns 0, or -1 when out of memory. */
int sj_book_start(SJSolver *S, int min_work, uint64_t capacity);
uint64_t sj_book_len(const SJSolver *S);
/* Writes up to max entries (SJ_BOOK_ENTRY_BYTES each) and empties the book; returns how many. */
uint64_t sj_book_take(SJSolver *S, uint8_t *out, uint64_t max);
/* Stores book entries into the table, with their moves if with_moves (where these are the
 * position's), else naming none; returns how many were positions of this board as the
 * search holds them (the others are skipped). */
uint64_t sj_book_put(SJSolver *S, const uint8_t *in, uint64_t n, int with_moves);
/* A hash of the core's sources (given by setup.py), or "unknown": saved entries are only
 * used by the core that made them. */
const char *sj_core_source(void);
/* The canonical table keys of a loaded position (as a search of it would use). */
void sj_keys(const SJSolver *S, const SJPos *p, uint64_t *key1, uint64_t *key2);
/* The bounds the table holds for the position: 1 with *lo, *hi set, or 0 when it holds none. */
int sj_table_bounds(const SJSolver *S, const SJPos *p, int *lo, int *hi);
/* Move order from another table: in positions of at least min_towers active towers whose own
 * entry names no move, S tries first the move that H's table stores for the position, keyed
 * with H's keys. H must play the same rules (board, measure, heads, group settings); its
 * entries only reorder moves, so S's results do not depend on them, and a verification
 * with other keys may follow the first run's moves (H: NULL turns it off). When H has S's
 * keys, a look-up only reads H (it takes S's key for the position); otherwise the position
 * is keyed afresh, which writes to H (its group-hash memo), so each thread needs its own H
 * (sj_new_sharing). */
void sj_set_order_hints(SJSolver *S, SJSolver *H, int min_towers);

/* Loads a full-board position (height 0 = empty; owner 0/1, plus 2 for a head-tower with heads on)
 * and reduces it. */
void sj_load(const SJSolver *S, SJPos *p, const uint8_t *heights, const uint8_t *owners, int side);

#define SJ_TEMPO 0xFF      /* from == SJ_TEMPO (to 0): spend a tempo move */

/* Lists the board moves of the side to move as (from, to) pairs (room for SJ_MAX_MOVES);
 * returns the count. */
int sj_moves(const SJSolver *S, const SJPos *p, uint8_t *from, uint8_t *to);
void sj_play(const SJSolver *S, const SJPos *p, SJPos *child, int from, int to);

/* Sequences of `depth` plies (a forced pass is a ply; a finished game is one leaf),
 * counted on the plain rules (group reduction off). */
uint64_t sj_perft(SJSolver *S, const uint8_t *heights, const uint8_t *owners, int side, int depth);

/* Static bounds on the value of the position. */
void sj_bounds(const SJSolver *S, const SJPos *p, int *lo, int *hi);

/* Fail-soft alpha-beta: the result v satisfies v <= alpha => value <= v,
 * v >= beta => value >= v, otherwise value == v. */
int sj_search(SJSolver *S, const SJPos *p, int alpha, int beta);

#endif
