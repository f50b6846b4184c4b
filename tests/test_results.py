"""The committed results/: every recorded game, table and value must hold up."""

import json
import pathlib

import pytest

from solver.sanjego import OUTCOME_NAMES, Board, Position, open_table, replay
from solver.sanjego.engine import Engine

RESULTS = pathlib.Path(__file__).resolve().parent.parent / "results"
RECORDS = sorted((RESULTS / "sanjego").glob("*.json"))


def test_there_are_results():
    assert len(RECORDS) >= 10


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_record(path):
    record = json.loads(path.read_text())
    board = Board.parse(record["board"])
    assert path.stem == str(board)
    for key in ("command", "commit", "date", "cores", "wall_seconds"):
        assert key in record["provenance"]
    for measure in ("margin", "outcome"):
        entry = record.get(measure)
        if entry is None:
            continue
        final, _ = replay(board, entry["game"])
        assert final.is_over()
        score = final.margin() if measure == "margin" else OUTCOME_NAMES[final.outcome()]
        assert score == entry["value"]
        first, second = (final.towers(p)[0] if final.towers(p) else 0 for p in (0, 1))
        assert entry["final"] == f"{first}-{second}"
        with open_table(path.parent / entry["table"]) as table:
            stored = table.probe("")
        assert (stored if measure == "margin" else OUTCOME_NAMES[stored]) == entry["value"]
        if board.cells <= 12:
            engine = Engine(board, measure, table_mb=8)
            value = engine.value(Position.start(board))
            assert (value if measure == "margin" else OUTCOME_NAMES[value]) == entry["value"]


def test_results_readme_lists_every_board():
    readme = (RESULTS / "README.md").read_text()
    for path in RECORDS:
        assert f"| {path.stem} |" in readme
