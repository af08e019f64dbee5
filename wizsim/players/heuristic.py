"""The ``heuristic`` player (registry line ``Player("heuristic", ...)`` in :mod:`wizsim.engine.layout`).

A club player. Bids the rounded sum of per-card trick estimates (Wizards,
trumps by rank, high side cards, discounted for more players and longer
rounds, plus ruffing chances from short side suits), stepping to the
nearer allowed bid under the Canadian rule. Plays to make the bid
exactly: while it needs tricks it wins as cheaply as it can (the cheapest
winning card when last to play, otherwise the cheapest card that no unseen
card of the suit can beat, else a Wizard), and sheds its lowest card when it
cannot win; once it has enough it ducks with its most dangerous losing card,
keeping Jesters for emergencies. Names the suit its hand is strongest in.
Special cards: Dragon, Juggler, Cloud and Shapeshifter add to the bid
estimate; a Juggler or Cloud is played in trump (or the led suit) to win
and in a side suit to lose, a Shapeshifter as Wizard to win and as Jester
to lose; a Fairy takes a Dragon's trick when it can; a trick with a Bomb
counts for nobody, so it is a safe place to shed a dangerous card; after a
Juggler trick it passes its weakest card while it needs tricks and its most
dangerous one once it has enough; it always swaps the Werewolf and names
its strongest suit (no trump if no suit is worth it).

Its parameters (the shared ``heuristic`` block of the row, which every player
but ``random`` reads) are the per-card trick estimates below. Its decisions
in the kernels: :mod:`wizsim.engine.players.heuristic`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine.layout import HEURISTIC_SLOTS, N_PARAMS, S_HEURISTIC, SLOT
from ..engine.players import heuristic as engine
from ..errors import WizsimError
from .base import DECISIONS, Strategy

# Tuned by scripts/tune_heuristic.py (--games 2000 --passes 3, seed 777): self-play
# points per round over 3-6 players rose from 9.92 to 15.73 on a fresh seed (31337).
HEURISTIC_DEFAULTS = {
    "wizard": 0.86,
    "trump_top": 0.9433,
    "trump_slope": 0.055,
    "trump_floor": 0.1,
    "side_ace": 0.525,
    "side_drop": 0.7,
    "player_decay": 0.25,
    "length_decay": -0.025,
    "ruff": 0.05,
    "bid_shift": -0.075,
    "nt_ace": 1.2,
    "side_second": 0.95,
    # special cards (not tuned yet): expected tricks of each when bidding
    "dragon": 0.95,
    "fairy": 0.05,
    "bomb": 0.0,
    "werewolf": 0.0,
    "juggler": 0.35,
    "cloud": 0.45,
    "shapeshifter": 0.75,
}
# every slot of the heuristic's block (special cards by name); a card without a default is worth 0 tricks
_HEURISTIC_SLOTS = {name: SLOT[f"heuristic.{name}"] for name in HEURISTIC_SLOTS}
for _name in _HEURISTIC_SLOTS:
    HEURISTIC_DEFAULTS.setdefault(_name, 0.0)


@dataclass(frozen=True)
class HeuristicStrategy(Strategy):
    """Rule-of-thumb bidding and bid-directed card play (see module docstring)."""

    name: str = "heuristic"
    strategy_id: int = S_HEURISTIC

    def needs(self) -> frozenset[str]:
        return engine.NEEDS

    def _row(self) -> np.ndarray:
        row = np.zeros(N_PARAMS, dtype=np.float64)
        values = dict(HEURISTIC_DEFAULTS)
        for key, value in self.params.items():
            if key in DECISIONS:
                continue
            if key not in _HEURISTIC_SLOTS:
                raise WizsimError(
                    f"unknown heuristic parameter {key!r}; known: {', '.join(_HEURISTIC_SLOTS)},"
                    f" and decisions {', '.join(DECISIONS)}"
                )
            if not isinstance(value, float):
                raise WizsimError(f"heuristic parameter {key}={value!r} must be a number")
            values[key] = value
        for key, slot in _HEURISTIC_SLOTS.items():
            row[slot] = values[key]
        self._fill_decisions(row)
        return row


STRATEGY = HeuristicStrategy
