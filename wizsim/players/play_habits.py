"""Common card-play habits, written as wizsim play rules (:mod:`wizsim.players.play_rules`).

Each habit is a change to a strong player's card play: where the habit
applies it chooses the card, everywhere else it plays the ``fallback``
player's card (the feature ``fallback``: the seat's built-in player chose
first). Where a habit forbids a card the fallback chose, it plays the
heuristic's card instead if that is allowed, else the allowed card the habit
names. ``analyses/play_habits.py`` measures them over ``learned``;
``--strategy "play(wizsim.players.play_habits:NAME)"`` plays one.

Sources, by key (the wording is the issue's, which quotes them):

* ``oh-hell-guides``: the Oh Hell and Wizard strategy guides the issue cites
  ("duck once you have made your bid"; "lead your high trump when you need
  every trick"; "keep the boss trump for the last trick");
* ``trickster``: the TricksterBots issue tracker (a production Oh Hell bot),
  whose users report the bot trumping in and then having to lead the last
  trick;
* ``wizard-folk``: advice specific to Wizard's Jesters and Wizards ("dump
  your Jesters early", "keep a Jester for the end", "lead a Wizard only when
  you need the trick now").

Our readings, where the wording leaves it open, are in each docstring.
"""

from __future__ import annotations

import math

ABSTAIN = -math.inf  # wizsim.ABSTAIN (not imported: a rule's globals are frozen by Numba as constants)


def duck_when_made(fallback, made, wins, power):
    """oh-hell-guides: "when you have made your bid, duck: play your highest card that cannot win".

    Our reading: with the bid made, the highest-power card that does not take the trick as it stands; when
    every card would take it (leading, or nothing lower), the lowest-power card.
    """
    if made:
        return power if wins == 0 else -1000 - power
    return fallback


def lead_high_trump_when_all_needed(fallback, leading, need, tricks_left, is_trump, rank):
    """oh-hell-guides: "lead your high trump when you need every remaining trick".

    Our reading: on lead, needing every trick left (at least one), lead the highest trump held.
    """
    if leading and need == tricks_left and need > 0 and is_trump:
        return 100 + rank
    return fallback


def keep_boss_trump_for_last(fallback, heuristic, is_trump, highest_in_suit, boss, tricks_left, legal_cards):
    """oh-hell-guides: "keep the boss trump for the last trick".

    Our reading: before the last trick, do not play a trump that is your highest and that no unseen card can
    beat here (``boss``); play the fallback's card unless it is that trump, then the heuristic's, else the
    lowest code of the others.
    """
    keep = is_trump and highest_in_suit and boss and tricks_left > 1 and legal_cards > 1
    if keep:
        return -10
    return 2 * fallback + heuristic


def no_trump_in_before_last(fallback, heuristic, is_trump, follows, wins, tricks_left, position):
    """trickster: "do not trump in when it forces you to lead the last trick".

    Our reading: in the second-to-last trick, when not leading, do not win the trick with a trump while off
    the led suit (winning it means leading the last trick); otherwise the fallback's card.
    """
    if tricks_left == 2 and position > 0 and is_trump and follows == 0 and wins:
        return -10
    return 2 * fallback + heuristic


def dump_jesters_early(fallback, jester, trick, cards):
    """wizard-folk: "dump your Jesters early".

    Our reading: in the first half of the round, play a Jester whenever one is legal.
    """
    if jester and 2 * trick < cards:
        return 10
    return fallback


def keep_a_jester_for_the_end(fallback, heuristic, jester, tricks_left, legal_cards):
    """wizard-folk: "keep a Jester for the end".

    Our reading: before the last trick, do not play a Jester (one kept is a sure way to lose the last trick)
    when another card is legal; the fallback's card unless it is a Jester, then the heuristic's, else the
    lowest code of the others.
    """
    if jester and tricks_left > 1 and legal_cards > 1:
        return -10
    return 2 * fallback + heuristic


def wizard_lead_only_when_needed(fallback, heuristic, leading, wizard, need, tricks_left):
    """wizard-folk: "lead a Wizard only when you need the trick now".

    Our reading: on lead, do not lead a Wizard unless you need every trick left; the fallback's card unless
    it is the Wizard, then the heuristic's, else the lowest code of the others.
    """
    if leading and wizard and need < tricks_left:
        return -10
    return 2 * fallback + heuristic


#: name -> (function, source, wording)
HABITS = {
    "duck_when_made": (duck_when_made, "oh-hell-guides",
                       "when you have made your bid, duck: play your highest card that cannot win"),
    "lead_high_trump_when_all_needed": (lead_high_trump_when_all_needed, "oh-hell-guides",
                                        "lead your high trump when you need every remaining trick"),
    "keep_boss_trump_for_last": (keep_boss_trump_for_last, "oh-hell-guides", "keep the boss trump for the last trick"),
    "no_trump_in_before_last": (no_trump_in_before_last, "trickster",
                                "do not trump in when it forces you to lead the last trick"),
    "dump_jesters_early": (dump_jesters_early, "wizard-folk", "dump your Jesters early"),
    "keep_a_jester_for_the_end": (keep_a_jester_for_the_end, "wizard-folk", "keep a Jester for the end"),
    "wizard_lead_only_when_needed": (wizard_lead_only_when_needed, "wizard-folk",
                                     "lead a Wizard only when you need the trick now"),
}  # fmt: skip


def linear_play_example(wins, power, need, tricks_left, rank):
    """A simple linear rule (the bench case): raise power while tricks are needed, lower it once made."""
    sign = 1 if need > 0 else -1
    return sign * (power + 2 * wins) + 0.01 * rank * (tricks_left > 1)
