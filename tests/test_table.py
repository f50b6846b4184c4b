import os
import random
import struct

import pytest

from solver import table
from solver.table import TABLE_FORMAT_VERSION, TableError, open_table, write_table

HEADER = {"game": "sanjego", "board": "5x4", "measure": "margin"}


def random_entries(n=3000, seed=1):
    rng = random.Random(seed)
    entries = {}
    while len(entries) < n:
        key = rng.randbytes(rng.randint(1, 10))
        lo = rng.randint(-128, 127)
        entries[key] = (lo, rng.choice([lo, rng.randint(lo, 127)]))
    return entries


@pytest.fixture
def big(tmp_path):
    """(path, entries) of a table of 3000 entries in 64-entry blocks."""
    entries = random_entries()
    path = tmp_path / "big.tbl"
    items = [(k, lo, hi) for k, (lo, hi) in entries.items()]
    random.Random(2).shuffle(items)
    assert write_table(path, items, HEADER, block_entries=64) == len(entries)
    return path, entries


def damaged(path, offset, xor=0xFF):
    data = bytearray(path.read_bytes())
    data[offset] ^= xor
    path.write_bytes(bytes(data))


def footer(path):
    data = path.read_bytes()
    return table._FOOTER.unpack(data[-table._FOOTER.size:])


def raises_table_error(path, match=None):
    with pytest.raises(TableError, match=match) as info:
        open_table(path)
    message = str(info.value)
    assert str(path) in message and "\n" not in message


