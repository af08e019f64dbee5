"""Duplicate tournaments: strategies compared on the same deals under every seating.

In a duplicate tournament every deal is played once for every seating of the
strategies in a balanced set, so the luck of the cards cancels: a strategy
that scores more than another does so on the very same cards, from every
seat. This works because the engine's dealing stream depends only on the
seed, the chunk and the deck, never on the players: running the same seed
with each seating deals identical hands (the run checks this as it goes).

Seatings
--------
With ``m`` strategies at ``n`` seats (``2 <= m <= n``), ``n = q m + r``:
every seating gives ``r`` strategies ``q + 1`` seats and the others ``q``.
The seatings used are, for every choice of the ``r`` strategies that get the
extra seat, every distinct arrangement of that multiset over the seats (e.g.
two strategies at four seats: the 6 arrangements with two seats each). When
that set has more than :data:`MAX_FULL_SEATINGS` members (4 strategies at 5
seats, 4-6 strategies at 6 seats), a smaller cyclic set is used instead: for
each of the ``2 m`` orders of the strategies obtained by rotating and
reversing the given list, the pattern "seat ``p`` gets the order's strategy
``p mod m``" under each of the ``n`` rotations of the seats (duplicates
dropped). Both sets give every strategy every seat equally often and the
same number of seats in total; the cyclic set does not vary who sits next to
whom as much as the full set. :func:`seatings` returns the set.

Statistics
----------
The unit of independence is the deal: one round (``cards``/``deals``) or one
full game (``games``). For each deal and strategy the run adds up, over all
seatings and all seats the strategy holds, integer counts: points, bids made
(final bid = tricks), ``|final bid - tricks|``, table wins (in 60ths: ``m``
tied winners get ``60 / m`` each), rounds played and seats held. Each
chunk of deals is reduced at once to the exact integer sums of these per-deal
vectors and of their pairwise products, so memory stays flat and the result
is identical for every ``jobs``. Each metric is a ratio of two such sums,
e.g. points per round = points / rounds played, i.e. per deal the average
over every seat the strategy held under every seating. Its 95% interval is
mean ± 1.96 SE with the SE of the per-deal values (the delta method for the
ratio, which is exactly the per-deal mean's SE whenever the denominator is
the same for every deal, as it is except in elimination games). Pairwise
differences are paired: the SE is that of the per-deal differences.

Win rate: in ``cards`` mode the share of round-table wins (highest round
score at the table, ties share); in ``games`` mode the share of game wins
(highest total among the players still in, ties share), per seat held.

Caveats: in elimination games the players eliminated differ between
seatings, so later rounds are not the same deals for everyone (hands are
not checked there) and the comparison is less tightly paired.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..errors import WizsimError
from ..players.strategies import Strategy, make_strategy, split_top_level
from ..run.header import header_line
from ..run.parallel import Checkpoint, Progress, RunOptions, block_items, chunks_done, workers
from ..run.spec import MAX_ITEMS, RunSpec, as_int, make_spec, strategy_label
from ..run.stats import Z95, format_pct, format_pm

MAX_FULL_SEATINGS = 120  # above this many arrangements, the cyclic set is used

# per-deal quantities, per strategy (integer sums over seatings and seats)
Q_POINTS, Q_HITS, Q_MISS, Q_WIN60, Q_ROUNDS, Q_SEATS = range(6)
N_Q = 6

# metric name -> (numerator, denominator, scale): estimate = sum(num) / (scale * sum(den))
METRICS: dict[str, tuple[int, int, int]] = {
    "points_per_round": (Q_POINTS, Q_ROUNDS, 1),
    "points_per_game": (Q_POINTS, Q_SEATS, 1),
    "hit_rate": (Q_HITS, Q_ROUNDS, 1),
    "mean_abs_diff": (Q_MISS, Q_ROUNDS, 1),
    "win_rate": (Q_WIN60, Q_SEATS, 60),
}
RATES = ("hit_rate", "win_rate")  # proportions: intervals clipped to [0, 1]


# --------------------------------------------------------------------------- seatings


def _full_count(m: int, n: int) -> int:
    q, r = divmod(n, m)
    return math.comb(m, r) * math.factorial(n) // (math.factorial(q + 1) ** r * math.factorial(q) ** (m - r))


def seatings(m: int, n: int) -> list[tuple[int, ...]]:
    """The balanced set of seatings of ``m`` strategies at ``n`` seats (see the module docstring).

    Parameters
    ----------
    m : int
        Number of strategies, ``1 <= m <= n``.
    n : int
        Number of seats (players).

    Returns
    -------
    list of tuple of int
        Sorted seatings; ``seating[seat]`` is the index of the strategy in that seat. Every
        strategy holds every seat equally often and the same number of seats in total.
    """
    if m < 1 or m > n:
        raise WizsimError(f"{m} strategies cannot share {n} seats: give at most {n} strategies (one per player)")
    q, r = divmod(n, m)
    out: set[tuple[int, ...]] = set()
    if _full_count(m, n) <= MAX_FULL_SEATINGS:
        for extra in itertools.combinations(range(m), r):
            multiset = [s for s in range(m) for _ in range(q + (s in extra))]
            out.update(itertools.permutations(multiset))
    else:
        forward = [tuple((j + i) % m for i in range(m)) for j in range(m)]
        for order in forward + [o[::-1] for o in forward]:
            base = [order[p % m] for p in range(n)]
            out.update(tuple(base[(p + rot) % n] for p in range(n)) for rot in range(n))
    result = sorted(out)
    counts = np.zeros((m, n), dtype=np.int64)
    for seating in result:
        counts[list(seating), range(n)] += 1
    if not (counts == counts[0, 0]).all():  # a guard on the construction above
        raise AssertionError(f"unbalanced seatings for {m} strategies at {n} seats")
    return result


# --------------------------------------------------------------------------- per-chunk work


def _seating_spec(base: dict[str, Any], strategies: list[Strategy], seating: tuple[int, ...]) -> RunSpec:
    return make_spec(**base, strategy=[strategies[s] for s in seating])


def _chunk_values(spec: RunSpec, chunk: int, seating: tuple[int, ...], m: int) -> tuple[np.ndarray, str]:
    """Per-deal quantities of one chunk under one seating: int64 [deals, m, N_Q], and a digest of the hands."""
    from ..run.history import record_chunk_arrays

    _, rec = record_chunk_arrays(spec, chunk)
    seats = rec.seats
    n = spec.players
    per_deal = len(spec.schedule)
    won, scores, final = rec.tricks_won, rec.scores, rec.final_bids
    valid = seats >= 0  # round seats in play (all but after an elimination)
    hit = ((final == won) & valid).astype(np.int64)
    miss = np.abs(final - won) * valid
    # round seat -> game seat
    onehot = (seats[:, :, None] == np.arange(n)[None, None, :]) & valid[:, :, None]  # [rows, j, g]
    oh = onehot.astype(np.int64)

    def by_game_seat(x: np.ndarray) -> np.ndarray:
        per_row = np.einsum("rj,rjg->rg", x * valid, oh)
        return per_row.reshape(-1, per_deal, n).sum(axis=1)  # [deals, g]

    points = by_game_seat(scores)
    hits = by_game_seat(hit)
    misses = by_game_seat(miss)
    rounds = by_game_seat(np.ones_like(scores))
    in_final = onehot[per_deal - 1 :: per_deal].any(axis=1)  # players in the deal's last round
    top = np.where(in_final, points, np.iinfo(np.int64).min).max(axis=1, keepdims=True)
    is_top = in_final & (points == top)
    win60 = is_top * (60 // is_top.sum(axis=1, keepdims=True))
    held = np.ones_like(points)
    q = np.stack([points, hits, misses, win60, rounds, held], axis=-1)  # [deals, g, N_Q]
    strat_of_seat = np.zeros((n, m), dtype=np.int64)
    strat_of_seat[np.arange(n), list(seating)] = 1
    values = np.einsum("dgq,gs->dsq", q, strat_of_seat)
    digest = hashlib.sha256(np.ascontiguousarray(rec.hands).tobytes()).hexdigest()
    return values, digest


def _as_text(a: np.ndarray) -> np.ndarray:
    """Exact integers (any size) as decimal strings, for a checkpoint file."""
    return np.array([str(int(x)) for x in a.ravel()]).reshape(a.shape)


def _load_chunk(ckpt: Checkpoint, chunk: int, dims: int, seats_held: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The (sums, gram) of a finished chunk in the checkpoint, or None if missing or unusable.

    ``seats_held`` is what every strategy's seats-held sum must be (a check that the file is whole).
    """
    arrays = ckpt.load(chunk, chunk + 1)
    if arrays is None:
        return None
    if set(arrays) != {"sums", "gram"}:
        ckpt.damaged(chunk, chunk + 1, f"it holds {sorted(arrays)}, not sums and gram")
        return None
    try:
        sums = np.array([int(x) for x in arrays["sums"].ravel()], dtype=object)
        gram = np.array([int(x) for x in arrays["gram"].ravel()], dtype=object)
    except (TypeError, ValueError):
        ckpt.damaged(chunk, chunk + 1, "its sums are not whole numbers")
        return None
    if sums.shape != (dims,) or gram.shape != (dims * dims,):
        ckpt.damaged(chunk, chunk + 1, "its sums are not those of this tournament's strategies")
        return None
    if any(sums[s + Q_SEATS] != seats_held for s in range(0, dims, N_Q)):
        ckpt.damaged(chunk, chunk + 1, "its sums are not those of its deals")
        return None
    return sums, gram.reshape(dims, dims)


