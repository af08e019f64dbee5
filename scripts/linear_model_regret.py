"""Would a cheaper model do? Regret of linear models over the card network's candidate features, by pimc's values.

    python scripts/train_learned.py --teacher "pimc(prune=0,gen=3)" --seed 2029 --save-logs logs.npz ...
    python scripts/linear_model_regret.py logs.npz

A linear model scores a candidate by the sum of one weight per feature: no
state features (they add the same to every candidate) and no hidden layer,
so it would cost a table lookup per candidate feature. Fitted (Adagrad, 4
epochs, seed 0) to the centred candidate values of the logs' training
decisions, like the network, and scored on their evaluation decisions:
the mean points below pimc's best candidate (regret, 95% interval), for all
decisions and for 4 x 10, beside the shipped generations 1 and 3. Contexts:
0 none; 1 the need's sign (3); 2 the need (-1..3) x tricks left (1, 2, 3+),
15 weights per candidate feature.

Measured 2026-12-04 on generation 4's logs (valued by pimc(gen=3)):
4 x 10 regret, gen 3 1.736 +- 0.025, gen 1 2.685 +- 0.035, linear 2.909 / 2.889 / 2.733
(contexts 0 / 1 / 2): every linear model is weaker than generation 1.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from wizsim.engine import layout as L
from wizsim.players.learned_data import GENERATIONS, kernel_model
from wizsim.training import learned_train as T

NF = L.N_CARD_FEATURES
CONTEXTS = {0: 1, 1: 3, 2: 15}  # kind -> contexts


@njit
def context(sidx, sn, kind):
    """The decision's context (read off its need-and-tricks-left state feature)."""
    c = 0
    for i in range(sn):
        f = sidx[i]
        if L.LF_NEED_LEFT <= f < L.LF_NEED_LEFT + 90:
            need = (f - L.LF_NEED_LEFT) // 10 - 3
            left = (f - L.LF_NEED_LEFT) % 10 + 1
            if kind == 1:
                c = 0 if need > 0 else (1 if need == 0 else 2)
            elif kind == 2:
                c = (min(max(need, -1), 3) + 1) * 3 + min(left, 3) - 1
    return c


@njit
def epoch(order, sidx, sn, cstart, cidx, cn, adv, w, g, lr, kind, nctx):
    """One Adagrad pass on the centred squared error (targets in tens of points, as the network's)."""
    s = np.zeros(64)
    for d in order:
        ctx = context(sidx[d], sn[d], kind)
        lo, hi = cstart[d], cstart[d + 1]
        mean = 0.0
        for c in range(hi - lo):
            v = 0.0
            for i in range(cn[lo + c]):
                f = np.int64(cidx[lo + c, i])
                v += w[f] + w[NF + f * nctx + ctx]
            s[c] = v
            mean += v
        mean /= hi - lo
        for c in range(hi - lo):
            e = (s[c] - mean) - adv[lo + c] / 10.0  # the centring term's gradient sums to 0 over the candidates
            for i in range(cn[lo + c]):
                f = np.int64(cidx[lo + c, i])
                for j in (f, NF + f * nctx + ctx):
                    grad = e + 1e-5 * w[j]
                    g[j] += grad * grad
                    w[j] -= lr * grad / np.sqrt(g[j] + 1e-8)


@njit
def scores(sidx, sn, cstart, cidx, cn, w, kind, nctx):
    out = np.zeros(cstart[-1])
    for d in range(sn.shape[0]):
        ctx = context(sidx[d], sn[d], kind)
        for c in range(cstart[d], cstart[d + 1]):
            for i in range(cn[c]):
                f = np.int64(cidx[c, i])
                out[c] += w[f] + w[NF + f * nctx + ctx]
    return out


@njit
def regret(s, cstart, value):
    """Mean points below the best candidate of the pick (first best score) and its 95% half-width."""
    n = cstart.shape[0] - 1
    tot = tot2 = 0.0
    for d in range(n):
        lo, hi = cstart[d], cstart[d + 1]
        pick = lo
        for c in range(lo + 1, hi):
            if s[c] > s[pick]:
                pick = c
        r = value[lo:hi].max() - value[pick]
        tot += r
        tot2 += r * r
    m = tot / n
    return m, 1.96 * np.sqrt((tot2 / n - m * m) / n)


def main(path: str) -> None:
    z = np.load(path)
    train, ev = T.featurize(z["train_cards"]), T.featurize(z["eval_cards"])
    n410 = int(sum(c for label, c in zip(z["eval_labels"], z["eval_card_counts"], strict=True) if label == "4x10"))
    cut = ev.cstart[: n410 + 1]

    def show(name: str, s: np.ndarray) -> None:
        m, h = regret(s, ev.cstart, ev.value)
        m4, h4 = regret(s[: cut[-1]], cut, ev.value[: cut[-1]])
        print(f"{name:40s} regret all {m:.3f} +- {h:.3f}   4x10 {m4:.3f} +- {h4:.3f}", flush=True)

    for g in (1, 3):
        w1, b1, w2 = kernel_model(True, str(GENERATIONS[g]))[:3]
        show(f"generation {g} network", T.scores((w1, b1, w2), ev))
    rng = np.random.default_rng(0)
    for kind, nctx in CONTEXTS.items():
        w = np.zeros(NF + NF * nctx)
        g2 = np.zeros_like(w)
        for _ in range(4):
            epoch(rng.permutation(train.size), train.sidx, train.sn, train.cstart, train.cidx, train.cn, train.adv,
                  w, g2, 0.05, kind, nctx)  # fmt: skip
        show(f"linear, context {kind} ({nctx})", scores(ev.sidx, ev.sn, ev.cstart, ev.cidx, ev.cn, w, kind, nctx))


if __name__ == "__main__":
    main(sys.argv[1])
