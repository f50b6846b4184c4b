"""San Jego: rules, notation, the reference solver and the C-core engine."""

from .board import Board
from .book import open_table
from .errors import (BoardSizeError, IllegalMoveError, NotationError, SanJegoError,
                     UnknownCellError, WrongPlayerError)
from .notation import PASS_TOKEN, format_game, format_move, parse_moves, replay
from .position import FIRST, OUTCOME_NAMES, PASS, SECOND, Position

__all__ = ["open_table", "Board", "Position", "PASS", "PASS_TOKEN", "FIRST", "SECOND", "OUTCOME_NAMES",
           "SanJegoError", "BoardSizeError", "NotationError", "UnknownCellError",
           "IllegalMoveError", "WrongPlayerError", "format_game", "format_move", "parse_moves",
           "replay"]
