"""The committed results/: every recorded game, table and value must hold up."""

import json
import pathlib

import pytest

from solver.sanjego import OUTCOME_NAMES, Position, open_table, replay
from solver.sanjego.board import parse_board
from solver.sanjego.engine import Engine
from solver.sanjego.heads import best_choices, head_table

RESULTS = pathlib.Path(__file__).resolve().parent.parent / "results"
RECORDS = sorted((RESULTS / "sanjego").glob("*.json"))
HEADS = sorted((RESULTS / "sanjego" / "heads").glob("*.json"))
BOUNDS = sorted((RESULTS / "sanjego" / "bounds").glob("*.json"))


def test_there_are_results():
    assert len(RECORDS) >= 10


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_record(path):
    record = json.loads(path.read_text())
    board = parse_board(record["board"])
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
        if "from_margin" in entry:  # no table of its own: the margin's sign decides it
            assert measure == "outcome" and entry["from_margin"] == record["margin"]["value"] != 0
            assert entry["value"] == OUTCOME_NAMES[2 if entry["from_margin"] > 0 else -2]
            continue
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


@pytest.mark.parametrize("path", HEADS, ids=[p.stem for p in HEADS])
def test_heads_record(path):
    record = json.loads(path.read_text())
    board = parse_board(record["board"])
    assert path.stem == f"{board}-{record['measure']}"
    assert record["verify"]["agreed"] and "commit" in record["provenance"]
    values = {tuple(board.cell(n) for n in pair.split(",")): v for pair, v in record["values"].items()}
    assert len(values) == record["pairs"]
    first = best_choices(values, True)
    assert record["value"] == record["first_places_first"]["value"] == first[0]
    assert record["second_places_first"]["value"] == best_choices(values, False)[0]
    if board.cells <= 12:
        again, _, _ = head_table(board, record["measure"], table_mb=8, seed=12345)
        assert again == values


def test_results_readme_lists_the_heads_records():
    readme = (RESULTS / "README.md").read_text()
    for path in HEADS:
        board, measure = path.stem.rsplit("-", 1)
        assert f"| {board} | {measure} |" in readme


@pytest.mark.parametrize("path", BOUNDS, ids=[p.stem for p in BOUNDS])
def test_bound_record_holds_for_its_committed_run_and_verification(path):
    """A published bound of an unfinished run: the run's committed journal must still prove
    it, and its committed verification directory must still have verified it."""
    from solver.sanjego.parallel import open_run
    from solver.sanjego.verify import read_verification
    record = json.loads(path.read_text())
    board = parse_board(record["board"])
    assert path.stem == f"{board}-{record['measure']}" and "commit" in record["provenance"]
    run = RESULTS.parent / record["run"]["dir"]
    proof, manifest = open_run(str(run))
    assert manifest["board"] == str(board) and manifest["measure"] == record["measure"]
    k = record["at_least"]
    assert proof.intervals()[proof.root.key][0] >= k
    check = read_verification(proof, str(run), bound=True)
    assert check and check.get("at_least", check.get("value")) >= k
    readme = (RESULTS / "README.md").read_text()
    assert f"| {board} | {record['measure']} | {k:+d} |" in readme