# --------------------------------------------------------------------------- result


def _nan_to_none(x: float) -> float | None:
    return None if x != x else float(x)


@dataclass
class TournamentResult:
    """Exact integer sums of a duplicate tournament, and the tables made from them.

    :func:`tournament` makes it; each parameter is kept as the attribute of the same name.

    Parameters
    ----------
    strategies : list of str
        Names of the strategies (canonical labels; a repeated one gets ``#2``, ``#3``...).
    labels : list of str
        Canonical labels (equal for copies of one strategy).
    seatings : list of tuple of int
        The seatings played (``seating[seat]`` = strategy index).
    deals : int
        Number of deals (rounds in ``cards`` mode, games in ``games`` mode).
    games_mode : bool
        Whether a deal is a full game.
    sums : numpy.ndarray
        Object array [m * N_Q] of Python ints: sums over deals of the per-deal quantities.
    gram : numpy.ndarray
        Object array [m * N_Q, m * N_Q] of Python ints: sums over deals of their products.
    attrs : dict
        Provenance (seed, players, rules, ...).
    """

    strategies: list[str]
    labels: list[str]
    seatings: list[tuple[int, ...]]
    deals: int
    games_mode: bool
    sums: np.ndarray
    gram: np.ndarray
    attrs: dict = field(default_factory=dict)

    # -- estimation
    def _cov(self) -> np.ndarray:
        """Sample covariance of the per-deal vectors (exact integers until the final division)."""
        n = self.deals
        if n < 2:
            return np.full(self.gram.shape, np.nan)
        centred = n * self.gram - np.outer(self.sums, self.sums)  # Python ints: exact
        return centred.astype(np.float64) / (n * (n - 1))

    def _metrics(self) -> list[str]:
        return [k for k in METRICS if self.games_mode or k != "points_per_game"]

    def _linear(self, s: int, metric: str) -> tuple[float, np.ndarray]:
        """The estimate of ``metric`` for strategy ``s`` and its linearisation (coefficients on the vector)."""
        num, den, scale = METRICS[metric]
        i, j = s * N_Q + num, s * N_Q + den
        mean_den = int(self.sums[j]) / self.deals
        est = int(self.sums[i]) / (scale * int(self.sums[j]))
        c = np.zeros(len(self.sums))
        c[i] = 1.0 / (scale * mean_den)
        c[j] = -est / mean_den
        return est, c

    def _interval(
        self, est: float, c: np.ndarray, cov: np.ndarray, bounds: tuple[float, float] | None
    ) -> tuple[float, float]:
        """Mean ± 1.96 SE; for a quantity within ``bounds`` (rates, their differences), clipped to them.

        When every deal gave the same value and that value is a bound (a strategy won all of
        100 games, or none), the SE is 0 and says nothing: the interval then takes in what the
        mean would be if up to ``u = 1.96**2 / (n + 1.96**2)`` of the deals (the Wilson upper
        bound for 0 of ``n``) had any other value within the bounds.
        """
        var = float(c @ cov @ c)
        if var != var:
            return math.nan, math.nan
        half = Z95 * math.sqrt(max(var, 0.0) / self.deals)
        lo, hi = est - half, est + half
        if bounds is not None:
            at_bound = min(abs(est - bounds[0]), abs(est - bounds[1])) < 1e-12
            if var <= 0.0 and at_bound:
                u = Z95 * Z95 / (self.deals + Z95 * Z95)
                lo, hi = est - u * (est - bounds[0]), est + u * (bounds[1] - est)
            lo, hi = max(lo, bounds[0]), min(hi, bounds[1])
        return lo, hi

    def _upper(self, metric: str) -> float:
        """The largest possible value of a rate: 1, or ``m / n`` for the win rate per seat held."""
        if metric == "win_rate":  # one win per table and seating, shared by the seats the strategy holds
            return len(self.strategies) / len(self.seatings[0])
        return 1.0

    def table(self) -> pd.DataFrame:
        """Per strategy: each metric with its 95% interval (``_lo``/``_hi``).

        Returns
        -------
        pandas.DataFrame
            Columns ``strategy``, ``deals``, ``seatings``, ``seat_rounds`` (rounds played, summed
            over seatings and seats), then ``points_per_round``, ``points_per_game`` (games mode
            only), ``hit_rate``, ``mean_abs_diff`` and ``win_rate``, each with ``_lo`` and ``_hi``.
        """
        cov = self._cov()
        rows = []
        for s, name in enumerate(self.strategies):
            row: dict[str, Any] = {
                "strategy": name,
                "deals": self.deals,
                "seatings": len(self.seatings),
                "seat_rounds": int(self.sums[s * N_Q + Q_ROUNDS]),
            }
            for metric in self._metrics():
                est, c = self._linear(s, metric)
                lo, hi = self._interval(est, c, cov, (0.0, self._upper(metric)) if metric in RATES else None)
                row[metric], row[f"{metric}_lo"], row[f"{metric}_hi"] = est, lo, hi
            rows.append(row)
        df = pd.DataFrame(rows)
        df.attrs.update(self.attrs)
        return df

    def pairwise(self) -> pd.DataFrame:
        """Paired differences ``a - b`` for every pair of strategies (``a`` listed before ``b``).

        Returns
        -------
        pandas.DataFrame
            Columns ``strategy_a``, ``strategy_b``, ``deals``, then ``<metric>_diff`` with
            ``_lo``/``_hi`` for every metric of :meth:`table`; the interval is mean ± 1.96 SE of
            the per-deal differences.
        """
        cov = self._cov()
        rows = []
        m = len(self.strategies)
        for a, b in itertools.combinations(range(m), 2):
            row: dict[str, Any] = {"strategy_a": self.strategies[a], "strategy_b": self.strategies[b]}
            row["deals"] = self.deals
            for metric in self._metrics():
                ea, ca = self._linear(a, metric)
                eb, cb = self._linear(b, metric)
                d = ea - eb
                bounds = (-self._upper(metric), self._upper(metric)) if metric in RATES else None
                lo, hi = self._interval(d, ca - cb, cov, bounds)
                row[f"{metric}_diff"], row[f"{metric}_diff_lo"], row[f"{metric}_diff_hi"] = d, lo, hi
            rows.append(row)
        df = pd.DataFrame(rows)
        df.attrs.update(self.attrs)
        return df

    def to_records(self) -> list[dict[str, Any]]:
        """One JSON-ready dict per strategy (the ``--json`` output).

        Each holds ``strategy``, ``deals``, ``seatings``, every metric and ``<metric>_ci``
        (``[low, high]``), and ``vs``: for every other strategy, ``diff`` and ``ci`` of points per
        round (this strategy minus the other) and ``<metric>_diff`` / ``<metric>_diff_ci`` of the
        other metrics. Missing intervals (one deal) are ``null``.

        Returns
        -------
        list of dict
            One record per strategy, in the order of :meth:`table`.
        """
        table = self.table()
        pairs = self.pairwise()
        out = []
        for r in table.itertuples(index=False):
            rec: dict[str, Any] = {"strategy": r.strategy, "deals": int(r.deals), "seatings": int(r.seatings)}
            for metric in self._metrics():
                rec[metric] = _nan_to_none(getattr(r, metric))
                rec[f"{metric}_ci"] = [
                    _nan_to_none(getattr(r, f"{metric}_lo")),
                    _nan_to_none(getattr(r, f"{metric}_hi")),
                ]
            vs: dict[str, Any] = {}
            for p in pairs.itertuples(index=False):
                if r.strategy not in (p.strategy_a, p.strategy_b):
                    continue
                sign, other = (1.0, p.strategy_b) if p.strategy_a == r.strategy else (-1.0, p.strategy_a)
                entry: dict[str, Any] = {}
                for metric in self._metrics():
                    d, lo, hi = (getattr(p, f"{metric}_diff{x}") for x in ("", "_lo", "_hi"))
                    lo, hi = (lo, hi) if sign > 0 else (-hi, -lo)
                    ci = [_nan_to_none(lo), _nan_to_none(hi)]
                    if metric == "points_per_round":
                        entry["diff"], entry["ci"] = _nan_to_none(sign * d), ci
                    else:
                        entry[f"{metric}_diff"], entry[f"{metric}_diff_ci"] = _nan_to_none(sign * d), ci
                vs[other] = entry
            rec["vs"] = vs
            out.append(rec)
        return out

    def to_json(self) -> str:
        """The ``--json`` output: ``{"run": the run's provenance (:mod:`wizsim.run.header` fields), "strategies":
        :meth:`to_records`}``.

        Returns
        -------
        str
            The JSON text, indented by 2.
        """
        return json.dumps({"run": self.attrs, "strategies": self.to_records()}, indent=2)


