"""The one base class of bad input, for every game: the command line turns any
InputError into exit status 2 and one line on stderr."""


class InputError(Exception):
    """The input (a board, a move, a file, an option) is not valid."""
