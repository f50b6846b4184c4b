"""Las Torres de Serans (segalion, 2020): rules engine, search players, exact two-player solver.

rules.py     the options (every open point of the rules page) and the rules engine
notation.py  cells (a1..), line moves (3> b^), turns (3>b^), placements (Y@b2), games
search.py    plain-Python players and solvers: reference minimax, depth-limited max^n /
             paranoid player, cooperative search
engine.py    the exact two-player solver over the C core (solver._serans)
selfplay.py  reproducible self-play statistics
results.py   records in results/serans/ with provenance
cli.py       `python -m solver serans {show,solve,selfplay,play,coop}`
"""
