"""Published and widely quoted bidding rules of thumb, written as wizsim bid rules (:mod:`wizsim.players.bid_rules`).

Each rule is a plain function over named features; its docstring gives the
source and the wording (paraphrased), and says what is our reading where the
source leaves a number open. Card ranks are Wizard's 1..13 (13 the highest,
the "ace"); ``trumps_above_11`` is the trump 12 and 13 ("king and ace").
``trumps_above_R`` counts ranks strictly above R.
``analyses/rules_of_thumb.py`` ranks them; ``wizsim.players.strategies.bid_rule``
or ``--strategy "rule(wizsim.rules_of_thumb:NAME)"`` plays them.

Sources, by key:

* ``seed-004``: "Wizard Regeln: Stiche ansagen, Zauberer & Narren erklärt",
  section "Tipps für Einsteiger" (a German rules page; ../shared/seeds/004).
* ``wikipedia``: Wikipedia, "Wizard (card game)", section "First Hand
  Probabilities" (mirrored at liquisearch.com/wizard_card_game/first_hand_probabilities).
* ``boostyourplay``: "Wizard: The Ultimate Strategy Guide (16 Pro Tips)",
  boostyourplay.com/wizard-the-ultimate-strategy-guide-16-pro-tips/.
* ``oh-hell-folk``: the Oh Hell habit "bid your aces plus your trumps"
  (quoted in the README of github.com/harsilspatel/oh-hell and in
  winenfood.com's "Advanced Strategy for the Oh Hell Card Game").
* ``pahnation``: "How to Play Oh Hell", pahnation.com/how-to-play-oh-hell/
  (the last bidder adjusts to the total).
* ``trickster``: the bidding code of the Trickster Cards Oh Hell bot
  (github.com/TricksterCards/TricksterBots, OhHellBot.cs, SuggestBid).
* ``issue-16``: the rule quoted as typical of strategy articles in wizsim's issue 16.
"""

from __future__ import annotations


def sure_winners(wizards, trumps_above_10, side_aces, cards):
    """One per Wizard, per trump above 10 and per off-suit ace (issue-16: "a typical article rule")."""
    return min(wizards + trumps_above_10 + side_aces, cards)


def count_sure_tricks(wizards, trumps_above_11, cards):
    """seed-004: count your sure tricks first: every Wizard, and high trumps "like the trump 13".

    Our reading of "high trumps": the trump 12 and 13. Middle cards are "seldom" tricks: not counted.
    """
    return min(wizards + trumps_above_11, cards)


def weak_hand_zero(wizards, jesters, trumps_above_9, side_above_10, cards, heuristic_bid):
    """seed-004: do not underrate the zero: low cards and Jesters make a declared 0 a safe 20 points.

    Our reading: no Wizard, no trump above 9, no side card above 10, and a
    Jester or a round of at most 3 cards: bid 0; otherwise the heuristic's bid.
    """
    if wizards == 0 and trumps_above_9 == 0 and side_above_10 == 0 and (jesters >= 1 or cards <= 3):
        return 0
    return heuristic_bid


def one_card_thresholds(cards, players, no_trump, wizards, jesters, trumps, trumps_above_1, trumps_above_7,
                        trumps_above_8, side_above_1, side_above_7, side_above_8, side_above_9,
                        heuristic_bid):  # fmt: skip
    """wikipedia: in the one-card round bid 1 when the card wins at least 3/7 of the time.

    The source names cards as a standard deck does (2..10, J, Q, K, A), so its
    card L is Wizard's rank L - 1. With the lead: 3 players any trump or an
    off-suit J or better (rank 10+: ``side_above_9``); 4 players the trump 3
    or better (rank 2+: ``trumps_above_1``); 5 players the trump 9 (rank 8+);
    6 players the trump 10 (rank 9+); without trump: any card with 3 players,
    3+ with 4, 9+ with 5, 10+ with 6. A Wizard bids 1, a Jester 0. Check: with
    4 players a trump of rank 2 beats 44 of the 58 unseen cards, and
    (44/58)^3 = 0.437 >= 3/7; rank 1 gives 0.407. The source's thresholds hold
    for the player on lead; this rule uses them at every seat. It says nothing
    of longer rounds: there it bids the heuristic's bid (so in 4 x 10 it is the
    heuristic bidder).
    """
    if cards != 1:
        return heuristic_bid
    if wizards >= 1:
        return 1
    if jesters >= 1:
        return 0
    if no_trump == 1:
        if players <= 3:
            return 1
        if players == 4:
            return 1 if side_above_1 >= 1 else 0
        if players == 5:
            return 1 if side_above_7 >= 1 else 0
        return 1 if side_above_8 >= 1 else 0
    if players <= 3:
        return 1 if trumps >= 1 or side_above_9 >= 1 else 0
    if players == 4:
        return 1 if trumps_above_1 >= 1 else 0
    if players == 5:
        return 1 if trumps_above_7 >= 1 else 0
    return 1 if trumps_above_8 >= 1 else 0


