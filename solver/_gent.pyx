# cython: language_level=3, boundscheck=False, wraparound=False
"""Thin layer over the Tailor of Ghent core (csrc/gent.c). A position crosses it as
(vertex, sewn edges, free-button faces, captured vertices, side to move), sets as int masks;
values are the score the Tailor still earns from the position."""

from libc.stdint cimport uint64_t

cdef extern from "gent.h":
    ctypedef struct GTPos:
        uint64_t live, open, free
        int v, side
    ctypedef struct GTSolver:
        int max_score
        uint64_t table_buckets
        uint64_t nodes, tt_hits, tt_stores
        int stop
        int etc_min_live
        int pn_ab_live
        int (*poll)(void *ctx) noexcept
        void *poll_ctx
    GTSolver *gt_new(int nv, int ne, int nf, int outer, const int *eu, const int *ev,
                     const int *ef0, const int *ef1, uint64_t table_bytes)
    void gt_free(GTSolver *S)
    void gt_clear_table(GTSolver *S)
    void gt_load(const GTSolver *S, GTPos *p, int v, uint64_t sewn, uint64_t free, uint64_t capt, int side)
    int gt_upper_bound(const GTSolver *S, const GTPos *p)
    int gt_search(GTSolver *S, const GTPos *p, int alpha, int beta) nogil
    int gt_solve_between(GTSolver *S, const GTPos *p, int lo, int hi) nogil
    int gt_prove(GTSolver *S, const GTPos *p, int k) nogil


include "_poll.pxi"


cdef class Core:
    """One board (graph and outer face) with its transposition table, kept between calls."""

    cdef GTSolver *S
    cdef object _pending
    cdef public object progress

    def __cinit__(self, int nv, edges, edge_faces, int nf, int outer, table_bytes=64 << 20):
        cdef int ne = len(edges)
        cdef int eu[64]
        cdef int ev[64]
        cdef int f0[64]
        cdef int f1[64]
        if not 0 < ne <= 64:
            raise ValueError("between 1 and 64 edges")
        for i in range(ne):
            eu[i], ev[i] = edges[i]
            f0[i], f1[i] = edge_faces[i]
        self.S = gt_new(nv, ne, nf, outer, eu, ev, f0, f1, table_bytes)
        if self.S == NULL:
            raise MemoryError("cannot create the Tailor of Ghent core (bad graph or out of memory)")
        self.S.poll = _poll
        self.S.poll_ctx = <void *>self
        self._pending = None
        self.progress = None

    def __dealloc__(self):
        gt_free(self.S)

    cdef GTPos _pos(self, key):
        cdef GTPos p
        v, sewn, free, capt, side = key
        gt_load(self.S, &p, v, sewn, free, capt, side)
        return p

    cdef _raise_pending(self):
        if self._pending is not None:
            e, self._pending = self._pending, None
            raise e

    def solve(self, key, int lo=0, int hi=255):
        """Exact score the Tailor still earns from `key`, known to lie in [lo, hi]."""
        cdef GTPos p = self._pos(key)
        cdef int v
        with nogil:
            v = gt_solve_between(self.S, &p, lo, hi)
        self._raise_pending()
        return v

    def search(self, key, int alpha, int beta):
        """Fail-soft alpha-beta result for the window (alpha, beta)."""
        cdef GTPos p = self._pos(key)
        cdef int v
        with nogil:
            v = gt_search(self.S, &p, alpha, beta)
        self._raise_pending()
        return v

    def prove(self, key, int k):
        """Whether the Tailor earns more than k from `key`, by proof-number search (the
        alpha-beta search below pn_ab_live live edges)."""
        cdef GTPos p = self._pos(key)
        cdef int v
        with nogil:
            v = gt_prove(self.S, &p, k)
        self._raise_pending()
        return v == 1

    @property
    def pn_ab_live(self):
        return self.S.pn_ab_live

    @pn_ab_live.setter
    def pn_ab_live(self, int value):
        self.S.pn_ab_live = value

    def upper_bound(self, key):
        cdef GTPos p = self._pos(key)
        return gt_upper_bound(self.S, &p)

    def clear(self):
        gt_clear_table(self.S)

    @property
    def etc_min_live(self):
        """Enhanced transposition cut-offs in positions with at least this many live edges."""
        return self.S.etc_min_live

    @etc_min_live.setter
    def etc_min_live(self, int value):
        self.S.etc_min_live = value

    @property
    def max_score(self):
        return self.S.max_score

    @property
    def nodes(self):
        return self.S.nodes

    @nodes.setter
    def nodes(self, value):
        self.S.nodes = value

    @property
    def stats(self):
        return {"nodes": self.S.nodes, "tt_hits": self.S.tt_hits, "tt_stores": self.S.tt_stores,
                "table_bytes": self.S.table_buckets * 64}
