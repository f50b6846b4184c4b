"""Pictures of Tailor of Ghent positions: an SVG drawing and a plain-text description.

    layout(board)                 vertex coordinates (a Tutte embedding)
    svg(position, last_move, title)   a standalone SVG document, as a string
    text(position)                a multi-line description for a terminal
    write_svg_sequence(pairs, directory)   one SVG file per ply, written atomically

SVG elements carry one class each so that tools and tests can find them: "edge", "seam"
(a sewn edge), "vertex", "vertex-label", "degree", "face-label", "button-free",
"button-captured", "thimble", "last-move", "caption" and "title".
"""

import math
import os
import xml.etree.ElementTree as ET

import numpy as np

from ..checkpoint import atomic_write
from ..svg import element as _add
from .notation import format_move
from .position import SIDE_NAMES, ButtonMove, TailorMove

SVG_NS = "http://www.w3.org/2000/svg"
WIDTH, HEIGHT = 600, 660
CENTRE_X, CENTRE_Y = 300.0, 335.0
SCALE = 255.0  # pixels per layout unit; the outer polygon has radius 1

EDGE_COLOUR = "#9a9a9a"
SEAM_COLOUR = "#7a4a1e"
HIGHLIGHT_COLOUR = "#f2a900"
VERTEX_FILL = "#ffffff"
BUTTON_COLOUR = "#2a6fb0"
THIMBLE_COLOUR = "#d62020"
TEXT_COLOUR = "#222222"
FACE_TEXT_COLOUR = "#999999"

VERTEX_RADIUS = 9
BUTTON_RADIUS = 5
THIMBLE_RADIUS = 14


# ---- layout ---------------------------------------------------------------------------
def layout(board):
    """(x, y) per vertex: the outer face on the unit circle, every other vertex at the
    average of its neighbours (Tutte's barycentric embedding)."""
    g = board.graph
    n = len(g.labels)
    cycle = g.faces[board.outer]
    pos = np.zeros((n, 2))
    for k, v in enumerate(cycle):
        angle = math.pi / 2 + 2 * math.pi * k / len(cycle)
        pos[v] = (math.cos(angle), math.sin(angle))
    on_outer = set(cycle)
    inner = [v for v in range(n) if v not in on_outer]
    if inner:
        pos[inner] = _barycentres(g, inner, pos)
    return [(float(x), float(y)) for x, y in pos]


def _barycentres(g, inner, pos):
    """Solve deg(v) * p_v - sum of inner neighbours p_w = sum of fixed neighbours p_w."""
    row = {v: i for i, v in enumerate(inner)}
    a = np.zeros((len(inner), len(inner)))
    b = np.zeros((len(inner), 2))
    for v, i in row.items():
        a[i, i] = g.degree[v]
        for w in g.neighbours[v]:
            if w in row:
                a[i, row[w]] -= 1
            else:
                b[i] += pos[w]
    return np.linalg.solve(a, b)


def face_centroids(board, coords):
    """The average of each face's vertex coordinates (the outer face's too)."""
    centroids = []
    for vs in board.graph.faces:
        xs = [coords[v][0] for v in vs]
        ys = [coords[v][1] for v in vs]
        centroids.append((sum(xs) / len(vs), sum(ys) / len(vs)))
    return centroids


# ---- SVG ------------------------------------------------------------------------------
def _px(point):
    """Layout coordinates to SVG pixels (SVG's y axis points down)."""
    x, y = point
    return CENTRE_X + SCALE * x, CENTRE_Y - SCALE * y


def _num(x):
    return f"{x:.2f}"


def _line(parent, p, q, **attrs):
    (x1, y1), (x2, y2) = _px(p), _px(q)
    return _add(parent, "line", x1=_num(x1), y1=_num(y1), x2=_num(x2), y2=_num(y2), **attrs)


def _circle(parent, p, r, **attrs):
    x, y = _px(p)
    return _add(parent, "circle", cx=_num(x), cy=_num(y), r=r, **attrs)


def _text(parent, p, content, dx=0.0, dy=0.0, **attrs):
    x, y = _px(p)
    return _add(parent, "text", content, x=_num(x + dx), y=_num(y + dy), **attrs)


