"""Tune the heuristic's bidding parameters by coordinate search on self-play score.

Objective: mean points per round in heuristic self-play over full standard
games with 3, 4, 5 and 6 players, on fixed seeds (the same deals for every
candidate: dealing has its own random stream). Prints the best parameters as a
dict to paste into ``HEURISTIC_DEFAULTS``; the search is deterministic.

    python scripts/tune_heuristic.py --games 3000 --passes 3
"""

from __future__ import annotations

import argparse

import wizsim
from wizsim.players.strategies import HEURISTIC_DEFAULTS

STEPS = {
    "wizard": 0.04,
    "trump_top": 0.04,
    "trump_slope": 0.01,
    "trump_floor": 0.05,
    "side_ace": 0.05,
    "side_drop": 0.05,
    "player_decay": 0.02,
    "length_decay": 0.01,
    "ruff": 0.05,
    "bid_shift": 0.05,
    "nt_ace": 0.05,
    "side_second": 0.05,
}


def objective(params: dict, games: int, seed: int) -> float:
    spec = "heuristic(" + ",".join(f"{k}={v:.4f}" for k, v in params.items()) + ")"
    total = 0.0
    for players in (3, 4, 5, 6):
        s = wizsim.simulate_result(players, games=games, seed=seed + players, strategy=spec).summary()
        total += float(s.mean_score.iloc[0])
    return total / 4


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--seed", type=int, default=777)
    a = ap.parse_args()
    best = dict(HEURISTIC_DEFAULTS)
    best_val = objective(best, a.games, a.seed)
    print(f"start: {best_val:.3f}")
    for p in range(a.passes):
        improved = False
        for key, step in STEPS.items():
            scale = 1.0 / (p + 1)
            for direction in (1, -1):
                while True:
                    cand = dict(best)
                    cand[key] = round(best[key] + direction * step * scale, 4)
                    val = objective(cand, a.games, a.seed)
                    if val > best_val + 0.02:
                        best, best_val, improved = cand, val, True
                        print(f"pass {p}: {key} = {cand[key]} -> {val:.3f}", flush=True)
                    else:
                        break
        if not improved:
            break
    print("best:", best, f"objective {best_val:.3f}")


if __name__ == "__main__":
    main()
