# cython: language_level=3, boundscheck=False, wraparound=False
"""Thin layer over the Las Torres de Serans core (csrc/serans.c), two players. A position
crosses it as (cells, side, passes[, setup]) with cells a bytes object of n*n hole codes (0
empty, else 1 << height | colours, bit i the player of the i-th piece from the bottom) and
setup the placements still to make; values are the side to move's (see csrc/serans.h)."""

from libc.stdint cimport uint8_t, uint64_t
from libc.string cimport memcpy, memset

cdef extern from "serans.h":
    enum: SR_CELLS
    enum: SR_MAX_TURNS
    enum: SR_NO_MOVE
    enum: SR_PLACE
    ctypedef struct SRPos:
        uint8_t c[16]
        uint8_t side, passes, setup
    ctypedef struct SREntry:
        pass
    ctypedef struct SROptions:
        int rammer_front, order_trailing, chain, spawn_next, spawn_high, new_always
        int stuck, end_turn, tiebreak_none, full_line
        int setup_own, no_symmetry, no_ordering, full_window, no_etc, no_eval
    ctypedef struct SRTurn:
        uint8_t m1, m2
        SRPos pos
    ctypedef struct SRSolver:
        int n, target
        uint64_t table_buckets
        uint64_t nodes, tt_hits, tt_stores
        int stop
        int lo, hi
        int nsym
        uint8_t cellmap[8][16]
        int (*poll)(void *ctx) noexcept
        void *poll_ctx
    SRSolver *sr_new(int n, int target, const SROptions *o, uint64_t table_bytes)
    void sr_free(SRSolver *S)
    void sr_clear_table(SRSolver *S)
    int sr_line_move(const SRSolver *S, const uint8_t *b, int player, int m, uint8_t *out)
    int sr_turns(const SRSolver *S, const SRPos *p, SRTurn *out)
    int sr_terminal(const SRSolver *S, const SRPos *p, int *value)
    int sr_search(SRSolver *S, const SRPos *p, int alpha, int beta) nogil
    int sr_solve(SRSolver *S, const SRPos *p) nogil
    int sr_symmetry_count(const SROptions *o)
    int sr_canonical(const SRSolver *S, const SRPos *p, SRPos *out)
    int sr_version()


def version():
    return sr_version()


include "_poll.pxi"


