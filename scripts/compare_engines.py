"""Compare the simulation speed of two checkouts of wizsim in one run (alternating, median of repeats).

    git worktree add /tmp/before <commit>
    python scripts/compare_engines.py /tmp/before . [--rounds 2]

Each checkout runs in its own process (``PYTHONPATH`` set to it), the checkouts
take turns ``--rounds`` times, and every case is warmed up (compiled, loaded)
before it is timed: the median of ``--repeats`` timed runs (default 3) per process. Prints rounds/s of
both and their ratio (second / first) per case: the ratio is what this noisy
machine can compare, not the absolute numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

CASES = {
    "random 4x10": {"players": 4, "cards": 10, "hands": 400_000, "strategy": "random"},
    "heuristic 4x10": {"players": 4, "cards": 10, "hands": 150_000, "strategy": "heuristic"},
    "table 4x10": {"players": 4, "cards": 10, "hands": 150_000, "strategy": "table"},
    "learned 4x10": {"players": 4, "cards": 10, "hands": 60_000, "strategy": "learned"},
    "random 4x10 all specials": {"players": 4, "cards": 10, "hands": 300_000, "strategy": "random", "specials": "all"},
    "heuristic 4-player games": {"players": 4, "games": 4000, "strategy": "heuristic"},
}

CHILD = """
import importlib, json, statistics, sys, time
S = importlib.import_module("wizsim.simulate")  # the module (older wizsim exports a function of that name)
cases = json.loads(sys.argv[1])
repeats = int(sys.argv[2])
try:
    try:
        from wizsim.run.parallel import RunOptions, run_counts
    except ImportError:
        from wizsim.parallel import RunOptions, run_counts  # a checkout from before the regroup
    run = lambda spec: run_counts(spec, RunOptions(jobs=1))
except ImportError:  # a checkout from before the run layer
    run = lambda spec: S.run_counts(spec, 1)
out = {}
for name, kw in cases.items():
    small = dict(kw, **({"hands": 2000} if "hands" in kw else {"games": 20}))
    run(S.make_spec(seed=2, **small))  # warm-up: compile or load the kernels
    spec = S.make_spec(seed=1, **kw)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        run(spec)
        times.append(time.perf_counter() - t0)
    out[name] = spec.rounds / statistics.median(times)
out["_path"] = S.__file__
print(json.dumps(out))
"""


def measure(path: str, cases: dict, repeats: int) -> dict[str, float]:
    root = os.path.abspath(path)
    env = dict(os.environ, PYTHONPATH=root)
    # cwd = the checkout: ``python -c`` puts the working directory first on sys.path, ahead of PYTHONPATH
    res = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(cases), str(repeats)], env=env, cwd=root, capture_output=True, text=True,
        check=True,
    )  # fmt: skip
    out = json.loads(res.stdout.strip().splitlines()[-1])
    loaded = out.pop("_path")
    if not os.path.abspath(loaded).startswith(root + os.sep):
        raise SystemExit(f"error: the run for {path} imported wizsim from {loaded}; check PYTHONPATH and installs")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("first", help="checkout to compare against (the baseline)")
    ap.add_argument("second", help="checkout measured against it")
    ap.add_argument("--rounds", type=int, default=2, help="alternating rounds (default 2)")
    ap.add_argument("--repeats", type=int, default=3, help="timed runs per case and process; median (default 3)")
    ap.add_argument("--only", default="", help="comma-separated case names to run (default: all)")
    a = ap.parse_args()
    wanted = [c.strip() for c in a.only.split(",") if c.strip()]
    unknown = [c for c in wanted if c not in CASES]
    if unknown:
        raise SystemExit(f"error: unknown case(s) {', '.join(map(repr, unknown))}; cases: {', '.join(CASES)}")
    cases = {k: v for k, v in CASES.items() if not wanted or k in wanted}
    runs: dict[str, list[dict[str, float]]] = {"first": [], "second": []}
    for _ in range(a.rounds):
        runs["first"].append(measure(a.first, cases, a.repeats))
        runs["second"].append(measure(a.second, cases, a.repeats))
    print(f"{'case':28s} {'first':>12s} {'second':>12s}  ratio  (per round)")
    for name in cases:
        one = statistics.median(r[name] for r in runs["first"])
        two = statistics.median(r[name] for r in runs["second"])
        pairs = [round(b[name] / f[name], 2) for f, b in zip(runs["first"], runs["second"], strict=True)]
        print(f"{name:28s} {one:12,.0f} {two:12,.0f}  {two / one:.3f}  {pairs}")


if __name__ == "__main__":
    main()