def test_round_trip(big):
    path, entries = big
    with open_table(path) as t:
        assert len(t) == len(entries)
        assert t.header == dict(HEADER, format_version=TABLE_FORMAT_VERSION,
                                entries=len(entries), blocks=-(-len(entries) // 64))
        for key, bounds in entries.items():
            assert t.probe(key) == bounds
            assert t.get(key) == bounds
            assert key in t
        rng = random.Random(3)
        absent = [b"", b"\x00" * 11, b"\xff" * 11] + [rng.randbytes(11) for _ in range(200)]
        for key in absent:
            assert key not in entries
            with pytest.raises(KeyError):
                t.probe(key)
            assert t.get(key) is None
            assert t.get(key, "none") == "none"
            assert key not in t


def test_iteration_sorted_and_complete(big):
    path, entries = big
    with open_table(path) as t:
        assert list(t) == [(k, *entries[k]) for k in sorted(entries)]


def test_duplicates_merge(tmp_path):
    path = tmp_path / "t.tbl"
    entries = [(b"a", -5, 10), (b"b", 1, 1), (b"a", 0, 20), (b"a", -3, 7), (b"b", 1, 1)]
    assert write_table(path, entries, {}) == 2
    with open_table(path) as t:
        assert list(t) == [(b"a", 0, 7), (b"b", 1, 1)]


def test_conflicting_duplicates_raise(tmp_path):
    path = tmp_path / "t.tbl"
    with pytest.raises(ValueError, match="conflicting"):
        write_table(path, [(b"a", 0, 1), (b"a", 2, 3)], {})
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("entries, header", [
    ([(b"a", 0, 128)], {}),
    ([(b"a", -129, 0)], {}),
    ([(b"a", 3, 2)], {}),
    ([(b"a", 0, 0)], {"entries": 5}),
])
def test_bad_input_raises(tmp_path, entries, header):
    with pytest.raises(ValueError):
        write_table(tmp_path / "t.tbl", entries, header)
    assert os.listdir(tmp_path) == []


def test_probe_decompresses_one_block(big, monkeypatch):
    path, entries = big
    calls = []
    real = table._decompress
    monkeypatch.setattr(table, "_decompress", lambda data: calls.append(1) or real(data))
    keys = sorted(entries)
    with open_table(path) as t:
        assert calls == [] and t.blocks_read == 0
        t.probe(keys[1000])
        assert len(calls) == t.blocks_read == 1
        t.probe(keys[1000])
        t.probe(keys[1001])  # same 64-entry block
        assert t.blocks_read == 1
        for block in range(1, 1 + table.CACHE_BLOCKS):  # push the first block out of the cache
            t.probe(keys[block * 64])
        assert t.blocks_read == 1 + table.CACHE_BLOCKS
        t.probe(keys[1000])
        assert len(calls) == t.blocks_read == 2 + table.CACHE_BLOCKS


def test_damaged_block(big):
    path, entries = big
    with open_table(path) as t:
        offset, length, _, _ = t._blocks[5]
    damaged(path, offset + length // 2)
    keys = sorted(entries)
    with open_table(path) as t:
        with pytest.raises(TableError, match="block 5") as info:
            t.probe(keys[5 * 64 + 3])
        assert str(path) in str(info.value)
        assert t.probe(keys[4 * 64 + 3]) == entries[keys[4 * 64 + 3]]
        assert t.probe(keys[6 * 64]) == entries[keys[6 * 64]]
        with pytest.raises(TableError, match="block 5"):
            list(t)


@pytest.mark.parametrize("where, match", [
    ("header length", "header"), ("header crc", "header checksum"),
    ("header json", "header checksum"), ("index", "index checksum"),
    ("index offset", "footer"), ("footer magic", "footer magic")])
def test_damaged_header_or_index(big, where, match):
    path, _ = big
    index_offset, _, _, _ = footer(path)
    size = path.stat().st_size
    offset = {
        "header length": 12,
        "header crc": 17,
        "header json": table._PREAMBLE.size + 5,
        "index": index_offset + 20,
        "index offset": size - table._FOOTER.size,
        "footer magic": size - 1,
    }[where]
    damaged(path, offset, xor=0x01)
    raises_table_error(path, match)


@pytest.mark.parametrize("keep", [0, 10, 30, 0.5, -1, -table._FOOTER.size])
def test_truncated(big, keep):
    path, _ = big
    data = path.read_bytes()
    keep = int(len(data) * keep) if isinstance(keep, float) else keep % len(data)
    path.write_bytes(data[:keep])
    raises_table_error(path, "truncated")


def test_wrong_magic(big):
    path, _ = big
    damaged(path, 0)
    raises_table_error(path, "magic")
    path.write_text('{"not": "a table"}' * 10)
    raises_table_error(path, "magic")


def test_newer_version(big):
    path, _ = big
    data = bytearray(path.read_bytes())
    struct.pack_into("<I", data, 8, TABLE_FORMAT_VERSION + 1)
    path.write_bytes(bytes(data))
    raises_table_error(path, "newer")


def test_atomic_when_entries_fail(big):
    path, entries = big
    before = path.read_bytes()

    def entries_then_crash():
        yield b"x", 0, 0
        raise RuntimeError("solver crashed")

    with pytest.raises(RuntimeError, match="solver crashed"):
        write_table(path, entries_then_crash(), HEADER)
    assert path.read_bytes() == before
    assert os.listdir(path.parent) == [path.name]

    new = path.parent / "new.tbl"
    with pytest.raises(RuntimeError):
        write_table(new, entries_then_crash(), HEADER)
    assert os.listdir(path.parent) == [path.name]


def test_atomic_when_writing_fails(big, monkeypatch):
    path, entries = big
    before = path.read_bytes()
    calls = []
    real = table._compress

    def failing_compress(data):
        calls.append(1)
        if len(calls) == 3:
            raise OSError("disk full")
        return real(data)

    monkeypatch.setattr(table, "_compress", failing_compress)
    with pytest.raises(OSError, match="disk full"):
        write_table(path, [(k, lo, hi) for k, (lo, hi) in entries.items()], {}, block_entries=64)
    assert path.read_bytes() == before
    assert os.listdir(path.parent) == [path.name]


def test_overwrite_replaces_table(big):
    path, _ = big
    assert write_table(path, [(b"k", -1, 2)], {"game": "other"}) == 1
    with open_table(path) as t:
        assert list(t) == [(b"k", -1, 2)]
        assert t.header["game"] == "other"


def test_empty_table(tmp_path):
    path = tmp_path / "empty.tbl"
    assert write_table(path, [], {"game": "sanjego"}) == 0
    with open_table(path) as t:
        assert len(t) == 0
        assert t.header["entries"] == t.header["blocks"] == 0
        assert list(t) == []
        with pytest.raises(KeyError):
            t.probe(b"a")
        assert t.get(b"a", 7) == 7


def test_close(big):
    path, entries = big
    key = next(iter(entries))
    with open_table(path) as t:
        assert t.probe(key) == entries[key]
    with pytest.raises(ValueError, match="closed"):
        t.probe(key)
