"""Training the ``learned`` player: log pimc's decisions, turn them into features, fit the network.

1. :func:`generate` plays rounds with ``pimc`` at every seat and logs every
   card decision with a choice: the state row and each candidate's total
   score over the deals pimc played it in (``engine.players.learned``,
   ``log_decision``).
2. :func:`featurize` turns the log into the network's one-hot feature indices
   (the same functions the kernel calls) and the targets: each candidate's
   mean score minus the mean over its decision's candidates, in points.
3. :func:`fit` fits the embedding-bag network (one hidden ReLU layer) by
   Adagrad on the squared error of those centred scores; deterministic for a
   seed (one thread, a seeded order).
4. :func:`evaluate` measures, on other decisions, what pimc's own values say
   a choice costs: the mean points below pimc's best candidate (regret) of the
   network's choice and of the ``table`` player's.

Everything here is numpy and Numba: no training library is needed.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..engine.bundles import FitData, Weights
from ..engine.layout import (
    HIDDEN,
    LOG_B_NB,
    LOG_B_WIDTH,
    LOG_NC,
    LOG_WIDTH,
    MAX_BID_FEATURES,
    MAX_FORM_FEATURES,
    MAX_STATE_FEATURES,
    N_CARD_FEATURES,
)
from ..engine.players import learned_fit as K
from ..run.spec import make_spec, run_block

SCALE = K.SCALE


@dataclass
class Decisions:
    """Featurized decisions: decision d's state features are ``sidx[d, :sn[d]]``; its candidates are
    ``cstart[d] .. cstart[d + 1] - 1``, candidate i with features ``cidx[i, :cn[i]]``, target ``adv[i]``
    (centred, in points), pimc's mean score ``value[i]`` and form ``form[i]``."""

    sidx: np.ndarray
    sn: np.ndarray
    cstart: np.ndarray
    cidx: np.ndarray
    cn: np.ndarray
    adv: np.ndarray
    value: np.ndarray
    form: np.ndarray

    @property
    def size(self) -> int:
        return self.sn.shape[0]


#: The decks and variants the player is fitted to: every one the analyses play (label, spec arguments, items).
#: Items are deals of 10 cards (``cards``) or full games (``games``); pimc plays every seat.
CONFIGS: list[tuple[str, dict, int]] = [
    ("4x10", {"players": 4, "cards": 10}, 24_000),
    *[(f"{n}p games", {"players": n, "games": True}, g) for n, g in ((3, 360), (4, 480), (5, 560), (6, 600))],
    *[
        (f"4p games {label}", {"players": 4, "games": True, "specials": sp}, 300)
        for label, sp in (
            ("dragon+fairy", "dragon,fairy"),
            ("bomb", "bomb"),
            ("werewolf", "werewolf"),
            ("juggler", "juggler"),
            ("cloud", "cloud"),
            ("shapeshifter", "shapeshifter"),
            ("all specials", "all"),
        )
    ],
    *[(f"{n}p games all specials", {"players": n, "games": True, "specials": "all"}, 240) for n in (3, 5, 6)],
    *[
        (f"4p games {label}", {"players": 4, "games": True, "rules": rules}, 300)
        for label, rules in (
            ("canadian", ["canadian=true"]),
            ("hidden simultaneous", ["hidden_bids=simultaneous"]),
            ("hidden secret", ["hidden_bids=secret"]),
            ("progressive", ["scoring=progressive"]),
            ("maximus", ["variant=maximus"]),
            ("elimination", ["variant=elimination"]),
        )
    ],
    (
        "4p games bomb cancels bids",
        {"players": 4, "games": True, "rules": ["bomb=cancel_bids"], "specials": "bomb"},
        300,
    ),
]
TASK_ITEMS = {"cards": 2_000, "games": 60}  # items per parallel task (a task is one seed)


