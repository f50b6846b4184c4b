"""The board: cells, their names, the two set-up corners and the symmetry of a corner.

Cell (row r, column c) is bit r*width + c of an int mask; row 0 is the top row. A cell is named
by its column letter and row number counted from the top: "a1" is the top-left corner (the first
player's corner), "h8" the bottom-right one on 8x8 (the second player's corner).
"""

import re
from itertools import combinations

from .._life import Core
from .errors import NotationError

FIRST, SECOND = 0, 1
PLAYER_NAMES = ("first", "second")
SYMBOLS = ("X", "O")

CELL = re.compile(r"([a-h])([1-8])$")


class Board:
    """Geometry of one options object: size, edge rule, corners, the C step."""

    def __init__(self, options):
        self.options = options
        self.width, self.height = options.width, options.height
        self.torus = options.edge == "torus"
        self.core = Core(self.width, self.height, self.torus)
        self.full = (1 << (self.width * self.height)) - 1
        q = options.quarter
        self.corner = (self._box(0, 0, q), self._box(self.height - q, self.width - q, q))

    def _box(self, r0, c0, q):
        return sum(1 << self.bit(r, c) for r in range(r0, r0 + q) for c in range(c0, c0 + q))

    def bit(self, r, c):
        return r * self.width + c

    def cells(self, mask):
        """The bit numbers of a mask, lowest first."""
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out

    # ---- names ----
    def cell_name(self, i):
        r, c = divmod(i, self.width)
        return f"{'abcdefgh'[c]}{r + 1}"

    def format_cells(self, mask):
        return ",".join(self.cell_name(i) for i in self.cells(mask)) or "-"

    def parse_cell(self, text):
        m = CELL.match(text.strip().lower())
        if not m:
            raise NotationError(f"{text!r} is not a cell (a column letter and a row number, like c2)")
        c, r = "abcdefgh".index(m.group(1)), int(m.group(2)) - 1
        if c >= self.width or r >= self.height:
            raise NotationError(f"cell {text} is off the {self.width}x{self.height} board")
        return self.bit(r, c)

    def parse_cells(self, text):
        """A mask from "a1,b2 c3" (commas or spaces); "-" or "" is the empty set."""
        words = [w for w in re.split(r"[,\s]+", text.strip()) if w and w != "-"]
        mask = 0
        for w in words:
            i = self.parse_cell(w)
            if mask >> i & 1:
                raise NotationError(f"cell {w} is listed twice")
            mask |= 1 << i
        return mask

    # ---- symmetry of the set-up corners ----
    def transpose(self, mask):
        """Reflection in the main diagonal (square boards only): it maps each corner to itself."""
        out = 0
        for i in self.cells(mask):
            r, c = divmod(i, self.width)
            out |= 1 << self.bit(c, r)
        return out

    def symmetric(self):
        return self.width == self.height

    def canonical(self, mask):
        return min(mask, self.transpose(mask)) if self.symmetric() else mask

    def setups(self, player, canonical=False):
        """Every set-up of `options.tokens` cells in the player's corner (as masks, increasing);
        with canonical=True one per class under the diagonal reflection."""
        cells = self.cells(self.corner[player])
        out = []
        for combo in combinations(cells, self.options.tokens):
            mask = sum(1 << i for i in combo)
            if not canonical or self.canonical(mask) == mask:
                out.append(mask)
        return sorted(out)

    # ---- the step ----
    def step(self, a, b):
        return self.core.step(a, b)

    def neighbours(self, mask):
        return self.core.neighbours(mask)

    def grid(self, a, b, marks=0):
        """Rows of text: X first player, O second, '.' empty; cells in `marks` in lower case."""
        lines = ["   " + " ".join("abcdefgh"[:self.width])]
        for r in range(self.height):
            row = []
            for c in range(self.width):
                i = self.bit(r, c)
                ch = "X" if a >> i & 1 else "O" if b >> i & 1 else "."
                row.append(ch.lower() if marks >> i & 1 else ch)
            lines.append(f"{r + 1:>2} " + " ".join(row))
        return lines
