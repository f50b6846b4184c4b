# cython: language_level=3, boundscheck=False, wraparound=False
"""Thin layer over the Buntes Leben core (csrc/life.c). Boards cross it as two int masks
(first player's tokens, second player's tokens), cell (row r, column c) being bit r*w + c."""

from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport free, malloc

cdef extern from "life.h":
    ctypedef struct BLGeom:
        int w, h, torus
        uint64_t full, col_first, col_last
    int bl_geom(BLGeom *g, int w, int h, int torus)
    void bl_step(const BLGeom *g, uint64_t a, uint64_t b, uint64_t *na, uint64_t *nb)
    uint64_t bl_neighbours(const BLGeom *g, uint64_t x)
    int bl_alone(const BLGeom *g, uint64_t a, int limit, int *start, int *period, int *final_pop)
    int bl_duel(const BLGeom *g, uint64_t a, uint64_t b, int limit, int both_extinct,
                int count_at_limit, int *gens)
    void bl_best_replies(const BLGeom *g, const uint64_t *as_, int na, const uint64_t *bs, int nb,
                         int limit, int both_extinct, int count_at_limit,
                         int *best, int *reply, int64_t *counts, volatile int *stop) nogil
    ctypedef struct BLSolver:
        uint64_t nodes
        int stop
        int (*poll)(void *ctx) noexcept
        void *poll_ctx
    BLSolver *bl_solver_new(int w, int h, int torus, int place_first, int place_every, int extra,
                            int optional, int order, int coin_against, int both_extinct,
                            int count_at_limit, int generations, uint64_t table_bytes)
    void bl_solver_free(BLSolver *S)
    int bl_search(BLSolver *S, uint64_t a, uint64_t b, int gen, int alpha, int beta) nogil


include "_poll.pxi"


cdef class Core:
    """One board geometry: its size and edge rule."""

    cdef BLGeom g
    cdef BLSolver *S
    cdef object _pending
    cdef public object progress

    def __cinit__(self, int width, int height, bint torus=False):
        if bl_geom(&self.g, width, height, torus) != 0:
            raise ValueError("board sides must be between 3 and 8")
        self.S = NULL
        self._pending = None
        self.progress = None

    def __dealloc__(self):
        bl_solver_free(self.S)

    def configure_search(self, int place_first, int place_every, int extra, bint optional,
                         int order, int coin_against, int both_extinct, bint count,
                         int generations, table_bytes=64 << 20):
        """Rules for `search` (order: 0 first, 1 second, 2 alternate, 3 coin against
        player coin_against); a fresh transposition table of about table_bytes."""
        bl_solver_free(self.S)
        self.S = bl_solver_new(self.g.w, self.g.h, self.g.torus, place_first, place_every, extra,
                               optional, order, coin_against, both_extinct, count, generations,
                               table_bytes)
        if self.S == NULL:
            raise MemoryError("cannot create the Buntes Leben search (bad rules or out of memory)")
        self.S.poll = _poll
        self.S.poll_ctx = <void *>self

    def search(self, uint64_t a, uint64_t b, int gen, int alpha=-1, int beta=1):
        """The first player's result (+1/0/-1) of (a, b) after `gen` generations; fail-soft."""
        cdef int v
        if self.S == NULL:
            raise RuntimeError("configure_search first")
        with nogil:
            v = bl_search(self.S, a, b, gen, alpha, beta)
        if self._pending is not None:
            e, self._pending = self._pending, None
            self.S.stop = 0
            raise e
        return v

    @property
    def nodes(self):
        return self.S.nodes if self.S != NULL else 0

    @property
    def full(self):
        return self.g.full

    def step(self, uint64_t a, uint64_t b):
        """One generation: (a, b) -> (a', b')."""
        cdef uint64_t na, nb
        bl_step(&self.g, a, b, &na, &nb)
        return na, nb

    def neighbours(self, uint64_t x):
        """Cells next to some cell of x (8-neighbourhood)."""
        return bl_neighbours(&self.g, x)

    def alone(self, uint64_t a, int limit):
        """(died_at, cycle_start, period, final_population) of a one-colour pattern."""
        cdef int start, period, pop
        died = bl_alone(&self.g, a, limit, &start, &period, &pop)
        return died, start, period, pop

    def duel(self, uint64_t a, uint64_t b, int limit, int both_extinct=0, bint count=True):
        """(first player's result +1/0/-1, generation decided) without placements."""
        cdef int gens
        r = bl_duel(&self.g, a, b, limit, both_extinct, count, &gens)
        return r, gens

    def best_replies(self, as_list, bs_list, int limit, int both_extinct=0, bint count=True):
        """For each a: (best result for the second player, index of the reply, [losses, draws,
        wins] counted over every b, from the first player's side)."""
        cdef int na = len(as_list), nb = len(bs_list)
        cdef uint64_t *A = <uint64_t *>malloc(max(na, 1) * sizeof(uint64_t))
        cdef uint64_t *B = <uint64_t *>malloc(max(nb, 1) * sizeof(uint64_t))
        cdef int *best = <int *>malloc(max(na, 1) * sizeof(int))
        cdef int *reply = <int *>malloc(max(na, 1) * sizeof(int))
        cdef int64_t *counts = <int64_t *>malloc(3 * max(na, 1) * sizeof(int64_t))
        try:
            if not (A and B and best and reply and counts):
                raise MemoryError()
            for i in range(na):
                A[i] = as_list[i]
            for j in range(nb):
                B[j] = bs_list[j]
            with nogil:
                bl_best_replies(&self.g, A, na, B, nb, limit, both_extinct, count,
                                best, reply, counts, NULL)
            return [(best[i], reply[i], [counts[3 * i], counts[3 * i + 1], counts[3 * i + 2]])
                    for i in range(na)]
        finally:
            free(A); free(B); free(best); free(reply); free(counts)
