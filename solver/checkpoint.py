"""Run directories that survive any stop: an atomic, checksummed manifest and an
append-only, checksummed journal of finished work.

Each journal line is `CRC32HEX JSON`. A line is appended, flushed and fsynced
before the work it records counts as done, so a kill loses at most the work in
flight. A torn last line (a kill mid-write) is dropped on reading; a bad line
anywhere else means the file was damaged and is refused. Reading never writes,
so that `status` may read a journal while its run appends to it; the next
append mends the tail first.
"""

import contextlib
import json
import os
import secrets
import struct
import zlib

try:
    import fcntl
except ImportError:  # not on Windows: there a run directory is not guarded
    fcntl = None

FORMAT_VERSION = 1


class CheckpointError(Exception):
    """A run directory that cannot be used: damaged, missing, or for other options."""


class ContradictoryBounds(CheckpointError):
    """Two answers about one position that cannot both hold: a journal mixed from two runs,
    or a bug in the core that computed one of them. Going on would search an empty interval
    for ever, or report a value that neither answer proves."""


def tighten(bounds, lo, hi):
    """Narrows the list bounds = [lo, hi] of one position by another answer about it."""
    lo, hi = max(bounds[0], lo), min(bounds[1], hi)
    if lo > hi:
        raise ContradictoryBounds(f"contradictory answers on one position: its value would be at least "
                                  f"{lo} and at most {hi} (a journal mixed from two runs, or a core bug)")
    bounds[0], bounds[1] = lo, hi


