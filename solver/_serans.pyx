"""Thin layer over csrc/serans.c (to be written)."""

cdef extern from "serans.h":
    int sr_version()


def version():
    return sr_version()
