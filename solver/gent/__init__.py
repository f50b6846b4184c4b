"""Der Schneider von Gent (the Tailor of Ghent): a thimble against buttons on a plane graph."""

from .board import Board, PlaneGraph, load_graph
from .errors import GentError, GraphError, IllegalMoveError, NotationError
from .position import PASS, ButtonMove, Position, Start, TailorMove

__all__ = ["Board", "PlaneGraph", "load_graph", "Position", "Start", "TailorMove", "ButtonMove",
           "PASS", "GentError", "GraphError", "IllegalMoveError", "NotationError"]
