"""Errors of Las Torres de Serans; the command line turns each into exit status 2."""

from ..errors import InputError


class SeransError(InputError):
    """Base class for bad input to Las Torres de Serans."""


class RulesError(SeransError):
    """An option value the rules engine does not know, or a board/target out of range."""


class NotationError(SeransError):
    """A move, turn or game text that cannot be read."""


class IllegalMoveError(SeransError):
    """A turn or placement that the rules do not allow in the position."""
