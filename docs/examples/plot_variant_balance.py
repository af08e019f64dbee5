"""
How do the rule variants change the game?
=========================================

The chart of ``results/variant_balance.png``, redrawn from its committed
CSVs, and the same question rerun at a small seeded size for another player
count and the rule variants of your choice.
"""

# %%
# The committed chart
# -------------------
# ``wizsim.plotting.chart`` reads ``results/variant_balance.csv`` and
# ``results/variant_seats.csv`` and draws them exactly as ``wizsim report``
# did: ``learned`` self-play per rule variant, and ``learned`` against
# ``random`` at the same table for the skill gap.
import wizsim.plotting as wp
from wizsim.plotting.variant_balance import draw

fig = wp.chart("variant_balance")

# %%
# Where the numbers come from
# ---------------------------
# The command that wrote the files, its seed, its sample and its headline
# (``results/sections.json``).
wp.provenance("variant_balance", show=True)

# %%
# Rerun it: another player count, a small sample
# ----------------------------------------------
# The analysis's own ``tables`` plays every variant in three seatings
# (self-play, and ``learned``/``random`` alternating from seat 0 and from
# seat 1) and computes its intervals from chunks of 256 games. Change
# ``PLAYERS`` (3 to 6), ``VARIANTS`` (label -> ``--rule`` options, e.g.
# ``["variant=maximus"]`` or ``["hidden_bids=secret"]``; keep ``"standard"``:
# the differences are from it) or ``GAMES``.
analysis = wp.analysis("variant_balance")

PLAYERS = 5
VARIANTS = {"standard": [], "canadian": ["canadian=true"], "progressive": ["scoring=progressive"]}
GAMES = wp.example_size(small=4_096, tiny=512)  # full games per variant and seating
SEED = 1

table, seats, played, skipped = analysis.tables({PLAYERS: GAMES}, VARIANTS, SEED)
print(f"skipped: {skipped or 'none'}")
print(table[table.metric.isin(["hit_rate", "skill_gap_points"])][["variant", "metric", "estimate", "lo", "hi"]])

fig = draw(table, seats, players=PLAYERS)
