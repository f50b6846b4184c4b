"""Thin layer over csrc/life.c (to be written)."""

cdef extern from "life.h":
    int bl_version()


def version():
    return bl_version()
