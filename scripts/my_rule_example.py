"""My own rule of thumb as a wizsim player: copy this file, edit ``my_rule``, rank it.

A bid rule is a plain function. Its parameters are feature names (list them
with ``wizsim features``); it returns the bid, a number that is rounded half
up and must lie in 0 .. cards. wizsim compiles it with Numba and calls it
inside the engine for every bid of the seat; the cards are played by a
built-in player (``table`` unless you say ``play=...``).

Rank it against the ``table`` player on the same deals (duplicate, every seating)::

    wizsim tournament --players 4 --strategies "rule(scripts/my_rule_example.py:my_rule),table" \
        --cards 10 --deals 20000 --seed 1 --jobs 2

or over full games, or with another card play::

    wizsim tournament --players 5 --games 2000 --seed 1 --jobs 2 \
        --strategies "rule(scripts/my_rule_example.py:my_rule,play=learned),learned"

From Python, run this file: ``python scripts/my_rule_example.py``.
"""

from __future__ import annotations


def my_rule(wizards, trumps_above_10, side_aces, trumps, cards, last, bids_before):
    """One per Wizard, high trump and off-suit ace, a third of a trick per other trump;
    the dealer shades towards making the sum of the bids miss the tricks."""
    bid = wizards + trumps_above_10 + side_aces + (trumps - trumps_above_10) / 3
    bid = int(bid + 0.5)
    if last == 1 and bids_before + bid == cards:
        bid = bid + 1 if bid < cards else bid - 1  # leave the table over- or under-bid
    return min(max(bid, 0), cards)


if __name__ == "__main__":
    from wizsim.players.strategies import bid_rule
    from wizsim.tools.tournament import tournament

    result = tournament(4, [bid_rule(my_rule), "table"], cards=10, deals=5_000, seed=1, jobs=2)
    print(result.pairwise()[["strategy_a", "strategy_b", "points_per_round_diff", "points_per_round_diff_lo",
                             "points_per_round_diff_hi"]].to_string(index=False))  # fmt: skip