def lean_low(estimate, wizards, cards):
    """boostyourplay: torn between two numbers, take the lower one (shedding a winner is easier than finding one).

    Our reading: the fractional expected tricks (the heuristic's estimate)
    rounded down, never below the Wizards held.
    """
    return min(max(int(estimate), wizards), cards)


def read_the_total(estimate, bids_before, bids_seen, position, players, cards):
    """seed-004: watch the sum of the bids: well above the tricks, the round is contested: bid cautiously;
    below, tricks are given away.

    Our reading: earlier seats' fair share is cards x position / players;
    more than half a trick above it rounds the estimate down, more than half
    a trick below rounds it up, otherwise to the nearest.
    """
    b = int(estimate + 0.5)
    if bids_seen == 1 and position > 0:
        fair = cards * position / players
        if bids_before > fair + 0.5:
            b = int(estimate)
        elif bids_before < fair - 0.5:
            b = int(estimate)
            if estimate > b:
                b += 1
    return min(max(b, 0), cards)


def last_bidder_shading(estimate, last, bids_before, cards):
    """pahnation (and issue-16's "shade your bid toward making the sum miss"): the last bidder knows the total;
    under-bid tables leave spare tricks, over-bid tables fight for every trick.

    Our reading: as last bidder, round the estimate up when the tricks not yet
    bid exceed it by more than half a trick, down when they fall short by
    more than half a trick; everyone else rounds to the nearest.
    """
    b = int(estimate + 0.5)
    if last == 1:
        free = cards - bids_before
        if free > estimate + 0.5:
            b = int(estimate)
            if estimate > b:
                b += 1
        elif free < estimate - 0.5:
            b = int(estimate)
    return min(max(b, 0), cards)


def aces_plus_trumps(wizards, trumps, side_aces, cards):
    """oh-hell-folk: bid your aces plus your trumps (the Wizards added for Wizard: our addition)."""
    return min(wizards + trumps + side_aces, cards)


def trickster_bot(wizards, trumps, trumps_above_10, side_aces, side_kings, side_voids, side_singletons,
                  side_doubletons, longest_side, players, cards):  # fmt: skip
    """trickster: the Oh Hell bot's count: ruffs by short suits, high trumps, aces, protected kings; floored.

    Approximate (suit lengths per card are not features): a void is worth 2
    ruffs and a singleton 1 with 4+ players (3, 2 and a doubleton 1 with 3);
    each ruff spends a low trump (rank 10 or lower) for a trick; the other low
    trumps count 0.25, trumps above 10 count 1; side aces 1 (0.5 when the
    longest side suit has more than half the hand); side kings 0.5; Wizards 1;
    the total floored, never below the Wizards.
    """
    if players == 3:
        ruff_slots = 3 * side_voids + 2 * side_singletons + side_doubletons
    else:
        ruff_slots = 2 * side_voids + side_singletons
    low = trumps - trumps_above_10
    ruffs = min(low, ruff_slots)
    est = ruffs + trumps_above_10 + 0.25 * (low - ruffs) + 0.5 * side_kings + wizards
    est += 0.5 * side_aces if 2 * longest_side > cards else side_aces
    return min(max(int(est), wizards), cards)


def linear_example(wizards, trumps_above_9, side_aces, side_kings, trumps, cards):
    """A simple linear rule (the speed case of ``wizsim bench``; not a published rule)."""
    return min(max(0.9 * wizards + 0.8 * trumps_above_9 + 0.6 * side_aces + 0.2 * side_kings + 0.15 * trumps, 0), cards)


# name -> (function, source key, short wording for tables)
PUBLISHED = {
    "sure_winners": (sure_winners, "issue-16", "1 per Wizard, trump above 10, off-suit ace"),
    "count_sure_tricks": (count_sure_tricks, "seed-004", "Wizards + trump 12 and 13"),
    "weak_hand_zero": (weak_hand_zero, "seed-004", "0 with a weak hand and a Jester, else heuristic"),
    "one_card_thresholds": (one_card_thresholds, "wikipedia", "one-card round by win chance, else heuristic"),
    "lean_low": (lean_low, "boostyourplay", "estimate rounded down"),
    "read_the_total": (read_the_total, "seed-004", "round down if earlier bids are high, up if low"),
    "last_bidder_shading": (last_bidder_shading, "pahnation", "last bidder rounds towards the free tricks"),
    "aces_plus_trumps": (aces_plus_trumps, "oh-hell-folk", "Wizards + all trumps + off-suit aces"),
    "trickster_bot": (trickster_bot, "trickster", "Oh Hell bot's count: ruffs, high cards"),
}


def heuristic_bidder(heuristic_bid):
    """The built-in heuristic's bid, as a rule: to compare bidders under one card play."""
    return heuristic_bid


def table_bidder(table_bid):
    """The built-in table player's bid, as a rule (with table's play it is the ``table`` player exactly)."""
    return table_bid


BUILT_IN = {
    "heuristic": (heuristic_bidder, "wizsim", "the heuristic's estimate, rounded"),
    "table": (table_bidder, "wizsim", "learned mean scores around the heuristic's bid"),
}
