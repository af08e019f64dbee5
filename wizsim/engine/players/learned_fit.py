"""Kernels of the learned player's training (:mod:`wizsim.training.learned_train`): features of logged decisions,
the network's forward pass, an Adagrad epoch, and the ``table`` player's choice in a logged state.

They live in the engine package so that the engine's cache fingerprint
(:mod:`..jit.config`) covers them: they call the feature functions of
:mod:`.learned`, and Numba's own cache would keep a stale copy of those after
an edit there.
"""

from __future__ import annotations

import numpy as np

from ..jit.bits import U64
from ..jit.config import hot, jit
from ..layout import (
    BS_BASE,
    LOG_B_BIDS,
    LOG_B_DEALS,
    LOG_B_NB,
    LOG_B_TOTALS,
    LOG_DEALS,
    LOG_FORMS,
    LOG_NC,
    LOG_TOTALS,
    MAX_BID_FEATURES,
    REFINE_KEEP_JESTER,
    REFINE_LEAD_TRUMP,
    ST_BEST,
    ST_HAND,
    ST_J,
    ST_LED,
    ST_LEGAL,
    ST_MONO,
    ST_N,
    ST_NEED,
    ST_SEEN,
    ST_TFLAGS,
    ST_TRUMP,
)
from .heuristic import heuristic_play
from .learned_model import bid_assemble, bid_fixed, form_features, hidden_sum, output, state_features

SCALE = 10.0  # targets in tens of points: keeps the network's numbers near 1


@hot
def centred_values(row, nc, cands_col, totals_col, deals_col, at, value, adv, form):
    """Candidates ``at .. at + nc - 1`` of a logged row: each candidate (``form``), its mean score
    (``value``: total / deals) and that minus the mean over the row's candidates (``adv``)."""
    mean = 0.0
    for c in range(nc):
        value[at + c] = row[totals_col + c] / max(row[deals_col + c], 1)
        mean += value[at + c]
    mean /= nc
    for c in range(nc):
        form[at + c] = row[cands_col + c]
        adv[at + c] = value[at + c] - mean


@jit
def featurize_log(log, sidx, sn, cstart, cidx, cn, adv, value, form):
    total = 0
    for d in range(log.shape[0]):
        row = log[d]
        sn[d] = state_features(row, sidx[d])
        nc = row[LOG_NC]
        cstart[d] = total
        centred_values(row, nc, LOG_FORMS, LOG_TOTALS, LOG_DEALS, total, value, adv, form)
        for ci in range(nc):
            cn[total + ci] = form_features(row, row[LOG_FORMS + ci], cidx[total + ci], 0)
        total += nc
    cstart[log.shape[0]] = total


@jit
def forward(w1, b1, w2, sidx, sn, cidx, cn, base, acc):
    """Scores of one decision's candidates, as the kernel computes them (:func:`.learned.output`);
    ``acc[i]`` keeps candidate i's hidden sums."""
    hidden_sum(w1, b1, sidx, 0, sn, base)
    nc = cn.shape[0]
    out = np.zeros(nc)
    for c in range(nc):
        out[c] = output(w2, base, cidx[c], 0, cn[c], w1, acc[c])
    return out


