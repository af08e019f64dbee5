"""
How good are the popular bidding rules of thumb?
================================================

The chart of ``results/rules_of_thumb.png``, redrawn from its committed CSVs,
and the same question rerun at a small seeded size for the bidders of your
choice.
"""

# %%
# The committed chart
# -------------------
# ``wizsim.plotting.chart`` reads ``results/rules_of_thumb.csv`` and
# ``results/rules_of_thumb_cells.csv`` and draws them exactly as
# ``wizsim report`` did: every bidder plays ``learned``'s cards against three
# ``learned`` players on the same deals, so only the bid differs.
import wizsim.plotting as wp
from wizsim.plotting.rules_of_thumb import draw

fig = wp.chart("rules_of_thumb")

# %%
# Where the numbers come from
# ---------------------------
# The command that wrote the files, its seed, its sample and its headline
# (``results/sections.json``).
wp.provenance("rules_of_thumb", show=True)

# %%
# Rerun it: other bidders, a small sample
# ---------------------------------------
# The analysis's own functions (``analyses/rules_of_thumb.py``): ``bidders()``
# names every rule (the published ones of
# ``wizsim.players.rules_of_thumb.PUBLISHED``, the built-in bids and
# ``learned``), ``formats()`` the duplicate 4x10 deals and full games, and
# ``tables()`` plays them on the same deals. Change ``BIDDERS`` to any of
# ``bidders()``, or ``DEALS`` and ``GAMES`` to a larger sample.
analysis = wp.analysis("rules_of_thumb")
everyone = analysis.bidders()  # name -> (strategy, source, wording)
print(", ".join(everyone))

BIDDERS = ["sure_winners", "lean_low", "trickster_bot", "heuristic (built-in bid)", "learned (built-in bid)"]
DEALS = wp.example_size(small=40_000, tiny=200)  # duplicate deals of 4 players x 10 cards
GAMES = wp.example_size(small=1_000, tiny=4)  # full 4-player games
SEED = 1

bids = {name: everyone[name] for name in BIDDERS}
table, cells = analysis.tables(bids, analysis.formats(DEALS, GAMES, players=(4,)), SEED)
print(table[["format", "bidder", "loss", "loss_lo", "loss_hi", "hit_rate"]])

fig = draw(table, cells)
