"""Scaling of the run machinery: rounds/s with 1 and 2 local workers, and the Dask backend's overhead.

    python scripts/scaling.py [--hands 10000000] [--repeats 3]

Random strategy, 4 players, 10 cards. Each case is warmed up once (compile,
load caches, start workers or the cluster), then timed ``--repeats`` times; the
median is reported. Targets: 2 workers >= 1.8x one worker; Dask (a local
cluster of 2 processes, started before timing) < 10% slower than 2 local processes.
"""

from __future__ import annotations

import argparse
import statistics
import time

from wizsim.run.parallel import run_counts
from wizsim.run.simulate import make_spec


def timed(spec, repeats: int, **kw) -> float:
    run_counts(spec, **kw)  # warm-up
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        run_counts(spec, **kw)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=10_000_000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    spec = make_spec(players=4, cards=10, hands=args.hands, seed=1, strategy="random")
    rows = [("local, 1 worker", timed(spec, args.repeats, jobs=1))]
    rows.append(("local, 2 workers", timed(spec, args.repeats, jobs=2)))
    from distributed import Client, LocalCluster

    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address="127.0.0.1:0"
        ) as cluster,
        Client(cluster),
    ):
        rows.append(("dask, 2 workers", timed(spec, args.repeats, backend="dask", scheduler=cluster.scheduler_address)))
    print(f"random 4x10, {args.hands:,} hands, median of {args.repeats} after warm-up")
    print(f"{'case':<18} {'seconds':>8} {'rounds/s':>12}")
    for name, sec in rows:
        print(f"{name:<18} {sec:>8.2f} {args.hands / sec:>12,.0f}")
    one, two, dask = (sec for _, sec in rows)
    print(f"scaling 2 workers / 1: {one / two:.2f}x (target >= 1.8x)")
    print(f"dask overhead over local processes: {100 * (dask / two - 1):+.1f}% (target < 10%)")


if __name__ == "__main__":
    main()