# --------------------------------------------------------------------------- running


def _names(strategies: str | list | tuple) -> tuple[list[str], list[str], list[Strategy]]:
    """(canonical labels, unique display names, the strategies) of the strategies."""
    parts = split_top_level(strategies) if isinstance(strategies, str) else list(strategies)
    objs = [make_strategy(p if isinstance(p, Strategy) else str(p)) for p in parts]  # a bid rule has no name to parse
    labels = [strategy_label(o) for o in objs]
    seen: dict[str, int] = {}
    names = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        names.append(label if seen[label] == 1 else f"{label}#{seen[label]}")
    return labels, names, objs


def tournament(
    players: int,
    strategies: str | list[str | Strategy],
    cards: int | None = None,
    deals: int | None = None,
    games: int | None = None,
    schedule: list[int] | str | None = None,
    seed: int = 0,
    rules: dict | list[str] | None = None,
    specials: str | list[str] | None = None,
    jobs: int = 1,
    **run_options: Any,
) -> TournamentResult:
    """Play a duplicate tournament: every deal once under every seating of the strategies.

    Parameters
    ----------
    players : int
        Players at the table, 3 to 6.
    strategies : str or list of str or Strategy
        Two or more strategies, at most ``players`` (names, or objects such as
        :func:`wizsim.players.strategies.bid_rule`'s): ``"heuristic,random"`` (split at commas
        outside brackets, so ``"heuristic(pass=random),random"`` works) or a list. A strategy
        may appear twice (the second copy is named ``NAME#2``).
    cards, deals : int, optional
        Independent deals of ``cards`` cards each; a deal is one round.
    games : int, optional
        Full games instead (60 / players rounds, or ``schedule``); a deal is one game.
    schedule : list of int or str, optional
        Hand sizes of each game's rounds (with ``games``).
    seed : int
        Seed: the same seed deals the same cards (and gives the same numbers).
    rules : dict or list of str, optional
        Rule options as for :func:`wizsim.simulate`.
    specials : str or list of str, optional
        Special cards to mix in, as for :func:`wizsim.simulate`.
    jobs : int
        Local worker processes; the result is the same for every value.
    **run_options
        ``backend``, ``scheduler``, ``checkpoint``, ``progress`` and ``numba_cache`` as for
        :class:`wizsim.run.parallel.RunOptions`. With ``checkpoint`` every finished chunk of deals
        is kept in that folder; rerunning the same tournament resumes it, with the same result.

    Returns
    -------
    TournamentResult
        With :meth:`~TournamentResult.table` and :meth:`~TournamentResult.pairwise`.

    Raises
    ------
    WizsimError
        For bad input (unknown strategy, more strategies than players, fewer than two, ...).
    """
    labels, names, objs = _names(strategies)
    if len(labels) < 2:
        raise WizsimError(f"a tournament needs at least two strategies, got {len(labels)}: give e.g. heuristic,random")
    options = RunOptions(jobs=jobs, **run_options)
    base = _deal_arguments(cards, deals, games, schedule)
    base.update(players=players, seed=seed, rules=rules, specials=specials)
    spec0 = make_spec(**base, strategy=[objs[0]])  # validates everything but the strategy count
    players = spec0.players
    m = len(labels)
    if m > players:
        raise WizsimError(f"{m} strategies cannot share {players} seats: give at most {players} strategies")
    seats = seatings(m, players)
    specs = [_seating_spec(base, objs, s) for s in seats]
    sums, gram = _duplicate_sums(spec0, specs, seats, labels, options)
    return TournamentResult(names, labels, seats, spec0.items, spec0.games_mode, sums, gram,
                            _provenance(spec0, names, len(seats)))  # fmt: skip