def _edge_key(move):
    return (min(move.src, move.dst), max(move.src, move.dst))


def _draw_edges(root, position, coords, last_move):
    g = position.board.graph
    group = _add(root, "g", class_="edges")
    if isinstance(last_move, TailorMove) and _edge_key(last_move) in g.edge_index:
        _line(group, coords[last_move.src], coords[last_move.dst], class_="last-move",
              stroke=HIGHLIGHT_COLOUR, stroke_width=10, stroke_linecap="round",
              stroke_opacity=0.6)
    for e, (i, j) in enumerate(g.edges):
        if position.sewn >> e & 1:
            _line(group, coords[i], coords[j], class_="seam", stroke=SEAM_COLOUR,
                  stroke_width=4, stroke_dasharray="9 4", stroke_linecap="round")
        else:
            _line(group, coords[i], coords[j], class_="edge", stroke=EDGE_COLOUR,
                  stroke_width=1.5)


def _draw_faces(root, position, centroids):
    board, g = position.board, position.board.graph
    group = _add(root, "g", class_="faces")
    for f in board.inner_faces:
        _text(group, centroids[f], g.face_name(f), dy=BUTTON_RADIUS + 12, class_="face-label",
              fill=FACE_TEXT_COLOUR, font_size=10, font_family="sans-serif",
              text_anchor="middle")
        if position.free >> f & 1:
            _circle(group, centroids[f], BUTTON_RADIUS, class_="button-free",
                    fill=BUTTON_COLOUR, stroke="#ffffff", stroke_width=1)


def _draw_button_arrow(root, move, centroids):
    (x1, y1), (x2, y2) = _px(centroids[move.src]), _px(centroids[move.dst])
    length = math.hypot(x2 - x1, y2 - y1)
    if length == 0:
        return
    # Stop short of the destination so the arrow head does not hide the moved button.
    cut = min(BUTTON_RADIUS + 4, length / 2) / length
    x2, y2 = x2 - (x2 - x1) * cut, y2 - (y2 - y1) * cut
    _add(root, "line", class_="last-move", x1=_num(x1), y1=_num(y1), x2=_num(x2), y2=_num(y2),
         stroke=HIGHLIGHT_COLOUR, stroke_width=3, marker_end="url(#arrow)")


def _arrow_marker(root):
    defs = _add(root, "defs")
    marker = _add(defs, "marker", id="arrow", viewBox="0 0 10 10", refX=9, refY=5,
                  markerWidth=6, markerHeight=6, orient="auto-start-reverse")
    _add(marker, "path", d="M 0 0 L 10 5 L 0 10 z", fill=HIGHLIGHT_COLOUR)


def _draw_vertices(root, position, coords):
    g = position.board.graph
    group = _add(root, "g", class_="vertices")
    for v, p in enumerate(coords):
        _circle(group, p, VERTEX_RADIUS, class_="vertex", fill=VERTEX_FILL,
                stroke=TEXT_COLOUR, stroke_width=1.2)
        if position.captured >> v & 1:
            _circle(group, p, VERTEX_RADIUS - 2, class_="button-captured", fill=BUTTON_COLOUR)
        label_colour = "#ffffff" if position.captured >> v & 1 else TEXT_COLOUR
        _text(group, p, g.vertex_name(v), dy=4, class_="vertex-label", fill=label_colour,
              font_size=10, font_family="sans-serif", font_weight="bold", text_anchor="middle")
        _text(group, p, f"d{g.degree[v]}", dx=VERTEX_RADIUS + 1, dy=-VERTEX_RADIUS + 2,
              class_="degree", fill=FACE_TEXT_COLOUR, font_size=8, font_family="sans-serif")
    if position.vertex is not None:
        _circle(group, coords[position.vertex], THIMBLE_RADIUS, class_="thimble", fill="none",
                stroke=THIMBLE_COLOUR, stroke_width=3.5)


def side_to_move(position):
    """Who moves next, e.g. "the Tailor", or why nobody does."""
    if position.vertex is None:
        return "Mr. Button (to choose the start vertex)"
    if position.is_over():
        return "nobody (game over)"
    return SIDE_NAMES[position.to_move]


