"""Public simulation API: validate, seed fixed-size chunks, run kernels, build tables.

Reproducibility: the run is cut into chunks of a fixed size (``CHUNK_ROUNDS``
rounds or ``CHUNK_GAMES`` games); chunk ``i`` draws from a stream seeded by
``np.random.SeedSequence(seed, spawn_key=(i,))`` and adds integer counts to
the accumulators. Sums of integers do not depend on the order or the worker
that computed them, so the result is identical for every ``jobs``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from . import _kernels as K
from . import cards as C
from .errors import WizsimError
from .rules import Rules, check_players, check_round_size, parse_rules, standard_schedule
from .stats import mean_ci, wilson_ci
from .strategies import Strategy, seat_strategies, strategy_arrays

CHUNK_ROUNDS = 1 << 14
CHUNK_GAMES = 256


def _version() -> str:
    from . import __version__

    return __version__


@dataclass
class RunSpec:
    """A validated simulation request (what to deal, how many, who plays, which rules)."""

    players: int
    schedule: list[int]
    games_mode: bool
    items: int  # rounds in hands mode, games in games mode
    seed: int
    strategies: list[Strategy]
    rules: Rules
    deck: np.ndarray
    custom_deck: bool = False

    @property
    def rounds(self) -> int:
        return self.items * len(self.schedule)

    @property
    def chunk_size(self) -> int:
        return CHUNK_GAMES if self.games_mode else CHUNK_ROUNDS

    def chunks(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Return (first item, item count, initial generator states [chunk, 2]) of every chunk."""
        size = self.chunk_size
        n_chunks = -(-self.items // size)
        first = np.arange(n_chunks, dtype=np.int64) * size
        count = np.minimum(size, self.items - first).astype(np.int64)
        # two streams per chunk: dealing, and the players' decisions
        state = np.array(
            [
                np.random.SeedSequence(self.seed, spawn_key=(i,)).generate_state(2, dtype=np.uint64)
                for i in range(n_chunks)
            ],
            dtype=np.uint64,
        ).reshape(n_chunks, 2)
        return first, count, state

    def provenance(self) -> dict[str, Any]:
        """Everything needed to reproduce the run."""
        out: dict[str, Any] = {
            "wizsim_version": _version(),
            "seed": self.seed,
            "players": self.players,
            "mode": "games" if self.games_mode else "hands",
            "schedule": list(self.schedule),
            "rules": self.rules.as_dict(),
            "strategies": [_strategy_label(s) for s in self.strategies],
            "rounds": self.rounds,
            "chunk_size": self.chunk_size,
        }
        if self.games_mode:
            out["games"] = self.items
        else:
            out["hands"] = self.items
            out["cards"] = self.schedule[0]
        if self.custom_deck:
            out["deck"] = [C.card_name(c) for c in self.deck]
        return out


def _strategy_label(s: Strategy) -> str:
    if not s.params:
        return s.name
    inner = ",".join(f"{k}={v:g}" for k, v in sorted(s.params.items()))
    return f"{s.name}({inner})"


def _as_int(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        try:
            if isinstance(value, str) and value.strip().lstrip("-").isdigit():
                return int(value)
        except ValueError:
            pass
        raise WizsimError(f"{name} must be a whole number, got {value!r}")
    return int(value)


def make_spec(
    players: int,
    cards: int | None = None,
    hands: int | None = None,
    games: int | None = None,
    schedule: list[int] | str | None = None,
    seed: int = 0,
    strategy: str | list | None = "random",
    rules: Rules | dict | list[str] | None = None,
    deck: list[str] | None = None,
) -> RunSpec:
    """Validate a simulation request and return its :class:`RunSpec`.

    Exactly one of ``cards``/``hands`` (independent rounds) or ``games`` (full
    games, optionally with a custom ``schedule`` of hand sizes) must be given.
    """
    players = check_players(_as_int("players", players))
    seed = _as_int("seed", seed)
    if seed < 0:
        raise WizsimError(f"seed must be >= 0, got {seed}")
    rules_obj = parse_rules(rules)
    deck_arr = C.build_deck(cards=deck) if deck is not None else C.build_deck()
    for code in deck_arr:
        if C.CARD_CLASS[code] == C.CLASS_SPECIAL:
            raise WizsimError(
                f"special card {C.card_name(code)} is not supported by this version of wizsim yet; use the base deck"
            )
    deck_size = len(deck_arr)
    strategies = seat_strategies(strategy, players)
    if games is not None:
        if cards is not None or hands is not None:
            raise WizsimError("give either --games G or --cards K --hands H, not both")
        games = _as_int("games", games)
        if games < 1:
            raise WizsimError(f"games must be >= 1, got {games}")
        if schedule is not None:
            if isinstance(schedule, str):
                try:
                    schedule = [int(x) for x in schedule.split(",") if x.strip()]
                except ValueError:
                    raise WizsimError(f"malformed schedule {schedule!r}: give hand sizes like 1,3,5,7") from None
            if not schedule:
                raise WizsimError("the schedule is empty: give hand sizes like 1,3,5,7")
            if rules_obj.rounds is not None:
                raise WizsimError("give either --schedule or --rule rounds=N, not both")
            sched = [check_round_size(players, _as_int("schedule entry", k), deck_size) for k in schedule]
        else:
            sched = standard_schedule(players, deck_size, rules_obj.rounds)
        return RunSpec(players, sched, True, games, seed, strategies, rules_obj, deck_arr, deck is not None)
    if schedule is not None:
        raise WizsimError("--schedule goes with --games")
    if cards is None or hands is None:
        raise WizsimError("give --cards K --hands H (independent rounds) or --games G (full games)")
    if rules_obj.rounds is not None:
        raise WizsimError("rule rounds=N sets the length of full games: use it with --games")
    cards = check_round_size(players, _as_int("cards", cards), deck_size)
    hands = _as_int("hands", hands)
    if hands < 1:
        raise WizsimError(f"hands must be >= 1, got {hands}")
    return RunSpec(players, [cards], False, hands, seed, strategies, rules_obj, deck_arr, deck is not None)


def kernel_tables() -> tuple[np.ndarray, np.ndarray]:
    """The card table and masks the kernels read.

    ``table`` is int64[N_TYPES, 6]: suit (-1 colourless), rank, class, suit for
    comparisons (5 = none), base power, led state the card sets. ``masks`` is
    uint64[7]: index ``led + 1`` gives the cards that follow the led state
    (nothing for -1 and for a Wizard lead), index 6 the always-playable cards.
    """
    table = np.stack(
        [C.CARD_SUIT, C.CARD_RANK, C.CARD_CLASS, C.CARD_PSUIT, C.CARD_BASE_POWER, C.CARD_LEADS], axis=1
    ).astype(np.int64)
    masks = np.zeros(7, dtype=np.uint64)
    masks[1:5] = C.SUIT_MASKS
    masks[6] = C.ALWAYS_PLAYABLE_MASK
    return table, masks


@dataclass
class Counts:
    """Integer accumulators of a run (they add up across chunks and workers)."""

    joint: np.ndarray  # [k, seat, position, bid, tricks]
    score_sum: np.ndarray  # [k, seat, position]
    score_sq: np.ndarray
    game_acc: np.ndarray  # [4, seat]

    @classmethod
    def zeros(cls, players: int, kmax: int) -> Counts:
        return cls(
            np.zeros((kmax + 1, players, players, kmax + 1, kmax + 1), dtype=np.int64),
            np.zeros((kmax + 1, players, players), dtype=np.int64),
            np.zeros((kmax + 1, players, players), dtype=np.int64),
            np.zeros((4, players), dtype=np.int64),
        )

    def __iadd__(self, other: Counts) -> Counts:
        self.joint += other.joint
        self.score_sum += other.score_sum
        self.score_sq += other.score_sq
        self.game_acc += other.game_acc
        return self


def _run_block(spec: RunSpec, first: np.ndarray, count: np.ndarray, state: np.ndarray) -> Counts:
    """Run a block of chunks in this process with the serial kernel."""
    acc = Counts.zeros(spec.players, max(spec.schedule))
    table, masks = kernel_tables()
    ids, params = strategy_arrays(spec.strategies)
    K.simulate_chunks(
        spec.players,
        np.asarray(spec.schedule, dtype=np.int64),
        int(spec.games_mode),
        first,
        count,
        state,
        spec.deck,
        table,
        masks,
        spec.rules.to_array(),
        ids,
        params,
        acc.joint,
        acc.score_sum,
        acc.score_sq,
        acc.game_acc,
    )
    return acc


def _limit_threads() -> None:
    # workers run serial kernels: one thread each, or they fight over the cores
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
        os.environ.setdefault(var, "1")


def run_counts(spec: RunSpec, jobs: int = 1) -> Counts:
    """Run ``spec`` on ``jobs`` local processes and return the summed counts."""
    jobs = _as_int("jobs", jobs)
    if jobs < 1:
        raise WizsimError(f"jobs must be >= 1, got {jobs}")
    first, count, state = spec.chunks()
    if jobs == 1 or len(first) == 1:
        return _run_block(spec, first, count, state)
    from joblib import Parallel, delayed

    _limit_threads()
    blocks = np.array_split(np.arange(len(first)), min(jobs, len(first)))
    parts = Parallel(n_jobs=jobs, backend="loky")(
        delayed(_run_block)(spec, first[b], count[b], state[b]) for b in blocks
    )
    total = Counts.zeros(spec.players, max(spec.schedule))
    for part in parts:
        total += part
    return total


@dataclass
class SimulationResult:
    """The counts of a run plus what is needed to turn them into tables."""

    spec: RunSpec
    counts: Counts
    attrs: dict = field(default_factory=dict)

    def _group_seats(self) -> list[tuple[str, list[int]]]:
        labels = [_strategy_label(s) for s in self.spec.strategies]
        groups: dict[str, list[int]] = {}
        for seat, label in enumerate(labels):
            groups.setdefault(label, []).append(seat)
        return list(groups.items())

    def table(self, by_position: bool = True) -> pd.DataFrame:
        """Per strategy, round size and seat position (1 = leads, N = dealer): estimates with 95% intervals.

        With ``by_position=False`` the positions are pooled (one row per strategy and round size).
        """
        rows = []
        n = self.spec.players
        kmax = max(self.spec.schedule)
        b = np.arange(kmax + 1)
        bb, tt = np.meshgrid(b, b, indexing="ij")
        positions = [[pos] for pos in range(n)] if by_position else [list(range(n))]
        for label, seats in self._group_seats():
            for k in sorted(set(self.spec.schedule)):
                for pos in positions:
                    jt = self.counts.joint[k][np.ix_(seats, pos)].sum(axis=(0, 1))
                    rounds = int(jt.sum())
                    if rounds == 0:
                        continue
                    row: dict[str, Any] = {"strategy": label, "cards": k}
                    if by_position:
                        row["position"] = pos[0] + 1
                    row["rounds"] = rounds
                    for name, x in (("bid", bb), ("tricks", tt), ("abs_diff", np.abs(bb - tt))):
                        m, lo, hi = mean_ci((x * jt).sum(), (x * x * jt).sum(), rounds)
                        row[f"mean_{name}"], row[f"mean_{name}_lo"], row[f"mean_{name}_hi"] = m, lo, hi
                    p, lo, hi = wilson_ci(np.trace(jt), rounds)
                    row["hit_rate"], row["hit_rate_lo"], row["hit_rate_hi"] = p, lo, hi
                    s_sum = self.counts.score_sum[k][np.ix_(seats, pos)].sum()
                    s_sq = self.counts.score_sq[k][np.ix_(seats, pos)].sum()
                    m, lo, hi = mean_ci(s_sum, s_sq, rounds)
                    row["mean_score"], row["mean_score_lo"], row["mean_score_hi"] = m, lo, hi
                    rows.append(row)
        df = pd.DataFrame(rows)
        df.attrs.update(self.attrs)
        return df

    def summary(self) -> pd.DataFrame:
        """Per strategy over all round sizes and positions: hit rate and points per round."""
        rows = []
        for label, seats in self._group_seats():
            jt = self.counts.joint[:, seats].sum(axis=(0, 1, 2))
            rounds = int(jt.sum())
            p, plo, phi = wilson_ci(np.trace(jt), rounds)
            m, lo, hi = mean_ci(self.counts.score_sum[:, seats].sum(), self.counts.score_sq[:, seats].sum(), rounds)
            rows.append(
                {
                    "strategy": label,
                    "seats": ",".join(map(str, seats)),
                    "rounds": rounds,
                    "hit_rate": p,
                    "hit_rate_lo": plo,
                    "hit_rate_hi": phi,
                    "mean_score": m,
                    "mean_score_lo": lo,
                    "mean_score_hi": hi,
                }
            )
        df = pd.DataFrame(rows)
        df.attrs.update(self.attrs)
        return df

    def games_table(self) -> pd.DataFrame:
        """Per seat (seat 0 deals round 1): games, mean total and win rate with 95% intervals."""
        if not self.spec.games_mode:
            raise WizsimError("games_table needs a run of full games (--games G)")
        g = self.spec.items
        acc = self.counts.game_acc
        rows = []
        for seat in range(self.spec.players):
            m, lo, hi = mean_ci(acc[0, seat], acc[1, seat], g)
            w, wlo, whi = mean_ci(acc[2, seat], acc[3, seat], g)
            rows.append(
                {
                    "seat": seat,
                    "strategy": _strategy_label(self.spec.strategies[seat]),
                    "games": g,
                    "mean_total": m,
                    "mean_total_lo": lo,
                    "mean_total_hi": hi,
                    "win_rate": w / 60.0,
                    "win_rate_lo": max(wlo / 60.0, 0.0),
                    "win_rate_hi": min(whi / 60.0, 1.0),
                }
            )
        df = pd.DataFrame(rows)
        df.attrs.update(self.attrs)
        return df

    def joint_counts(self, by: str = "position") -> pd.DataFrame:
        """Counts of (bid, tricks) per round size and ``by`` (``position``, ``seat`` or ``strategy``).

        Only non-zero cells are listed. ``P(tricks = t | bid = b)`` is
        ``count / count.groupby([..., "bid"]).transform("sum")``.
        """
        j = self.counts.joint
        rows = []
        if by == "position":
            arr = j.sum(axis=1)  # [k, pos, b, t]
            keys = [(pos + 1, arr[:, pos]) for pos in range(self.spec.players)]
        elif by == "seat":
            arr = j.sum(axis=2)
            keys = [(seat, arr[:, seat]) for seat in range(self.spec.players)]
        elif by == "strategy":
            keys = [(label, j[:, seats].sum(axis=(1, 2))) for label, seats in self._group_seats()]
        else:
            raise WizsimError(f"joint_counts(by={by!r}): use position, seat or strategy")
        for key, sub in keys:
            ks, bs, ts = np.nonzero(sub)
            rows.append(pd.DataFrame({by: key, "cards": ks, "bid": bs, "tricks": ts, "count": sub[ks, bs, ts]}))
        df = pd.concat(rows, ignore_index=True)
        df.attrs.update(self.attrs)
        return df


def simulate_result(
    players: int,
    cards: int | None = None,
    hands: int | None = None,
    games: int | None = None,
    schedule: list[int] | str | None = None,
    seed: int = 0,
    strategy: str | list | None = "random",
    rules: Rules | dict | list[str] | None = None,
    jobs: int = 1,
    deck: list[str] | None = None,
) -> SimulationResult:
    """Run a simulation and return its :class:`SimulationResult` (tables and joint counts).

    Parameters are those of :func:`simulate`.
    """
    spec = make_spec(players, cards, hands, games, schedule, seed, strategy, rules, deck)
    counts = run_counts(spec, jobs)
    return SimulationResult(spec, counts, spec.provenance())


def simulate(
    players: int,
    cards: int | None = None,
    hands: int | None = None,
    games: int | None = None,
    schedule: list[int] | str | None = None,
    seed: int = 0,
    strategy: str | list | None = "random",
    rules: Rules | dict | list[str] | None = None,
    jobs: int = 1,
    deck: list[str] | None = None,
) -> pd.DataFrame:
    """Simulate rounds or full games and return the per-position table.

    Parameters
    ----------
    players
        3 to 6.
    cards, hands
        ``hands`` independent rounds of ``cards`` cards each; the dealer of
        hand ``h`` (0-based) is seat ``h % players``.
    games, schedule
        ``games`` full games (60 / players rounds, or the ``rounds`` rule, or
        the hand sizes in ``schedule``), seat 0 dealing the first round.
    seed
        Seed of the run; the same seed gives the same numbers for any ``jobs``.
    strategy
        One strategy name for every seat or one per seat (list or comma-separated).
    rules
        ``KEY=VALUE`` strings, a dict, or :class:`~wizsim.rules.Rules`.
    jobs
        Local worker processes.
    deck
        A custom reduced deck (card names), e.g. for exact enumeration.

    Returns
    -------
    pandas.DataFrame
        One row per (strategy, cards, position) with rounds, mean bid, mean
        tricks, hit rate, mean |bid - tricks| and mean score, each with
        ``_lo``/``_hi`` 95% bounds. ``attrs`` holds the provenance (wizsim
        version, seed, rules, strategies, sample size).
    """
    return simulate_result(players, cards, hands, games, schedule, seed, strategy, rules, jobs, deck).table()
