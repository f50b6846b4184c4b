"""`python -m solver serans ...` (in development)."""


def add_parser(games):
    games.add_parser("serans", help="Las Torres de Serans (in development)")
