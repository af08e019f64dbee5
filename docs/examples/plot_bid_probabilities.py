"""
Given my hand, how many tricks will I take, and what should I bid?
==================================================================

The chart of ``results/bid_probabilities.png``, redrawn from its committed
CSVs, and the same question rerun at a small seeded size for another
player count and round size.
"""

# %%
# The committed chart
# -------------------
# ``wizsim.plotting.chart`` reads ``results/bid_probabilities_optimal.csv``
# and ``results/one_card_breakeven.csv`` and draws them exactly as
# ``wizsim report`` did: a) mean tricks and the best bid by Wizards and
# trumps held (4 players, 5 cards), b) P(win) of a one-card hand.
import wizsim.plotting as wp
from wizsim.plotting.bid_probabilities import draw
from wizsim.tools.exact import one_card_counts

fig = wp.chart("bid_probabilities")

# %%
# Where the numbers come from
# ---------------------------
# The command that wrote the files, its seed, its sample and its headline
# (``results/sections.json``).
wp.provenance("bid_probabilities", show=True)

# %%
# Rerun it: another player count, a small sample
# ----------------------------------------------
# The analysis's own functions (``wp.analysis``): hand features of
# ``ROUNDS`` rounds of ``PLAYERS`` players with ``CARDS`` cards each, and
# ``ONE_CARD`` one-card rounds beside the exact one-card odds (enough that
# every one-card cell is dealt: the rarest hold about 1/900 of the hands).
# Change ``PLAYERS`` (3-6), ``CARDS`` (1 to 60 / players) or ``PLAYER``
# (any strategy, e.g. ``"heuristic"``).
B = wp.analysis("bid_probabilities")
PLAYERS, CARDS, PLAYER = 5, 4, "learned"
ROUNDS = wp.example_size(small=65_536, tiny=2_000)
ONE_CARD = wp.example_size(small=131_072, tiny=16_384)
SEED = 1

exact = {PLAYERS: one_card_counts(PLAYERS, dealer_rule=B.dealer_rule(PLAYER))}
tasks = B.feature_tasks(PLAYERS, CARDS, ROUNDS, SEED, PLAYER) + B.one_card_tasks(
    PLAYERS, ONE_CARD, SEED, B.one_card_bids(exact[PLAYERS]), PLAYER
)
acc, sim = B.collect_tasks(tasks)
probs, bids, dropped = B.feature_tables(acc, PLAYER)
one = B.one_card_table(exact, sim, rule=B.dealer_rule(PLAYER))
cols = ["wizards", "trumps", "hands", "mean_tricks", "best_bid", "best_exp_score", "second_bid"]
print(bids[bids.aces == "any"][cols].to_string(index=False))
fig = draw(bids, one, players=PLAYERS, cards=CARDS)
