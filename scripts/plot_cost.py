"""SVG plot of San Jego solve cost (nodes and seconds, log scale) against board size (cells).

    python scripts/bench.py --scaling | python scripts/plot_cost.py - -o cost.svg
    python scripts/plot_cost.py bench.txt -o cost.svg
    python scripts/plot_cost.py --results results/sanjego -o cost.svg

Input is the table scripts/bench.py prints (columns board, value, nodes, seconds, Mnodes/s,
peak MB; "#" lines and the header are skipped; a row whose value is "limit" ran out of time
and is drawn as a hollow marker: a lower bound), or a plain table of three columns
`board nodes seconds`. With --results the numbers come from the solved boards' JSON records
(first measure found, margin by default: nodes and wall_seconds of the first solve).
The picture is written atomically; no matplotlib needed. Bad input exits with status 2
and one line on stderr.
"""

import argparse
import json
import math
import os
import re
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from solver.checkpoint import atomic_write  # noqa: E402
from solver.svg import element as _add, number as _num  # noqa: E402

BOARD = re.compile(r"^(\d+)[xX×](\d+)$")
SVG_NS = "http://www.w3.org/2000/svg"
WIDTH, PANEL_HEIGHT = 720, 300
LEFT, RIGHT, TOP, GAP, BOTTOM = 80, 30, 50, 60, 50
COLOURS = {"nodes": "#2a6fb0", "seconds": "#c0392b"}


class InputError(Exception):
    """Input that is not a benchmark table."""


def parse_table(text, source="input"):
    """[{board, cells, nodes, seconds, limit}] from bench.py output or `board nodes seconds`."""
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split()
        if not words or words[0].startswith("#") or words[0] == "board":
            continue
        m = BOARD.match(words[0])
        if not m:
            raise InputError(f"{source}:{number}: expected a board like 5x4 first, got {words[0]!r}")
        if len(words) == 3:
            nodes, seconds, limit = words[1], words[2], False
        elif len(words) >= 4:
            nodes, seconds, limit = words[2], words[3], words[1] == "limit"
        else:
            raise InputError(f"{source}:{number}: expected `board nodes seconds` or a bench.py row")
        try:
            nodes, seconds = int(nodes), float(seconds)
        except ValueError:
            raise InputError(f"{source}:{number}: nodes must be an integer and seconds a number") from None
        if nodes < 0 or seconds < 0 or not math.isfinite(seconds):
            raise InputError(f"{source}:{number}: nodes and seconds must not be negative")
        w, h = int(m.group(1)), int(m.group(2))
        rows.append({"board": f"{w}x{h}", "cells": w * h, "nodes": nodes, "seconds": seconds,
                     "limit": limit})
    if not rows:
        raise InputError(f"{source}: no benchmark rows")
    return rows


def from_results(directory, measure="margin"):
    """Rows from results/sanjego/*.json: nodes and wall_seconds of the recorded solve."""
    if not os.path.isdir(directory):
        raise InputError(f"{directory}: not a directory")
    rows = []
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".json"):
            continue
        try:
            with open(os.path.join(directory, name), encoding="utf-8") as f:
                record = json.load(f)
        except (OSError, ValueError) as e:
            raise InputError(f"{name}: {e}") from None
        entry = record.get(measure) if isinstance(record, dict) else None
        m = BOARD.match(str(record.get("board", ""))) if isinstance(record, dict) else None
        if not entry or not m or entry.get("nodes") is None:
            continue
        seconds = entry.get("wall_seconds") or entry.get("cpu_seconds") or 0.0
        rows.append({"board": record["board"], "cells": int(m.group(1)) * int(m.group(2)),
                     "nodes": int(entry["nodes"]), "seconds": float(seconds), "limit": False})
    if not rows:
        raise InputError(f"{directory}: no solved boards with {measure} results")
    return rows


def _decades(values):
    lo = math.floor(math.log10(min(values)))
    hi = math.ceil(math.log10(max(values)))
    return lo, max(hi, lo + 1)


def _label(exponent):
    return {0: "1", 1: "10", 2: "100", 3: "1000"}.get(exponent, f"1e{exponent}")


