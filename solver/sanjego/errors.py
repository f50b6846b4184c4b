"""Exceptions for bad San Jego input. All derive from SanJegoError (a ValueError)."""

from ..errors import InputError


class SanJegoError(InputError, ValueError):
    """Base class: the input does not describe a legal San Jego board, move or game."""


class BoardSizeError(SanJegoError):
    """The board is malformed or has more than 64 cells."""


class NotationError(SanJegoError):
    """Text that is not a move, a pass token or a move number."""


class UnknownCellError(NotationError):
    """A well-formed cell name that is not on the board."""


class IllegalMoveError(SanJegoError):
    """A move the rules forbid in the current position."""


class WrongPlayerError(IllegalMoveError):
    """A move of a tower that belongs to the player not on move."""
