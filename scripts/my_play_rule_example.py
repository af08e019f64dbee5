"""My own card play as a wizsim player: copy this file, edit ``my_play_rule``, rank it.

A play rule is a plain function. Its parameters are feature names (list them
with ``wizsim features --play``); it returns the score of one legal card (a
Juggler or Cloud once per suit it may name, a Shapeshifter as Wizard and as
Jester), and the seat plays the highest score, ties to the lowest card code.
Returning ``ABSTAIN`` (``-inf``, or ``-math.inf``) for every card leaves the
card to the fallback player, the built-in player that also bids
(``bid=learned`` unless you say otherwise). That is how a habit is tested as a
change to a strong player. wizsim compiles the rule with Numba and calls it
inside the engine.

Rank it against ``learned`` on the same deals (duplicate, every seating)::

    wizsim tournament --players 4 --cards 10 --deals 20000 --seed 1 --jobs 2 \
        --strategies "play(scripts/my_play_rule_example.py:my_play_rule),learned"

or over full games::

    wizsim tournament --players 5 --games 2000 --seed 1 --jobs 2 \
        --strategies "play(scripts/my_play_rule_example.py:my_play_rule),learned"

From Python, run this file: ``python scripts/my_play_rule_example.py``.
"""

from __future__ import annotations

import math

ABSTAIN = -math.inf  # the same value as wizsim.ABSTAIN


def my_play_rule(made, lost, wins, power, boss, need, tricks_left):
    """Once the bid is made, duck: the highest card that does not win (the lowest winner when all win).
    When every remaining trick is needed, take this one with the cheapest sure winner if there is one.
    Everywhere else, leave the card to the fallback player."""
    if lost:
        return ABSTAIN
    if made:
        return -1000 - power if wins else power
    if need == tricks_left:
        if boss:
            return 1000 - power  # the cheapest card no unseen card can beat
        return ABSTAIN
    return ABSTAIN


if __name__ == "__main__":
    from wizsim.players.strategies import play_rule
    from wizsim.tools.tournament import tournament

    result = tournament(4, [play_rule(my_play_rule), "learned"], cards=10, deals=2_000, seed=1, jobs=2)
    print(result.pairwise()[["strategy_a", "strategy_b", "points_per_round_diff", "points_per_round_diff_lo",
                             "points_per_round_diff_hi"]].to_string(index=False))  # fmt: skip