def _deal_arguments(cards: int | None, deals: int | None, games: int | None, schedule: Any) -> dict[str, Any]:
    """The :func:`make_spec` arguments of what a deal is: ``games`` full games, or ``deals`` rounds of ``cards``."""
    if games is not None:
        if cards is not None or deals is not None:
            raise WizsimError("give either --games G or --cards K --deals D, not both")
        return {"games": games, "schedule": schedule}
    if cards is None or deals is None:
        raise WizsimError("give --cards K --deals D (independent deals) or --games G (full games)")
    if schedule is not None:
        raise WizsimError("--schedule goes with --games")
    deals = as_int("deals", deals)
    if not 1 <= deals <= MAX_ITEMS:
        raise WizsimError(f"deals must be between 1 and {MAX_ITEMS:.0e}, got {deals}")
    return {"cards": cards, "hands": deals}


def _duplicate_sums(
    spec0: RunSpec, specs: list[RunSpec], seats: list[tuple[int, ...]], labels: list[str], options: RunOptions
) -> tuple[np.ndarray, np.ndarray]:
    """Sums and Gram matrix (exact integers) of every deal's values, each deal summed over all seatings.

    Each chunk of deals is played under every seating, one task each, in task order so that one
    chunk's seatings are held at a time; their values are added, so the luck of the cards cancels
    in the differences between strategies. With a checkpoint, finished chunks are loaded, not rerun.
    """
    m, players = len(labels), spec0.players
    n_chunks = specs[0].n_chunks
    elimination = spec0.rules.has("elimination")

    identity = spec0.provenance()
    identity.update(strategies=labels, seatings=len(seats))
    ckpt = (
        Checkpoint(options.checkpoint, identity, n_chunks, block_chunks=1) if options.checkpoint is not None else None
    )
    held = len(seats) * players // m  # seats a strategy holds per deal, over all seatings
    dims = m * N_Q
    sums, gram, todo, done_deals = _resumed(ckpt, spec0, n_chunks, dims, held)
    index = {s: i for i, s in enumerate(seats)}
    tasks = [(specs[i], c, seats[i], m) for c in todo for i in range(len(seats))]
    acc: np.ndarray | None = None
    digest0 = ""
    done_chunks = n_chunks - len(todo)
    bar = Progress(spec0.items, " deals", options.progress, initial=done_deals, desc=chunks_done(done_chunks, n_chunks))
    with workers(options) as pool, bar:
        # in task order: one chunk's seatings held at a time
        for (_, chunk, seating, _), (values, digest) in pool.map(_chunk_values, tasks, ordered=True):
            i = index[seating]
            if i == 0:
                acc, digest0 = values.copy(), digest
            else:
                assert acc is not None
                if digest != digest0 and not elimination:
                    raise AssertionError(f"chunk {chunk}: seating {seats[i]} was dealt other cards than {seats[0]}")
                acc += values
            if i == len(seats) - 1:
                flat = acc.reshape(acc.shape[0], dims)
                part_sums, part_gram = flat.sum(axis=0).astype(object), (flat.T @ flat).astype(object)
                if ckpt is not None:
                    ckpt.save(chunk, chunk + 1, {"sums": _as_text(part_sums), "gram": _as_text(part_gram)})
                sums += part_sums
                gram += part_gram
                acc = None
                done_chunks += 1
                bar.update(block_items(spec0, chunk, chunk + 1), desc=chunks_done(done_chunks, n_chunks))
    return sums, gram


