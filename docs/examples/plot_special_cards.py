"""
How do the special cards change the game?
==========================================

The chart of ``results/special_cards.png``, redrawn from its committed CSV,
and the same question rerun at a small seeded size for the special cards of
your choice.
"""

# %%
# The committed chart
# -------------------
# ``wizsim.plotting.chart`` reads ``results/special_cards.csv`` and draws it
# exactly as ``wizsim report`` did: each deck's hit rate, miss size and points
# per round minus the standard deck's, pooled over a full game's rounds.
import wizsim
import wizsim.plotting as wp
from wizsim.plotting.special_cards import draw

fig = wp.chart("special_cards")

# %%
# Where the numbers come from
# ---------------------------
# The command that wrote the files, its seed, its sample and its headline
# (``results/sections.json``).
wp.provenance("special_cards", show=True)

# %%
# Rerun it: other special cards, a small sample
# ---------------------------------------------
# ``learned`` self-play with the standard deck and each deck of ``DECKS``
# (label -> the ``specials`` argument of ``wizsim.simulate_result``: any of
# ``dragon``, ``fairy``, ``bomb``, ``werewolf``, ``juggler``, ``cloud``,
# ``shapeshifter``, comma-separated, or ``all``; ``learned`` was fitted on
# Dragon + Fairy, each single card and all seven), at ``PLAYERS`` players.
# The analysis's ``tabulate`` turns the results into its table: the
# differences from the standard deck, with independent-sample 95% intervals.
analysis = wp.analysis("special_cards")

DECKS = {"standard": None, "Dragon+Fairy": "dragon,fairy", "Cloud": "cloud", "Bomb": "bomb"}
PLAYERS = 5
GAMES = wp.example_size(small=4_000, tiny=40)  # full games per deck
SEED = 1

results = {
    (PLAYERS, deck): wizsim.simulate_result(PLAYERS, games=GAMES, seed=SEED, strategy="learned", specials=specials)
    for deck, specials in DECKS.items()
}
table = analysis.tabulate(results)
pooled = table[(table.cards == "game") & (table.metric == "hit_rate")]
print(pooled[["deck", "specials", "rounds", "estimate", "diff", "diff_lo", "diff_hi"]])

fig = draw(table, players=PLAYERS)
