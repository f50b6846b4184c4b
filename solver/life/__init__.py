"""Buntes Leben ("Colourful Life", Althöfer and friends): two colours on Conway's Game of Life.

rules.Options holds every rule choice with a named default (docs/life-rules.md); board.Board the
geometry and the C bitboard step; game.Game the flow (set-up, placement rounds, the end);
analysis, solve and players the questions `python -m solver life ...` answers.
"""

from .board import FIRST, SECOND, Board
from .errors import IllegalSetupError, LifeError, NotationError, OptionError
from .game import Game, GameRecord
from .rules import Options

__all__ = ["Options", "Board", "Game", "GameRecord", "FIRST", "SECOND", "LifeError",
           "OptionError", "NotationError", "IllegalSetupError"]
