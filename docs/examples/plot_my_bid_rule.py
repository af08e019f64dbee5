"""
My own bid rule against the built-ins
=====================================

A rule of thumb for bidding, written as a small Python function, ranked
against the ``heuristic`` and ``learned`` players in a duplicate tournament:
every deal is played once under every seating, so luck of the cards cancels.
"""

# %%
# The rule
# --------
# A bid rule is a plain function whose parameters are feature names (list
# them with ``wizsim features``); it returns the bid. It may live in the
# script: ``wizsim.bid_rule`` compiles it with Numba (a rule in a file is
# ``"rule(path/to/file.py:my_rule)"``). Edit the weights, or read other
# features such as ``side_kings`` or ``estimate``. ``play`` names the
# built-in player that plays the cards.
import wizsim
import wizsim.plotting as wp
from wizsim.tools.tournament import tournament


def my_rule(wizards, trumps_above_10, side_aces, trumps, cards, last, bids_before):
    """One per Wizard, high trump and off-suit ace, a third of a trick per other trump;
    the dealer leaves the sum of the bids off the number of tricks."""
    bid = int(wizards + trumps_above_10 + side_aces + (trumps - trumps_above_10) / 3 + 0.5)
    if last == 1 and bids_before + bid == cards:
        bid = bid + 1 if bid < cards else bid - 1
    return min(max(bid, 0), cards)


rule = wizsim.bid_rule(my_rule, play="learned")

# %%
# The tournament
# --------------
# Three strategies at a 4-player table (one of them sits twice), rounds of
# ``CARDS`` cards. Give ``games=`` instead of ``cards=``/``deals=`` for full
# games, or more ``DEALS`` for narrower intervals.
PLAYERS, CARDS, SEED = 4, 7, 1
DEALS = wp.example_size(small=4_000, tiny=40)  # deals, each played under every seating

result = tournament(PLAYERS, [rule, "heuristic", "learned"], cards=CARDS, deals=DEALS, seed=SEED)
table = result.table()
cols = ["points_per_round", "points_per_round_lo", "points_per_round_hi", "hit_rate", "hit_rate_lo", "hit_rate_hi"]
print(table[["strategy", "seat_rounds", *cols]].round(3).to_string(index=False))

# %%
# Points per round, with 95% intervals
# ------------------------------------
# Each bar's interval is for that strategy alone; the paired differences of
# ``result.pairwise()`` share the deals, so their intervals are narrower.
pairs = result.pairwise()
diff = ["points_per_round_diff", "points_per_round_diff_lo", "points_per_round_diff_hi"]
print(pairs[["strategy_a", "strategy_b", *diff]].round(3).to_string(index=False))
fig, ax = wp.figure(figsize=(7.0, 4.0))
est = table["points_per_round"]
err = [est - table["points_per_round_lo"], table["points_per_round_hi"] - est]
ax.bar(table["strategy"], est, yerr=err, capsize=6, color=wp.COLORS[: len(table)])
ax.axhline(0, color="black", linewidth=0.8)
ax.set_ylabel("points per round")
ax.set_title(f"Duplicate tournament, {PLAYERS} players, {CARDS} cards, {DEALS:,} deals")