def generate(items: int, seed: int, players: int = 4, cards: int | None = None, games: bool = False,
             strategy: str = "pimc(prune=0,rollout=0)", **spec_kw) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Log every pimc card decision with a choice and every bid decision in ``items`` deals (``cards``
    each) or full games of self-play; returns the two logs' rows (cards, bids)."""
    if games:
        spec = make_spec(players, games=items, seed=seed, strategy=strategy, **spec_kw)
    else:
        spec = make_spec(players, cards=cards, hands=items, seed=seed, strategy=strategy, **spec_kw)
    log = np.zeros((items * players * sum(spec.schedule), LOG_WIDTH), dtype=np.int64)
    bid_log = np.zeros((items * players * len(spec.schedule), LOG_B_WIDTH), dtype=np.int64)
    count, bid_count = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
    spec = dataclasses.replace(spec, log=(log, count, bid_log, bid_count))
    run_block(spec, 0, spec.n_chunks)
    return log[: count[0]].copy(), bid_log[: bid_count[0]].copy()


def tasks(scale: float, seed: int) -> list[tuple[str, dict, int, int]]:
    """The parallel tasks of a data set: (label, spec arguments, items, seed), ``scale`` times :data:`CONFIGS`."""
    out = []
    for ci, (label, kw, items) in enumerate(CONFIGS):
        per = TASK_ITEMS["games" if kw.get("games") else "cards"]
        total = max(1, round(items * scale))
        for ti, lo in enumerate(range(0, total, per)):
            out.append((label, kw, min(per, total - lo), seed * 1_000_000 + ci * 1000 + ti))
    return out


def run_task(task: tuple[str, dict, int, int], keep_log: bool = False,
             teacher: str = "pimc(prune=0,rollout=0)") -> tuple:  # fmt: skip
    """Generate and featurize one task (in a worker): (label, card decisions, bid decisions, raw logs or None).

    ``teacher``: the strategy at every seat whose decisions are logged (a pimc without pruning)."""
    label, kw, items, seed = task
    log, bid_log = generate(items, seed, strategy=teacher, **kw)
    return label, featurize(log), featurize_bids(bid_log), ((log, bid_log) if keep_log else None)


def save_logs(path: str, train: list[tuple], evals: list[tuple]) -> None:
    """Write the raw logs of :func:`run_task` results (``keep_log``) to ``path`` (.npz): a later fit of another
    model can then reuse the teacher's decisions without playing them again."""
    arrays: dict[str, Any] = {}  # Any: numpy's stubs type savez's keyword arrays as its allow_pickle flag
    for kind, parts in (("train", train), ("eval", evals)):
        arrays[f"{kind}_labels"] = np.array([p[0] for p in parts])
        arrays[f"{kind}_cards"] = np.concatenate([p[3][0] for p in parts])
        arrays[f"{kind}_card_counts"] = np.array([p[3][0].shape[0] for p in parts], dtype=np.int64)
        arrays[f"{kind}_bids"] = np.concatenate([p[3][1] for p in parts])
        arrays[f"{kind}_bid_counts"] = np.array([p[3][1].shape[0] for p in parts], dtype=np.int64)
    np.savez_compressed(path, **arrays)


def concat(parts: list[Decisions]) -> Decisions:
    """One data set of several."""
    offsets = np.cumsum([0] + [p.cstart[-1] for p in parts])
    return Decisions(
        sidx=np.concatenate([p.sidx for p in parts]),
        sn=np.concatenate([p.sn for p in parts]),
        cstart=np.concatenate([p.cstart[:-1] + o for p, o in zip(parts, offsets[:-1], strict=True)] + [offsets[-1:]]),
        cidx=np.concatenate([p.cidx for p in parts]),
        cn=np.concatenate([p.cn for p in parts]),
        adv=np.concatenate([p.adv for p in parts]),
        value=np.concatenate([p.value for p in parts]),
        form=np.concatenate([p.form for p in parts]),
    )


def empty(decisions: int, candidates: int, state_width: int, candidate_width: int) -> Decisions:
    """A data set of zeros to featurize into (feature indices fit int16: fewer than 32,768 features)."""
    return Decisions(
        sidx=np.zeros((decisions, state_width), dtype=np.int16),
        sn=np.zeros(decisions, dtype=np.int16),
        cstart=np.zeros(decisions + 1, dtype=np.int64),
        cidx=np.zeros((candidates, candidate_width), dtype=np.int16),
        cn=np.zeros(candidates, dtype=np.int16),
        adv=np.zeros(candidates, dtype=np.float64),
        value=np.zeros(candidates, dtype=np.float64),
        form=np.zeros(candidates, dtype=np.int16),
    )


