"""The null-window questions that find a San Jego value (solver.sanjego.probes)."""

import json

import pytest

from solver._sanjego import Core
from solver.sanjego import Board, Position, probes
from solver.sanjego.engine import Engine
from solver.sanjego.parallel import ParallelProof


def asked(value, lo=-36, hi=36):
    """The questions solve() asks of a search that says no more than it must (a "yes" to
    >= k gives k, a "no" gives k - 1), and the value it returns."""
    questions = []

    def search(k):
        questions.append(k)
        return k if value >= k else k - 1

    return questions, probes.solve(search, lo, hi)


# value: the questions, stepping by one up to the fourth answer, then galloping, then bisecting
@pytest.mark.parametrize("value, questions", [
    (0, [1, 0]), (1, [1, 2]), (2, [1, 2, 3]), (3, [1, 2, 3, 4]), (4, [1, 2, 3, 4, 5]),
    (6, [1, 2, 3, 4, 5, 7, 6]), (-1, [1, 0, -1]), (-3, [1, 0, -1, -2, -3]),
    (-6, [1, 0, -1, -2, -3, -5, -9, -7, -6]), (20, [1, 2, 3, 4, 5, 7, 11, 19, 35, 27, 23, 21, 20]),
])
def test_questions(value, questions):
    assert asked(value) == (questions, value)


def test_every_value_is_found_inside_its_bounds():
    for lo in range(-6, 5):
        for hi in range(lo, 7):
            for value in range(lo, hi + 1):
                questions, found = asked(value, lo, hi)
                assert found == value and all(lo < k <= hi for k in questions)
                assert len(questions) == len(set(questions))


def test_a_fail_soft_answer_skips_questions():
    # a search that returns the exact value settles ">= 1" and "<= value" at once
    questions = []

    def search(k):
        questions.append(k)
        return 2

    assert probes.solve(search, -36, 36) == 2 and questions == [1, 3]


def test_core_solve_asks_as_the_policy_does():
    board = Board.parse("4x3")
    p = Position.start(board)
    geometry = board.core_geometry()
    one, other = Core(measure="margin", table_bytes=1 << 22, **geometry), Core(measure="margin", table_bytes=1 << 22, **geometry)
    value = one.solve(*p.core_args)
    lo, hi = other.bounds(*p.core_args)
    questions = []

    def search(k):
        questions.append(k)
        return other.search(*p.core_args, k - 1, k)

    assert probes.solve(search, lo, hi) == value == 2
    assert questions == [1, 2, 3] and one.nodes == other.nodes


def test_a_parallel_proof_asks_the_same_questions(tmp_path):
    board = Board.parse("4x3")
    run = tmp_path / "run"
    assert ParallelProof(Engine(board, table_mb=4), Position.start(board), [], 2, run_dir=run, workers=1).solve() == 2
    ks = [json.loads(line.split(" ", 1)[1]).get("k") for line in open(run / "journal.log")]
    assert [k for i, k in enumerate(ks) if k is not None and k not in ks[:i]] == [1, 2, 3]
