"""The environment's actions and observations: one flat action space, seat-relative observations.

Actions (``Discrete(n_actions)``), in blocks; the mask of a decision allows
only its own block's legal entries:

======== ============================== =========================================
block     entries                        meaning
======== ============================== =========================================
bid       ``kmax + 1``                   bid 0..kmax
card      80 (``layout.N_FORMS``)        play this form: a card code 0..60, a
                                         Juggler (64 + suit) or Cloud (68 + suit)
                                         in a suit, a Shapeshifter as Wizard (72)
                                         or Jester (73)
trump     4                              name suit 0..3 (Blue, Red, Green, Yellow)
werewolf  6                              keep the Werewolf (0), or swap and name
                                         no trump (1) or suit 0..3 (2..5)
pass      61 (``layout.N_TYPES``)        pass this card type to the left
======== ============================== =========================================

Observations are relative to the observing seat: seat 0 is the observer, 1 its
left neighbour, and so on (the round's players; after an elimination the rest
is padding). A dict of integer arrays (see :class:`Encoder` for every field),
a flat float32 ``vector`` of all of them in field order, and an int8
``action_mask``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engine import layout as L
from ..engine.observe import (
    C_CLAIRVOYANCE,
    C_HIDDEN,
    C_KMAX,
    C_MONO,
    C_PLAYERS,
    C_ROUNDS,
    N_CONSTS,
    N_INFO,
    action_blocks,
    encode,
    offsets,
)
from ..game import cards as C

#: the ``info`` vector's fields, in order
INFO_FIELDS = (
    "decision",  # the pending decision's kind: 0 none (the round or game is over), 1 bid, 2 card, 3 trump, 4 werewolf, 5 pass
    "cards",  # cards dealt to each player this round
    "round",  # the round's number in the game, 0 first
    "rounds",  # rounds in the game (1 for a single round)
    "dealer",  # the dealer (relative seat)
    "trump",  # 0 no trump, 1..4 suit 0..3, 5 not yet named
    "shown",  # the face-up card type (the turned-up card, or the Werewolf after a swap), -1 none
    "trick",  # the current trick's number (0 first), -1 before the tricks
    "leader",  # the current trick's leader (relative seat), -1 before the tricks
    "led",  # the current trick's led state: -1 nothing yet, 0..3 a suit, 4 free (a Wizard led)
    "forbidden",  # the Canadian rule's forbidden bid for the bidder, -1 none
    "players",  # players in this round
    "werewolf",  # the Werewolf's holder (relative seat) when it was swapped, else -1
    "turned_up",  # the card turned up at the deal (-1 none), also after a Werewolf took it into its hand
)
INFO = {name: i for i, name in enumerate(INFO_FIELDS)}
#: the decision kinds by name (``layout.DK_*``)
#: the forms a card can be played as (a Juggler or Cloud in each suit, a Shapeshifter as Wizard or Jester)
FORMS_OF = {
    L.JUGGLER: tuple(L.JUGGLER_AS + s for s in range(4)),
    L.CLOUD: tuple(L.CLOUD_AS + s for s in range(4)),
    L.SHAPESHIFTER: (L.SHAPESHIFTER_AS_WIZARD, L.SHAPESHIFTER_AS_JESTER),
}
KIND_NAMES = {L.DK_BID: "bid", L.DK_CARD: "card", L.DK_TRUMP: "trump", L.DK_WEREWOLF: "werewolf", L.DK_PASS: "pass"}
assert len(INFO_FIELDS) == N_INFO
SCORE_BOUND = 10**6


class Encoder:
    """Actions and observations of a table of ``players`` seats and rounds of at most ``kmax`` cards."""

    def __init__(self, players: int, kmax: int, rules: np.ndarray, rounds: int = 1) -> None:
        if kmax > L.X_MAX_TRICKS:
            raise AssertionError(f"rounds of {kmax} cards: the script header notes at most {L.X_MAX_TRICKS} tricks")
        self.n = players
        self.rounds = rounds
        self.kmax = kmax
        self.rules = rules
        self.bid0 = 0
        self.card0, self.trump0, self.wolf0, self.pass0 = (int(x) for x in action_blocks(kmax))  # the kernels'
        self.n_actions = self.pass0 + L.N_TYPES
        self._offset = {
            L.DK_BID: self.bid0,
            L.DK_CARD: self.card0,
            L.DK_TRUMP: self.trump0,
            L.DK_WEREWOLF: self.wolf0,
            L.DK_PASS: self.pass0,
        }
        table, masks = C.kernel_tables()
        self.table = table
        self.masks = masks
        n, k = players, kmax
        #: field -> (shape, low, high, dtype) of the dict observation, in the flat vector's order
        self.fields: dict[str, tuple[tuple[int, ...], int, int, type]] = {
            "hand": ((L.N_TYPES,), 0, 8, np.int32),  # copies of each card type held (hidden while clairvoyant bidding)
            "tricks": ((k, n), -1, L.N_FORMS - 1, np.int32),  # forms played, by trick and relative seat; -1 none
            "leaders": ((k,), -1, n - 1, np.int32),  # each trick's leader (relative seat), -1 not started
            "voids": ((n, 4), 0, 1, np.int32),  # suits a seat showed out of since the last Juggler passes
            "bids": ((n,), -1, k, np.int32),  # bids as seen: -1 not made yet or hidden (hidden_bids)
            "won": ((n,), 0, k, np.int32),  # tricks won this round
            "scores": ((n,), -SCORE_BOUND, SCORE_BOUND, np.int32),  # game totals before this round
            "passes": ((k, 2), -1, L.N_TYPES - 1, np.int32),  # after trick t: the card passed, the card received
            "others": ((n, L.N_TYPES), 0, 8, np.int32),  # the other hands while clairvoyance shows them, else 0
            "info": ((len(INFO_FIELDS),), -1, 255, np.int32),  # INFO_FIELDS
        }
        self.vector_size = sum(int(np.prod(shape)) for shape, *_ in self.fields.values())
        self.size = self.vector_size
        self.consts = np.zeros(N_CONSTS, dtype=np.int64)
        self.consts[[C_PLAYERS, C_KMAX, C_ROUNDS]] = players, kmax, rounds
        self.consts[[C_HIDDEN, C_CLAIRVOYANCE, C_MONO]] = rules[[L.R_HIDDEN_BIDS, L.R_CLAIRVOYANCE, L.R_MONO]]
        self._slices: dict[str, tuple[int, int, tuple[int, ...]]] = {}
        start = 0
        for name, (shape, *_) in self.fields.items():
            size = int(np.prod(shape))
            self._slices[name] = (start, start + size, shape)
            start += size
        if list(offsets(players, kmax)) != [a for a, _, _ in self._slices.values()] + [start]:
            raise AssertionError("the observation kernel's field offsets differ from the encoder's fields")

    # ------------------------------------------------------------------ actions
    def action(self, kind: int, engine_action: int) -> int:
        """The environment's action for engine action ``engine_action`` of a decision of ``kind``."""
        if kind == L.DK_WEREWOLF:
            return self.wolf0 + engine_action
        return self._offset[kind] + engine_action

    def engine_action(self, kind: int, action: int) -> int:
        """The engine's action for the environment's ``action`` (checked against the kind's block)."""
        return action - self._offset[kind]

    def mask(self, pending: Any) -> np.ndarray:
        """The int8 action mask of a decision (a :class:`.replay.Pending`; all zero when None)."""
        out = np.zeros(self.n_actions, dtype=np.int8)
        if pending is not None:
            for a in pending.legal:
                out[self.action(pending.kind, a)] = 1
        return out

    def action_name(self, action: int) -> str:
        """An action in words (``"bid 2"``, ``"card Juggler:R"``, ``"trump G"``, ``"pass W"``)."""
        if not 0 <= action < self.n_actions:
            return f"action {action} (outside 0..{self.n_actions - 1})"
        if action < self.card0:
            return f"bid {action}"
        if action < self.trump0:
            return f"card {C.card_name(action - self.card0)}"
        if action < self.wolf0:
            return f"trump {C.suit_name(action - self.trump0)}"
        if action < self.pass0:
            code = action - self.wolf0
            if code == L.WOLF_KEEP:
                return "keep the Werewolf"
            return f"swap the Werewolf, trump {C.suit_name(code - 2) or 'none'}"
        return f"pass {C.card_name(action - self.pass0)}"

    # ------------------------------------------------------------------ observations
    def observe(self, header: np.ndarray, seat: int) -> dict[str, np.ndarray]:
        """Game seat ``seat``'s observation of the table a script header describes (:mod:`wizsim.engine.observe`):
        the fields, the flat ``vector`` and the ``action_mask`` (all zero unless the pending decision is the
        seat's). The arrays are new for every call: an agent may keep them."""
        buf = np.empty(self.size, dtype=np.int32)
        mask = np.empty(self.n_actions, dtype=np.int8)
        hands = header[L.X_CNT : L.X_CNT + 6 * 64].reshape(6, 64)
        encode(header, hands, seat, self.consts, self.table, self.masks, buf, mask)
        obs: dict[str, np.ndarray] = {name: buf[a:b].reshape(shape) for name, (a, b, shape) in self._slices.items()}
        obs["vector"] = buf.astype(np.float32)
        obs["action_mask"] = mask
        return obs

    def vector(self, obs: dict[str, np.ndarray]) -> np.ndarray:
        """The flat float32 vector of an observation's fields, in field order."""
        return np.concatenate([obs[name].ravel() for name in self.fields]).astype(np.float32)
