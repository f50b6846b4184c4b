"""The rules of Buntes Leben as one options object; every field has a named default.

The rules page (shared/rules/buntes-leben.md) leaves several points open; each is a field here,
and docs/life-rules.md gives the reason for every default. `Options()` is the game as we read
the original text; small versions for exact search change only the size fields.
"""

from dataclasses import asdict, dataclass, fields

from .errors import OptionError

EDGES = ("dead", "torus")
SETUPS = ("sequential", "hidden")
ORDERS = ("coin", "first", "second", "alternate")
BOTH_EXTINCT = ("draw", "first", "second")
LIMIT_SCORES = ("count", "draw")

DEFAULT_WIDTH = 8
DEFAULT_HEIGHT = 8
DEFAULT_QUARTER = 4          # the set-up territories are QUARTER x QUARTER corners
DEFAULT_TOKENS = 5           # tokens per player in the set-up
DEFAULT_EDGE = "dead"        # cells outside the board are empty (no wrap-around)
DEFAULT_SETUP = "sequential" # the second player sees the first player's set-up
DEFAULT_PLACE_FIRST = 2      # the first placement round comes before generation 2 ...
DEFAULT_PLACE_EVERY = 2      # ... and then before every second generation (4, 6, ...)
DEFAULT_EXTRA = 1            # tokens each player may place in one placement round
DEFAULT_PLACE_OPTIONAL = True  # "may place": a player may place fewer, or none
DEFAULT_ORDER = "coin"       # who places first in a placement round: a fair coin each time
DEFAULT_BOTH_EXTINCT = "draw"  # both players' last tokens vanish in the same generation
DEFAULT_GENERATIONS = 40     # the game ends after this many generations at the latest ...
DEFAULT_LIMIT_SCORE = "count"  # ... and then more tokens on the board wins (equal: draw)


@dataclass(frozen=True)
class Options:
    width: int = DEFAULT_WIDTH
    height: int = DEFAULT_HEIGHT
    quarter: int = DEFAULT_QUARTER
    tokens: int = DEFAULT_TOKENS
    edge: str = DEFAULT_EDGE
    setup: str = DEFAULT_SETUP
    place_first: int = DEFAULT_PLACE_FIRST
    place_every: int = DEFAULT_PLACE_EVERY
    extra: int = DEFAULT_EXTRA
    place_optional: bool = DEFAULT_PLACE_OPTIONAL
    order: str = DEFAULT_ORDER
    both_extinct: str = DEFAULT_BOTH_EXTINCT
    generations: int = DEFAULT_GENERATIONS
    limit_score: str = DEFAULT_LIMIT_SCORE

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            want = bool if f.type in (bool, "bool") else (int if f.type in (int, "int") else str)
            if want is int and (isinstance(value, bool) or not isinstance(value, int)):
                raise OptionError(f"{f.name} must be an integer, got {value!r}")
            if want is not int and not isinstance(value, want):
                raise OptionError(f"{f.name} must be a {want.__name__}, got {value!r}")
        if not (3 <= self.width <= 8 and 3 <= self.height <= 8):
            raise OptionError(f"board sides must be between 3 and 8, got {self.width}x{self.height}")
        if not 1 <= self.quarter <= min(self.width, self.height) // 2:
            raise OptionError(f"the set-up corner must be between 1 and {min(self.width, self.height) // 2} "
                              f"cells wide on a {self.width}x{self.height} board, got {self.quarter}")
        if not 1 <= self.tokens <= self.quarter ** 2:
            raise OptionError(f"tokens must be between 1 and {self.quarter ** 2} "
                              f"(the cells of a {self.quarter}x{self.quarter} corner), got {self.tokens}")
        for name, allowed in (("edge", EDGES), ("setup", SETUPS), ("order", ORDERS),
                              ("both_extinct", BOTH_EXTINCT), ("limit_score", LIMIT_SCORES)):
            if getattr(self, name) not in allowed:
                raise OptionError(f"{name.replace('_', '-')} must be one of {', '.join(allowed)}, "
                                  f"got {getattr(self, name)!r}")
        if self.place_first < 1:
            raise OptionError(f"place-first must be a generation number >= 1, got {self.place_first}")
        if self.place_every < 0:
            raise OptionError(f"place-every must be >= 0 (0: no placements), got {self.place_every}")
        if not 1 <= self.extra <= 5:
            raise OptionError(f"extra tokens per placement must be between 1 and 5, got {self.extra}")
        if not 1 <= self.generations <= 4096:
            raise OptionError(f"the generation limit must be between 1 and 4096, got {self.generations}")

    def placement_before(self, gen):
        """Whether a placement round comes before generation `gen` (1, 2, ...)."""
        if self.place_every == 0 or gen < self.place_first:
            return False
        return (gen - self.place_first) % self.place_every == 0

    def placement_index(self, gen):
        """0 for the first placement round, 1 for the second, ..."""
        return (gen - self.place_first) // self.place_every

    def both_extinct_value(self):
        return {"draw": 0, "first": 1, "second": -1}[self.both_extinct]

    def to_dict(self):
        return asdict(self)

    def describe(self):
        """One line: the options that differ from the default game."""
        default = Options()
        diff = [f"{k.replace('_', '-')}={v}" for k, v in asdict(self).items() if getattr(default, k) != v]
        return ", ".join(diff) or "default rules"
