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

import numpy as np

from ..engine import layout as L
from ..engine.game.trick import led_after_checked
from ..game import cards as C
from .replay import Pending, Replay

N_TRUMP_ACTIONS = 4
N_WOLF_ACTIONS = 6
TRUMP_UNDECIDED = 5  # ``info[INFO_TRUMP]`` while the trump is still being named
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
SCORE_BOUND = 10**6


class Encoder:
    """Actions and observations of a table of ``players`` seats and rounds of at most ``kmax`` cards."""

    def __init__(self, players: int, kmax: int, rules: np.ndarray) -> None:
        self.n = players
        self.kmax = kmax
        self.rules = rules
        self.bid0 = 0
        self.card0 = kmax + 1
        self.trump0 = self.card0 + L.N_FORMS
        self.wolf0 = self.trump0 + N_TRUMP_ACTIONS
        self.pass0 = self.wolf0 + N_WOLF_ACTIONS
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
            "hand": ((L.N_TYPES,), 0, 8, np.int8),  # copies of each card type held (hidden while clairvoyant bidding)
            "tricks": ((k, n), -1, L.N_FORMS - 1, np.int16),  # forms played, by trick and relative seat; -1 none
            "leaders": ((k,), -1, n - 1, np.int8),  # each trick's leader (relative seat), -1 not started
            "voids": ((n, 4), 0, 1, np.int8),  # suits a seat showed out of since the last Juggler passes
            "bids": ((n,), -1, k, np.int8),  # bids as seen: -1 not made yet or hidden (hidden_bids)
            "won": ((n,), 0, k, np.int8),  # tricks won this round
            "scores": ((n,), -SCORE_BOUND, SCORE_BOUND, np.int32),  # game totals before this round
            "passes": ((k, 2), -1, L.N_TYPES - 1, np.int8),  # after trick t: the card passed, the card received
            "others": ((n, L.N_TYPES), 0, 8, np.int8),  # the other hands while clairvoyance shows them, else 0
            "info": ((len(INFO_FIELDS),), -1, 255, np.int16),  # INFO_FIELDS
        }
        self.vector_size = sum(int(np.prod(shape)) for shape, *_ in self.fields.values())

    # ------------------------------------------------------------------ actions
    def action(self, kind: int, engine_action: int) -> int:
        """The environment's action for engine action ``engine_action`` of a decision of ``kind``."""
        if kind == L.DK_WEREWOLF:
            return self.wolf0 + engine_action
        return self._offset[kind] + engine_action

    def engine_action(self, kind: int, action: int) -> int:
        """The engine's action for the environment's ``action`` (checked against the kind's block)."""
        return action - self._offset[kind]

    def mask(self, pending: Pending | None) -> np.ndarray:
        """The int8 action mask of a decision (all zero when none is pending)."""
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
    def observe(self, replay: Replay, seat: int) -> dict[str, np.ndarray]:
        """Game seat ``seat``'s observation of the table now (the pending decision, or the end of the item)."""
        rec, pend = replay.records, replay.pending
        row = replay.rows - 1
        obs: dict[str, np.ndarray] = {name: np.full(shape, -1 if low < 0 and name != "scores" else 0, dtype=dtype)
               for name, (shape, low, _, dtype) in self.fields.items()}  # fmt: skip
        info = obs["info"]
        na = int(rec.round_players[row])
        round_seats = [int(s) for s in rec.seats[row, :na]]
        scores = np.zeros(self.n, dtype=np.int64)  # by game seat, before this round
        for r in range(row):
            for q in range(int(rec.round_players[r])):
                scores[rec.seats[r, q]] += rec.scores[r, q]
        if seat not in round_seats:  # left an elimination game
            obs["scores"][0] = scores[seat]
            info[INFO["decision"]] = 0
            info[INFO["round"]], info[INFO["rounds"]] = row, replay.rounds
            info[INFO["players"]] = na
            return obs
        me = round_seats.index(seat)

        def rel(q: int) -> int:
            return (q - me) % na

        k = int(rec.cards[row])
        dealer = int(rec.dealer[row])
        kind = pend.kind if pend is not None else 0
        # how far the round has gone: tricks complete, cards of the current trick, passes seen
        if pend is None:
            tricks_done, current, in_trick, bids_made = k, -1, 0, True
        elif kind == L.DK_CARD:
            tricks_done, current, in_trick, bids_made = pend.trick, pend.trick, pend.position, True
        elif kind == L.DK_PASS:
            tricks_done, current, in_trick, bids_made = pend.trick + 1, -1, 0, True
        else:
            tricks_done, current, in_trick, bids_made = 0, -1, 0, False
        for q in range(na):
            obs["scores"][rel(q)] = scores[round_seats[q]]
        # bids and tricks won
        if pend is None:
            bids, won = rec.bids[row, :na], rec.tricks_won[row, :na]
        else:
            bids, won = pend.bids, pend.won
        hidden = int(self.rules[L.R_HIDDEN_BIDS])
        for q in range(na):
            visible = q == me or hidden == 0 or pend is None or (hidden == 1 and bids_made)
            if visible and bids[q] >= 0 and (bids_made or kind == L.DK_BID):
                obs["bids"][rel(q)] = bids[q]
            obs["won"][rel(q)] = won[q]
        # hands
        clairvoyant_bid = kind == L.DK_BID and self.rules[L.R_CLAIRVOYANCE] != 0 and (replay.rounds == 1 or row == 0)
        if pend is not None:
            hands = pend.hands
            if clairvoyant_bid:
                for q in range(na):
                    if q != me:
                        obs["others"][rel(q)] = hands[q]
            else:
                obs["hand"][:] = hands[me]
        # tricks, leaders, voids, passes
        passes_done = pend.trick if kind == L.DK_PASS and pend is not None else tricks_done
        start_led = L.FREE if self.rules[L.R_MONO] != 0 else -1
        upto = tricks_done + (1 if current >= 0 else 0)
        for t in range(min(upto, k)):
            leader = int(rec.leaders[row, t])
            obs["leaders"][t] = rel(leader)
            led = start_led
            count = na if t < tricks_done else in_trick
            for j in range(count):
                q = (leader + j) % na
                f = int(rec.plays[row, t, j])
                obs["tricks"][t, rel(q)] = f
                c = int(self.table[f, L.T_CARD]) if f >= L.JUGGLER_AS else f
                follow = int(self.masks[led + 1]) | int(self.masks[L.M_ALWAYS]) if 0 <= led < 4 else -1
                if follow != -1 and not (follow >> c) & 1:
                    obs["voids"][rel(q), led] = 1
                led = int(led_after_checked(led, f, self.table))
            # the passes after trick t, once every seat has passed (not those being decided now)
            if t < passes_done and rec.passes[row, t, 0] >= 0:
                obs["voids"][:] = 0  # after the passes anyone may hold any suit again
                obs["passes"][t, 0] = rec.passes[row, t, me]
                obs["passes"][t, 1] = rec.passes[row, t, (me - 1) % na]
            if t == current:
                info[INFO["led"]] = led
        # the round's facts
        info[INFO["decision"]] = kind
        info[INFO["cards"]] = k
        info[INFO["round"]] = row
        info[INFO["rounds"]] = replay.rounds
        info[INFO["dealer"]] = rel(dealer)
        if pend is None:
            trump, shown = int(rec.trump[row]), int(rec.indicator[row])
            if rec.swapped[row]:
                shown = L.WEREWOLF
        else:
            trump, shown = pend.trump, pend.shown
        info[INFO["trump"]] = TRUMP_UNDECIDED if kind == L.DK_TRUMP else trump + 1
        info[INFO["shown"]] = shown
        info[INFO["trick"]] = current
        if pend is not None and kind == L.DK_CARD:
            info[INFO["leader"]] = rel(pend.leader)
        else:
            info[INFO["leader"]] = info[INFO["led"]] = -1
        if pend is not None and kind == L.DK_BID and pend.seat == seat and 0 <= pend.forbidden <= k:
            info[INFO["forbidden"]] = pend.forbidden  # past k (or below 0) nothing is forbidden
        info[INFO["players"]] = na
        wolf_known = kind in (L.DK_BID, L.DK_CARD, L.DK_PASS) or pend is None
        info[INFO["werewolf"]] = rel(int(rec.werewolf[row])) if wolf_known and rec.swapped[row] else -1
        info[INFO["turned_up"]] = rec.indicator[row]  # turned up before any decision of the round
        return obs

    def vector(self, obs: dict[str, np.ndarray]) -> np.ndarray:
        """The flat float32 vector of an observation's fields, in field order."""
        return np.concatenate([obs[name].ravel() for name in self.fields]).astype(np.float32)
