"""An agent of your own at wizsim's table: copy this file and edit ``agent`` (README, "Your own agent").

Rank it against the table player in a duplicate tournament (every deal under every seating)::

    wizsim tournament --players 4 --strategies "py(scripts/my_agent_example.py:agent),table" --cards 10 --deals 2000

The engine calls ``agent(observation, action_mask)`` at every decision of its
seat and plays the action returned: a bid, a card, the suit named after a
Wizard is turned up, the Werewolf's choice, the card passed after a Juggler
trick (the observation and the action blocks: ``wizsim/env/encoding.py``).
This one bids the cards that look sure to win and then plays high while it
still needs tricks, low once it has them.
"""

from __future__ import annotations

import numpy as np

from wizsim.env.encoding import INFO

WIZARD, JESTER = 52, 53  # card codes; suit s, rank r (1..13) is 13 * s + r - 1
BID, CARD, TRUMP, WEREWOLF, PASS = 1, 2, 3, 4, 5  # observation["info"][INFO["decision"]]


def strength(code: int, trump: int) -> float:
    """How sure card ``code`` is to win a trick: a Wizard, then trumps, then high cards (trump: -1 none)."""
    if code == WIZARD:
        return 3.0
    if code >= 52:  # Jesters and the special cards: counted as nothing here
        return 0.0
    suit, rank = divmod(code, 13)
    return (1.5 if suit == trump else 0.0) + rank / 12


def agent(observation: dict, action_mask: np.ndarray) -> int:
    """The action for the decision ``observation`` describes (``action_mask``: 1 for each legal action)."""
    info = observation["info"]
    legal = np.flatnonzero(action_mask)
    kmax = observation["leaders"].shape[0]  # the largest round: the action blocks start from it
    card0 = kmax + 1
    trump = int(info[INFO["trump"]]) - 1  # -1 no trump
    hand = observation["hand"]
    decision = int(info[INFO["decision"]])
    if decision == BID:
        sure = sum(int(hand[c]) for c in range(52 + 1) if strength(c, trump) >= 1.9)
        return int(legal[np.argmin(np.abs(legal - sure))])  # the legal bid nearest to the sure tricks
    if decision == CARD:
        cards = legal - card0
        score = [strength(int(c) if c < 64 else WIZARD if c == 72 else JESTER, trump) for c in cards]
        need = observation["bids"][0] - observation["won"][0]  # seat 0 of the observation is this seat
        return int(legal[np.argmax(score) if need > 0 else np.argmin(score)])
    if decision == TRUMP:  # name the suit held most
        counts = [int(hand[13 * s : 13 * s + 13].sum()) for s in range(4)]
        return int(legal[int(np.argmax(counts))])
    return int(legal[0])  # the Werewolf and the Juggler pass: the first legal action
