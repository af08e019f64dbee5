"""``VecWizardEnv``: many one-round tables stepped together, for learners that act on batches.

Every table is a round of ``cards`` cards at ``players`` seats; the seats
given as ``None`` in ``seats`` are the learner's, the others built-in players
who decide inside the kernel (:mod:`wizsim.engine.vec`) between the learner's
decisions. One :meth:`VecWizardEnv.step` takes one action per table (the
decision pending there, whichever learner seat it is), plays on to each
table's next learner decision, and returns every table's observation and
action mask as arrays. A scored round is reported in ``rewards`` (the scores
of every seat) and ``dones``, and the table deals its next round at once (its
observation is already the new round's first decision).

Actions, masks and observations are those of :class:`.aec.WizardEnv`
(:mod:`.encoding`): row ``i`` of ``observations`` is the flat int8 vector of
the deciding seat's observation (field order and sizes in ``encoder.fields``;
:meth:`fields` splits it), ``masks[i]`` its int8 action mask.
"""

from __future__ import annotations

import warnings

import numpy as np

from ..engine import layout as L
from ..engine.bundles import Outputs, Records, VecState
from ..engine.vec import N_INTS, N_STREAMS, S_EPISODE, V_SEAT, vec_step
from ..errors import WizsimError
from ..players.bid_rules import rule_errors
from ..players.strategies import seat_strategies
from ..run.spec import RunSpec, as_int, make_spec
from .encoding import Encoder
from .replay import EXTERNAL_STAND_IN

GIVEN = 16  # room for a phase's learner actions in a table's script (trump, Werewolf, one pass per seat)