def _resumed(
    ckpt: Checkpoint | None, spec0: RunSpec, n_chunks: int, dims: int, held: int
) -> tuple[np.ndarray, np.ndarray, list[int], int]:
    """The sums and Gram matrix of the chunks a checkpoint kept, the chunks still to play, and the deals done."""
    sums = np.zeros(dims, dtype=object)
    gram = np.zeros((dims, dims), dtype=object)
    sums[:] = 0
    gram[:, :] = 0
    todo, done_deals = [], 0
    for chunk in range(n_chunks):
        kept = _load_chunk(ckpt, chunk, dims, held * block_items(spec0, chunk, chunk + 1)) if ckpt else None
        if kept is None:
            todo.append(chunk)
        else:
            sums += kept[0]
            gram += kept[1]
            done_deals += block_items(spec0, chunk, chunk + 1)
    return sums, gram, todo, done_deals


def _provenance(spec0: RunSpec, names: list[str], n_seatings: int) -> dict[str, Any]:
    """The tournament's provenance: the run's, with the strategies, deals, seatings and rounds played."""
    items = spec0.items
    prov = spec0.provenance()
    for key in ("strategies", "rounds", "chunk_size"):
        prov.pop(key, None)
    prov.update(
        {
            "tournament_strategies": names,
            "deals": items,
            "seatings": n_seatings,
            "rounds_played": items * len(spec0.schedule) * n_seatings,
        }
    )
    return prov


