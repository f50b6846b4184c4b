"""Table aging: a new entry replaces the slot of least work less age_weight per generation
(2^age_shift nodes of the table's clock) since that slot was stored or last found."""

import numpy as np
import pytest

from solver._sanjego import Core
from solver.sanjego import Board, Position
from solver.sanjego.parallel import RUN_AGE_WEIGHT, RUN_NEAR_TOWERS, _new_core


def core_for(board, table_mb=1, **settings):
    core = Core(measure="margin", table_bytes=table_mb << 20, **board.core_geometry())
    for name, value in settings.items():
        setattr(core, name, value)
    return core


def generations(core):
    """The generation byte of every used entry."""
    rows = np.frombuffer(bytes(core.table_export(0)), dtype="<u8").reshape(-1, 3)
    return (rows[:, 2] >> 56).astype(int)


def test_defaults_and_limits():
    core = core_for(Board.parse("4x4"), 16)
    assert core.age_weight == 0  # by work alone, unless a run asks for aging
    assert core.age_shift == (core.table_buckets * 4).bit_length() - 1 + 2
    for name, bad in (("age_weight", -1), ("age_weight", 256), ("age_shift", 11), ("age_shift", 64)):
        with pytest.raises(ValueError, match=name):
            setattr(core, name, bad)


def test_a_run_ages_its_table_and_keeps_fewer_positions_near():
    board = Board.parse("4x4")
    core = _new_core((board.core_geometry(), "margin", 1 << 20, None, False))
    assert core.age_weight == RUN_AGE_WEIGHT > 0
    assert core.near_towers == RUN_NEAR_TOWERS < Core(measure="margin", table_bytes=1 << 20,
                                                      **board.core_geometry()).near_towers


def test_aging_keeps_recent_entries_and_the_same_values():
    board = Board.parse("5x4")
    start = Position.start(board)
    values, old_share = [], []
    for weight in (0, 3):
        core = core_for(board, 1, age_weight=weight, age_shift=12)
        values.append(core.solve(*start.core_args))
        now = core.clock >> core.age_shift
        assert core.clock >= core.nodes - 4096 and now > 100  # a clock tick every 2^12 nodes
        ages = (now - generations(core)) % 256
        old_share.append(np.mean(ages > 64))
    assert values[0] == values[1]
    assert old_share[1] < old_share[0] / 2


def test_cores_sharing_a_table_share_its_clock():
    board = Board.parse("5x4")
    start = Position.start(board)
    owner = core_for(board)
    worker = Core(0, 0, share=owner)
    worker.solve(*start.core_args)
    assert owner.clock == worker.clock >= worker.nodes - 4096 > 0
    assert owner.nodes == 0


def test_imported_entries_are_of_the_importing_tables_generation():
    board = Board.parse("5x4")
    start = Position.start(board)
    old = core_for(board, age_shift=12)
    old.solve(*start.core_args)
    assert len(set(generations(old))) > 1
    fresh = core_for(board, age_shift=12)
    assert fresh.table_import(old.table_export(0), old.table_buckets, old.near_part) > 0
    assert set(generations(fresh)) == {0}
