"""wizsim's random 4 x 10 play against the speed ceiling, a tight C loop, in one run.

    python scripts/vs_ceiling.py [--rounds 3] [--hands 2000000] [--source ../shared/ceiling/wizrand.c]

Builds ``../shared/ceiling/wizrand.c`` (or ``$WIZSIM_SHARED/ceiling/wizrand.c``)
with the system C compiler (``cc``, ``gcc`` or ``clang``: ``-O3 -march=native``,
as its README says), then takes turns: ``./wizrand bench 4 10`` (its own
median of 5 runs of at least 1 s) and wizsim's random 4 x 10 on one core (warmed
up, then the median of 3 timed runs), ``--rounds`` times. Prints both rates per
round, their medians and the ratio wizsim / C. Exit status 2 if there is no C
compiler or no source.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NoReturn

from wizsim.tools.bench import BenchCase, time_case

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("WIZSIM_SHARED", ROOT.parent / "shared"))


def fail(message: str) -> NoReturn:
    """One line on stderr, exit status 2."""
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(2)


def build(source: Path, out_dir: Path) -> Path:
    """Compile the C loop; return the binary's path (exit 2 with a message if it cannot be built)."""
    cc = next((c for c in ("cc", "gcc", "clang") if shutil.which(c)), None)
    if cc is None:
        fail("no C compiler (cc, gcc or clang) found; install one to measure the ceiling")
    binary = out_dir / "wizrand"
    for flags in (["-O3", "-march=native"], ["-O3"]):
        res = subprocess.run([cc, *flags, "-o", str(binary), str(source), "-lm"], capture_output=True, text=True)
        if res.returncode == 0:
            print(f"built {source.name} with {cc} {' '.join(flags)}")
            return binary
    fail(f"{cc} could not build {source}: {res.stderr.strip()[:300]}")


def c_rate(binary: Path) -> float:
    """Median random 4 x 10 rounds/s of the C loop (its own median of 5)."""
    out = subprocess.run([str(binary), "bench", "4", "10"], capture_output=True, text=True, check=True).stdout
    m = re.search(r"n=4 k=10\s+rounds/s median\s+([0-9.e+]+)", out)
    if m is None:
        fail(f"unexpected output from wizrand bench:\n{out}")
    return float(m.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    ap.add_argument("--hands", type=int, default=2_000_000, help="wizsim rounds per timed run (default 2,000,000)")
    ap.add_argument("--source", type=Path, default=SHARED / "ceiling" / "wizrand.c", help="the C loop's source")
    a = ap.parse_args()
    if not a.source.is_file():
        fail(f"{a.source} not found; pass --source or set WIZSIM_SHARED")
    case = BenchCase("random 4x10", 4, 10, "random", 1, a.hands)
    c_rates, w_rates = [], []
    with tempfile.TemporaryDirectory() as tmp:
        binary = build(a.source, Path(tmp))
        for r in range(a.rounds):
            c_rates.append(c_rate(binary))
            w_rates.append(time_case(case)["rounds_per_s"])
            print(f"round {r + 1}: C {c_rates[-1]:,.0f}  wizsim {w_rates[-1]:,.0f} rounds/s"
                  f"  ratio {w_rates[-1] / c_rates[-1]:.3f}", flush=True)  # fmt: skip
    c, w = statistics.median(c_rates), statistics.median(w_rates)
    print(f"random 4 x 10, medians of {a.rounds} rounds: C loop {c:,.0f} rounds/s, wizsim {w:,.0f} rounds/s;"
          f" wizsim / C = {w / c:.3f}")  # fmt: skip


if __name__ == "__main__":
    main()