# --------------------------------------------------------------------------- text output


def format_result(res: TournamentResult) -> str:
    """The tournament as text: per strategy, then every pairwise difference, with 95% intervals."""
    pm, pct = format_pm, format_pct
    t = res.table()
    cols: dict[str, list[str]] = {"strategy": list(t.strategy)}
    cols["points/round"] = [
        pm(r.points_per_round, r.points_per_round_lo, r.points_per_round_hi, 3) for r in t.itertuples()
    ]
    if res.games_mode:
        cols["points/game"] = [
            pm(r.points_per_game, r.points_per_game_lo, r.points_per_game_hi, 2) for r in t.itertuples()
        ]
    cols["hit % [95% CI]"] = [pct(r.hit_rate, r.hit_rate_lo, r.hit_rate_hi) for r in t.itertuples()]
    cols["|bid-tricks|"] = [pm(r.mean_abs_diff, r.mean_abs_diff_lo, r.mean_abs_diff_hi, 3) for r in t.itertuples()]
    cols["win % [95% CI]"] = [pct(r.win_rate, r.win_rate_lo, r.win_rate_hi) for r in t.itertuples()]
    p = res.pairwise()
    pcols: dict[str, list[str]] = {"a - b": [f"{r.strategy_a} - {r.strategy_b}" for r in p.itertuples()]}
    pcols["points/round"] = [
        pm(r.points_per_round_diff, r.points_per_round_diff_lo, r.points_per_round_diff_hi, 3) for r in p.itertuples()
    ]
    if res.games_mode:
        pcols["points/game"] = [
            pm(r.points_per_game_diff, r.points_per_game_diff_lo, r.points_per_game_diff_hi, 2) for r in p.itertuples()
        ]
    pcols["hit % pts [95% CI]"] = [pct(r.hit_rate_diff, r.hit_rate_diff_lo, r.hit_rate_diff_hi) for r in p.itertuples()]
    pcols["|bid-tricks|"] = [
        pm(r.mean_abs_diff_diff, r.mean_abs_diff_diff_lo, r.mean_abs_diff_diff_hi, 3) for r in p.itertuples()
    ]
    pcols["win % pts [95% CI]"] = [pct(r.win_rate_diff, r.win_rate_diff_lo, r.win_rate_diff_hi) for r in p.itertuples()]
    a = res.attrs
    head = header_line(
        dict(a, strategies=a["tournament_strategies"],
             sample=f"{a['seatings']} seatings each ({a['rounds_played']:,} rounds)"),
        "duplicate tournament",
    )  # fmt: skip
    return "\n".join(
        [
            head,
            pd.DataFrame(cols).to_string(index=False),
            "",
            "paired differences a - b on the same deals (± half-width of the 95% interval, or [low, high]):",
            pd.DataFrame(pcols).to_string(index=False),
        ]
    )
