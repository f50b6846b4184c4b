# cython: language_level=3, boundscheck=False, wraparound=False
"""Thin layer over the C core (csrc/sanjego.c). Positions cross it as full-board
height and owner bytes plus the side to move; the C core reduces them itself."""

import sys

from libc.stdint cimport uint8_t, uint64_t

cdef extern from "sanjego.h":
    ctypedef struct SJPos:
        uint64_t occ
        int side
    ctypedef struct SJSolver:
        int w, h, n, measure, nsym
        uint64_t table_buckets
        uint64_t nodes, tt_hits, tt_stores
        int stop
        int etc_min_towers, table_min_towers, free_group_max, grid, refute_bonus, near_towers, age_shift, age_weight
        uint64_t *clock
        uint64_t near_buckets
        int heads
        int reply_from, reply_to
        int hint_min_towers
        int hints_same_keys
        uint64_t hint_hits
        int (*poll)(void *ctx) noexcept
        void *poll_ctx
    int SJ_MAX_CELLS, SJ_MARGIN, SJ_OUTCOME, SJ_FREE_GROUP_MAX
    SJSolver *sj_new(int w, int h, int measure, uint64_t table_bytes, uint64_t seed, int use_symmetry)
    SJSolver *sj_new_graph(int n, const uint64_t *nb, int nsym, const uint8_t *syms, int measure,
                           uint64_t table_bytes, uint64_t seed)
    void sj_set_heads(SJSolver *S, int on)
    SJSolver *sj_new_sharing(const SJSolver *owner)
    void sj_free(SJSolver *S)
    void sj_clear_table(SJSolver *S)
    void sj_table_work_counts(const SJSolver *S, uint64_t *counts)
    uint64_t sj_table_export(const SJSolver *S, int min_work, uint8_t *out, uint64_t max)
    uint64_t sj_table_import(SJSolver *S, const uint8_t *inp, uint64_t n, uint64_t saved_buckets,
                             uint64_t saved_near_buckets)
    uint64_t sj_near_part(const SJSolver *S)
    int sj_book_start(SJSolver *S, int min_work, uint64_t capacity)
    uint64_t sj_book_len(const SJSolver *S)
    uint64_t sj_book_take(SJSolver *S, uint8_t *out, uint64_t max)
    uint64_t sj_book_put(SJSolver *S, const uint8_t *inp, uint64_t n, int with_moves)
    int SJ_BOOK_ENTRY_BYTES
    void sj_keys(const SJSolver *S, const SJPos *p, uint64_t *key1, uint64_t *key2)
    const char *sj_core_source()
    void sj_load(const SJSolver *S, SJPos *p, const uint8_t *heights, const uint8_t *owners, int side)
    uint64_t sj_perft(SJSolver *S, const uint8_t *heights, const uint8_t *owners, int side, int depth) nogil
    void sj_bounds(const SJSolver *S, const SJPos *p, int *lo, int *hi)
    int sj_table_bounds(const SJSolver *S, const SJPos *p, int *lo, int *hi)
    int sj_search(SJSolver *S, const SJPos *p, int alpha, int beta) nogil
    void sj_set_order_hints(SJSolver *S, SJSolver *H, int min_towers)

MEASURES = {"margin": SJ_MARGIN, "outcome": SJ_OUTCOME}


include "_poll.pxi"


