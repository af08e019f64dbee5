"""Recorded rounds by name: the one reader of the engine's record arrays.

The recording kernel (``wizsim.engine.run.record_chunk``) writes every round of
a chunk into six arrays; :class:`RoundRecords` holds them and names their
columns (from ``wizsim.engine.layout``), so histories, tournaments, bid-table
training, analyses and tests never decode offsets themselves.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine import layout as L
from ..engine.bundles import Records


@dataclass
class RoundRecords:
    """Rows of recorded rounds of a run of ``players`` seats and rounds of at most ``kmax`` cards.

    Raw arrays (row = one round): ``hands`` [rows, players, kmax] dealt card codes
    (ascending within a hand; entries past the round's k are padding), ``plays``
    [rows, kmax, players] forms in play order from each trick's leader,
    ``legal`` [rows, kmax, players] legal masks at each play, ``passes`` [rows,
    kmax, players] the card each seat passed after a Juggler trick (-1: none),
    ``seats`` [rows, players] the game seat of each round seat (-1 for seats of
    players who left an elimination game), ``info`` [rows, ...] the rest, read
    through the properties below. Per-seat columns are by round seat.
    """

    players: int
    kmax: int
    hands: np.ndarray
    info: np.ndarray
    plays: np.ndarray
    legal: np.ndarray
    passes: np.ndarray
    seats: np.ndarray

    @classmethod
    def empty(cls, rows: int, players: int, kmax: int) -> RoundRecords:
        """Zeroed arrays for ``rows`` rounds (what the recording kernel fills)."""
        return cls(
            players,
            kmax,
            np.zeros((rows, players, kmax), dtype=np.uint8),
            np.zeros((rows, L.info_width(players, kmax)), dtype=np.int64),
            np.zeros((rows, kmax, players), dtype=np.int64),
            np.zeros((rows, kmax, players), dtype=np.uint64),
            np.full((rows, kmax, players), -1, dtype=np.int64),
            np.zeros((rows, players), dtype=np.int64),
        )

    def kernel_arrays(self) -> Records:
        """The arrays as the recording kernel takes them (a :class:`wizsim.engine.bundles.Records`)."""
        return Records(self.hands, self.info, self.plays, self.legal, self.passes, self.seats)

    def select(self, rows) -> RoundRecords:
        """The records of ``rows`` (a slice, index array or boolean mask)."""
        return RoundRecords(self.players, self.kmax, *(a[rows] for a in self.kernel_arrays()))

    @classmethod
    def concat(cls, parts: list[RoundRecords]) -> RoundRecords:
        """The records of several chunks of one run, in order."""
        first = parts[0]
        arrays = [np.concatenate(a) for a in zip(*(p.kernel_arrays() for p in parts), strict=True)]
        return cls(first.players, first.kmax, *arrays)

    def __len__(self) -> int:
        return self.info.shape[0]

    # per round
    @property
    def dealer(self) -> np.ndarray:
        return self.info[:, L.I_DEALER]

    @property
    def cards(self) -> np.ndarray:
        """Cards dealt to each player (k); 0 in rows never played (a rejected advisor deal)."""
        return self.info[:, L.I_CARDS]

    @property
    def indicator(self) -> np.ndarray:
        """The turned-up card, -1 if none."""
        return self.info[:, L.I_INDICATOR]

    @property
    def trump(self) -> np.ndarray:
        """The trump suit 0-3, -1 for no trump."""
        return self.info[:, L.I_TRUMP]

    @property
    def werewolf(self) -> np.ndarray:
        """The round seat dealt the Werewolf, -1 if nobody."""
        return self.info[:, L.I_WEREWOLF]

    @property
    def swapped(self) -> np.ndarray:
        return self.info[:, L.I_SWAPPED]

    @property
    def round_players(self) -> np.ndarray:
        """Players in the round (fewer than ``players`` after an elimination)."""
        return self.info[:, L.I_PLAYERS]

    # per trick [rows, kmax]
    @property
    def leaders(self) -> np.ndarray:
        return self.info[:, L.I_TRICKS : L.I_TRICKS + self.kmax]

    @property
    def winners(self) -> np.ndarray:
        """Round seat that took each trick, -1 if nobody (bombed)."""
        return self.info[:, L.I_TRICKS + self.kmax : L.I_TRICKS + 2 * self.kmax]

    @property
    def next_leaders(self) -> np.ndarray:
        return self.info[:, L.I_TRICKS + 2 * self.kmax : L.I_TRICKS + 3 * self.kmax]

    # per seat [rows, players]
    def _seat_block(self, i: int) -> np.ndarray:
        base = L.info_seats(self.kmax) + i * self.players
        return self.info[:, base : base + self.players]

    @property
    def bids(self) -> np.ndarray:
        """Bids as made."""
        return self._seat_block(0)

    @property
    def tricks_won(self) -> np.ndarray:
        return self._seat_block(1)

    @property
    def scores(self) -> np.ndarray:
        return self._seat_block(2)

    @property
    def final_bids(self) -> np.ndarray:
        """Bids after a Cloud change (as scored)."""
        return self._seat_block(3)
