# Included by each game's Cython layer, where `Core` is that game's core class (with `S.nodes`,
# `progress` and `_pending`). The C search calls it every 2^20 nodes: it lets Ctrl-C and the
# progress display in, and stops the search (returning 1) when either raises; the layer re-raises
# the exception once the C call has returned.
from cpython.exc cimport PyErr_CheckSignals


cdef int _poll(void *ctx) noexcept with gil:
    cdef Core core = <Core>ctx
    try:
        PyErr_CheckSignals()
        if core.progress is not None:
            core.progress(core.S.nodes)
    except BaseException as e:
        core._pending = e
        return 1
    return 0
