"""Command line: `python -m solver GAME COMMAND ...`.

Bad input exits with status 2 and one line on stderr; Ctrl-C or SIGTERM exits with 130.
"""

import argparse
import signal
import sys


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit status 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


class UsageError(Exception):
    """Bad input found after parsing; reported like an argparse error."""


def build_parser():
    from .sanjego import cli as sanjego_cli

    parser = ArgumentParser(prog="python -m solver", description=__doc__.splitlines()[0].rstrip("."))
    games = parser.add_subparsers(dest="game", metavar="GAME", parser_class=ArgumentParser)
    games.required = True
    sanjego_cli.add_parser(games)
    return parser


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def main(argv=None):
    from .sanjego.errors import SanJegoError

    # A batch system stops jobs with SIGTERM: treat it like Ctrl-C, so runs journal their
    # state and worker processes are ended.
    signal.signal(signal.SIGTERM, _interrupt)
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.handler(args) or 0
    except (SanJegoError, UsageError) as e:
        print(f"{parser.prog} {args.game}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{parser.prog}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
