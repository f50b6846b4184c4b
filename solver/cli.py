"""Command line: `python -m solver GAME COMMAND ...`.

Bad input exits with status 2 and one line on stderr; Ctrl-C or SIGTERM exits with 130.
"""

import argparse
import importlib
import os
import signal
import sys
import time

from .errors import InputError

# Each game is a package solver.GAME whose cli module has add_parser(subparsers).
GAMES = ("sanjego", "gent", "serans", "life")


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit status 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


class UsageError(InputError):
    """Bad input found after parsing; reported like an argparse error."""


def table_mb_arg(text):
    """argparse type: a table size in MB that fits in this machine's memory."""
    try:
        mb = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"table size must be a number of megabytes, got {text!r}")
    pages, page_size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
    limit = pages * page_size / (1 << 20) * 0.9
    if not 0 < mb <= limit:
        raise argparse.ArgumentTypeError(f"table size must be between 0 and {limit:.0f} MB, got {text}")
    return mb


def seed_arg(text):
    """argparse type: a 64-bit hash seed."""
    try:
        n = int(text, 0)
    except ValueError:
        n = -1
    if not 0 <= n < 1 << 64:
        raise argparse.ArgumentTypeError(f"a seed is an integer from 0 to 2^64 - 1, got {text!r}")
    return n


def positive_int_arg(text):
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return n


def nonnegative_int_arg(text):
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or a positive integer, got {text!r}")
    return n


def _name_given(text, kind):
    if not text.strip():
        raise argparse.ArgumentTypeError(f"expected a {kind} name, got an empty one")


def _writable_place(text, path):
    ancestor = os.path.dirname(path)
    while ancestor and not os.path.exists(ancestor):
        ancestor = os.path.dirname(ancestor)
    if not os.path.isdir(ancestor) or not os.access(ancestor, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(f"cannot write {text}: {ancestor} is not a writable directory")


def output_file_arg(text):
    """argparse type: a file that can be written (checked before any long computation)."""
    _name_given(text, "file")
    path = os.path.abspath(text)
    if os.path.isdir(path):
        raise argparse.ArgumentTypeError(f"{text} is a directory; give a file name")
    _writable_place(text, path)
    return text


def output_dir_arg(text):
    """argparse type: a directory that exists or can be made (checked before any long computation)."""
    _name_given(text, "directory")
    path = os.path.abspath(text)
    if os.path.exists(path) and not os.path.isdir(path):
        raise argparse.ArgumentTypeError(f"{text} exists and is not a directory")
    _writable_place(text, path)
    return text


def input_dir_arg(text):
    """argparse type: an existing directory."""
    _name_given(text, "directory")
    if not os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text} is not a directory" if os.path.exists(text)
                                         else f"{text} does not exist")
    return text


def input_file_arg(text):
    """argparse type: a file name (not empty; whether it can be read is checked on reading)."""
    _name_given(text, "file")
    return text


class Progress:
    """Progress of long work on stderr, off with --quiet. On a terminal a tqdm bar; anywhere
    else (a batch job writing a log) a timestamped line when the work starts and then at most
    once every `every` seconds: "[17:41:20] San Jego 8x4: 3 of 40 sub-proofs, <note>"."""

    def __init__(self, quiet, label, unit, unit_scale=False, every=60.0):
        self.bar = None
        self.log = not quiet and not sys.stderr.isatty()
        self.label, self.unit, self.every = label, unit, every
        self.last = -float("inf")
        if not quiet and sys.stderr.isatty():
            from tqdm import tqdm
            self.bar = tqdm(unit=unit, unit_scale=unit_scale, file=sys.stderr, leave=False, desc=label)

    def show(self, done, total=None, note=""):
        """`done` of `total` units (counts only grow), with a note."""
        if self.bar is not None:
            if total is not None:
                self.bar.total = total
            if note:
                self.bar.set_postfix_str(note, refresh=False)
            self.bar.update(done - self.bar.n)
            self.bar.refresh()
        elif self.log:
            now = time.monotonic()
            if now - self.last < self.every:
                return
            self.last = now
            count = f"{done:,}" + (f" of {total:,}" if total is not None else "") + f" {self.unit}s"
            try:
                print(f"[{time.strftime('%H:%M:%S')}] {self.label}: {count}" + (f", {note}" if note else ""),
                      file=sys.stderr, flush=True)
            except (OSError, ValueError):  # the log went away (a closed pipe or file, a full disk): work on
                self.log = False

    def note(self, text):
        """One line of news beside the progress (not with --quiet)."""
        if self.bar is not None:
            self.bar.write(f"{self.label}: {text}", file=sys.stderr)
        elif self.log:
            try:
                print(f"[{time.strftime('%H:%M:%S')}] {self.label}: {text}", file=sys.stderr, flush=True)
            except (OSError, ValueError):
                self.log = False

    def describe(self, label):
        self.label = label
        if self.bar is not None:
            self.bar.set_description_str(label)

    def close(self):
        if self.bar is not None:
            self.bar.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class NodeProgress(Progress):
    """Progress counted in searched nodes. `engine` is any object with `nodes` and
    `set_progress(callback)`."""

    def __init__(self, engine, quiet, label, every=60.0):
        super().__init__(quiet, label, "node", unit_scale=True, every=every)
        self.engine, self.base, self.start = engine, engine.nodes, time.monotonic()
        if self.bar is not None or self.log:
            engine.set_progress(self.update)

    def update(self, nodes):
        nodes -= self.base
        seconds = time.monotonic() - self.start
        self.show(nodes, note=f"{nodes / seconds / 1e6:.2f} M nodes/s" if self.log and seconds else "")

    def close(self):
        if self.bar is not None or self.log:
            self.engine.set_progress(None)
        super().close()


def build_parser():
    parser = ArgumentParser(prog="python -m solver", description=__doc__.splitlines()[0].rstrip("."))
    games = parser.add_subparsers(dest="game", metavar="GAME", parser_class=ArgumentParser)
    games.required = True
    for game in GAMES:
        importlib.import_module(f".{game}.cli", __package__).add_parser(games)
    return parser


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def main(argv=None):
    # A batch system stops jobs with SIGTERM: treat it like Ctrl-C, so runs journal their
    # state and worker processes are ended.
    signal.signal(signal.SIGTERM, _interrupt)
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.handler(args) or 0
    except InputError as e:
        print(f"{parser.prog} {args.game}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{parser.prog}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as e:
        if e.filename is None:  # not about a path (a full disk, say): not the user's input
            raise
        # A path from the command line that cannot be used: a folder where a file belongs, a
        # missing parent, a file where a folder belongs.
        print(f"{parser.prog} {args.game}: error: {e.filename}: {e.strerror}", file=sys.stderr)
        return 2
