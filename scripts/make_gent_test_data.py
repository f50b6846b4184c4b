"""Write tests/data/gent_values.txt: exact values of Tailor of Ghent positions by the plain-Python
reference minimax (never by the C core), for the C core's tests to check against.

Each line: graph outer-face vertex sewn free captured side value (masks in hex, value = the score
the Tailor still earns). Positions are the start of small boards and random positions reached by
random play, with a fixed seed.

    python scripts/make_gent_test_data.py
"""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.gent import reference  # noqa: E402
from solver.gent.board import Board, load_graph  # noqa: E402
from solver.gent.position import Position  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
GRAPHS = ["prism", "cube", "octahedron", "gent/pyramid.json", "gent/bipyramid.json", "gent/wheel5.json"]


def source(name):
    return str(DATA / name) if name.endswith(".json") else name


def main():
    rng = random.Random(2026)
    lines = ["# graph outer vertex sewn free captured side value  (python scripts/make_gent_test_data.py)"]
    for name in GRAPHS:
        g = load_graph(source(name))
        for outer in range(len(g.faces)):
            board = Board(g, outer)
            samples = []
            if name in ("prism", "gent/pyramid.json", "gent/bipyramid.json"):
                samples += [Position.started(board, v) for v in range(len(g.labels))]
            for _ in range(12):
                p = Position.started(board, rng.randrange(len(g.labels)))
                for _ in range(rng.randrange(3, 12)):
                    moves = p.legal_moves()
                    if not moves:
                        break
                    p = p.play(rng.choice(moves))
                samples.append(p)
            if name in ("cube", "octahedron") and outer == 0:
                # Every face of these is equivalent: the starts, one per class, on the first face.
                samples += [Position.started(board, c[0]) for c in board.start_classes()]
            for p in samples:
                value = reference.future_value(p)
                lines.append(f"{name} {g.face_text(outer)} {g.vertex_name(p.vertex)} {p.sewn:x} "
                             f"{p.free:x} {p.captured:x} {p.to_move} {value}")
            print(name, g.face_text(outer), len(samples), flush=True)
    (DATA / "gent_values.txt").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
