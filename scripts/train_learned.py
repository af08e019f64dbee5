"""Fit the ``learned`` player's networks (a generation, wizsim/data/learned*.npz) to pimc's decisions, reproducibly.

    python scripts/train_learned.py --seed 2026 --scale 0.5 --jobs 2    # generation 1: 279 s on 2 cores (2026-11-30)
    python scripts/train_learned.py --seed 2027 --scale 0.5 --jobs 2 --teacher "pimc(prune=0,gen=1)" \
        --out wizsim/data/learned_gen2.npz                               # generation 2: 1,715 s (2026-12-04)

Generation g+1's teacher is the default pimc without pruning whose learned rollouts play generation g
(``--teacher "pimc(prune=0,gen=g)"``); generation 1's was pimc with heuristic rollouts (the default
``--teacher``).

Plays pimc self-play (``pimc(prune=0,rollout=0)``: heuristic rollouts, every candidate in every sampled
deal) on every deck and variant the analyses use (``wizsim.training.learned_train.CONFIGS``:
4 x 10 deals, full games at 3-6 players, each special card, all seven, every
rule variant) and logs every card decision with a choice and every bid, with
each candidate's mean round score. Two networks are fitted to the candidates'
scores relative to their decision's mean: card play and bids. A second data
set on other seeds (``--eval-scale`` of the first) measures what each
network's choice costs by pimc's own values, against the ``table`` player's
choice. The same arguments give the same file for any ``--jobs``.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from joblib import Parallel, delayed

from wizsim import __version__
from wizsim.engine.layout import (
    HIDDEN,
    N_BID_FEATURES,
    P_GEN,
)
from wizsim.players.learned_data import GENERATIONS
from wizsim.players.strategies import make_strategy
from wizsim.training import learned_train as T


def report(label: str, res: dict) -> str:
    """One line of an evaluation."""
    return (
        f"{label:34s} {res['decisions']:7,} decisions  regret learned {res['regret_learned']:.2f}"
        f" ± {1.96 * res['regret_learned_se']:.2f}  table {res['regret_table']:.2f}"
        f" ± {1.96 * res['regret_table_se']:.2f}  agrees with pimc {100 * res['agree_pimc']:.1f}%"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--scale", type=float, default=0.5, help="size of the training set, times CONFIGS")
    ap.add_argument("--eval-scale", type=float, default=0.1, help="size of the evaluation set, times CONFIGS")
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--bid-epochs", type=int, default=10)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--jobs", type=int, default=1)
    # without --out the recipe of generation 1 rewrites generation 1's file (never the default generation's,
    # which is generation 3's since 2026-12-04)
    ap.add_argument("--out", default=str(GENERATIONS[1]))
    ap.add_argument("--teacher", default="pimc(prune=0,rollout=0)",
                    help="the strategy whose decisions are logged (pimc(prune=0): learned rollouts)")
    ap.add_argument("--save-logs", default=None, help="also write the raw training logs here (.npz), to refit later")
    a = ap.parse_args()
    if a.teacher != ap.get_default("teacher") and a.out in {str(p) for p in GENERATIONS.values()}:
        # a new generation must not overwrite a shipped one (its teacher's rollouts may read it)
        ap.error("--teacher trains a new generation: give it a new file with --out (e.g. wizsim/data/learned_gen4.npz)")
    t0 = time.perf_counter()
    keep = a.save_logs is not None
    done = Parallel(n_jobs=a.jobs)(delayed(T.run_task)(t, keep, a.teacher) for t in T.tasks(a.scale, a.seed))
    evals = Parallel(n_jobs=a.jobs)(delayed(T.run_task)(t, True, a.teacher) for t in T.tasks(a.eval_scale, a.seed + 1))
    if keep:
        T.save_logs(a.save_logs, done, evals)
    t1 = time.perf_counter()
    cards = T.concat([c for _, c, _, _ in done])
    bids = T.concat([b for _, _, b, _ in done])
    print(f"{cards.size:,} card decisions, {bids.size:,} bid decisions logged in {t1 - t0:.0f} s", flush=True)
    model = T.fit(cards, epochs=a.epochs, lr=a.lr, seed=a.seed)
    bid_model = T.fit(bids, epochs=a.bid_epochs, lr=a.lr, seed=a.seed + 1, features=N_BID_FEATURES)
    t2 = time.perf_counter()
    print(f"fitted in {t2 - t1:.0f} s")
    evaluation: dict[str, dict] = {}
    for what, net, i in (("cards", model, 1), ("bids", bid_model, 2)):
        print(f"{what}: regret by pimc's values, points per decision (95% interval)")
        for label in dict.fromkeys(lab for lab, *_ in evals):
            parts = [(e[i], e[3][i - 1]) for e in evals if e[0] == label]
            data = T.concat([d for d, _ in parts])
            if data.size == 0:
                continue
            res = T.evaluate(net, data, np.concatenate([log for _, log in parts]), bids=what == "bids")
            evaluation[f"{what} {label}"] = {k: float(v) for k, v in res.items()}
            print(report(label, res))
    meta = {
        "seed": a.seed,
        "scale": a.scale,
        "hidden": HIDDEN,
        "epochs": a.epochs,
        "bid_epochs": a.bid_epochs,
        "lr": a.lr,
        "card_decisions": int(cards.size),
        "bid_decisions": int(bids.size),
        "seconds_data": round(t1 - t0),
        "seconds_fit": round(t2 - t1),
        "wizsim_version": __version__,
        "command": f"python scripts/train_learned.py --seed {a.seed} --scale {a.scale}"
        f" --epochs {a.epochs} --bid-epochs {a.bid_epochs} --lr {a.lr} --teacher '{a.teacher}'",
        "teacher": a.teacher,
        # the generation the teacher's learned rollouts played (its gen=, else the default at training time)
        "teacher_rollout_gen": int(make_strategy(a.teacher).param_row()[P_GEN]) + 1,
        "evaluation": evaluation,
    }
    (w1, b1, w2), (bw1, bb1, bw2) = model, bid_model
    np.savez_compressed(
        a.out, w1=w1, b1=b1, w2=w2, bw1=bw1, bb1=bb1, bw2=bw2, meta=np.array(json.dumps(meta, sort_keys=True))
    )
    print(f"wrote {a.out}; {time.perf_counter() - t0:.0f} s in all")


if __name__ == "__main__":
    main()
