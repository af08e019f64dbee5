"""
A variant of my own against the standard game
=============================================

House rules of your choice, played by the ``learned`` player on the same
deals as the standard game: how many points a round is worth, and how often a
bid is made, by round size.
"""

# %%
# The variant
# -----------
# ``VARIANT`` is a list of ``--rule`` options (``wizsim/game/rules.py``):
# here the Canadian rule (the dealer may not make the bids add up to the
# tricks) with a Wizard turned up meaning no trump. Try
# ``"scoring=progressive"``, ``"hidden_bids=simultaneous"``,
# ``"bomb=cancel_bids"`` (with ``specials="bomb"``) or ``"variant=clairvoyance"``.
import pandas as pd

import wizsim
import wizsim.plotting as wp

PLAYERS, PLAYER, SEED = 4, "learned", 1
VARIANT = ["canadian=true", "wizard_indicator=no_trump"]
GAMES = wp.example_size(small=10_000, tiny=64)  # full games per rule set

# %%
# The same deals under both rule sets
# -----------------------------------
# The same seed deals the same cards (common random numbers), so the two
# runs differ by the rules, not by the luck of the deal. Each interval is for
# one run alone (95%: Wilson for the hit rate, normal for the mean).
runs = {"standard": [], "variant": VARIANT}
table = pd.concat(
    [wizsim.simulate_result(PLAYERS, games=GAMES, seed=SEED, strategy=PLAYER, rules=rules).table(by_position=False)
     .assign(rules=name) for name, rules in runs.items()],
    ignore_index=True,
)  # fmt: skip


def with_interval(metric, spec):
    """``estimate [lo, hi]`` as text, one per row of ``table``."""
    rows = zip(table[metric], table[f"{metric}_lo"], table[f"{metric}_hi"], strict=True)
    return [f"{m:{spec}} [{lo:{spec}}, {hi:{spec}}]" for m, lo, hi in rows]


shown = table.assign(points=with_interval("mean_score", ".1f"), hit_rate=with_interval("hit_rate", ".3f"))
print(shown.pivot(index="cards", columns="rules", values=["points", "hit_rate"]).to_string())

# %%
# Points per round and hit rate, by round size
# --------------------------------------------
fig, axes = wp.figure(1, 2, figsize=(11.0, 4.2))
for (name, part), color in zip(table.groupby("rules", sort=False), wp.COLORS, strict=False):
    label = "standard" if name == "standard" else ", ".join(VARIANT)
    for ax, metric in zip(axes, ("mean_score", "hit_rate"), strict=True):
        ax.plot(part["cards"], part[metric], marker="o", markersize=3, color=color, label=label)
        ax.fill_between(part["cards"], part[f"{metric}_lo"], part[f"{metric}_hi"], color=color, alpha=0.25)
axes[0].set(xlabel="cards per player", ylabel="mean points per round", title="Points per round")
axes[1].set(xlabel="cards per player", ylabel="share of bids made", title="Hit rate")
axes[1].legend()
fig.suptitle(f"{PLAYER} self-play, {PLAYERS} players, {GAMES:,} full games per rule set (seed {SEED})")
