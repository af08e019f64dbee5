"""
What does each card-play habit cost or gain?
============================================

The chart of ``results/play_habits.png``, redrawn from its committed CSVs,
and the same question rerun at a small seeded size for the habits of your
choice.
"""

# %%
# The committed chart
# -------------------
# ``wizsim.plotting.chart`` reads ``results/play_habits.csv`` and
# ``results/play_habits_situations.csv`` and draws them exactly as
# ``wizsim report`` did: each habit replaces ``learned``'s card only where it
# applies, in seat 0 against three ``learned`` players, on the same deals as
# the plain ``learned`` player.
import wizsim.plotting as wp
from wizsim.players.play_habits import HABITS
from wizsim.plotting.play_habits import draw

fig = wp.chart("play_habits")

# %%
# Where the numbers come from
# ---------------------------
# The command that wrote the files, its seed, its sample and its headline
# (``results/sections.json``).
wp.provenance("play_habits", show=True)

# %%
# Rerun it: other habits, a small sample
# --------------------------------------
# The analysis's own ``tables`` plays each habit and plain ``learned`` on the
# same deals: duplicate 4 players x 10 cards and full games (``formats``).
# Change ``CHOSEN`` to any habits of ``wizsim.players.play_habits.HABITS``
# (each a play rule with its source and wording), ``GAME_PLAYERS`` to more
# player counts, or ``DEALS`` and ``GAMES`` to a larger sample.
analysis = wp.analysis("play_habits")
print(", ".join(HABITS))

CHOSEN = ["duck_when_made", "wizard_lead_only_when_needed"]
DEALS = wp.example_size(small=20_000, tiny=200)  # duplicate deals of 4 players x 10 cards
GAMES = wp.example_size(small=400, tiny=4)  # full games at each player count of GAME_PLAYERS
GAME_PLAYERS = (4,)  # player counts of the full games, any of 3 to 6
SEED = 1

habits = {name: HABITS[name] for name in CHOSEN}
table, situations = analysis.tables(habits, analysis.formats(DEALS, GAMES, GAME_PLAYERS), SEED)
print(table[["format", "habit", "changed_share", "gain", "gain_lo", "gain_hi"]])

fig = draw(table, situations)
