"""What each feature group of the card network is worth: refits without it, scored by pimc's values.

    python scripts/feature_ablation.py LOGS.npz                 # every group left out, one at a time
    python scripts/feature_ablation.py LOGS.npz "" "S:K,C:CROSS"  # all groups, then without the groups named

``LOGS.npz``: the raw logs of a training run (``scripts/train_learned.py ... --save-logs LOGS.npz``). Each
trial refits the network (6 epochs, seed 2028) on the training decisions with the named groups' features
removed and prints its regret (mean points below pimc's best candidate) on the evaluation decisions, for
all of them and for 4 x 10 (95% interval), and the rows a decision sums (state rows + candidates x rows).

Measured 2026-12-04 on generation 3's logs (4 x 10 regret): all groups 1.885 +- 0.025 (46.3 rows a
decision); without the 13 state and 4 candidate groups whose single removal cost least
(TRUMP SURPLUS WINNER BEST UNSEEN_TRUMP K SPECIAL TFLAGS MY_WIZ CANCELLED BID_SUM BOMB_RULE RULES; CROSS
LENGTH SUIT_LEFT VOID_AFTER) 1.996 +- 0.026 (24.3 rows); also without POS AFTER UNSEEN_WIZ, EXTREME HIGHER
2.114 +- 0.027 (15.7 rows).
"""

from __future__ import annotations

import dataclasses
import sys
import time

import numpy as np

from wizsim.engine import layout as L
from wizsim.training import learned_train as T

STATE = ["NEED_LEFT", "POS", "TRUMP", "SURPLUS", "WINNER", "AFTER", "BEST", "UNSEEN_WIZ", "UNSEEN_TRUMP", "MY_TRUMP",
         "K", "SPECIAL", "TFLAGS", "MY_WIZ", "CANCELLED", "BID_SUM", "BOMB_RULE", "RULES", "SURE_NEED",
         "STRONG_NEED"]  # fmt: skip
CANDIDATE = ["FORM", "WIN", "CROSS", "HIGHER", "LENGTH", "SUIT_LEFT", "VOID_AFTER", "EXTREME", "COARSE"]
STARTS = sorted([(getattr(L, "LF_" + g), "S:" + g) for g in STATE] + [(getattr(L, "LC_" + g), "C:" + g) for g in CANDIDATE])
NAMES = [name for _, name in STARTS]
GROUP_OF = np.searchsorted(np.array([s for s, _ in STARTS] + [L.N_CARD_FEATURES]), np.arange(L.N_CARD_FEATURES),
                           side="right") - 1  # fmt: skip


def without(d: T.Decisions, drop: set[str]) -> T.Decisions:
    """``d`` with the features of the groups in ``drop`` removed (the others kept in order)."""
    keep = np.array([name not in drop for name in NAMES])

    def filt(idx: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        valid = np.arange(idx.shape[1])[None, :] < n[:, None]
        ok = valid & keep[GROUP_OF[idx.astype(np.int64)]]
        out = np.take_along_axis(idx, np.argsort(~ok, axis=1, kind="stable"), axis=1)
        cnt = ok.sum(axis=1).astype(n.dtype)
        out[np.arange(idx.shape[1])[None, :] >= cnt[:, None]] = 0
        return out, cnt

    sidx, sn = filt(d.sidx, d.sn)
    cidx, cn = filt(d.cidx, d.cn)
    return dataclasses.replace(d, sidx=sidx, sn=sn, cidx=cidx, cn=cn)


def main(path: str, trials: list[str]) -> None:
    z = np.load(path)
    train, evald, log = T.featurize(z["train_cards"]), T.featurize(z["eval_cards"]), z["eval_cards"]
    is_410 = (log[:, L.ST_K] == 10) & (log[:, L.ST_N] == 4)
    specs = trials if trials else ["", *NAMES]
    for spec in specs:
        drop = set(spec.split(",")) - {""}
        unknown = drop - set(NAMES)
        if unknown:
            raise SystemExit(f"unknown feature groups {sorted(unknown)}; known: {', '.join(NAMES)}")
        t0 = time.time()
        tr, ev = without(train, drop), without(evald, drop)
        model = T.fit(tr, epochs=6, lr=0.05, seed=2028, log=lambda s: None)
        s = T.scores(model, ev)
        r = np.array([ev.value[lo:hi].max() - ev.value[lo + np.argmax(s[lo:hi])]
                      for lo, hi in zip(ev.cstart[:-1], ev.cstart[1:], strict=True)])  # fmt: skip
        rows = ev.sn.mean() + ev.cn.mean() * (ev.cstart[-1] / ev.size)
        half = 1.96 * r[is_410].std() / np.sqrt(is_410.sum())
        label = "all groups" if not drop else "without " + ",".join(sorted(drop))
        print(f"{label}: regret all {r.mean():.3f}  4x10 {r[is_410].mean():.3f} +- {half:.3f}  rows/decision "
              f"{rows:.1f}  ({time.time() - t0:.0f} s)", flush=True)  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
