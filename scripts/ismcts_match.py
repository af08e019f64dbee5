"""A duplicate match on the OpenSpiel game: wizsim's default pimc against OpenSpiel's Python ISMCTS.

Each deal (4 players, 10 cards, base deck, dealer seat 0) is played twice:
ISMCTS in seats 0 and 2 with pimc in 1 and 3, then the seats swapped, on the
same cards. A deal's result is ISMCTS's mean score per round minus pimc's,
averaged over the two seatings; the headline is the mean over deals with a 95%
interval (normal, from the deals' spread). ISMCTS: OpenSpiel's
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with the game's
``resample_from_infostate`` (a seeded sampler), random rollouts
(``RandomRolloutEvaluator``, one per simulation), ``--sims`` simulations per
move, UCT constant ``--uct`` (scores are points, not +-1), the most visited
move. Same seed, same numbers; the deals are split over ``--jobs`` workers
(each deal's seeds are its own: the numbers do not depend on the split).

Run: ``python scripts/ismcts_match.py --deals 100 --sims 100 --jobs 2``
(writes ``results/ismcts_match.csv``; needs ``pip install -e '.[openspiel]'``).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from joblib import Parallel, delayed

PARAMS = {"players": 4, "cards": 10}


def play_deal(deal: int, seed: int, sims: int, uct: float) -> dict:
    """One deal, both seatings: the seats' scores and who sat where."""
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    import wizsim.env.openspiel as wo

    game = pyspiel.load_game("python_wizsim", PARAMS)
    core = wo.core_of(game)
    fallbacks, tries = core.resample_fallbacks, core.resample_tries  # the worker's counts before this deal
    deal_rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(deal,)))
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(deal_rng.choice(outcomes, p=probs)))
    dealt = state.clone()
    row: dict = {"deal": deal}
    t0 = time.perf_counter()
    for seating, mine in (("a", (0, 2)), ("b", (1, 3))):
        ss = np.random.SeedSequence(seed, spawn_key=(deal, 1 if seating == "a" else 2))
        bot_rng = np.random.RandomState(ss.generate_state(1)[0])
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=bot_rng)
        bot = ismcts.ISMCTSBot(game, evaluator, uct, max_simulations=sims, random_state=bot_rng)
        sampler = pyspiel.UniformProbabilitySampler(int(ss.generate_state(2)[1]) % 2**31, 0.0, 1.0)
        bot.set_resampler(lambda s, p, sampler=sampler: s.resample_from_infostate(p, sampler))
        s = dealt.clone()
        while not s.is_terminal():
            p = s.current_player()
            s.apply_action(int(bot.step(s)) if p in mine else wo.builtin_action(s, "pimc"))
        ret = s.returns()
        ism = float(np.mean([ret[p] for p in mine]))
        pim = float(np.mean([ret[p] for p in range(4) if p not in mine]))
        row[f"ismcts_{seating}"], row[f"pimc_{seating}"] = ism, pim
    row["diff"] = (row["ismcts_a"] - row["pimc_a"] + row["ismcts_b"] - row["pimc_b"]) / 2
    row["seconds"] = time.perf_counter() - t0
    row["resample_tries"] = core.resample_tries - tries
    row["resample_fallbacks"] = core.resample_fallbacks - fallbacks
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--sims", type=int, default=100, help="ISMCTS simulations per move")
    ap.add_argument("--uct", type=float, default=40.0, help="ISMCTS's UCT constant, in points")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default="results/ismcts_match.csv")
    args = ap.parse_args()
    if min(args.deals, args.sims, args.jobs) < 1 or not args.uct > 0:
        print("error: --deals, --sims and --jobs must be >= 1 and --uct > 0", file=sys.stderr)
        raise SystemExit(2)
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("error: OpenSpiel is not installed: pip install -e '.[openspiel]'", file=sys.stderr)
        raise SystemExit(2) from None
    t0 = time.perf_counter()
    rows = Parallel(n_jobs=args.jobs)(delayed(play_deal)(d, args.seed, args.sims, args.uct) for d in range(args.deals))
    df = pd.DataFrame(rows)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    df.drop(columns="seconds").to_csv(args.out, index=False)  # timings vary: printed, not kept
    m, sd = df["diff"].mean(), df["diff"].std(ddof=1)
    half = 1.96 * sd / math.sqrt(len(df))
    ism = (df["ismcts_a"] + df["ismcts_b"]).mean() / 2
    pim = (df["pimc_a"] + df["pimc_b"]).mean() / 2
    print(f"{len(df)} deals x 2 seatings, 4x10, ISMCTS {args.sims} simulations/move (uct {args.uct}), seed {args.seed}")
    print(
        f"ISMCTS {ism:.1f} points/round, pimc {pim:.1f}; ISMCTS - pimc = {m:+.1f} [{m - half:+.1f}, {m + half:+.1f}] (95%)"
    )
    print(f"resample fallbacks {int(df['resample_fallbacks'].sum())} in {int(df['resample_tries'].sum())} tries; {time.perf_counter() - t0:.0f} s wall, "
          f"{df['seconds'].median():.1f} s per deal (median)")  # fmt: skip


if __name__ == "__main__":
    main()