cdef class Core:
    """One board and measure, with its transposition table (kept between calls).

    The board is the width x height rectangle, or with graph=(masks, symmetries) a graph:
    masks[c] has bit d set when d is a neighbour of c, symmetries holds at most 8 cell
    permutations, the identity first, each an automorphism. heads=True plays the heads
    variant: owners then carry 2 on head-towers. With share=core, a core for another
    thread that searches with that core's table (and its board, measure, keys and
    variant); searches release the GIL, so threads run in parallel."""

    cdef SJSolver *S
    cdef object _pending
    cdef object _owner
    cdef object _hints
    cdef public object progress

    def __cinit__(self, int width, int height, measure="margin", table_bytes=64 << 20,
                  seed=0x5A4E4A45474F, symmetry=True, Core share=None, graph=None, heads=False):
        cdef bytes nb, syms
        if measure not in MEASURES:
            raise ValueError(f"unknown measure {measure!r}")
        if share is not None:
            self.S = sj_new_sharing(share.S)
            self._owner = share  # keeps the table alive
        elif graph is not None:
            masks, perms = graph
            perms = list(perms) if symmetry else list(perms)[:1]
            nb = b"".join(int(m).to_bytes(8, sys.byteorder) for m in masks)
            syms = b"".join(bytes(p) for p in perms)
            self.S = sj_new_graph(len(masks), <const uint64_t *><const char *>nb, len(perms), syms,
                                  MEASURES[measure], table_bytes, seed)
        else:
            self.S = sj_new(width, height, MEASURES[measure], table_bytes, seed, 1 if symmetry else 0)
        if self.S == NULL:
            raise MemoryError("cannot create the San Jego core (bad board or out of memory)")
        if heads and share is None:
            sj_set_heads(self.S, 1)
        self.S.poll = _poll
        self.S.poll_ctx = <void *>self
        self._pending = None
        self.progress = None

    def __dealloc__(self):
        sj_free(self.S)

    cdef void _load(self, SJPos *p, heights, owners, int side):
        cdef bytes h = bytes(heights)
        cdef int mask = 3 if self.S.heads else 1  # a head mark means nothing to a plain core
        cdef bytes o = bytes([x & mask for x in owners])
        sj_load(self.S, p, h, o, side)

    cdef _raise_pending(self):
        if self._pending is not None:
            e, self._pending = self._pending, None
            raise e

    def solve(self, heights, owners, int side, int lo=-127, int hi=127):
        """Exact value of the position (first player's view), known to lie in [lo, hi]:
        null-window searches, their windows chosen by solver.sanjego.probes."""
        from .sanjego import probes
        blo, bhi = self.bounds(heights, owners, side)
        return probes.solve(lambda k: self.search(heights, owners, side, k - 1, k), max(lo, blo), min(hi, bhi))

    def search(self, heights, owners, int side, int alpha, int beta):
        """Fail-soft alpha-beta result for the window (alpha, beta)."""
        cdef SJPos p
        cdef int v
        self._load(&p, heights, owners, side)
        with nogil:
            v = sj_search(self.S, &p, alpha, beta)
        self._raise_pending()
        return v

    def perft(self, heights, owners, int side, int depth):
        """Move sequences of `depth` plies on the plain rules."""
        cdef int mask = 3 if self.S.heads else 1
        cdef bytes h = bytes(heights)
        cdef bytes o = bytes([x & mask for x in owners])
        cdef const uint8_t *hp = h
        cdef const uint8_t *op = o
        cdef uint64_t n
        with nogil:
            n = sj_perft(self.S, hp, op, side, depth)
        return n

    def bounds(self, heights, owners, int side):
        cdef SJPos p
        cdef int lo, hi
        self._load(&p, heights, owners, side)
        sj_bounds(self.S, &p, &lo, &hi)
        return lo, hi

    def clear(self):
        sj_clear_table(self.S)

    def key(self, heights, owners, int side):
        """The position's two canonical table keys (key1, key2), as a search would use them."""
        cdef SJPos p
        cdef uint64_t k1, k2
        self._load(&p, heights, owners, side)
        sj_keys(self.S, &p, &k1, &k2)
        return k1, k2

    def table_bounds(self, heights, owners, int side):
        """The bounds (lo, hi) on the position's value that the table holds, or None."""
        cdef SJPos p
        cdef int lo, hi
        self._load(&p, heights, owners, side)
        if not sj_table_bounds(self.S, &p, &lo, &hi):
            return None
        return lo, hi

    @property
    def core_source(self):
        """A hash of the C core's sources, "unknown" when not built by setup.py."""
        return sj_core_source().decode()

    @property
    def table_buckets(self):
        return self.S.table_buckets

    def table_work_counts(self):
        """The number of used table entries of each work (0..255: log4 of a subtree's nodes)."""
        cdef uint64_t counts[256]
        sj_table_work_counts(self.S, counts)
        return [counts[i] for i in range(256)]

    def table_export(self, int min_work):
        """The entries of work >= min_work as raw (slot, check, data) triples, 24 bytes each,
        in a bytearray (no search may run meanwhile)."""
        cdef uint64_t n = sj_table_export(self.S, min_work, NULL, 0)
        cdef bytearray out = bytearray(24 * n)
        cdef uint8_t *buf = out
        cdef uint64_t m = sj_table_export(self.S, min_work, buf, n) if n else 0
        if m < n:  # fewer now: a search ran meanwhile
            del out[24 * m:]
        return out

    BOOK_ENTRY_BYTES = SJ_BOOK_ENTRY_BYTES

    def book_start(self, int min_work, uint64_t capacity):
        """Records, in this core's searches, the positions whose subtrees took at least
        4^min_work nodes, with their bounds and best moves (at most `capacity`, the costliest kept);
        capacity 0 stops recording."""
        if not 0 <= min_work <= 31:
            raise ValueError("min_work: from 0 to 31")
        if sj_book_start(self.S, min_work, capacity):
            raise MemoryError(f"no memory for a book of {capacity} entries")

    def book_take(self):
        """The recorded entries (BOOK_ENTRY_BYTES each) as bytes; the book is emptied."""
        cdef uint64_t n = sj_book_len(self.S)
        cdef bytearray out = bytearray(SJ_BOOK_ENTRY_BYTES * n)
        cdef uint8_t *buf = out
        if n:
            sj_book_take(self.S, buf, n)
        else:
            sj_book_take(self.S, NULL, 0)
        return bytes(out)

    def book_put(self, const uint8_t[::1] entries, bint moves=False):
        """Stores book entries into the table (no search may run meanwhile), with their best
        moves if `moves`, else naming none; returns how many were positions of this board as
        a search holds them."""
        if entries.shape[0] % SJ_BOOK_ENTRY_BYTES:
            raise ValueError(f"book entries are {SJ_BOOK_ENTRY_BYTES} bytes each")
        if entries.shape[0] == 0:
            return 0
        return sj_book_put(self.S, &entries[0], entries.shape[0] // SJ_BOOK_ENTRY_BYTES, moves)

    def table_import(self, const uint8_t[::1] entries, uint64_t saved_buckets, uint64_t saved_near_part):
        """Puts exported entries back (from a table of saved_buckets buckets, a power of
        two, whose near_part was saved_near_part; into a bigger table each goes into every
        bucket it could belong to); returns how many were placed."""
        if entries.shape[0] % 24:
            raise ValueError("entries must be 24-byte triples")
        if saved_buckets == 0 or saved_buckets & (saved_buckets - 1):
            raise ValueError(f"entries from a table of {saved_buckets} buckets cannot go into one of "
                             f"{self.S.table_buckets}")
        if entries.shape[0] == 0:
            return 0
        return sj_table_import(self.S, &entries[0], entries.shape[0] // 24, saved_buckets, saved_near_part)

    @property
    def near_part(self):
        """The buckets at the table's start that positions of at most near_towers towers keep
        to, or 0 when they use the whole table."""
        return sj_near_part(self.S)

    @property
    def nodes(self):
        return self.S.nodes

    @nodes.setter
    def nodes(self, value):
        self.S.nodes = value

    @property
    def last_move(self):
        """The best move found (or read from the table) for the position searched last: a
        (from, to) pair, "tempo" for a spent tempo move, or None (decided by its bounds)."""
        if self.S.reply_from < 0:
            return None
        if self.S.reply_from == 0xFF:
            return "tempo"
        return (self.S.reply_from, self.S.reply_to)

    def set_order_hints(self, Core hints, int min_towers=0):
        """Move order from another core's table (None: off): in positions of at least
        min_towers towers whose own table entry names no move, the move `hints`' table
        stores goes first. `hints` must play the same rules with this core's settings (it
        may have other keys and another table size); it only orders moves, so no result
        depends on it. With other keys, each look-up keys the position afresh, which writes
        to `hints`: give each thread its own (Core(0, 0, share=...)). With this core's keys
        (the same seed), a look-up takes this core's key and only reads `hints`."""
        if hints is None:
            sj_set_order_hints(self.S, NULL, 0)
        else:
            if hints is self or not self._same_rules(hints):
                raise ValueError("order hints need a core of the same rules and settings")
            sj_set_order_hints(self.S, hints.S, min_towers)
        self._hints = hints

    cdef bint _same_rules(self, Core other):
        """Whether the other core's moves, keys and reductions are this one's, but for its seed."""
        cdef SJSolver *a = self.S
        cdef SJSolver *b = other.S
        return (a.n == b.n and a.w == b.w and a.h == b.h and a.measure == b.measure and a.nsym == b.nsym
                and a.heads == b.heads and a.free_group_max == b.free_group_max and a.grid == b.grid)

    @property
    def etc_min_towers(self):
        """Enhanced transposition cut-offs in positions with at least this many towers."""
        return self.S.etc_min_towers

    @etc_min_towers.setter
    def etc_min_towers(self, int value):
        self.S.etc_min_towers = value

    @property
    def table_min_towers(self):
        """Positions with fewer active towers are searched without the table."""
        return self.S.table_min_towers

    @table_min_towers.setter
    def table_min_towers(self, int value):
        if not 0 <= value <= 64:
            raise ValueError("table_min_towers must be from 0 to 64")
        self.S.table_min_towers = value

    @property
    def near_towers(self):
        """Positions of at most this many towers use only the table's first near_buckets (0: off)."""
        return self.S.near_towers

    @near_towers.setter
    def near_towers(self, int value):
        if not 0 <= value <= 64:
            raise ValueError("near_towers must be from 0 to 64")
        self.S.near_towers = value

    @property
    def near_buckets(self):
        return self.S.near_buckets

    @near_buckets.setter
    def near_buckets(self, uint64_t value):
        if value == 0 or value & (value - 1):
            raise ValueError("near_buckets must be a power of two")
        self.S.near_buckets = value

    @property
    def age_weight(self):
        """A new entry replaces its bucket's slot of least work (log4 of the nodes its search
        took) less age_weight per generation since that slot was stored or last found (0: by
        work alone)."""
        return self.S.age_weight

    @age_weight.setter
    def age_weight(self, int value):
        if not 0 <= value <= 255:
            raise ValueError("age_weight must be from 0 to 255")
        self.S.age_weight = value

    @property
    def age_shift(self):
        """A generation is 2^age_shift nodes searched with this table (by default four times
        as many as it has slots)."""
        return self.S.age_shift

    @age_shift.setter
    def age_shift(self, int value):
        if not 12 <= value <= 63:
            raise ValueError("age_shift must be from 12 to 63")
        self.S.age_shift = value

    @property
    def clock(self):
        """Nodes searched with this table by all the cores that share it (counted every 2^12)."""
        return self.S.clock[0]

    @property
    def refute_bonus(self):
        """Score added, after a move fails, to the moves that take away the reply that
        refuted it (0: the static order only)."""
        return self.S.refute_bonus

    @refute_bonus.setter
    def refute_bonus(self, int value):
        if not 0 <= value <= 1 << 16:  # added once per failed move to an int score
            raise ValueError("refute_bonus must be from 0 to 65536")
        self.S.refute_bonus = value

    @property
    def free_group_max(self):
        """Groups of at most this many towers (0 to 5, grid boards only) are keyed free of
        their place: equal groups anywhere on the board share table entries."""
        return self.S.free_group_max

    @free_group_max.setter
    def free_group_max(self, int value):
        if not 0 <= value <= SJ_FREE_GROUP_MAX:
            raise ValueError(f"free_group_max must be 0 to {SJ_FREE_GROUP_MAX}")
        self.S.free_group_max = value if self.S.grid else 0

    @property
    def stats(self):
        return {"nodes": self.S.nodes, "tt_hits": self.S.tt_hits, "tt_stores": self.S.tt_stores,
                "table_bytes": self.S.table_buckets * 64, "symmetries": self.S.nsym,
                "heads": bool(self.S.heads), "hint_hits": self.S.hint_hits,
                "hints_same_keys": self._hints is not None and bool(self.S.hints_same_keys)}
