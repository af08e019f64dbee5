"""Peak memory of a simulation run: streaming counts keep it flat in the number of rounds.

    python scripts/peak_memory.py --hands 1000000
    python scripts/peak_memory.py --hands 100000000

Prints the peak resident set size of this process (ru_maxrss) after the run.
"""

from __future__ import annotations

import argparse
import resource
import time

import wizsim


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--cards", type=int, default=10)
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--strategy", default="random")
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.perf_counter()
    df = wizsim.simulate(a.players, cards=a.cards, hands=a.hands, seed=1, strategy=a.strategy, jobs=a.jobs)
    dt = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        f"{a.hands:,} rounds of {a.players}x{a.cards} ({a.strategy}, jobs={a.jobs}) in {dt:.1f} s; "
        f"peak RSS {peak / 1024:.0f} MiB (after imports {before / 1024:.0f} MiB); rows in table: {len(df)}"
    )


if __name__ == "__main__":
    main()
