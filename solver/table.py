"""On-disk table of solved positions: sorted ``bytes`` keys -> value bounds.

Game-independent.  Each key (a packed position, any length up to 65535
bytes) maps to a pair ``(lo, hi)`` of bounds on the position's value, both in
-128..127; ``lo == hi`` means the value is exact.  Entries are stored sorted
and lz4-compressed in blocks, so a lookup reads and decompresses one block.

File layout (integers little-endian)::

    preamble  magic b"SOLVTBL\\0" (8 bytes), u32 format version,
              u32 header length, u32 CRC32 of the header bytes
    header    UTF-8 JSON object: the writer's metadata plus
              "format_version", "entries" and "blocks"
    blocks    lz4 frames back to back; a block of n entries in key order
              decompresses to n u16 key lengths, the n keys concatenated,
              n i8 lo values, then n i8 hi values
    index     per block: u16 first-key length, first key, u64 offset,
              u32 compressed length, u32 entry count, u32 CRC32 of the
              compressed bytes
    footer    u64 index offset, u64 index length, u32 CRC32 of the index,
              the magic again (28 bytes, at the very end of the file)

Usage::

    write_table("t.tbl", [(b"\\x01\\x02", -3, 5)], {"game": "sanjego"})
    with open_table("t.tbl") as table:
        lo, hi = table.probe(b"\\x01\\x02")
"""

import array
import bisect
import collections
import itertools
import json
import operator
import os
import struct
import sys
import threading
import zlib

import lz4.frame

from .checkpoint import atomic_file

TABLE_FORMAT_VERSION = 1
MAGIC = b"SOLVTBL\x00"
CACHE_BLOCKS = 8
MAX_KEY_LEN = 0xFFFF

_PREAMBLE = struct.Struct("<8sIII")
_FOOTER = struct.Struct("<QQI8s")
_INDEX_ENTRY = struct.Struct("<QIII")
_KEY_LEN = struct.Struct("<H")
_RESERVED = ("format_version", "entries", "blocks")

# Module-level so tests can count or sabotage (de)compression.
_compress = lz4.frame.compress
_decompress = lz4.frame.decompress


class TableError(Exception):
    """A table file is damaged, truncated or of an unknown format."""


def _as_key(key):
    if isinstance(key, bytes):
        return key
    if isinstance(key, (bytearray, memoryview)):
        return bytes(key)
    raise TypeError(f"table keys must be bytes, not {type(key).__name__}")


def _merge(entries):
    """Dict key -> (lo, hi), duplicates merged by intersecting their bounds."""
    merged = {}
    for key, lo, hi in entries:
        key = _as_key(key)
        if len(key) > MAX_KEY_LEN:
            raise ValueError(f"key of {len(key)} bytes is longer than {MAX_KEY_LEN}")
        lo, hi = operator.index(lo), operator.index(hi)
        if not (-128 <= lo <= 127 and -128 <= hi <= 127):
            raise ValueError(f"bounds ({lo}, {hi}) for key {key!r} are outside -128..127")
        if key in merged:
            lo, hi = max(lo, merged[key][0]), min(hi, merged[key][1])
        if lo > hi:
            raise ValueError(f"conflicting bounds for key {key!r}: lo {lo} > hi {hi}")
        merged[key] = (lo, hi)
    return merged


def _u16_array(values=()):
    arr = array.array("H", values)
    if sys.byteorder == "big":
        arr.byteswap()
    return arr


def _encode_block(keys, merged):
    # Columns rather than records, so that reading decodes with a few C calls.
    return (_u16_array(map(len, keys)).tobytes() + b"".join(keys)
            + array.array("b", (merged[k][0] for k in keys)).tobytes()
            + array.array("b", (merged[k][1] for k in keys)).tobytes())


