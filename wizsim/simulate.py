"""Public simulation API: validate, seed fixed-size chunks, run kernels, build tables.

Reproducibility: the run is cut into chunks of a fixed size (``CHUNK_ROUNDS``
rounds or ``CHUNK_GAMES`` games); chunk ``i`` draws from a stream seeded by
``np.random.SeedSequence(seed, spawn_key=(i,))`` and adds integer counts to
the accumulators. Sums of integers do not depend on the order or the worker
that computed them, so the result is identical for every ``jobs``.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

from . import _kernels as K
from . import cards as C
from .errors import WizsimError
from .rules import FROM_INDICATOR, Rules, check_players, check_round_size, game_schedule, hand_trump, parse_rules
from .stats import mean_ci, wilson_ci
from .strategies import Strategy, seat_strategies, strategy_arrays

CHUNK_ROUNDS = 1 << 14
CHUNK_GAMES = 256
MAX_ITEMS = 10**12  # hands or games in one run: about a week on one core; more is surely a typo


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
    specials: list[str] = field(default_factory=list)
    trumps: list[int] = field(default_factory=list)  # per round: FROM_INDICATOR or a fixed trump
    preset: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None  # advisor rounds (see wizsim.advise)
    custom_schedule: bool = False  # hand sizes from --schedule (a card is turned up whenever one is left)

    def kernel_args(self) -> tuple:
        """The arrays every kernel call takes after the chunk arguments."""
        table, masks = C.kernel_tables()
        ids, params = strategy_arrays(self.strategies)
        mono = C.mono_decks(self.players) if self.rules.has("mono") else np.zeros((self.players, 1), dtype=np.uint8)
        pre = self.preset or (
            np.zeros(K.N_PRE, dtype=np.int64),
            np.zeros(64, dtype=np.int64),
            np.full(self.players, -1, dtype=np.int64),
        )
        from .bid_table import kernel_table

        # the learned bids, when a seat bids from them (not in training mode)
        tab = kernel_table(
            any(
                (s.strategy_id == K.S_TABLE and not s.params.get("explore")) or s.strategy_id == K.S_PIMC
                for s in self.strategies
            )
        )
        return (self.deck, mono, table, masks, self.rules.to_array(self.specials), ids, params, *pre, tab)

    def schedule_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        trumps = self.trumps or [FROM_INDICATOR] * len(self.schedule)
        return np.asarray(self.schedule, dtype=np.int64), np.asarray(trumps, dtype=np.int64)

    @property
    def rounds(self) -> int:
        return self.items * len(self.schedule)

    @property
    def chunk_size(self) -> int:
        return CHUNK_GAMES if self.games_mode else CHUNK_ROUNDS

    @property
    def n_chunks(self) -> int:
        return -(-self.items // self.chunk_size)

    def chunk_range(self, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(first item, item count, generator states [chunk, 2]) of chunks ``lo .. hi - 1``.

        Chunk ``i`` always gets the same two streams (dealing, decisions) from
        ``SeedSequence(seed, spawn_key=(i,))``, whoever computes it.
        """
        size = self.chunk_size
        first = np.arange(lo, hi, dtype=np.int64) * size
        count = np.minimum(size, self.items - first).astype(np.int64)
        state = np.array(
            [
                np.random.SeedSequence(self.seed, spawn_key=(i,)).generate_state(2, dtype=np.uint64)
                for i in range(lo, hi)
            ],
            dtype=np.uint64,
        ).reshape(hi - lo, 2)
        return first, count, state

    def chunks(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(first item, item count, generator states) of every chunk (for small runs and histories)."""
        return self.chunk_range(0, self.n_chunks)

    def options(self) -> dict[str, Any]:
        """The HISTORY.md ``options`` of this run: the rules, plus ``rounds`` / ``schedule`` when set."""
        out = self.rules.options()
        if self.rules.rounds is not None:
            out["rounds"] = self.rules.rounds
        if self.custom_schedule:
            out["schedule"] = list(self.schedule)
        return out

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
            "specials": list(self.specials),
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
    # repr keeps every digit: two strategies differing in the 8th digit stay apart
    inner = ",".join(f"{k}={v!r}" if isinstance(v, float) else f"{k}={v}" for k, v in sorted(s.params.items()))
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
    specials: str | list[str] | None = None,
) -> RunSpec:
    """Validate a simulation request and return its :class:`RunSpec`.

    Exactly one of ``cards``/``hands`` (independent rounds) or ``games`` (full
    games, optionally with a custom ``schedule`` of hand sizes) must be given.
    ``specials`` (names, ``"dragon,fairy"`` or ``"all"``) are mixed into the
    base deck; ``deck`` replaces the whole deck (reduced decks for tests).
    """
    players = check_players(_as_int("players", players))
    seed = _as_int("seed", seed)
    if seed < 0:
        raise WizsimError(f"seed must be >= 0, got {seed}")
    rules_obj = parse_rules(rules)
    special_names = C.parse_specials(specials)
    if deck is not None:
        if special_names:
            raise WizsimError("give either a custom deck or specials, not both")
        deck_arr = C.build_deck(cards=deck)
        special_names = [C.card_name(c) for c in sorted(set(int(x) for x in deck_arr)) if c >= C.FIRST_SPECIAL]
    else:
        deck_arr = C.build_deck(special_names)
    deck_size = len(deck_arr)
    if ("Dragon" in special_names) != ("Fairy" in special_names):
        one, other = ("Dragon", "Fairy") if "Dragon" in special_names else ("Fairy", "Dragon")
        warnings.warn(f"{one} without {other}: the two are meant to be used together (RULES.md 1)", stacklevel=2)
    strategies = seat_strategies(strategy, players)
    games_mode = games is not None
    rules_obj.check_table(players, special_names, games_mode)
    if games_mode:
        if cards is not None or hands is not None:
            raise WizsimError("give either --games G or --cards K --hands H, not both")
        games = _as_int("games", games)
        if not 1 <= games <= MAX_ITEMS:
            raise WizsimError(f"games must be between 1 and {MAX_ITEMS:.0e}, got {games}")
        if schedule is not None:
            if isinstance(schedule, np.ndarray):
                schedule = schedule.tolist()
            if isinstance(schedule, str):
                try:
                    schedule = [int(x) for x in schedule.split(",") if x.strip()]
                except ValueError:
                    raise WizsimError(f"malformed schedule {schedule!r}: give hand sizes like 1,3,5,7") from None
            if not schedule:
                raise WizsimError("the schedule is empty: give hand sizes like 1,3,5,7")
            if rules_obj.rounds is not None:
                raise WizsimError("give either --schedule or --rule rounds=N, not both")
            if any(rules_obj.has(v) for v in ("mono", "maximus", "elimination")):
                raise WizsimError(f"variant {rules_obj.variant} fixes its own rounds: drop --schedule")
            sched = [check_round_size(players, _as_int("schedule entry", k), deck_size) for k in schedule]
            trumps = [FROM_INDICATOR] * len(sched)
        else:
            sched, trumps = game_schedule(players, deck_size, rules_obj)
        return RunSpec(
            players, sched, True, games, seed, strategies, rules_obj, deck_arr, deck is not None, special_names, trumps,
            custom_schedule=schedule is not None,
        )  # fmt: skip
    if schedule is not None:
        raise WizsimError("--schedule goes with --games")
    if cards is None or hands is None:
        raise WizsimError("give --cards K --hands H (independent rounds) or --games G (full games)")
    if rules_obj.rounds is not None:
        raise WizsimError("rule rounds=N sets the length of full games: use it with --games")
    cards = check_round_size(players, _as_int("cards", cards), deck_size)
    hands = _as_int("hands", hands)
    if not 1 <= hands <= MAX_ITEMS:
        raise WizsimError(f"hands must be between 1 and {MAX_ITEMS:.0e}, got {hands}")
    return RunSpec(
        players, [cards], False, hands, seed, strategies, rules_obj, deck_arr, deck is not None, special_names,
        [hand_trump(players, cards)],
    )  # fmt: skip


kernel_tables = C.kernel_tables


# aux columns: per (round size, seat, position) sums the joint counts cannot give
AUX_SCORE, AUX_SCORE_SQ, AUX_HIT, AUX_MISS, AUX_MISS_SQ = range(5)  # hits and misses use the final bid
N_AUX = 5


@dataclass
class Counts:
    """Integer accumulators of a run (they add up across chunks and workers)."""

    joint: np.ndarray  # [k, seat, position, bid as made, tricks]
    aux: np.ndarray  # [k, seat, position, AUX_*]
    game_acc: np.ndarray  # [4, seat]

    @classmethod
    def zeros(cls, players: int, kmax: int) -> Counts:
        return cls(
            np.zeros((kmax + 1, players, players, kmax + 1, kmax + 1), dtype=np.int64),
            np.zeros((kmax + 1, players, players, N_AUX), dtype=np.int64),
            np.zeros((4, players), dtype=np.int64),
        )

    def __iadd__(self, other: Counts) -> Counts:
        self.joint += other.joint
        self.aux += other.aux
        self.game_acc += other.game_acc
        return self


BATCH_CHUNKS = 1024  # chunks seeded and run per kernel call: bounded memory for any run length


def _run_block(spec: RunSpec, lo: int, hi: int) -> Counts:
    """Run chunks ``lo .. hi - 1`` in this process with the serial kernel."""
    acc = Counts.zeros(spec.players, max(spec.schedule))
    schedule, trumps = spec.schedule_arrays()
    args = spec.kernel_args()
    for start in range(lo, hi, BATCH_CHUNKS):
        first, count, state = spec.chunk_range(start, min(start + BATCH_CHUNKS, hi))
        K.simulate_chunks(
            spec.players, schedule, trumps, int(spec.games_mode), first, count, state, *args,
            acc.joint, acc.aux, acc.game_acc,
        )  # fmt: skip
    return acc


def run_counts(
    spec: RunSpec,
    jobs: int = 1,
    *,
    backend: str = "loky",
    scheduler: str | None = None,
    checkpoint: str | os.PathLike | None = None,
    progress: bool = False,
    numba_cache: bool | None = None,
) -> Counts:
    """Run ``spec`` and return the summed counts: identical for every ``jobs`` and backend.

    ``jobs`` local processes (``backend="loky"``), or a Dask cluster
    (``backend="dask"``: the one at ``scheduler="tcp://host:port"``, else a
    local one with ``jobs`` processes). ``checkpoint`` is a folder that keeps
    finished blocks so that an interrupted run can be resumed; ``progress``
    shows a bar on stderr for runs longer than 2 s; ``numba_cache=False``
    switches Numba's on-disk cache off here and in the workers. See
    :mod:`wizsim.parallel`.
    """
    from .parallel import run

    return run(
        spec, jobs, backend=backend, scheduler=scheduler, checkpoint=checkpoint, progress=progress,
        numba_cache=numba_cache,
    )  # fmt: skip


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
        import pandas as pd  # here, not at import: the advisor's command line starts faster

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
                    for name, x in (("bid", bb), ("tricks", tt)):
                        m, lo, hi = mean_ci((x * jt).sum(), (x * x * jt).sum(), rounds)
                        row[f"mean_{name}"], row[f"mean_{name}_lo"], row[f"mean_{name}_hi"] = m, lo, hi
                    aux = self.counts.aux[k][np.ix_(seats, pos)].sum(axis=(0, 1))
                    m, lo, hi = mean_ci(aux[AUX_MISS], aux[AUX_MISS_SQ], rounds)
                    row["mean_abs_diff"], row["mean_abs_diff_lo"], row["mean_abs_diff_hi"] = m, lo, hi
                    p, lo, hi = wilson_ci(aux[AUX_HIT], rounds)
                    row["hit_rate"], row["hit_rate_lo"], row["hit_rate_hi"] = p, lo, hi
                    m, lo, hi = mean_ci(aux[AUX_SCORE], aux[AUX_SCORE_SQ], rounds)
                    row["mean_score"], row["mean_score_lo"], row["mean_score_hi"] = m, lo, hi
                    rows.append(row)
        df = pd.DataFrame(rows)
        df.attrs.update(self.attrs)
        return df

    def summary(self) -> pd.DataFrame:
        """Per strategy over all round sizes and positions: hit rate and points per round."""
        import pandas as pd

        rows = []
        for label, seats in self._group_seats():
            rounds = int(self.counts.joint[:, seats].sum())
            aux = self.counts.aux[:, seats].sum(axis=(0, 1, 2))
            p, plo, phi = wilson_ci(aux[AUX_HIT], rounds)
            m, lo, hi = mean_ci(aux[AUX_SCORE], aux[AUX_SCORE_SQ], rounds)
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
        import pandas as pd

        if not self.spec.games_mode:
            raise WizsimError("games_table needs a run of full games (--games G)")
        g = self.spec.items
        acc = self.counts.game_acc
        rows = []
        for seat in range(self.spec.players):
            m, lo, hi = mean_ci(acc[0, seat], acc[1, seat], g)
            # win shares (1/m for an m-way tie) as successes of a Wilson interval: sound at 0 and 1
            w, wlo, whi = wilson_ci(acc[2, seat] / 60.0, g)
            rows.append(
                {
                    "seat": seat,
                    "strategy": _strategy_label(self.spec.strategies[seat]),
                    "games": g,
                    "mean_total": m,
                    "mean_total_lo": lo,
                    "mean_total_hi": hi,
                    "win_rate": w,
                    "win_rate_lo": wlo,
                    "win_rate_hi": whi,
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
        import pandas as pd

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
    specials: str | list[str] | None = None,
    **run_options: Any,
) -> SimulationResult:
    """Run a simulation and return its :class:`SimulationResult` (tables and joint counts).

    Parameters are those of :func:`simulate`.
    """
    spec = make_spec(players, cards, hands, games, schedule, seed, strategy, rules, deck, specials)
    counts = run_counts(spec, jobs, **run_options)
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
    specials: str | list[str] | None = None,
    **run_options: Any,
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
    specials
        Special cards mixed into the deck: names (``"dragon,fairy"``) or ``"all"``.
    **run_options
        ``backend`` (``"loky"``/``"dask"``), ``scheduler``, ``checkpoint``,
        ``progress`` and ``numba_cache``, as for :func:`run_counts`.

    Returns
    -------
    pandas.DataFrame
        One row per (strategy, cards, position) with rounds, mean bid, mean
        tricks, hit rate, mean |bid - tricks| and mean score, each with
        ``_lo``/``_hi`` 95% bounds. ``attrs`` holds the provenance (wizsim
        version, seed, rules, strategies, sample size).
    """
    return simulate_result(
        players, cards, hands, games, schedule, seed, strategy, rules, jobs, deck, specials, **run_options
    ).table()