@jit
def adagrad_epoch(order, data, weights, squares, lr, l2):
    """One pass of Adagrad over the decisions in ``order``; returns the mean squared error (scaled units).

    ``data`` (:class:`..bundles.FitData`): the decisions' features and target advantages; ``weights``
    (:class:`..bundles.Weights`) are updated in place, with Adagrad's sums of squared gradients in ``squares``
    (a :class:`..bundles.Weights` of the same shapes).
    """
    sidx, sn, cstart, cidx, cn, adv = data.sidx, data.sn, data.cstart, data.cidx, data.cn, data.adv
    w1, b1, w2 = weights.w1, weights.b1, weights.w2
    g1, gb1, gw2 = squares.w1, squares.b1, squares.w2
    h = b1.shape[0]
    base = np.zeros(h)
    acc = np.zeros((64, h))
    dacc = np.zeros(h)
    dbase = np.zeros(h)
    dw2 = np.zeros(h)
    loss = 0.0
    count = 0
    for d in order:
        lo, hi = cstart[d], cstart[d + 1]
        nc = hi - lo
        if nc > 64:
            continue
        q = forward(w1, b1, w2, sidx[d], sn[d], cidx[lo:hi], cn[lo:hi], base, acc)
        qm = q.mean()
        for u in range(h):
            dbase[u] = 0.0
            dw2[u] = 0.0
        for c in range(nc):
            e = (q[c] - qm) - adv[lo + c] / SCALE
            loss += e * e
            count += 1
            dq = 2.0 * e / nc
            for u in range(h):
                if acc[c, u] > 0.0:
                    dw2[u] += dq * acc[c, u]
                    dacc[u] = dq * w2[u]
                else:
                    dacc[u] = 0.0
                dbase[u] += dacc[u]
            for i in range(cn[lo + c]):
                r = cidx[lo + c, i]
                for u in range(h):
                    g = dacc[u] + l2 * w1[r, u]
                    g1[r, u] += g * g
                    w1[r, u] -= lr * g / (np.sqrt(g1[r, u]) + 1e-8)
        for i in range(sn[d]):
            r = sidx[d, i]
            for u in range(h):
                g = dbase[u] + l2 * w1[r, u]
                g1[r, u] += g * g
                w1[r, u] -= lr * g / (np.sqrt(g1[r, u]) + 1e-8)
        for u in range(h):
            gb1[u] += dbase[u] * dbase[u]
            b1[u] -= lr * dbase[u] / (np.sqrt(gb1[u]) + 1e-8)
            g = dw2[u] + l2 * w2[u]
            gw2[u] += g * g
            w2[u] -= lr * g / (np.sqrt(gw2[u]) + 1e-8)
    return loss / max(count, 1)


@jit
def table_choice(log, cstart, form):
    """The index (into the candidates) of the ``table`` player's card in every decision."""
    out = np.zeros(log.shape[0], dtype=np.int64)
    for d in range(log.shape[0]):
        row = log[d]
        f = heuristic_play(
            U64(row[ST_HAND]), U64(row[ST_LEGAL]), row[ST_NEED], row[ST_LED], row[ST_BEST], row[ST_J], row[ST_N],
            row[ST_TRUMP], U64(row[ST_SEEN]), row[ST_TFLAGS], row[ST_MONO] != 0, REFINE_LEAD_TRUMP | REFINE_KEEP_JESTER,
        )  # fmt: skip
        lo, hi = cstart[d], cstart[d + 1]
        pick = -1
        # pimc counts neighbouring cards with nothing unseen between them once (the lowest)
        while pick < 0:
            for i in range(lo, hi):
                if form[i] == f:
                    pick = i
            if pick < 0:
                if f < 52 and f % 13 > 0:
                    f -= 1
                else:
                    pick = lo
        out[d] = pick
    return out


@jit
def featurize_bid_log(log, cstart, cidx, cn, adv, value, form):
    """:func:`featurize_log` for logged bids: every candidate bid's features (no shared state features)."""
    total = 0
    fixed = np.empty(MAX_BID_FEATURES, dtype=np.int64)
    for d in range(log.shape[0]):
        row = log[d]
        nb = row[LOG_B_NB]
        cstart[d] = total
        centred_values(row, nb, LOG_B_BIDS, LOG_B_TOTALS, LOG_B_DEALS, total, value, adv, form)
        bid_fixed(row, fixed)  # as the player does: once per decision
        for c in range(nb):
            cn[total + c] = bid_assemble(row, row[LOG_B_BIDS + c], fixed, cidx[total + c])
        total += nb
    cstart[log.shape[0]] = total


@jit
def table_bid_choice(log, cstart, form):
    """The index (into the candidates) of the ``table`` player's bid in every logged bid decision."""
    out = np.zeros(log.shape[0], dtype=np.int64)
    for d in range(log.shape[0]):
        lo, hi = cstart[d], cstart[d + 1]
        base = log[d, BS_BASE]
        pick = lo
        for i in range(lo, hi):  # the base, or the nearest bid to it (the Canadian rule's step)
            if abs(form[i] - base) < abs(form[pick] - base):
                pick = i
        out[d] = pick
    return out
