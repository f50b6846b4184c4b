"""Board geometry: size, cell names, neighbours. The rectangle lives here; graph boards
(the cube, hexagons, tori, JSON files) in graph.py; parse_board reads either."""

import re

from .errors import BoardSizeError, UnknownCellError

MAX_CELLS = 64
_SIZE = re.compile(r"^\s*(\d+)\s*[xX×]\s*(\d+)\s*$")
_CELL = re.compile(r"^([A-Za-z]+)([0-9]+)$")


def column_name(c):
    """0 -> A, 25 -> Z, 26 -> AA (spreadsheet style)."""
    name = ""
    c += 1
    while c:
        c, rem = divmod(c - 1, 26)
        name = chr(ord("A") + rem) + name
    return name


def column_index(name):
    c = 0
    for ch in name.upper():
        c = c * 26 + (ord(ch) - ord("A") + 1)
    return c - 1


class Board:
    """A W×H rectangle; cell index c + r*W for column c and row r (both from 0).

    Cell (c, r) starts with a piece of the first player when c + r is even,
    so A1 belongs to the first player.
    """

    is_grid = True
    __slots__ = ("width", "height", "cells", "neighbours", "symmetries")

    def __init__(self, width, height):
        if not (isinstance(width, int) and isinstance(height, int)) or width < 1 or height < 1:
            raise BoardSizeError(f"board size must be two positive integers, got {width}x{height}")
        if width * height > MAX_CELLS:
            raise BoardSizeError(
                f"board {width}x{height} has {width * height} cells; at most {MAX_CELLS} are supported")
        self.width = width
        self.height = height
        self.cells = width * height
        neighbours = []
        for i in range(self.cells):
            c, r = i % width, i // width
            nb = []
            if c > 0:
                nb.append(i - 1)
            if c < width - 1:
                nb.append(i + 1)
            if r > 0:
                nb.append(i - width)
            if r < height - 1:
                nb.append(i + width)
            neighbours.append(tuple(sorted(nb)))
        self.neighbours = tuple(neighbours)
        self.symmetries = self._symmetries()

    def _symmetries(self):
        """Cell permutations of the board's symmetry group (4 maps, 8 on a square)."""
        w, h, perms = self.width, self.height, []
        for swap in ((False, True) if w == h else (False,)):
            for fx in (False, True):
                for fy in (False, True):
                    perm = []
                    for i in range(self.cells):
                        x, y = i % w, i // w
                        if swap:
                            x, y = y, x
                        if fx:
                            x = w - 1 - x
                        if fy:
                            y = h - 1 - y
                        perm.append(x + y * w)
                    if perm not in perms:
                        perms.append(perm)
        return tuple(tuple(p) for p in perms)

    @classmethod
    def parse(cls, text):
        """'5x4' -> Board(5, 4)."""
        m = _SIZE.match(str(text))
        if not m:
            raise BoardSizeError(f"bad board size {text!r}: expected WxH, e.g. 5x4")
        return cls(int(m.group(1)), int(m.group(2)))

    def name(self, cell):
        return f"{column_name(cell % self.width)}{cell // self.width + 1}"

    def cell(self, name):
        m = _CELL.match(name)
        if not m:
            raise UnknownCellError(f"bad cell name {name!r}")
        c, r = column_index(m.group(1)), int(m.group(2)) - 1
        if not (0 <= c < self.width and 0 <= r < self.height):
            raise UnknownCellError(f"unknown cell {name.upper()} on a {self} board")
        return c + r * self.width

    def start_owner(self, cell):
        return (cell % self.width + cell // self.width) % 2

    def place(self, cell):
        """(x, y) of the cell in pictures: column and row from 0, y up."""
        return cell % self.width, cell // self.width

    def core_geometry(self):
        """Keyword arguments of solver._sanjego.Core for this board."""
        return {"width": self.width, "height": self.height}

    def __eq__(self, other):
        return isinstance(other, Board) and (self.width, self.height) == (other.width, other.height)

    def __hash__(self):
        return hash((self.width, self.height))

    def __str__(self):
        return f"{self.width}x{self.height}"

    def __repr__(self):
        return f"Board({self.width}, {self.height})"


def parse_board(text):
    """A board by name: WxH (the rectangle), a built-in graph board (cube2, hex3,
    torus4x4, ...) or the path of a JSON graph file. Raises BoardSizeError (or its
    subclass GraphError) with a message that says what is wrong."""
    if isinstance(text, (Board,)) or getattr(text, "is_grid", None) is False:
        return text
    text = str(text).strip()
    if _SIZE.match(text):
        return Board.parse(text)
    from . import graph
    board = graph.builtin(text)
    if board is not None:
        return board
    import os
    if text.lower().endswith(".json") or os.path.isfile(text):
        return graph.load(text)
    raise BoardSizeError(f"bad board {text!r}: expected WxH (e.g. 5x4), one of {graph.BUILTIN_NAMES}, "
                         "or a JSON board file")


def board_spec(board):
    """What run manifests and table headers store: the name when parse_board(name) gives
    the board back, else the graph as JSON."""
    if board.is_grid:
        return str(board)
    from . import graph
    return str(board) if graph.builtin(str(board)) == board else board.to_json()


def board_from_spec(spec):
    if isinstance(spec, dict):
        from . import graph
        return graph.from_json(spec)
    return parse_board(spec)
