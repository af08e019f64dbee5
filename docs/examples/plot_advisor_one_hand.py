"""
The advisor on one hand
=======================

What should you bid with this hand? The advisor deals the unseen cards at
random many times, plays every deal out, and reports how many tricks the hand
takes and the expected score of every bid; the play advisor then ranks the
cards you may play to the first trick.
"""

# %%
# The bid advice
# --------------
# A 5-card hand at a 4-player table, second to bid after a bid of 1, trump
# blue (the indicator ``B5``). Change ``HAND`` (``W`` Wizard, ``J`` Jester,
# ``B13`` the blue 13), ``INDICATOR``, ``POSITION`` (1 leads, 4 deals) with
# the earlier ``BIDS``, or ``strategy=``, who plays every seat.
import numpy as np

import wizsim.plotting as wp
from wizsim.tools.advise import BidOptions, advise
from wizsim.tools.advise_play import PlayOptions, advise_play

PLAYERS, POSITION, HAND, INDICATOR, BIDS = 4, 2, "W,B12,B7,R13,G4", "B5", [1]
SAMPLES = wp.example_size(small=20_000, tiny=400)  # accepted deals

advice = advise(PLAYERS, POSITION, HAND, indicator=INDICATOR, bids=BIDS, strategy="learned",
                options=BidOptions(samples=SAMPLES, seed=1))  # fmt: skip
print(advice.format())

# %%
# Tricks and expected score, with 95% intervals
# ---------------------------------------------
# ``to_dict()`` is the JSON that ``wizsim advise --json`` prints.
d = advice.to_dict()
bids = np.arange(d["cards"] + 1)
p = np.array(d["p_tricks"])
p_ci = np.array(d["p_tricks_ci"])
score = np.array([d["expected_score"][str(b)] for b in bids], dtype=float)
score_ci = np.array([d["expected_score_ci"][str(b)] for b in bids], dtype=float)

fig, (left, right) = wp.figure(1, 2, figsize=(10.0, 4.0))
left.bar(bids, p, yerr=[p - p_ci[:, 0], p_ci[:, 1] - p], capsize=4, color=wp.COLORS[0])
left.set(xlabel="tricks taken", ylabel="probability", title="P(tricks)")
colors = [wp.COLORS[1] if b == d["best_bid"] else wp.COLORS[5] for b in bids]
right.bar(bids, score, yerr=[score - score_ci[:, 0], score_ci[:, 1] - score], capsize=4, color=colors)
right.axhline(0, color="black", linewidth=0.8)
right.set(xlabel="bid", ylabel="expected score", title=f"Expected score per bid (best: {d['best_bid']})")
fig.suptitle(f"{HAND}, indicator {INDICATOR}, {PLAYERS} players, position {POSITION}, {d['samples']:,} deals")

# %%
# The card to play
# ----------------
# The first trick: the leader opened with ``Y10`` and the others bid 1, 1
# and 0; this hand bid the advised bid. Each legal card is played out on the
# same sampled deals. Change ``trick=`` (the cards already in this trick, from
# its leader) or add ``tricks=`` (the finished tricks).
bids_by_position = [BIDS[0], advice.best_bid, 1, 0]
play = advise_play(PLAYERS, POSITION, HAND, bids=bids_by_position, trick=["Y10"], indicator=INDICATOR,
                   options=PlayOptions(samples=wp.example_size(small=1_000, tiny=40), seed=1))  # fmt: skip
print(play.text())