def write_table(path, entries, header, block_entries=4096):
    """Write ENTRIES, an iterable of (key, lo, hi), to PATH atomically.

    HEADER is a dict of JSON-serialisable metadata.  Returns the number of
    distinct keys written.  Until the new file is complete, PATH is untouched.
    """
    if not isinstance(header, dict):
        raise TypeError(f"header must be a dict, not {type(header).__name__}")
    clash = [name for name in _RESERVED if name in header]
    if clash:
        raise ValueError(f"header keys {clash} are reserved for the table itself")
    block_entries = operator.index(block_entries)
    if block_entries < 1:
        raise ValueError(f"block_entries must be at least 1, not {block_entries}")

    merged = _merge(entries)
    keys = sorted(merged)
    meta = dict(header, format_version=TABLE_FORMAT_VERSION, entries=len(keys),
                blocks=-(-len(keys) // block_entries))
    header_bytes = json.dumps(meta, sort_keys=True, separators=(",", ":")).encode()

    with atomic_file(path) as f:
        f.write(_PREAMBLE.pack(MAGIC, TABLE_FORMAT_VERSION, len(header_bytes), zlib.crc32(header_bytes)))
        f.write(header_bytes)
        offset = _PREAMBLE.size + len(header_bytes)
        index = bytearray()
        for start in range(0, len(keys), block_entries):
            chunk = keys[start:start + block_entries]
            data = _compress(_encode_block(chunk, merged))
            f.write(data)
            index += _KEY_LEN.pack(len(chunk[0])) + chunk[0]
            index += _INDEX_ENTRY.pack(offset, len(data), len(chunk), zlib.crc32(data))
            offset += len(data)
        f.write(index)
        f.write(_FOOTER.pack(offset, len(index), zlib.crc32(index), MAGIC))
    return len(keys)


class Table:
    """A table file opened for probing; see the module docstring.

    ``blocks_read`` counts the blocks decompressed so far.
    """

    def __init__(self, path, cache_blocks=CACHE_BLOCKS):
        self.path = os.fspath(path)
        self.header = None
        self.blocks_read = 0
        self._cache = collections.OrderedDict()
        self._cache_blocks = cache_blocks
        self._lock = threading.RLock()
        self._file = open(self.path, "rb")
        try:
            self._load()
        except BaseException:
            self.close()
            raise

    def _error(self, what):
        return TableError(f"{self.path}: {what}")

    def _read(self, offset, length):
        with self._lock:
            if self._file is None:
                raise ValueError(f"{self.path}: table is closed")
            self._file.seek(offset)
            data = self._file.read(length)
        if len(data) != length:
            raise self._error("truncated file")
        return data

    def _load(self):
        size = self._file.seek(0, os.SEEK_END)
        if size < _PREAMBLE.size + _FOOTER.size:
            raise self._error(f"truncated file ({size} bytes) or not a table")
        magic, version, header_len, header_crc = _PREAMBLE.unpack(self._read(0, _PREAMBLE.size))
        if magic != MAGIC:
            raise self._error("not a table file (bad magic)")
        if version > TABLE_FORMAT_VERSION:
            raise self._error(f"format version {version} is newer than this program's "
                              f"{TABLE_FORMAT_VERSION}")
        if version != TABLE_FORMAT_VERSION:
            raise self._error(f"unknown format version {version}")
        data_start = _PREAMBLE.size + header_len
        if data_start > size - _FOOTER.size:
            raise self._error("header runs past the end of the file (truncated or damaged)")
        header_bytes = self._read(_PREAMBLE.size, header_len)
        if zlib.crc32(header_bytes) != header_crc:
            raise self._error("header checksum mismatch")
        try:
            header = json.loads(header_bytes)
        except ValueError:
            header = None
        if not (isinstance(header, dict) and header.get("format_version") == version
                and all(isinstance(header.get(name), int) for name in ("entries", "blocks"))):
            raise self._error("malformed header")

        index_offset, index_len, index_crc, magic = _FOOTER.unpack(
            self._read(size - _FOOTER.size, _FOOTER.size))
        if magic != MAGIC:
            raise self._error("bad footer magic (truncated or damaged file)")
        if index_offset < data_start or index_offset + index_len != size - _FOOTER.size:
            raise self._error("footer does not match the file size (truncated or damaged)")
        index = self._read(index_offset, index_len)
        if zlib.crc32(index) != index_crc:
            raise self._error("index checksum mismatch")
        self._parse_index(index, data_start, index_offset, header)
        self.header = header

    def _parse_index(self, index, data_start, index_offset, header):
        self._first_keys, self._blocks = [], []
        pos, expected, total = 0, data_start, 0
        try:
            while pos < len(index):
                (key_len,) = _KEY_LEN.unpack_from(index, pos)
                key = index[pos + 2:pos + 2 + key_len]
                pos += 2 + key_len
                offset, length, count, crc = _INDEX_ENTRY.unpack_from(index, pos)
                pos += _INDEX_ENTRY.size
                if offset != expected or count < 1 or (self._first_keys and key <= self._first_keys[-1]):
                    raise self._error(f"malformed index entry for block {len(self._blocks)}")
                self._first_keys.append(key)
                self._blocks.append((offset, length, count, crc))
                expected, total = offset + length, total + count
        except struct.error:
            raise self._error("malformed index") from None
        if expected != index_offset or len(self._blocks) != header["blocks"] or total != header["entries"]:
            raise self._error("index does not match the header")

    def _decode(self, i):
        offset, length, count, crc = self._blocks[i]
        data = self._read(offset, length)
        if zlib.crc32(data) != crc:
            raise self._error(f"block {i} checksum mismatch")
        self.blocks_read += 1
        try:
            raw = _decompress(data)
        except Exception:
            raise self._error(f"block {i} does not decompress") from None
        # A decoded block is (raw, offsets, los, his); key j is raw[offsets[j]:offsets[j + 1]].
        if len(raw) < 4 * count:
            raise self._error(f"block {i} is malformed")
        lengths = _u16_array()
        lengths.frombytes(raw[:2 * count])
        if sys.byteorder == "big":
            lengths.byteswap()
        offsets = list(itertools.accumulate(lengths, initial=2 * count))
        end = offsets[-1]
        if end + 2 * count != len(raw) or raw[offsets[0]:offsets[1]] != self._first_keys[i]:
            raise self._error(f"block {i} is malformed")
        los, his = array.array("b"), array.array("b")
        los.frombytes(raw[end:end + count])
        his.frombytes(raw[end + count:])
        return raw, offsets, los, his

    def _block(self, i, cache=True):
        with self._lock:
            block = self._cache.get(i)
            if block is not None:
                self._cache.move_to_end(i)
                return block
            block = self._decode(i)
            if cache:
                self._cache[i] = block
                if len(self._cache) > self._cache_blocks:
                    self._cache.popitem(last=False)
            return block

    def probe(self, key):
        """(lo, hi) bounds for KEY; KeyError if the table lacks it."""
        key = _as_key(key)
        i = bisect.bisect_right(self._first_keys, key) - 1
        if i >= 0:
            raw, offsets, los, his = self._block(i)
            j = bisect.bisect_left(range(len(los)), key, key=lambda j: raw[offsets[j]:offsets[j + 1]])
            if j < len(los) and raw[offsets[j]:offsets[j + 1]] == key:
                return los[j], his[j]
        raise KeyError(key)

    def get(self, key, default=None):
        try:
            return self.probe(key)
        except KeyError:
            return default

    def __contains__(self, key):
        return self.get(key) is not None

    def __len__(self):
        return self.header["entries"]

    def __iter__(self):
        """(key, lo, hi) in key order; blocks read this way bypass the cache."""
        for i in range(len(self._blocks)):
            raw, offsets, los, his = self._block(i, cache=False)
            for j in range(len(los)):
                yield raw[offsets[j]:offsets[j + 1]], los[j], his[j]

    def close(self):
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None
            self._cache.clear()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    def __repr__(self):
        state = "closed" if self._file is None else f"{len(self)} entries"
        return f"<Table {self.path!r}: {state}>"


def open_table(path):
    """Open the table file at PATH; TableError if it is damaged or unknown."""
    return Table(path)
