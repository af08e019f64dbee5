"""
One card in hand: bid 1 or bid 0?
=================================

The chart of ``results/one_card_breakeven.png``, redrawn from its committed
CSV, and the same question rerun at a small seeded size for a dealer who
names trump another way after a Wizard is turned up.
"""

# %%
# The committed chart
# -------------------
# ``wizsim.plotting.chart`` reads ``results/one_card_breakeven.csv`` and
# draws it exactly as ``wizsim report`` did: P(take the trick) of every card,
# by what is turned up and by position, exact (lines) and simulated (dots).
import wizsim.plotting as wp
from wizsim.plotting.one_card_breakeven import draw
from wizsim.tools.exact import one_card_counts

fig = wp.chart("one_card_breakeven")

# %%
# Where the numbers come from
# ---------------------------
# The command that wrote the files, its seed, its sample and its headline
# (``results/sections.json``; the analysis is ``bid_probabilities``).
wp.provenance("bid_probabilities", show=True)

# %%
# Rerun it: another dealer, a small sample
# ----------------------------------------
# In a one-card round play is forced: only the dealer's choice of trump after
# a Wizard is turned up depends on the player. ``PLAYER`` names trump at
# random (``trump=random``); the exact odds follow its rule, the simulated
# rounds are its self-play. Change ``PLAYER`` (e.g. ``"learned"``,
# ``"random"``), ``PLAYERS`` (any of 3-6) or ``ROUNDS``.
B = wp.analysis("bid_probabilities")
PLAYER = "heuristic(trump=random)"
PLAYERS = (3, 4, 5, 6)
ROUNDS = wp.example_size(small=131_072, tiny=16_384)  # one-card rounds per player count
SEED = 1

rule = B.dealer_rule(PLAYER)
exact = {n: one_card_counts(n, dealer_rule=rule) for n in PLAYERS}
tasks = [t for n in PLAYERS for t in B.one_card_tasks(n, ROUNDS, SEED, B.one_card_bids(exact[n]), PLAYER)]
_, sim = B.collect_tasks(tasks)
one = B.one_card_table(exact, sim, rule=rule)
print(f"after a Wizard is turned up: {B.DEALER_POLICY[rule]}")
summary = one[(one.indicator == "any") & (one.card_class == "any card")]
print(
    summary[["players", "position", "p_win_exact", "p_win_sim", "p_right_exact", "exp_score_exact"]].to_string(
        index=False
    )
)
fig = draw(one)