cdef class Core:
    """One rule set and board size with its transposition table, kept between calls.
    `options` is a dict of the SROptions fields (ints)."""

    cdef SRSolver *S
    cdef object _pending
    cdef public object progress

    def __cinit__(self, int n, int target, dict options, table_bytes=64 << 20):
        cdef SROptions o
        memset(&o, 0, sizeof(o))
        o.rammer_front = options.get("rammer_front", 0)
        o.order_trailing = options.get("order_trailing", 0)
        o.chain = options.get("chain", 0)
        o.spawn_next = options.get("spawn_next", 0)
        o.spawn_high = options.get("spawn_high", 0)
        o.new_always = options.get("new_always", 0)
        o.stuck = options.get("stuck", 0)
        o.end_turn = options.get("end_turn", 0)
        o.tiebreak_none = options.get("tiebreak_none", 0)
        o.full_line = options.get("full_line", 0)
        o.setup_own = options.get("setup_own", 0)
        o.no_symmetry = options.get("no_symmetry", 0)
        o.no_ordering = options.get("no_ordering", 0)
        o.full_window = options.get("full_window", 0)
        o.no_etc = options.get("no_etc", 0)
        o.no_eval = options.get("no_eval", 0)
        self.S = sr_new(n, target, &o, table_bytes)
        if self.S == NULL:
            raise MemoryError("cannot create the Serans core (board over 4x4, tower over 7, or out of memory)")
        self.S.poll = _poll
        self.S.poll_ctx = <void *>self
        self._pending = None
        self.progress = None

    def __dealloc__(self):
        sr_free(self.S)

    cdef SRPos _pos(self, key):
        cdef SRPos p
        cells, side, passes = key[:3]
        memset(&p, 0, sizeof(p))
        if len(cells) != self.S.n * self.S.n:
            raise ValueError("wrong number of cells")
        for i in range(len(cells)):
            p.c[i] = cells[i]
        p.side = side
        p.passes = passes
        p.setup = key[3] if len(key) > 3 else 0
        return p

    cdef _raise_pending(self):
        if self._pending is not None:
            e, self._pending = self._pending, None
            raise e

    def solve(self, key):
        """Exact value of `key` for the side to move."""
        cdef SRPos p = self._pos(key)
        cdef int v
        with nogil:
            v = sr_solve(self.S, &p)
        self._raise_pending()
        return v

    def search(self, key, int alpha, int beta):
        cdef SRPos p = self._pos(key)
        cdef int v
        with nogil:
            v = sr_search(self.S, &p, alpha, beta)
        self._raise_pending()
        return v

    def line_move(self, cells, int player, int m):
        """Cells after the line move m = (kind * n + index) * 2 + forward, or None if illegal."""
        cdef uint8_t b[16]
        cdef uint8_t out[16]
        cdef int nn = self.S.n * self.S.n
        for i in range(nn):
            b[i] = cells[i]
        if not sr_line_move(self.S, b, player, m, out):
            return None
        return bytes([out[i] for i in range(nn)])

    def turns(self, key):
        """[(m1, m2, child key)] (m = None when absent; a pass is (None, None, ...); a set-up
        placement is (("place", cell), None, ...)), or None when the game ends here because the
        player cannot complete a turn (stuck = end). Child keys have four fields."""
        cdef SRPos p = self._pos(key)
        cdef SRTurn turns[SR_MAX_TURNS]
        cdef int k = sr_turns(self.S, &p, turns)
        cdef int nn = self.S.n * self.S.n
        if k < 0:
            return None
        out = []
        for i in range(k):
            m1 = None if turns[i].m1 == SR_NO_MOVE else turns[i].m1
            if m1 is not None and m1 & SR_PLACE:
                m1 = ("place", m1 & 0x0F)
            m2 = None if turns[i].m2 == SR_NO_MOVE else turns[i].m2
            out.append((m1, m2, (bytes([turns[i].pos.c[j] for j in range(nn)]),
                                 turns[i].pos.side, turns[i].pos.passes, turns[i].pos.setup)))
        return out

    def coop_children(self, bytes packed):
        """The cooperative search's expansion, in one call: `packed` is a position as
        n*n cell bytes + bytes([side, passes, setup]); returns [(canonical child packed the
        same way, its tallest tower)] for every legal move (set-up placements included), or
        [] when the game is over there (or ends because nobody can complete a turn)."""
        cdef SRPos p
        cdef SRPos q
        cdef SRTurn turns[SR_MAX_TURNS]
        cdef int nn = self.S.n * self.S.n
        cdef int v, k, i, j, h, t
        cdef uint8_t buf[19]
        cdef uint8_t x
        if len(packed) != nn + 3:
            raise ValueError("wrong packed length")
        memset(&p, 0, sizeof(p))
        for i in range(nn):
            p.c[i] = packed[i]
        p.side, p.passes, p.setup = packed[nn], packed[nn + 1], packed[nn + 2]
        if sr_terminal(self.S, &p, &v):
            return []
        k = sr_turns(self.S, &p, turns)
        if k < 0:
            return []
        out = []
        for i in range(k):
            sr_canonical(self.S, &turns[i].pos, &q)
            t = 0
            for j in range(nn):
                buf[j] = q.c[j]
                x = q.c[j]
                h = 0
                while x > 1:
                    x >>= 1
                    h += 1
                if h > t:
                    t = h
            buf[nn] = q.side
            buf[nn + 1] = q.passes
            buf[nn + 2] = q.setup
            out.append(((<char *>buf)[:nn + 3], t))
        return out

    def terminal(self, key):
        """The side to move's value if the game is over at `key`, else None."""
        cdef SRPos p = self._pos(key)
        cdef int v
        return v if sr_terminal(self.S, &p, &v) else None

    def canonical(self, key):
        """(canonical key, g): the least image of `key` under the symmetries used, and the
        index of a symmetry that maps `key` to it."""
        cdef SRPos p = self._pos(key)
        cdef SRPos q
        cdef int g = sr_canonical(self.S, &p, &q)
        cdef int nn = self.S.n * self.S.n
        return (bytes([q.c[j] for j in range(nn)]), q.side, q.passes, q.setup), g

    @property
    def bounds(self):
        """(lo, hi): what the last solve() proved of the side to move's value so far (also
        when it was interrupted); -100 / 100 for no bound."""
        return self.S.lo, self.S.hi

    @property
    def symmetries(self):
        """The number of board symmetries the search uses (1, 2 or 8)."""
        return self.S.nsym

    def cell_map(self, int g):
        """Symmetry g (0..7) as a list: cell i goes to cell_map(g)[i]."""
        return [self.S.cellmap[g][i] for i in range(self.S.n * self.S.n)]

    def clear(self):
        sr_clear_table(self.S)

    @property
    def nodes(self):
        return self.S.nodes

    @nodes.setter
    def nodes(self, value):
        self.S.nodes = value

    @property
    def stats(self):
        return {"nodes": self.S.nodes, "tt_hits": self.S.tt_hits, "tt_stores": self.S.tt_stores,
                "table_bytes": self.S.table_buckets * 4 * sizeof(SREntry)}