def _fsync_dir(path):
    try:
        fd = os.open(path or ".", os.O_RDONLY)
    except OSError:  # some systems cannot open a directory
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_file(path):
    """A binary file that replaces `path` only when the block ends without error:
    written to a temporary file beside it, fsynced, renamed, directory fsynced."""
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    tmp = os.path.join(directory, f".{os.path.basename(path)}.{secrets.token_hex(6)}.tmp")
    try:
        with open(tmp, "xb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(e, OSError) and e.filename == tmp:  # name the file the caller asked for
            raise type(e)(e.errno, e.strerror, path) from None
        raise
    _fsync_dir(directory)


def read_framed(path, magic, kind, error):
    """(JSON header, body) of a file laid out as `magic`, an 8-byte header length, a JSON
    object, the body, and a CRC-32 of all before it; raises error(one line) when the file
    cannot be read, is not `kind` or is damaged."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise error(f"cannot read {path}: {e.strerror}") from None
    if not data.startswith(magic) or len(data) < len(magic) + 12:
        raise error(f"{path} is not {kind}")
    view = memoryview(data)
    if struct.unpack("<I", data[-4:])[0] != zlib.crc32(view[:-4]):
        raise error(f"{path} is damaged (checksum mismatch)")
    start = len(magic) + 8
    (length,) = struct.unpack("<Q", data[len(magic):start])
    try:
        header = json.loads(view[start:start + length].tobytes())
    except ValueError:
        header = None
    if not isinstance(header, dict):
        raise error(f"{path} is damaged (bad header)")
    return header, view[start + length:-4]


def write_framed(path, magic, header, body):
    """Writes (atomically) the file read_framed reads: `magic`, the JSON header's length,
    the header, the body and a CRC-32 of all before it."""
    header = json.dumps(header, sort_keys=True).encode()
    head = magic + struct.pack("<Q", len(header)) + header
    with atomic_file(path) as f:
        f.write(head)
        f.write(body)
        f.write(struct.pack("<I", zlib.crc32(body, zlib.crc32(head))))


def atomic_write(path, data):
    """Write bytes to path so that it holds either the old or the new content."""
    with atomic_file(path) as f:
        f.write(data)


def _seal(obj):
    body = json.dumps(obj, sort_keys=True, separators=(",", ":"))
    return f"{zlib.crc32(body.encode()):08x} {body}"


def _unseal(line):
    crc, _, body = line.partition(" ")
    if len(crc) != 8 or f"{zlib.crc32(body.encode()):08x}" != crc:
        raise ValueError("checksum mismatch")
    return json.loads(body)


def write_checked_json(path, obj):
    atomic_write(path, (_seal(obj) + "\n").encode())


def read_checked_json(path):
    """The JSON object that write_checked_json wrote to path; CheckpointError when the file
    is missing, unreadable, damaged or holds no object."""
    try:
        with open(path, encoding="utf-8") as f:
            obj = _unseal(f.read().rstrip("\n"))
    except FileNotFoundError:
        raise CheckpointError(f"{path}: missing") from None
    except OSError as e:  # a directory in its place, or a file where a directory should be
        raise CheckpointError(f"cannot read {path}: {e.strerror}") from None
    except (ValueError, UnicodeDecodeError):
        raise CheckpointError(f"{path}: damaged (checksum or format)") from None
    if not isinstance(obj, dict):
        raise CheckpointError(f"{path}: damaged (not a JSON object)")
    return obj


class Journal:
    """Append-only record of finished work."""

    def __init__(self, path):
        self.path = os.fspath(path)

    def read(self):
        """All intact records; a torn last line is left out (and left in the file, which
        the next append mends)."""
        if not os.path.exists(self.path):
            return []
        try:
            with open(self.path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise CheckpointError(f"cannot read {self.path}: {e.strerror}") from None
        records = []
        lines = data.split(b"\n")
        for i, raw in enumerate(lines):
            last = i == len(lines) - 1
            if not raw:
                if not last:
                    raise CheckpointError(f"{self.path}: damaged (empty line {i + 1})")
                continue
            try:
                record = _unseal(raw.decode())
            except (ValueError, UnicodeDecodeError):
                if last:  # torn by a kill mid-write: the work it recorded is redone
                    break
                raise CheckpointError(f"{self.path}: damaged at line {i + 1} (checksum mismatch)") from None
            if not isinstance(record, dict):
                raise CheckpointError(f"{self.path}: damaged at line {i + 1} (not a record)")
            records.append(record)
        return records

    def replay(self, apply):
        """Calls apply(record) for each record in order. A record that apply cannot read
        (KeyError, TypeError, ValueError, AttributeError: its checksum holds, so an edit or
        another program wrote it) is a CheckpointError naming its line."""
        for line, record in enumerate(self.read(), 1):
            try:
                apply(record)
            except (KeyError, TypeError, ValueError, AttributeError) as e:
                raise CheckpointError(f"{self.path}: bad record at line {line} ({type(e).__name__}: {e})") from None

    def append(self, record):
        with open(self.path, "a+b") as f:
            _mend_tail(f)
            f.write((_seal(record) + "\n").encode())
            f.flush()
            os.fsync(f.fileno())


def _mend_tail(f):
    """Before an append to f (opened "a+b"): a last line without its newline is either torn
    by a kill mid-write, then cut away, or whole (only its newline lost), then ended, so
    that the new record gets a line of its own instead of damaging the last one."""
    size = f.seek(0, os.SEEK_END)
    if size == 0:
        return
    f.seek(size - 1)
    if f.read(1) == b"\n":
        return
    f.seek(0)
    data = f.read()
    tail = data[data.rfind(b"\n") + 1:]
    try:
        _unseal(tail.decode())
    except (ValueError, UnicodeDecodeError):
        f.truncate(size - len(tail))
    else:
        f.write(b"\n")


class RunDir:
    """manifest.json (what is being computed) + journal.log (what is done) + result.json."""

    def __init__(self, path):
        self.path = os.fspath(path)
        self.manifest_path = os.path.join(self.path, "manifest.json")
        self.journal = Journal(os.path.join(self.path, "journal.log"))
        self.result_path = os.path.join(self.path, "result.json")
        self._claim = None

    def claim(self):
        """Marks the run as being written by this process, until it ends or release() is
        called (an advisory lock on the manifest). A second process that would write the
        same run, say a second `--resume` or `verify` beside the live one, is refused:
        it would repeat the other's work and count its nodes twice. Readers (status,
        record of a bound) do not claim; `record --from-run` claims while it completes
        its line (it writes line.log)."""
        if fcntl is None or self._claim is not None:
            return
        fd = os.open(self.manifest_path, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise CheckpointError(f"{self.path} is in use by another process (a run or verification "
                                  f"of it is still going); stop that one first") from None
        self._claim = fd

    def in_use(self):
        """Whether another process holds claim() now (a live run or verification)."""
        if fcntl is None or self._claim is not None:
            return False
        try:
            fd = os.open(self.manifest_path, os.O_RDONLY)
        except OSError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            return False
        except OSError:
            return True
        finally:
            os.close(fd)

    def release(self):
        if self._claim is not None:
            os.close(self._claim)  # closing the descriptor drops the lock
            self._claim = None

    @contextlib.contextmanager
    def claimed(self):
        """claim() for the length of a with block."""
        self.claim()
        try:
            yield self
        finally:
            self.release()

    def exists(self):
        return os.path.exists(self.manifest_path)

    def create(self, manifest):
        if self.exists():
            raise CheckpointError(f"{self.path} already holds a run; add --resume to continue it")
        try:
            os.makedirs(self.path, exist_ok=True)
            write_checked_json(self.manifest_path, dict(manifest, format_version=FORMAT_VERSION))
        except OSError as e:
            raise CheckpointError(f"cannot create the run directory {self.path}: {e.strerror}") from None

    def open(self, expected):
        """Checks the stored manifest against the options that decide the result."""
        if not self.exists():
            raise CheckpointError(f"{self.path}: no run to resume (manifest.json missing)")
        stored = read_checked_json(self.manifest_path)
        if stored.get("format_version") != FORMAT_VERSION:
            raise CheckpointError(f"{self.manifest_path}: format version {stored.get('format_version')}, "
                                  f"this solver reads {FORMAT_VERSION}")
        for key, value in expected.items():
            if stored.get(key) != value:
                raise CheckpointError(f"{self.path} was started with {key}={stored.get(key)!r}, "
                                      f"not {value!r}; resume with the run's own options")
        return stored

    def write_result(self, result):
        write_checked_json(self.result_path, result)

    def read_result(self):
        return read_checked_json(self.result_path) if os.path.exists(self.result_path) else None


def claimed(run):
    """`run.claimed()`, or nothing to claim when there is no run directory (None)."""
    return contextlib.nullcontext() if run is None else run.claimed()
