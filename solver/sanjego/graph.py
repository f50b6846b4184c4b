"""San Jego on any graph of at most 64 cells: boards from JSON files and built-in examples.

A graph board behaves like the rectangle (solver.sanjego.board.Board): cells 0..n-1 with
names, neighbour lists, the start owner of each cell and the board's symmetries (here the
graph's automorphisms). Built-in examples:

    cube1, cube2, cube3   the surface of a cube with 1x1, 2x2 or 3x3 cells per face (cube3 is
                          the original's cube: 27 + 27 pieces); cells are face letter U, D, F,
                          B, L, R plus the number of the cell on its face in reading order
                          (U1 .. U9) as the face lies in the cross-shaped net with L F R B in
                          a row, U above F and D below F; two cells are neighbours when they
                          share an edge, also across the cube's edges
    hex2 .. hex5          a hexagon of hexagonal cells with N cells per side (7, 19, 37, 61)
    torusWxH              the W x H rectangle with its opposite edges glued (W, H >= 3)

JSON format (any of the built-ins can be written out with `sanjego board NAME --json`):

    {"name": "ring6",
     "cells": ["a", "b", "c", "d", "e", "f"],
     "edges": [["a", "b"], ["b", "c"], ["c", "d"], ["d", "e"], ["e", "f"], ["f", "a"]],
     "first": ["a", "c", "e"],
     "layout": {"a": [0, 0], "b": [1, 0], ...},
     "comment": "free text, ignored"}

"first" lists the cells whose pieces belong to the first player at the start; it may be left
out when the graph is bipartite (the 2-colouring in which the first cell of each connected
part is the first player's). "layout" (optional) places cells for pictures: x to the right,
y up, in cell widths.
"""

import hashlib
import json
import re

from .board import MAX_CELLS, column_name
from .errors import BoardSizeError, UnknownCellError

CELL_NAME = re.compile(r"^[A-Za-z0-9_]+$")   # no "-" (moves) and no "." (move numbers)
MAX_NEIGHBOUR_PAIRS = 256      # a side never has more moves than this (the C core's buffers)
MAX_LAYOUT = 1000
MAX_CORE_SYMMETRIES = 8        # keys the C core keeps per position (SJ_MAX_SYMS)
MAX_AUTOMORPHISMS = 4096       # more are not searched for (a subset loses sharing, never values)
MAX_KEY_SYMMETRIES = 64
_CUBE = re.compile(r"^cube([1-4])$", re.IGNORECASE)
_HEX = re.compile(r"^hex([2-5])$", re.IGNORECASE)
_TORUS = re.compile(r"^torus(\d+)[xX×](\d+)$", re.IGNORECASE)
BUILTIN_NAMES = "cube1, cube2, cube3, hex2 .. hex5, torusWxH"


class GraphError(BoardSizeError):
    """A graph board that is malformed: unknown cells, loops, too many cells, ..."""