class VecWizardEnv:
    """``n_tables`` one-round tables of ``players`` seats and ``cards`` cards, stepped together.

    Parameters
    ----------
    n_tables
        Tables stepped by one call.
    players, cards
        The table: 3-6 players, cards per player.
    seats
        A strategy per seat, ``None`` for the learner's seats (default: the
        learner at seat 0, ``heuristic`` at the others). Built-in players that
        keep a view of the round (``learned``, ``pimc``) are not offered yet.
    specials, rules
        As for :class:`.aec.WizardEnv`.
    seed
        Seeds the tables' rounds (``reset(seed)`` re-seeds).
    """

    def __init__(
        self,
        n_tables: int,
        players: int = 4,
        cards: int = 10,
        seats: list[str | None] | None = None,
        specials: str | list[str] | None = None,
        rules: dict | list[str] | None = None,
        seed: int = 0,
    ) -> None:
        n_tables = as_int("n_tables", n_tables)
        if n_tables < 1:
            raise WizsimError(f"n_tables must be at least 1, got {n_tables}")
        players = as_int("players", players)
        if cards is None:
            raise WizsimError("VecWizardEnv plays one-round tables: give cards (whole games: wizsim.env.WizardEnv)")
        seats = list(seats) if seats is not None else [None] + ["heuristic"] * (players - 1)
        if len(seats) != players:
            raise WizsimError(f"give a strategy or None for each of the {players} seats, got {len(seats)}")
        learners = tuple(p for p, s in enumerate(seats) if s is None)
        if not learners:
            raise WizsimError("every seat is a built-in player: leave at least one seat (None) to the learner")
        strategies = seat_strategies([EXTERNAL_STAND_IN if s is None else s for s in seats], players)
        for p, s in enumerate(strategies):
            if p not in learners and "view" in s.needs():
                raise WizsimError(
                    f"seat {p}: {s.name} keeps a view of the round, which VecWizardEnv does not offer yet; use"
                    " heuristic, table, random or a bid rule (or wizsim.env.WizardEnv)"
                )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Dragon without Fairy: the caller chose it
            spec: RunSpec = make_spec(players, cards=cards, hands=1, seed=0, strategy=strategies, rules=rules,
                                      specials=specials)  # fmt: skip
        spec.external_seats = learners
        spec.script = np.zeros(L.X_ACTIONS + GIVEN, dtype=np.int64)
        self.spec = spec
        self.n_tables, self.players, self.cards, self.learners = n_tables, players, int(spec.schedule[0]), learners
        self._setup, self._players = spec.kernel_args()
        self.encoder = Encoder(players, self.cards, spec.rules.to_array(spec.specials), 1)
        self.n_actions = self.encoder.n_actions
        self.observation_size = self.encoder.size
        self._fixed_trump = int(spec.trumps[0])
        self._deck = np.asarray(spec.deck, dtype=np.uint8).copy()
        n = n_tables
        dummy = np.zeros((1, 1, 1), dtype=np.int64)
        rec = Records(np.zeros((1, 1, 1), dtype=np.uint8), np.zeros((1, 1), dtype=np.int64), dummy,
                      np.zeros((1, 1, 1), dtype=np.uint64), dummy, np.zeros((1, 1), dtype=np.int64))  # fmt: skip
        out = Outputs(players < 0, None, players < 0, rec)  # run-time False: no counts, no records
        self._state = VecState(
            np.zeros((n, L.X_ACTIONS + GIVEN), dtype=np.int64),
            np.zeros((n, players), dtype=np.uint64),
            np.zeros((n, players, 64), dtype=np.int64),
            np.zeros((n, players), dtype=np.int64),
            np.zeros((n, players), dtype=np.int64),
            np.zeros((n, players), dtype=np.int64),
            np.zeros((n, players), dtype=np.int64),
            np.zeros((n, max(players, 8)), dtype=np.int64),
            np.zeros((n, self._deck.shape[0]), dtype=np.uint8),
            np.zeros((n, N_STREAMS), dtype=np.uint64),
            np.zeros((n, N_INTS), dtype=np.int64),
            np.zeros((n, 6), dtype=np.int64),
            np.zeros((n, players), dtype=np.uint64),
            np.zeros((n, players, 64), dtype=np.int64),
            np.arange(6, dtype=np.int64),
            np.zeros(players, dtype=np.int64),
            out,
        )
        # int8: every field of a one-round table fits (forms < 80, card types < 61, no game totals yet)
        self._obs = np.zeros((n, self.observation_size), dtype=np.int8)
        self._mask = np.zeros((n, self.n_actions), dtype=np.int8)
        self._rewards = np.zeros((n, players), dtype=np.int64)
        self._dones = np.zeros(n, dtype=np.bool_)
        self._seed = int(seed)
        self._started = False  # True once reset() has dealt; False again after an error stopped a step midway
        self._rules = (spec.bid_rules(), spec.play_rules())  # the user rules rule_errors names, fixed per env

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Deal a fresh round at every table (table ``i`` from ``SeedSequence(seed, spawn_key=(i,))``); return
        the observations and masks of the first learner decisions.

        Parameters
        ----------
        seed : int, optional
            Re-seeds the tables (>= 0); default: the environment's seed.

        Returns
        -------
        observations : numpy.ndarray
            int8 ``[n_tables, observation_size]``: one flat observation per table (:meth:`fields` names them).
        masks : numpy.ndarray
            int8 ``[n_tables, n_actions]``: the legal actions of each table's decision.
        """
        if seed is not None:
            self._seed = as_int("seed", seed)
            if self._seed < 0:
                raise WizsimError(f"seed must be >= 0, got {self._seed}")
        st = self._state
        for a in st[:-3]:
            a.fill(0)
        st.streams[:, S_EPISODE] = [
            np.random.SeedSequence(self._seed, spawn_key=(i,)).generate_state(1, dtype=np.uint64)[0]
            for i in range(self.n_tables)
        ]
        st.ints[:, V_SEAT] = -1
        self._run(np.full(self.n_tables, -1, dtype=np.int64))
        return self._obs, self._mask

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Take ``actions[i]`` at table ``i``; return (observations, masks, rewards, dones, seats).

        ``rewards[i, seat]``: the scores of a round table ``i`` finished in this
        step (``dones[i]``), else 0; ``seats[i]``: the seat whose decision
        ``observations[i]`` is. The arrays are reused by the next step: copy
        what you keep. An illegal action is a WizsimError, and no table moves.

        Parameters
        ----------
        actions : numpy.ndarray
            One integer action per table, shape ``(n_tables,)``.

        Returns
        -------
        observations : numpy.ndarray
            int8 ``[n_tables, observation_size]``: each table's next learner decision (a finished
            table has dealt its next round).
        masks : numpy.ndarray
            int8 ``[n_tables, n_actions]``: their legal actions.
        rewards : numpy.ndarray
            int64 ``[n_tables, players]``: the scores of the rounds finished in this step, else 0.
        dones : numpy.ndarray
            bool ``[n_tables]``: whether table ``i`` finished a round in this step.
        seats : numpy.ndarray
            int64 ``[n_tables]``: the seat whose decision each observation is.

        Raises
        ------
        WizsimError
            Before :meth:`reset`, for actions of the wrong shape or type, or an illegal action.
        """
        if not self._started:
            raise WizsimError("no round in play: call reset() first (before the first step, or after an error)")
        a = np.asarray(actions)
        if a.shape != (self.n_tables,) or a.dtype.kind not in "iu":
            raise WizsimError(f"give one integer action per table: an array of shape ({self.n_tables},), got"
                              f" shape {a.shape} of {a.dtype}")  # fmt: skip
        self._run(a.astype(np.int64, copy=False))
        return self._obs, self._mask, self._rewards, self._dones, self._state.ints[:, V_SEAT]

    def _run(self, actions: np.ndarray) -> None:
        self._started = False  # until the kernel returns: a user rule's error may stop the tables midway
        with rule_errors(*self._rules):  # a user rule's bad value: one error
            bad = vec_step(self.players, self.cards, self._fixed_trump, self._setup, self._players, self._deck,
                           self._state, actions, self.encoder.consts, self._obs, self._mask, self._rewards,
                           self._dones)  # fmt: skip
        self._started = True  # an illegal action moves no table: they stay in play
        if bad >= 0:
            a = int(actions[bad])
            seat = int(self._state.ints[bad, V_SEAT])
            legal = ", ".join(f"{x} ({self.encoder.action_name(int(x))})" for x in np.flatnonzero(self._mask[bad])[:12])
            raise WizsimError(f"table {bad}, seat {seat}: action {a} ({self.encoder.action_name(a)}) is not legal;"
                              f" legal: {legal}")  # fmt: skip

    @property
    def seats(self) -> np.ndarray:
        """The seat whose decision each table's observation is."""
        return self._state.ints[:, V_SEAT]

    def fields(self, observations: np.ndarray) -> dict[str, np.ndarray]:
        """The named fields of a batch of observations (views: ``[tables, *shape]``).

        Parameters
        ----------
        observations : numpy.ndarray
            Flat observations, ``[tables, observation_size]`` (as :meth:`reset` and :meth:`step` return).

        Returns
        -------
        dict of str to numpy.ndarray
            Each field of :mod:`wizsim.env.encoding` by name, a view of ``observations``.
        """
        out = {}
        for name, (a, b, shape) in self.encoder._slices.items():
            out[name] = observations[:, a:b].reshape((observations.shape[0], *shape))
        return out
