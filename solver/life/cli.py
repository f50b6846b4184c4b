"""`python -m solver life ...` (in development)."""


def add_parser(games):
    games.add_parser("life", help="Buntes Leben (in development)")
