"""Public simulation API: run a simulation and build its tables.

What a run is (:class:`RunSpec`, :func:`make_spec`, chunk seeding,
:class:`Counts`) lives in :mod:`wizsim.run.spec`, and the names the tables and
analyses need are re-exported here; how its chunks are run (local processes,
Dask, checkpoints, progress) is :func:`wizsim.run.parallel.run_counts`. Results
are identical for every ``jobs`` and backend.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

from ..engine import layout as L
from ..errors import WizsimError
from ..game import cards as C
from ..game.rules import Rules
from . import parallel
from .precision import capped_hands, run_to_precision
from .spec import (
    AUX_HIT,
    AUX_MISS,
    AUX_MISS_SQ,
    AUX_SCORE,
    AUX_SCORE_SQ,
    CHUNK_GAMES,
    CHUNK_ROUNDS,
    Counts,
    RunSpec,
    make_spec,
    strategy_label,
)
from .stats import mean_ci, wilson_ci

kernel_tables = C.kernel_tables


@dataclass
class SimulationResult:
    """The counts of a run plus what is needed to turn them into tables.

    Parameters
    ----------
    spec : RunSpec
        The run: players, round sizes or games, seed, strategies, rules, deck.
    counts : Counts
        The integer counts the run added up (joint bid/tricks counts, hits,
        misses, scores, game totals).
    attrs : dict, optional
        The provenance copied into every table's ``attrs``.
    """

    spec: RunSpec
    counts: Counts
    attrs: dict = field(default_factory=dict)

    def _group_seats(self) -> list[tuple[str, list[int]]]:
        labels = [strategy_label(s) for s in self.spec.strategies]
        groups: dict[str, list[int]] = {}
        for seat, label in enumerate(labels):
            groups.setdefault(label, []).append(seat)
        return list(groups.items())

    def table(self, by_position: bool = True) -> pd.DataFrame:
        """Per strategy, round size and seat position (1 = leads, N = dealer): estimates with 95% intervals.

        Parameters
        ----------
        by_position : bool, default True
            With ``False`` the positions are pooled (one row per strategy and round size).

        Returns
        -------
        pandas.DataFrame
            One row per (strategy, cards[, position]) with rounds, mean bid, mean tricks,
            mean |bid - tricks|, hit rate and mean score, each with ``_lo``/``_hi`` 95% bounds;
            ``attrs`` holds the provenance.
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
        """Per strategy over all round sizes and positions: hit rate and points per round.

        Returns
        -------
        pandas.DataFrame
            One row per strategy: its seats, rounds, ``hit_rate`` and ``mean_score``, each with
            ``_lo``/``_hi`` 95% bounds; ``attrs`` holds the provenance.
        """
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
        """Per seat (seat 0 deals round 1): games, mean total and win rate with 95% intervals.

        Returns
        -------
        pandas.DataFrame
            One row per seat: its strategy, games, ``mean_total`` and ``win_rate`` (a tie shared),
            each with ``_lo``/``_hi`` 95% bounds; ``attrs`` holds the provenance.

        Raises
        ------
        WizsimError
            When the run played rounds, not full games.
        """
        import pandas as pd

        if not self.spec.games_mode:
            raise WizsimError("games_table needs a run of full games (--games G)")
        g = self.spec.items
        acc = self.counts.game_acc
        rows = []
        for seat in range(self.spec.players):
            m, lo, hi = mean_ci(acc[L.G_TOTAL, seat], acc[L.G_TOTAL_SQ, seat], g)
            # win shares (1/m for an m-way tie) as successes of a Wilson interval: sound at 0 and 1
            w, wlo, whi = wilson_ci(acc[L.G_WINS, seat] / L.WIN_SHARE, g)
            rows.append(
                {
                    "seat": seat,
                    "strategy": strategy_label(self.spec.strategies[seat]),
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

        Parameters
        ----------
        by : {"position", "seat", "strategy"}, default "position"
            What the counts are split by: the seat position (1 = leads), the seat, or the
            strategy label (its seats pooled).

        Returns
        -------
        pandas.DataFrame
            Columns ``by``, ``cards``, ``bid``, ``tricks`` and ``count``; ``attrs`` holds the provenance.

        Raises
        ------
        WizsimError
            When ``by`` is none of the three.
        """
        import pandas as pd

        j = self.counts.joint
        rows = []
        keys: list[tuple[int | str, np.ndarray]]
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


def hit_rate_half_width(spec: RunSpec, counts: Counts) -> float:
    """The widest half-width, over the run's strategies, of the 95% (Wilson) interval of the hit rate: what
    ``precision`` targets (:func:`simulate_result`, ``wizsim simulate --precision``)."""
    s = SimulationResult(spec, counts).summary()
    return float(((s.hit_rate_hi - s.hit_rate_lo) / 2).max())


def precise_result(spec: RunSpec, precision: float, options: parallel.RunOptions, what: str = "precision") -> SimulationResult:
    """:func:`~wizsim.run.precision.run_to_precision` of ``spec`` (its ``items`` the cap) on the hit rate
    (:func:`hit_rate_half_width`), as a :class:`SimulationResult` whose provenance says how the sample was sized
    (``precision``, and a ``sample`` line for the header). ``what`` names the target in errors."""
    cap = spec.items
    done, counts = run_to_precision(spec, precision, hit_rate_half_width, options, what=what)
    unit = "games" if done.games_mode else "hands"
    prov = {**done.provenance(), "precision": precision}
    prov["sample"] = (
        f"{done.rounds:,} rounds: the first {done.n_chunks} chunks that put every hit rate within "
        f"+-{precision:g} (95%), cap {cap:,} {unit}"
    )
    return SimulationResult(done, counts, prov)


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

    Parameters
    ----------
    players : int
        3 to 6.
    cards, hands : int, optional
        ``hands`` independent rounds of ``cards`` cards each, as for :func:`simulate`.
    games : int, optional
        ``games`` full games, as for :func:`simulate`.
    schedule : list of int or str, optional
        The hand sizes of a full game, as for :func:`simulate`.
    seed : int, default 0
        Seed of the run; the same seed gives the same numbers for any ``jobs``.
    strategy : str or list, default "random"
        One strategy name for every seat or one per seat (list or comma-separated).
    rules : Rules, dict or list of str, optional
        ``KEY=VALUE`` strings, a dict, or :class:`~wizsim.game.rules.Rules`.
    jobs : int, default 1
        Local worker processes.
    deck : list of str, optional
        A custom reduced deck (card names).
    specials : str or list of str, optional
        Special cards mixed into the deck: names (``"dragon,fairy"``) or ``"all"``.
    **run_options
        The run options of :func:`simulate` (``backend``, ``scheduler``, ``checkpoint``,
        ``progress``, ``numba_cache``) and ``precision``, the hit rate's target 95% half-width.

    Returns
    -------
    SimulationResult
        The run's counts and provenance: ``table()``, ``summary()``, ``games_table()``
        and ``joint_counts()`` build its tables.
    """
    precision = run_options.pop("precision", None)
    if precision is not None:
        hands = capped_hands(cards, hands, games)
    spec = make_spec(players, cards, hands, games, schedule, seed, strategy, rules, deck, specials)
    if precision is None:
        return SimulationResult(spec, parallel.run_counts(spec, jobs=jobs, **run_options), spec.provenance())
    return precise_result(spec, precision, parallel.RunOptions(jobs=jobs, **run_options))


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
        ``KEY=VALUE`` strings, a dict, or :class:`~wizsim.game.rules.Rules`.
    jobs
        Local worker processes.
    deck
        A custom reduced deck (card names), e.g. for exact enumeration.
    specials
        Special cards mixed into the deck: names (``"dragon,fairy"``) or ``"all"``.
    **run_options
        ``backend`` (``"loky"``/``"dask"``), ``scheduler``, ``checkpoint``,
        ``progress`` and ``numba_cache``, as for :func:`wizsim.run.parallel.run_counts`; and
        ``precision``: stop once every strategy's hit rate has a 95% interval no wider than ``+- precision`` (e.g. 0.002):
        fixed chunks run in order and the first that is precise enough ends the run, the same for any ``jobs``
        (:mod:`wizsim.run.precision`). ``hands`` or ``games`` is then the cap (default
        :data:`~wizsim.run.precision.DEFAULT_CAP_HANDS` rounds); a cap reached first is a WizsimError.

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


__all__ = [
    "AUX_HIT",
    "AUX_MISS",
    "AUX_MISS_SQ",
    "AUX_SCORE",
    "AUX_SCORE_SQ",
    "CHUNK_GAMES",
    "CHUNK_ROUNDS",
    "Counts",
    "RunSpec",
    "SimulationResult",
    "kernel_tables",
    "make_spec",
    "simulate",
    "hit_rate_half_width",
    "precise_result",
    "simulate_result",
    "strategy_label",
]
