"""
How many tricks does a hand take?
=================================

The chart of ``results/expected_tricks.png``, redrawn from its committed
CSVs, and the same question rerun at a small seeded size for the player
counts and the seat of your choice.
"""

# %%
# The committed chart
# -------------------
# ``wizsim.plotting.chart`` reads ``results/expected_tricks.csv`` and
# ``results/card_values.csv`` and draws them exactly as ``wizsim report``
# did: (a) mean tricks by round size, (b) by seat position, (c) what each
# dealt card is worth, in tricks.
import pandas as pd

import wizsim.plotting as wp
from wizsim.plotting.expected_tricks import draw

fig = wp.chart("expected_tricks")

# %%
# Where the numbers come from
# ---------------------------
# The command that wrote the files, its seed, its sample and its headline
# (``results/sections.json``).
wp.provenance("expected_tricks", show=True)

# %%
# Rerun it: other player counts, a small sample
# ---------------------------------------------
# The analysis's own ``measure``: ``GAMES`` full games of ``PLAYER``
# self-play per player count and deck (standard, all specials), read back
# round by round. Panels (b) and (c) show ``SEATS`` players (one of
# ``PLAYERS``). Change ``PLAYERS`` (any of 3-6), ``SEATS``, or ``PLAYER``
# (e.g. ``"heuristic"``).
ET = wp.analysis("expected_tricks")
PLAYERS, SEATS, PLAYER = (3, 5), 5, "learned"
GAMES = wp.example_size(small=2_048, tiny=32)  # full games per player count and deck
SEED = 1

parts = {(deck, n): ET.measure(n, deck, GAMES, SEED, strategy=PLAYER) for deck in ET.DECKS for n in PLAYERS}
tricks = pd.concat([t for t, _, _ in parts.values()], ignore_index=True)
values = pd.concat([v for _, v, _ in parts.values()], ignore_index=True)
seat = tricks[(tricks.deck == "standard") & (tricks.players == SEATS) & (tricks.measure == "mean_tricks")]
print(seat.pivot(index="cards", columns="position", values="estimate").round(3).to_string())
for n in PLAYERS:
    share, lo, hi, _ = parts[("all specials", n)][2]
    print(f"all specials, {n} players: {100 * share:.1f}% of the tricks bombed (95% CI {100 * lo:.1f}-{100 * hi:.1f})")
fig = draw(tricks, values, games=GAMES, players=SEATS, strategy=PLAYER)