class GraphBoard:
    """San Jego on a graph. Interface of Board: cells, neighbours, symmetries, name(cell),
    cell(name), start_owner(cell); plus core_symmetries (a subgroup of at most 8
    automorphisms for the C core), layout (x, y) per cell and width/height of the layout."""

    is_grid = False
    __slots__ = ("label", "names", "cells", "neighbours", "owners", "places", "width", "height",
                 "automorphisms", "symmetries", "core_symmetries", "digest", "_index")

    def __init__(self, label, names, edges, first=None, layout=None):
        if not isinstance(label, str) or not CELL_NAME.match(label):
            raise GraphError(f"bad board name {label!r}: use letters, digits and '_'")
        names = list(names)
        if not names:
            raise GraphError("a board needs at least one cell")
        if len(names) > MAX_CELLS:
            raise GraphError(f"board {label} has {len(names)} cells; at most {MAX_CELLS} are supported")
        index = {}
        for i, name in enumerate(names):
            if not isinstance(name, str) or not CELL_NAME.match(name):
                raise GraphError(f"bad cell name {name!r}: use letters, digits and '_'")
            if name.upper() in index:
                raise GraphError(f"cell {name} is listed twice (names ignore case)")
            index[name.upper()] = i
        self.label, self.names, self._index, self.cells = label, tuple(names), index, len(names)
        adjacent = [set() for _ in names]
        for edge in edges:
            if not (isinstance(edge, (list, tuple)) and len(edge) == 2):
                raise GraphError(f"bad edge {edge!r}: expected a pair of cell names")
            a, b = (self._known(x, "edge") for x in edge)
            if a == b:
                raise GraphError(f"edge {names[a]}-{names[b]} joins a cell to itself")
            adjacent[a].add(b)
            adjacent[b].add(a)
        self.neighbours = tuple(tuple(sorted(s)) for s in adjacent)
        pairs = sum(map(len, adjacent)) // 2
        if pairs > MAX_NEIGHBOUR_PAIRS:
            raise GraphError(f"board {label} has {pairs} neighbour pairs; at most {MAX_NEIGHBOUR_PAIRS} "
                             "are supported")
        self.owners = self._start_owners(first)
        self.places = self._places(layout)
        self.width = max(x for x, _ in self.places) + 1
        self.height = max(y for _, y in self.places) + 1
        found = tuple(automorphisms(self.neighbours))
        self.automorphisms = len(found)
        self.core_symmetries = tuple(small_subgroup(found, MAX_CORE_SYMMETRIES))
        # Python's canonical keys (frontier, tables) try every symmetry: keep that list short.
        self.symmetries = found if len(found) <= MAX_KEY_SYMMETRIES else self.core_symmetries
        text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
        self.digest = hashlib.sha256(text.encode()).hexdigest()[:16]

    def _known(self, name, where):
        if not isinstance(name, str) or name.upper() not in self._index:
            raise GraphError(f"{where} names an unknown cell {name!r}")
        return self._index[name.upper()]

    def _start_owners(self, first):
        if first is not None:
            if not isinstance(first, (list, tuple)):
                raise GraphError("'first' must be a list of cell names")
            cells = {self._known(x, "'first'") for x in first}
            return tuple(0 if i in cells else 1 for i in range(self.cells))
        owners = [None] * self.cells
        for root in range(self.cells):
            if owners[root] is not None:
                continue
            owners[root], stack = 0, [root]
            while stack:
                c = stack.pop()
                for d in self.neighbours[c]:
                    if owners[d] is None:
                        owners[d] = 1 - owners[c]
                        stack.append(d)
                    elif owners[d] == owners[c]:
                        raise GraphError(
                            f"board {self.label} is not bipartite ({self.names[c]} and {self.names[d]} "
                            "would start with the same colour): list the first player's cells in 'first'")
        return tuple(owners)

    def _places(self, layout):
        if layout is None:
            per_row = max(1, min(8, self.cells))
            return tuple((i % per_row, (self.cells - 1) // per_row - i // per_row) for i in range(self.cells))
        if not isinstance(layout, dict):
            raise GraphError("'layout' must map cell names to [x, y]")
        places = [None] * self.cells
        for name, xy in layout.items():
            i = self._known(name, "'layout'")
            if not (isinstance(xy, (list, tuple)) and len(xy) == 2
                    and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                            and -MAX_LAYOUT <= v <= MAX_LAYOUT for v in xy)):
                raise GraphError(f"'layout' of {name}: expected [x, y], numbers within ±{MAX_LAYOUT}, "
                                 f"got {xy!r}")
            places[i] = (xy[0], xy[1])
        missing = [self.names[i] for i, p in enumerate(places) if p is None]
        if missing:
            raise GraphError(f"'layout' lacks cell {missing[0]}")
        xs, ys = [x for x, _ in places], [y for _, y in places]
        return tuple((x - min(xs), y - min(ys)) for x, y in places)

    # ---- the Board interface -------------------------------------------------------------
    def name(self, cell):
        return self.names[cell]

    def cell(self, name):
        if not CELL_NAME.match(name):
            raise UnknownCellError(f"bad cell name {name!r}")
        if name.upper() not in self._index:
            raise UnknownCellError(f"unknown cell {name} on board {self.label}")
        return self._index[name.upper()]

    def start_owner(self, cell):
        return self.owners[cell]

    def place(self, cell):
        """(x, y) of the cell in the layout, y up."""
        return self.places[cell]

    def core_geometry(self):
        """Keyword arguments of solver._sanjego.Core for this board."""
        masks = tuple(sum(1 << d for d in nb) for nb in self.neighbours)
        return {"width": 0, "height": 0, "graph": (masks, self.core_symmetries)}

    def to_json(self):
        return {"name": self.label, "cells": list(self.names),
                "edges": [[self.names[a], self.names[b]] for a in range(self.cells)
                          for b in self.neighbours[a] if a < b],
                "first": [n for n, o in zip(self.names, self.owners) if o == 0],
                "layout": {n: list(p) for n, p in zip(self.names, self.places)}}

    def __eq__(self, other):
        return isinstance(other, GraphBoard) and self.digest == other.digest

    def __hash__(self):
        return hash(self.digest)

    def __str__(self):
        return self.label

    def __repr__(self):
        return f"GraphBoard({self.label!r}, {self.cells} cells)"


# ---- automorphisms ----------------------------------------------------------------------
def automorphisms(neighbours, limit=MAX_AUTOMORPHISMS):
    """Cell permutations perm (perm[c] is the image of c) that keep the graph, the identity
    first; at most `limit` of them. Backtracking over cells in breadth-first order, so that
    each new cell is tied to one already mapped; candidates must agree in degree and in
    adjacency with every cell mapped so far."""
    n = len(neighbours)
    adjacent = [set(nb) for nb in neighbours]
    degree = [len(nb) for nb in neighbours]
    order, seen = [], set()
    for root in sorted(range(n), key=lambda c: -degree[c]):
        if root in seen:
            continue
        seen.add(root)
        queue = [root]
        while queue:
            c = queue.pop(0)
            order.append(c)
            for d in neighbours[c]:
                if d not in seen:
                    seen.add(d)
                    queue.append(d)
    found, perm, used = [], [None] * n, [False] * n

    def extend(k):
        if len(found) >= limit:
            return
        if k == n:
            found.append(tuple(perm))
            return
        c = order[k]
        mapped = [d for d in order[:k] if d in adjacent[c]]
        candidates = adjacent[perm[mapped[0]]] if mapped else range(n)
        for image in sorted(candidates):
            if used[image] or degree[image] != degree[c]:
                continue
            # c's mapped neighbours must go to image's neighbours, and image may have no
            # other neighbour among the cells used so far.
            if not all(perm[d] in adjacent[image] for d in mapped):
                continue
            if sum(used[e] for e in adjacent[image]) != len(mapped):
                continue
            perm[c], used[image] = image, True
            extend(k + 1)
            perm[c], used[image] = None, False

    extend(0)
    identity = tuple(range(n))
    return [identity] + sorted(p for p in found if p != identity)


def _compose(p, q):
    """p after q."""
    return tuple(p[q[i]] for i in range(len(q)))


def _closure(generators, limit):
    identity = tuple(range(len(generators[0])))
    group, frontier = {identity}, [identity]
    while frontier:
        nxt = []
        for g in frontier:
            for s in generators:
                h = _compose(s, g)
                if h not in group:
                    group.add(h)
                    if len(group) > limit:
                        return None
                    nxt.append(h)
        frontier = nxt
    return group


def small_subgroup(perms, limit, tries=64):
    """A subgroup of at most `limit` elements of the group `perms` (the identity first); the C
    core keeps one key per element. Grown greedily from each of the first `tries`
    automorphisms in turn; the largest found is kept."""
    identity = perms[0]
    best = {identity}
    for first in perms[1:tries + 1]:
        generators, group = [], {identity}
        for g in [first] + list(perms[1:]):
            if g in group:
                continue
            bigger = _closure(generators + [g], limit)
            if bigger is not None:
                generators.append(g)
                group = bigger
                if len(group) == limit:
                    break
        if len(group) > len(best):
            best = group
        if len(best) == limit:
            break
    return [identity] + sorted(p for p in best if p != identity)


# ---- built-in boards --------------------------------------------------------------------
# Faces of the cube [0,k]^3: (letter, origin, u, v, net block); cell (i, j) of a face lies at
# origin + (i + 1/2) u + (j + 1/2) v, and at (block x * k + i, block y * k + j) in the net
#          U
#       L  F  R  B
#          D
_FACES = (("U", (0, 1, 1), (1, 0, 0), (0, 0, -1), (1, 2)),
          ("L", (0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1)),
          ("F", (0, 0, 1), (1, 0, 0), (0, 1, 0), (1, 1)),
          ("R", (1, 0, 1), (0, 0, -1), (0, 1, 0), (2, 1)),
          ("B", (1, 0, 0), (-1, 0, 0), (0, 1, 0), (3, 1)),
          ("D", (0, 0, 0), (1, 0, 0), (0, 0, 1), (1, 0)))
_FIRST_CORNER_FACES = "UFR"   # faces whose corner cells start with the first player


def cube(k):
    """The surface of a cube with k x k cells per face. Each face is chequered; on U, F and R
    the cells with i + j even (the corners) are the first player's, on D, B and L the second
    player's, so both have 3k^2 pieces."""
    names, centres, faces, first, layout = [], [], [], [], {}
    for letter, origin, u, v, (bx, by) in _FACES:
        for j in reversed(range(k)):          # reading order in the net: top row first
            for i in range(k):
                name = letter if k == 1 else f"{letter}{len(names) % (k * k) + 1}"
                names.append(name)
                faces.append(letter)
                centres.append(tuple(2 * k * o + (2 * i + 1) * a + (2 * j + 1) * b
                                     for o, a, b in zip(origin, u, v)))
                layout[name] = [bx * k + i, by * k + j]
                if ((i + j) % 2 == 0) == (letter in _FIRST_CORNER_FACES):
                    first.append(name)
    edges = []
    for a in range(len(names)):
        for b in range(a + 1, len(names)):
            d2 = sum((x - y) ** 2 for x, y in zip(centres[a], centres[b]))
            # doubled coordinates: 4 apart on one face, 2 across a cube edge
            if d2 == (4 if faces[a] == faces[b] else 2):
                edges.append([names[a], names[b]])
    return GraphBoard(f"cube{k}", names, edges, first, layout)


def hexagon(n):
    """A hexagon of hexagonal cells, n per side, in rows of n, n+1, ..., 2n-1, ..., n cells.
    Cells are named like the rectangle: letter for the place in the row, number for the
    row from the bottom. Rows alternate in colour, the bottom row the first player's (a
    hexagonal board has no chequer pattern)."""
    names, layout, first, coords = [], {}, [], {}
    for r in range(-(n - 1), n):
        row = 2 * n - 1 - abs(r)
        q0 = max(-(n - 1), -(n - 1) - r)
        for idx in range(row):
            q = q0 + idx
            name = f"{column_name(idx)}{r + n}"
            names.append(name)
            coords[(q, r)] = name
            layout[name] = [q + r / 2 + (n - 1) / 2 + 0.0, r + n - 1]
            if (r + n - 1) % 2 == 0:
                first.append(name)
    edges = []
    for (q, r), name in coords.items():
        for dq, dr in ((1, 0), (0, 1), (-1, 1)):
            other = coords.get((q + dq, r + dr))
            if other:
                edges.append([name, other])
    return GraphBoard(f"hex{n}", names, edges, first, layout)


def torus(w, h):
    """The w x h rectangle with opposite edges glued; chequered like the rectangle (A1 the
    first player's), so it is bipartite only when w and h are even."""
    if w < 3 or h < 3:
        raise GraphError(f"torus{w}x{h}: a torus needs at least 3 cells each way")
    if w * h > MAX_CELLS:
        raise GraphError(f"torus{w}x{h} has {w * h} cells; at most {MAX_CELLS} are supported")
    names = [f"{column_name(i % w)}{i // w + 1}" for i in range(w * h)]
    edges = []
    for i in range(w * h):
        c, r = i % w, i // w
        edges.append([names[i], names[(c + 1) % w + r * w]])
        edges.append([names[i], names[c + ((r + 1) % h) * w]])
    first = [names[i] for i in range(w * h) if (i % w + i // w) % 2 == 0]
    layout = {names[i]: [i % w, i // w] for i in range(w * h)}
    return GraphBoard(f"torus{w}x{h}", names, edges, first, layout)


def builtin(text):
    """The built-in board called `text`, or None."""
    m = _CUBE.match(text)
    if m:
        return cube(int(m.group(1)))
    m = _HEX.match(text)
    if m:
        return hexagon(int(m.group(1)))
    m = _TORUS.match(text)
    if m:
        return torus(int(m.group(1)), int(m.group(2)))
    return None


def from_json(data, default_name="graph"):
    if not isinstance(data, dict):
        raise GraphError("a board file holds one JSON object with 'cells' and 'edges'")
    unknown = set(data) - {"name", "cells", "edges", "first", "layout", "comment"}
    if unknown:
        raise GraphError(f"unknown field {sorted(unknown)[0]!r} in the board file")
    for field in ("cells", "edges"):
        if not isinstance(data.get(field), list):
            raise GraphError(f"the board file needs a list '{field}'")
    board = GraphBoard(data.get("name", default_name), data["cells"], data["edges"],
                       data.get("first"), data.get("layout"))
    # Results, tables and series are found by board name: a file may not borrow another
    # board's name (a built-in board written out by `sanjego board NAME --json` keeps its own).
    name = board.label
    if re.match(r"^\s*\d+\s*[xX×]\s*\d+\s*$", name):
        raise GraphError(f"board name {name!r} is the rectangle's: give the graph another name")
    try:
        same = builtin(name)
    except GraphError:
        same = None
    if same is not None and same != board:
        raise GraphError(f"board name {name!r} is a built-in board's: give the graph another name")
    return board


def load(path):
    """A graph board from a JSON file; GraphError for anything wrong with it. The name
    defaults to the file's name without extension."""
    import os
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        raise GraphError(f"cannot read board file {path}: {e.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise GraphError(f"board file {path} is not valid JSON: {e}") from None
    stem = re.sub(r"[^A-Za-z0-9_]", "_", os.path.splitext(os.path.basename(path))[0]) or "graph"
    return from_json(data, stem)
