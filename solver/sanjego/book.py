"""Tables of solved San Jego positions on disk, keyed by exact canonical position.

    with open_table("results/sanjego/5x4-margin.sjt") as table:
        table.probe("E3-D3 B3-C3")       # exact value, or KeyError
        table.get("E3-D3", default=None)
"""

from .. import table as generic_table
from ..table import TableError, write_table
from .board import board_from_spec, board_spec
from .notation import replay
from .position import Position

GAME = "sanjego"


def write_positions(path, board, measure, entries, provenance=None):
    """entries: iterable of (Position, lo, hi); returns the number of positions written."""
    header = {"game": GAME, "board": board_spec(board), "measure": measure, "provenance": provenance or {}}
    return write_table(path, ((p.canonical_key(), lo, hi) for p, lo, hi in entries), header)


class SanJegoTable:
    def __init__(self, path):
        self.table = generic_table.open_table(path)
        header = self.table.header
        if header.get("game") != GAME:
            self.table.close()
            raise TableError(f"{path}: not a San Jego table")
        self.board = board_from_spec(header["board"])
        self.measure = header["measure"]

    def _position(self, moves):
        if isinstance(moves, Position):
            return moves
        return replay(self.board, moves or "")[0]

    def bounds(self, moves):
        """(lo, hi) stored for the position after `moves`; KeyError when absent."""
        return self.table.probe(self._position(moves).canonical_key())

    def probe(self, moves):
        """Exact value after `moves`; KeyError when absent or only bounded."""
        lo, hi = self.bounds(moves)
        if lo != hi:
            raise KeyError(moves)
        return lo

    def get(self, moves, default=None):
        try:
            return self.probe(moves)
        except KeyError:
            return default

    def get_bounds(self, moves, default=None):
        """(lo, hi) stored for the position after `moves`, or default when absent."""
        try:
            return self.bounds(moves)
        except KeyError:
            return default

    def __len__(self):
        return len(self.table)

    def close(self):
        self.table.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def open_table(path):
    """Opens a San Jego table; raises TableError for a damaged or foreign file."""
    return SanJegoTable(path)
