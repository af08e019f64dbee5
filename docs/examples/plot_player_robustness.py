"""
Do the headlines hold under another strong player?
==================================================

The chart of ``results/player_robustness.png``, redrawn from its committed
CSVs, and the same check rerun at a small seeded size with a player of your
choice in place of pimc.
"""

# %%
# The committed chart
# -------------------
# ``wizsim.plotting.chart`` reads ``results/player_robustness.csv`` (every
# headline under ``learned`` and under the default ``pimc`` on the same deals)
# and ``results/player_robustness_ladder.csv`` (each disagreeing headline
# under weaker and stronger players) and draws them exactly as
# ``wizsim report --full`` did.
import wizsim.plotting as wp
from wizsim.plotting.player_robustness import draw

fig = wp.chart("player_robustness")

# %%
# Where the numbers come from
# ---------------------------
# The command that wrote the files, its seed, its sample and its headline
# (``results/sections.json``).
wp.provenance("player_robustness", show=True)

# %%
# Rerun it: another player, a small sample
# ----------------------------------------
# The analysis's own ``tables`` measures every headline under ``learned`` and
# under ``PLAYER`` on the same deals (full 4-player games of every deck and
# variant, and the example hand), and each headline on which they disagree
# again under every player of ``LADDER``. pimc plays a few games a second, so
# here a fast player stands in for it: change ``PLAYER`` to any strategy
# (``"heuristic"``, ``"pimc(samples=8,bid_samples=8)"``), ``LADDER`` to
# other players, or ``GAMES`` and ``HANDS`` to a larger sample. (``table`` is
# much weaker than ``learned``: most headlines move, each with its ladder.)
analysis = wp.analysis("player_robustness")

PLAYER = "table"
LADDER = ("heuristic", "table", "learned")
GAMES = wp.example_size(small=200, tiny=2)  # full 4-player games per configuration and player
HANDS = wp.example_size(small=2_000, tiny=100)  # rounds of 4x5 per player for the example hand
SEED = 1

table, ladder = analysis.tables(("learned", PLAYER), LADDER, {"games": GAMES, "hands": HANDS}, SEED)
print(table[["headline", "unit", "learned", PLAYER, "diff", "diff_lo", "diff_hi", "agree"]].to_string())

fig = draw(table, ladder)
