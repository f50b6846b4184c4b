"""Regenerates tests/data/{perft,values}.txt from the plain-Python reference rules.

    python scripts/make_test_data.py

The tests check both the reference and the C core against these files, so a
change in either shows up as a failing line.
"""

import pathlib

from solver.sanjego import Board, Position, reference

DATA = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data"

PERFT = [(2, 2, 4), (3, 2, 5), (2, 3, 5), (3, 3, 5), (4, 3, 4), (5, 4, 3), (6, 4, 3),
         (8, 8, 2), (64, 1, 3), (1, 1, 2), (1, 7, 4)]
VALUES = [(1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1), (8, 1), (1, 6),
          (2, 2), (3, 2), (2, 3), (4, 2), (2, 4), (5, 2), (3, 3)]


def main():
    with open(DATA / "perft.txt", "w") as f:
        f.write("# board depth count -- sequences of `depth` plies from the start (a forced pass\n"
                "# is a ply, a finished game one leaf); made by scripts/make_test_data.py\n")
        for w, h, dmax in PERFT:
            p = Position.start(Board(w, h))
            for d in range(1, dmax + 1):
                f.write(f"{w}x{h} {d} {reference.perft(p, d)}\n")
    with open(DATA / "values.txt", "w") as f:
        f.write("# board measure value -- start position, first player's view; made by\n"
                "# scripts/make_test_data.py with the reference minimax (no pruning)\n")
        for w, h in VALUES:
            p = Position.start(Board(w, h))
            for measure in ("margin", "outcome"):
                f.write(f"{w}x{h} {measure} {reference.solve(p, measure)}\n")


if __name__ == "__main__":
    main()
