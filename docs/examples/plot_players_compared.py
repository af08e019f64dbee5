"""
How much better is each built-in player than each other, on the same deals?
============================================================================

The chart of ``results/players_compared.png``, redrawn from its committed
CSVs, and the same duplicate matches rerun at a small seeded size for the
players of your choice.
"""

# %%
# The committed chart
# -------------------
# ``wizsim.plotting.chart`` reads ``results/players_compared.csv`` (the pairs)
# and ``results/players_compared_strategies.csv`` (each player in each match)
# and draws them exactly as ``wizsim report`` did.
import itertools

import wizsim.plotting as wp
from wizsim.plotting.players_compared import draw

fig = wp.chart("players_compared")

# %%
# Where the numbers come from
# ---------------------------
# The command that wrote the files, its seed, its sample and its headline
# (``results/sections.json``).
wp.provenance("players_compared", show=True)

# %%
# Rerun it: other players, a small sample
# ---------------------------------------
# The analysis's own ``tables`` plays every pair in duplicate: each deal under
# the 6 seatings of two players at 4 seats, every pair on the same deals, as
# 4 players x 10 cards and as full games. Change ``PLAYERS`` to any
# strategies (weakest first: each pair is reported as the later minus the
# earlier), e.g. ``"heuristic(pass=random)"`` or ``"rule(my_rule.py:bid)"``,
# or ``DEALS`` and ``GAMES`` to a larger sample. (``pimc`` is slow: its pairs
# are ``plot_pimc_compared.py``.)
analysis = wp.analysis("players_compared")

PLAYERS = ["heuristic", "table", "learned"]
DEALS = wp.example_size(small=20_000, tiny=60)  # duplicate deals of 4x10 per pair
GAMES = wp.example_size(small=500, tiny=2)  # full 4-player games per pair
SEED = 1

pairs_run = [(a, b) for b, a in itertools.combinations(PLAYERS, 2)]  # later minus earlier
pairs, strats = analysis.tables(pairs_run, {"4x10": DEALS, "games": GAMES}, SEED)
columns = ["format", "strategy_a", "strategy_b", "deals", "points_per_round_diff", "points_per_round_diff_lo",
           "points_per_round_diff_hi"]  # fmt: skip
print(pairs[columns].to_string())

fig = draw(pairs, strats)
