"""Errors of the Tailor of Ghent; the command line turns each into exit status 2."""

from ..errors import InputError


class GentError(InputError):
    """Base class for bad input to the Tailor of Ghent."""


class GraphError(GentError):
    """A graph file that is not a valid plane graph, or a bad outer-face choice."""


class NotationError(GentError):
    """A move or game text that cannot be read."""


class IllegalMoveError(GentError):
    """A move that the rules do not allow in the position."""
