"""The most worker processes and games a run takes (a study, an arena, a leaderboard),
from the command line (cli/flags.py) and from Python (bots/runner.py) alike.

A module of its own, importing nothing: the command line reads these before it loads
the runner.  A digit too many was a traceback: --jobs 99999999999 the worker pool's
OverflowError, and from Python jobs=100000 forked every worker at once (a pool under
"fork" starts them all); --games 99999999999 or games=10**12 a MemoryError listing the
games (the arena, the leaderboard) or days of play (the lab).  Both are far beyond any
real run.
"""

MAX_JOBS = 1024
MAX_GAMES = 10_000_000
