"""Errors of Buntes Leben; the command line turns each into exit status 2."""

from ..errors import InputError


class LifeError(InputError):
    """Base class for bad input to Buntes Leben."""


class OptionError(LifeError):
    """A rule option outside its allowed values (or options that do not fit together)."""


class NotationError(LifeError):
    """A cell or a list of cells that cannot be read."""


class IllegalSetupError(LifeError):
    """A set-up or placement that the rules do not allow."""
