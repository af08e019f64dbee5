"""
What is each card worth?
========================

The chart of ``results/card_values.png``, redrawn from its committed CSV,
and the same question rerun at a small seeded size for another player: a
card's value is the tricks it brings *given the players' strategy*.
"""

# %%
# The committed chart
# -------------------
# ``wizsim.plotting.chart`` reads ``results/card_values.csv`` and draws it
# exactly as ``wizsim report`` did: the tricks a dealt card contributes
# (regression on the dealt hand), over all round sizes and over the small
# and the large half, for every player count.
import pandas as pd

import wizsim.plotting as wp
from wizsim.plotting.card_values import draw

fig = wp.chart("card_values")

# %%
# Where the numbers come from
# ---------------------------
# The command that wrote the files, its seed, its sample and its headline
# (``results/sections.json``; the analysis is ``expected_tricks``).
wp.provenance("expected_tricks", show=True)

# %%
# Rerun it: another player, a small sample
# ----------------------------------------
# The analysis's own ``measure``: ``GAMES`` full games of ``PLAYER``
# self-play per player count and deck. With the heuristic's card play the
# trump ace came out worth *less* than the trump queen (it plays the ace into
# Wizards played after it): a property of the player, not of the card.
# Change ``PLAYER`` (e.g. ``"learned"``, ``"random"``), ``PLAYERS`` or
# ``GAMES``.
ET = wp.analysis("expected_tricks")
PLAYER = "heuristic"
PLAYERS = (3, 4, 5, 6)
GAMES = wp.example_size(small=2_048, tiny=32)  # full games per player count and deck
SEED = 1

values = pd.concat(
    [ET.measure(n, deck, GAMES, SEED, strategy=PLAYER)[1] for deck in ET.DECKS for n in PLAYERS], ignore_index=True
)
top = values[(values.deck == "standard") & (values.round_sizes == "all") & values.card.isin(["trump 12", "trump 13"])]
print(top.pivot(index="players", columns="card", values=["value", "value_lo", "value_hi"]).round(3).to_string())
fig = draw(values, strategy=PLAYER)