def featurize(log: np.ndarray) -> Decisions:
    """The network's features and targets of every logged decision."""
    out = empty(log.shape[0], int(log[:, LOG_NC].sum()), MAX_STATE_FEATURES, MAX_FORM_FEATURES)
    K.featurize_log(log, out.sidx, out.sn, out.cstart, out.cidx, out.cn, out.adv, out.value, out.form)
    return out


def fit(data: Decisions, epochs: int = 6, lr: float = 0.05, l2: float = 1e-5, seed: int = 0,
        log=print, features: int = N_CARD_FEATURES) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """Fit the network (:data:`HIDDEN` hidden units) to ``data`` (``features`` one-hot inputs); returns
    (w1, b1, w2) with scores in points."""
    hidden = HIDDEN
    rng = np.random.default_rng(seed)
    w1 = rng.normal(0.0, 0.1, size=(features, hidden))
    b1 = np.full(hidden, 0.1)
    w2 = rng.normal(0.0, 0.1, size=hidden)
    g1, gb1, gw2 = np.zeros_like(w1), np.zeros_like(b1), np.zeros_like(w2)
    for epoch in range(epochs):
        order = rng.permutation(data.size)
        fit = FitData(data.sidx, data.sn, data.cstart, data.cidx, data.cn, data.adv)
        mse = K.adagrad_epoch(order, fit, Weights(w1, b1, w2), Weights(g1, gb1, gw2), lr, l2)
        log(f"epoch {epoch + 1}: training rms error {np.sqrt(mse) * SCALE:.2f} points")
    return w1, b1, w2 * SCALE


def featurize_bids(log: np.ndarray) -> Decisions:
    """The bid network's features and targets of every logged bid decision (no shared state features)."""
    out = empty(log.shape[0], int(log[:, LOG_B_NB].sum()), 1, MAX_BID_FEATURES)
    K.featurize_bid_log(log, out.cstart, out.cidx, out.cn, out.adv, out.value, out.form)
    return out


def scores(model: tuple[np.ndarray, np.ndarray, np.ndarray], data: Decisions) -> np.ndarray:
    """The network's score of every candidate (points, uncentred), as the kernel computes it."""
    w1, b1, w2 = model
    out = np.zeros(data.cstart[-1])
    base = np.zeros(b1.shape[0])
    acc = np.zeros((64, b1.shape[0]))
    for d in range(data.size):
        lo, hi = data.cstart[d], data.cstart[d + 1]
        out[lo:hi] = K.forward(w1, b1, w2, data.sidx[d], data.sn[d], data.cidx[lo:hi], data.cn[lo:hi], base, acc)
    return out


def evaluate(model: tuple[np.ndarray, np.ndarray, np.ndarray], data: Decisions, log: np.ndarray,
             bids: bool = False) -> dict:  # fmt: skip
    """Regret by pimc's own values (points below pimc's best candidate): the network vs the ``table`` player."""
    s = scores(model, data)
    table = (K.table_bid_choice if bids else K.table_choice)(log, data.cstart, data.form)
    reg_net, reg_table, agree = [], [], 0
    for d in range(data.size):
        lo, hi = data.cstart[d], data.cstart[d + 1]
        v = data.value[lo:hi]
        best = v.max()
        pick = lo + int(np.argmax(s[lo:hi]))
        reg_net.append(best - data.value[pick])
        reg_table.append(best - data.value[table[d]])
        agree += int(data.value[pick] == best)
    rn, rt = np.array(reg_net), np.array(reg_table)
    return {
        "decisions": data.size,
        "regret_learned": rn.mean(),
        "regret_learned_se": rn.std(ddof=1) / np.sqrt(rn.size),
        "regret_table": rt.mean(),
        "regret_table_se": rt.std(ddof=1) / np.sqrt(rt.size),
        "agree_pimc": agree / data.size,
    }