def status_line(position):
    """Score and side to move, e.g. "score 3, to move: the Tailor"."""
    return f"score {position.score}, to move: {side_to_move(position)}"


def _caption(position, last_move):
    parts = [position.board.name, status_line(position)]
    if isinstance(last_move, (TailorMove, ButtonMove)):
        parts.append(f"last move {format_move(position.board, last_move)}")
    return " | ".join(parts)


def svg(position, last_move=None, title=None):
    """A standalone SVG document drawing `position`; `last_move` (a TailorMove or a
    ButtonMove) is highlighted, other moves are ignored."""
    board = position.board
    coords = layout(board)
    centroids = face_centroids(board, coords)
    root = ET.Element("svg", {"xmlns": SVG_NS, "width": str(WIDTH), "height": str(HEIGHT),
                              "viewBox": f"0 0 {WIDTH} {HEIGHT}"})
    _arrow_marker(root)
    _add(root, "rect", x=0, y=0, width=WIDTH, height=HEIGHT, fill="#fbf8f1")
    if title is not None:
        _add(root, "text", str(title), class_="title", x=WIDTH / 2, y=24, fill=TEXT_COLOUR,
             font_size=16, font_family="sans-serif", text_anchor="middle")
    _draw_edges(root, position, coords, last_move)
    if isinstance(last_move, ButtonMove):
        _draw_button_arrow(root, last_move, centroids)
    _draw_faces(root, position, centroids)
    _draw_vertices(root, position, coords)
    _add(root, "text", _caption(position, last_move), class_="caption", x=WIDTH / 2,
         y=HEIGHT - 12, fill=TEXT_COLOUR, font_size=13, font_family="sans-serif",
         text_anchor="middle")
    ET.indent(root)
    return ET.tostring(root, encoding="unicode") + "\n"


# ---- text -----------------------------------------------------------------------------
def _vertex_state(position, v):
    states = []
    if position.vertex == v:
        states.append("thimble")
    if position.captured >> v & 1:
        states.append("button")
    return "+".join(states) or "open"


def text(position):
    """A plain-text description of `position`, one fact per line."""
    board, g = position.board, position.board.graph
    thimble = "-" if position.vertex is None else g.vertex_name(position.vertex)
    sewn = [f"{g.vertex_name(i)}-{g.vertex_name(j)}"
            for e, (i, j) in enumerate(g.edges) if position.sewn >> e & 1]
    free = [g.face_name(f) for f in board.inner_faces if position.free >> f & 1]
    captured = [f"{g.vertex_name(v)} (degree {g.degree[v]})"
                for v in range(len(g.labels)) if position.captured >> v & 1]
    lines = [
        f"board:    {board.name}",
        f"thimble:  {thimble}",
        f"score:    {position.score}",
        f"to move:  {side_to_move(position)}",
        f"sewn:     {', '.join(sewn) or 'none'}",
        f"free:     {', '.join(free) or 'none'}",
        f"captured: {', '.join(captured) or 'none'}",
        "vertices:",
    ]
    width = max(len(g.vertex_name(v)) for v in range(len(g.labels)))
    for v in range(len(g.labels)):
        lines.append(f"  {g.vertex_name(v):>{width}}  degree {g.degree[v]}  "
                     f"{_vertex_state(position, v)}")
    return "\n".join(lines) + "\n"


# ---- files ----------------------------------------------------------------------------
def _ply_title(board, k, move):
    if k == 0 and move is None:
        return "ply 0"
    return f"ply {k}: {format_move(board, move)}"


def write_svg_sequence(positions_and_moves, directory, prefix="ply"):
    """Write `prefix-000.svg`, `prefix-001.svg`, ... into `directory` (created if need be),
    one per (move, position) pair, the move being the one that led to the position (None
    for the first). Returns the paths written."""
    os.makedirs(directory, exist_ok=True)
    paths = []
    for k, (move, position) in enumerate(positions_and_moves):
        path = os.path.join(directory, f"{prefix}-{k:03d}.svg")
        content = svg(position, last_move=move, title=_ply_title(position.board, k, move))
        atomic_write(path, content.encode())
        paths.append(path)
    return paths
