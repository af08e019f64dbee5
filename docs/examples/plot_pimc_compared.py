"""
How much better is pimc than each other built-in player, on the same deals?
===========================================================================

The chart of ``results/pimc_compared.png`` (the pairs of
``players_compared`` with the slow ``pimc`` player), redrawn from its
committed CSVs, and the same duplicate matches rerun at a tiny seeded size
for the pimc setting and the opponents of your choice.
"""

# %%
# The committed chart
# -------------------
# ``wizsim.plotting.chart`` reads ``results/pimc_compared.csv`` and
# ``results/pimc_compared_strategies.csv`` and draws them exactly as
# ``wizsim report --full`` did (with the drawing of ``players_compared``).
import wizsim.plotting as wp
from wizsim.plotting.pimc_compared import draw

fig = wp.chart("pimc_compared")

# %%
# Where the numbers come from
# ---------------------------
# The command that wrote the files, its seed, its sample and its headline
# (``results/sections.json``).
wp.provenance("pimc_compared", show=True)

# %%
# Rerun it: another pimc, other opponents, a tiny sample
# ------------------------------------------------------
# ``players_compared``'s own ``tables`` plays each pair in duplicate (6
# seatings of two players at 4 seats, the same deals for every pair). The
# default pimc plays about 50 rounds a second on one core, so the sample is
# tiny and its intervals wide. Change ``PIMC`` to another setting, e.g.
# ``"pimc(samples=8,bid_samples=8)"`` (faster, weaker) or
# ``"pimc(rollout=0)"`` (rollouts by the heuristic), ``OPPONENTS`` to other
# players, or ``DEALS`` and ``GAMES`` to a larger sample.
analysis = wp.analysis("players_compared")

PIMC = "pimc"  # the default: 32 sampled deals per card play and per bid
OPPONENTS = ["heuristic", "learned"]
DEALS = wp.example_size(small=60, tiny=4)  # duplicate deals of 4x10 per pair
GAMES = wp.example_size(small=2, tiny=0)  # full 4-player games per pair (0: none)
SEED = 1

# pimc minus each opponent, except learned (the stronger one) minus pimc, as in the committed chart
pairs_run = [(o, PIMC) if o == "learned" else (PIMC, o) for o in OPPONENTS]
pairs, strats = analysis.tables(pairs_run, {"4x10": DEALS, "games": GAMES}, SEED)
columns = ["format", "strategy_a", "strategy_b", "deals", "points_per_round_diff", "points_per_round_diff_lo",
           "points_per_round_diff_hi"]  # fmt: skip
print(pairs[columns].to_string())

fig = draw(pairs, strats)
