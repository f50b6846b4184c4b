"""Exact solvers for Ingo Althöfer's board games (San Jego first)."""

__version__ = "0.1.0"
