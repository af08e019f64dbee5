"""
How much stronger is pimc with more sampled deals?
==================================================

The chart of ``results/pimc_tradeoff.png``, redrawn from its committed CSV,
and the same strength curve rerun at a tiny seeded size against an opponent
of your choice.
"""

# %%
# The committed chart
# -------------------
# ``wizsim.plotting.chart`` reads ``results/pimc_tradeoff.csv`` and draws it
# exactly as ``wizsim report --full`` did: pimc with K sampled deals per
# decision (card play and bids), with rollouts by the heuristic
# (``rollout=0``) or by each seat's own strategy (``rollout=4``, the default),
# minus the heuristic in duplicate 4 players x 10 cards.
import wizsim.plotting as wp
from wizsim.plotting.pimc_tradeoff import draw

fig = wp.chart("pimc_tradeoff")

# %%
# Where the numbers come from
# ---------------------------
# The command that wrote the files, its seed, its sample and its headline
# (``results/sections.json``). The cost of each setting, in card plays per
# second, is ``wizsim bench --pimc-curve``.
wp.provenance("pimc_tradeoff", show=True)

# %%
# Rerun it: another opponent, a tiny sample
# -----------------------------------------
# The analysis's own ``tradeoff`` plays every setting in duplicate against
# the opponent (6 seatings of two players at 4 seats), all settings on the
# same deals. pimc is slow (tens of rounds a second at K = 32), so the
# sample is tiny and the intervals wide. Change ``OPPONENT`` to any strategy
# (``"table"``, ``"learned"``), ``SAMPLES`` to other values of K per rollout
# policy (0 or 4), or ``DEALS`` to a larger sample.
analysis = wp.analysis("pimc_tradeoff")

OPPONENT = "learned"
SAMPLES = {0: (4, 8, 16, 32), 4: (4, 8, 16)}  # rollout policy -> the K tried
DEALS = wp.example_size(small=100, tiny=2)  # duplicate deals of 4x10 per setting
SEED = 1

table = analysis.tradeoff(SAMPLES, DEALS, SEED, opponent=OPPONENT)
print(table[["rollout", "samples", "deals", "points_per_round_diff", "points_per_round_diff_lo",
             "points_per_round_diff_hi"]].to_string())  # fmt: skip

fig = draw(table, opponent=OPPONENT)