def plot(rows, title="San Jego solve cost"):
    """A standalone SVG document: a nodes panel and a seconds panel, both log scale."""
    panels = [("nodes", "nodes searched")]
    panels.append(("seconds", "wall seconds"))
    height = TOP + len(panels) * PANEL_HEIGHT + (len(panels) - 1) * GAP + BOTTOM
    root = ET.Element("svg", {"xmlns": SVG_NS, "width": str(WIDTH), "height": str(height),
                              "viewBox": f"0 0 {WIDTH} {height}"})
    _add(root, "rect", x=0, y=0, width=WIDTH, height=height, fill="#ffffff")
    _add(root, "text", title, class_="title", x=WIDTH / 2, y=28, font_size=17, font_family="sans-serif",
         text_anchor="middle")
    cells = [r["cells"] for r in rows]
    x_lo, x_hi = min(cells) - 1, max(cells) + 1
    plot_w = WIDTH - LEFT - RIGHT

    def px(c):
        return LEFT + (c - x_lo) / (x_hi - x_lo) * plot_w

    for k, (key, name) in enumerate(panels):
        top = TOP + k * (PANEL_HEIGHT + GAP)
        shown = [r for r in rows if r[key] > 0]
        hidden = len(rows) - len(shown)
        panel = _add(root, "g", class_=f"panel-{key}")
        _add(panel, "rect", x=LEFT, y=top, width=plot_w, height=PANEL_HEIGHT, fill="none", stroke="#444444")
        note = f" ({hidden} at 0 not shown)" if hidden else ""
        _add(panel, "text", f"{name}, log scale{note}", class_="axis-title", x=LEFT, y=top - 8,
             font_size=13, font_family="sans-serif")
        if not shown:
            continue
        lo, hi = _decades([r[key] for r in shown])

        def py(v):
            return top + PANEL_HEIGHT - (math.log10(v) - lo) / (hi - lo) * PANEL_HEIGHT

        step = max(1, (hi - lo) // 8)
        for e in range(lo, hi + 1, step):
            y = py(10.0 ** e)
            _add(panel, "line", class_="grid", x1=LEFT, y1=_num(y), x2=LEFT + plot_w, y2=_num(y),
                 stroke="#dddddd")
            _add(panel, "text", _label(e), class_="tick", x=LEFT - 6, y=_num(y + 4), font_size=11,
                 font_family="sans-serif", text_anchor="end")
        for c in range(x_lo + 1, x_hi):
            if c % 2 == 0 or x_hi - x_lo < 12:
                _add(panel, "text", str(c), class_="tick", x=_num(px(c)), y=top + PANEL_HEIGHT + 16,
                     font_size=11, font_family="sans-serif", text_anchor="middle")
        colour = COLOURS[key]
        ordered = sorted(shown, key=lambda r: (r["cells"], r[key]))
        label_y, last = {}, {}
        for r in sorted(shown, key=lambda r: (r["cells"], -r[key])):
            # Labels of boards with the same number of cells are stacked, not overprinted.
            y = py(r[key]) - 6
            if r["cells"] in last:
                y = max(y, last[r["cells"]] + 11)
            label_y[r["board"]] = last[r["cells"]] = y
        for r in ordered:
            x, y = px(r["cells"]), py(r[key])
            value = f"{r[key]:g}" if key == "seconds" else str(r[key])
            mark = _add(panel, "circle", class_="point-limit" if r["limit"] else "point", cx=_num(x),
                        cy=_num(y), r=4.5, fill="#ffffff" if r["limit"] else colour, stroke=colour,
                        stroke_width=1.5)
            _add(mark, "title", f"{r['board']}: {'>= ' if r['limit'] else ''}{value} {key}")
            _add(panel, "text", r["board"] + ("+" if r["limit"] else ""), class_="point-label",
                 x=_num(x + 7), y=_num(label_y[r["board"]]), font_size=10, font_family="sans-serif", fill="#333333")
    _add(root, "text", "board size (cells)", class_="axis-title", x=WIDTH / 2, y=height - 14,
         font_size=13, font_family="sans-serif", text_anchor="middle")
    if any(r["limit"] for r in rows):
        _add(root, "text", "hollow, +: stopped at the time limit (a lower bound)", class_="note",
             x=WIDTH - RIGHT, y=height - 14, font_size=10, font_family="sans-serif", text_anchor="end")
    ET.indent(root)
    return ET.tostring(root, encoding="unicode") + "\n"


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit status 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def main(argv=None):
    ap = ArgumentParser(description=__doc__.splitlines()[0],
                                 epilog="Input formats: see the module docstring.")
    ap.add_argument("input", nargs="?", default=None,
                    help="benchmark table file (scripts/bench.py output or `board nodes seconds` rows); "
                         "- for standard input")
    ap.add_argument("--results", metavar="DIR", default=None,
                    help="take nodes and seconds from solved boards' JSON records in DIR instead")
    ap.add_argument("--measure", choices=["margin", "outcome"], default="margin",
                    help="which measure's numbers to take with --results (default margin)")
    ap.add_argument("-o", "--output", default="cost.svg", help="SVG file to write (default cost.svg)")
    ap.add_argument("--title", default="San Jego solve cost", help="title on the picture")
    args = ap.parse_args(argv)
    try:
        if (args.input is None) == (args.results is None):
            raise InputError("give either an input table (or -) or --results DIR")
        if args.results is not None:
            rows = from_results(args.results, args.measure)
        elif args.input == "-":
            rows = parse_table(sys.stdin.read(), "stdin")
        else:
            try:
                with open(args.input, encoding="utf-8") as f:
                    text = f.read()
            except (OSError, UnicodeDecodeError) as e:
                raise InputError(f"{args.input}: {getattr(e, 'strerror', None) or e}") from None
            rows = parse_table(text, args.input)
        document = plot(rows, args.title)
        try:
            atomic_write(args.output, document.encode())
        except OSError as e:
            raise InputError(f"{args.output}: {e.strerror or e}") from None
    except InputError as e:
        print(f"plot_cost.py: error: {e}", file=sys.stderr)
        return 2
    print(f"wrote {args.output}: {len(rows)} boards, {min(r['cells'] for r in rows)} to "
          f"{max(r['cells'] for r in rows)} cells")
    return 0


if __name__ == "__main__":
    sys.exit(main())
