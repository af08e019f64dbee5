"""
How often do the built-in players make their bid, by round size?
================================================================

The chart of ``results/strategies_by_round_size.png``, redrawn from its
committed CSV, and the same question rerun at a small seeded size for a
player of your choice.
"""

# %%
# The committed chart
# -------------------
# ``wizsim.plotting.chart`` reads ``results/strategies_by_round_size.csv``
# and draws it exactly as ``wizsim report`` did.
import pandas as pd

import wizsim
import wizsim.plotting as wp
from wizsim.plotting.strategies_by_round_size import draw

fig = wp.chart("strategies_by_round_size")

# %%
# Where the numbers come from
# ---------------------------
# The command that wrote the files, its seed, its sample and its headline
# (``results/sections.json``).
wp.provenance("strategies_by_round_size", show=True)

# %%
# Rerun it: another player, a small sample
# ----------------------------------------
# Self-play of each player on the same deals (same seed): change
# ``PLAYERS`` to any strategy (``"pimc"``, ``"rule(my_rule.py:bid)"``,
# ``"heuristic(pass=random)"``) or ``GAMES`` to a larger sample.
PLAYERS = ["heuristic", "learned"]
GAMES = wp.example_size(small=500, tiny=4)  # full 4-player games per player
SEED = 1

table = pd.concat(
    [wizsim.simulate_result(4, games=GAMES, seed=SEED, strategy=player).table(by_position=False) for player in PLAYERS],
    ignore_index=True,
)
print(table[["strategy", "cards", "hit_rate", "hit_rate_lo", "hit_rate_hi", "mean_score"]].head(15))
fig = draw(table, games=GAMES)
