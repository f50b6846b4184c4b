"""Pictures of a Buntes Leben game: text generations and SVG (written directly, no libraries).

    text_generations(board, record)        the generations as text grids, one after another
    svg_generation(board, generation, title)   one generation as a standalone SVG document
    svg_overview(board, record, title)     every generation side by side in one SVG
    write_svgs(board, record, directory)   gen-000.svg, gen-001.svg, ... and generations.svg

SVG elements carry one class each: "cell", "token-first", "token-second", "placed" (a ring
around a token placed before this generation), "corner" (the set-up corners), "caption",
"title", "panel" (one generation in the overview).
"""

import os
import xml.etree.ElementTree as ET

from ..checkpoint import atomic_write
from ..svg import element as _add
from .board import PLAYER_NAMES

SVG_NS = "http://www.w3.org/2000/svg"
CELL = 36
MINI = 14
COLOURS = ("#c0392b", "#2a6fb0")   # first player red, second player blue
PLACED_COLOUR = "#f2a900"
GRID_COLOUR = "#b8b0a0"
BOARD_FILL = "#fbf8f1"
CORNER_FILL = "#efe6d2"
TEXT_COLOUR = "#222222"


def _popcount(x):
    return bin(x).count("1")


def caption(board, g):
    parts = [f"generation {g.gen}", f"first {_popcount(g.a)}", f"second {_popcount(g.b)}"]
    if g.order is not None:
        parts.append(f"placed {board.format_cells(g.placed[0])} / {board.format_cells(g.placed[1])} "
                     f"({PLAYER_NAMES[g.order]} placed first)")
    return ", ".join(parts)


def _draw_board(parent, board, g, x0, y0, size, labels):
    corners = board.corner[0] | board.corner[1]
    for r in range(board.height):
        for c in range(board.width):
            i = board.bit(r, c)
            x, y = x0 + c * size, y0 + r * size
            _add(parent, "rect", class_="corner" if corners >> i & 1 else "cell", x=x, y=y,
                 width=size, height=size, fill=CORNER_FILL if corners >> i & 1 else BOARD_FILL,
                 stroke=GRID_COLOUR, stroke_width=1)
            for p, mask in enumerate((g.a, g.b)):
                if mask >> i & 1:
                    _add(parent, "circle", class_=("token-first", "token-second")[p],
                         cx=x + size / 2, cy=y + size / 2, r=round(size * 0.38, 2), fill=COLOURS[p])
            if (g.placed[0] | g.placed[1]) >> i & 1:
                _add(parent, "circle", class_="placed", cx=x + size / 2, cy=y + size / 2,
                     r=round(size * 0.46, 2), fill="none", stroke=PLACED_COLOUR, stroke_width=max(2, size // 10))
    if labels:
        for c in range(board.width):
            _add(parent, "text", "abcdefgh"[c], x=x0 + c * size + size / 2, y=y0 - 6, fill=TEXT_COLOUR,
                 font_size=12, font_family="sans-serif", text_anchor="middle")
        for r in range(board.height):
            _add(parent, "text", str(r + 1), x=x0 - 8, y=y0 + r * size + size / 2 + 4, fill=TEXT_COLOUR,
                 font_size=12, font_family="sans-serif", text_anchor="middle")


def _svg_root(width, height):
    root = ET.Element("svg", {"xmlns": SVG_NS, "width": str(width), "height": str(height),
                              "viewBox": f"0 0 {width} {height}"})
    _add(root, "rect", x=0, y=0, width=width, height=height, fill="#ffffff")
    return root


def _finish(root):
    ET.indent(root)
    return ET.tostring(root, encoding="unicode") + "\n"


def svg_generation(board, g, title=None):
    width, height = board.width * CELL + 60, board.height * CELL + 90
    root = _svg_root(width, height)
    if title:
        _add(root, "text", title, class_="title", x=width / 2, y=20, fill=TEXT_COLOUR, font_size=14,
             font_family="sans-serif", text_anchor="middle")
    _draw_board(root, board, g, 36, 44, CELL, True)
    _add(root, "text", caption(board, g), class_="caption", x=width / 2, y=height - 14, fill=TEXT_COLOUR,
         font_size=11, font_family="sans-serif", text_anchor="middle")
    return _finish(root)


def svg_overview(board, record, title=None, per_row=8):
    gens = record.generations
    pw, ph = board.width * MINI + 12, board.height * MINI + 26
    cols = min(per_row, len(gens))
    rows = (len(gens) + cols - 1) // cols
    width, height = cols * pw + 12, rows * ph + 50
    root = _svg_root(width, height)
    if title:
        _add(root, "text", title, class_="title", x=width / 2, y=18, fill=TEXT_COLOUR, font_size=13,
             font_family="sans-serif", text_anchor="middle")
    for k, g in enumerate(gens):
        r, c = divmod(k, cols)
        panel = _add(root, "g", class_="panel")
        x0, y0 = 12 + c * pw, 44 + r * ph
        _add(panel, "text", f"{g.gen}", x=x0 + board.width * MINI / 2, y=y0 - 4, fill=TEXT_COLOUR,
             font_size=10, font_family="sans-serif", text_anchor="middle")
        _draw_board(panel, board, g, x0, y0, MINI, False)
    return _finish(root)


def result_text(record):
    return {1: "first player wins", 0: "draw", -1: "second player wins"}[record.result] + f" ({record.reason})"


def text_generations(board, record):
    out = []
    for g in record.generations:
        out.append(caption(board, g))
        out.extend(board.grid(g.a, g.b, g.placed[0] | g.placed[1]))
        out.append("")
    out.append("result: " + result_text(record))
    return "\n".join(out) + "\n"


def write_svgs(board, record, directory, title=""):
    """One SVG per generation plus generations.svg (all of them); returns the paths."""
    os.makedirs(directory, exist_ok=True)
    paths = []
    for g in record.generations:
        path = os.path.join(directory, f"gen-{g.gen:03d}.svg")
        atomic_write(path, svg_generation(board, g, f"{title} generation {g.gen}".strip()).encode())
        paths.append(path)
    path = os.path.join(directory, "generations.svg")
    atomic_write(path, svg_overview(board, record, f"{title} {result_text(record)}".strip()).encode())
    paths.append(path)
    return paths
