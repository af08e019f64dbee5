"""Throughput benchmarks (``wizsim bench``): rounds/s and card plays/s after warm-up.

Each case is compiled and warmed up first (one short run, untimed), then timed
``repeats`` times; the median is reported. When ``open_spiel`` is importable,
OpenSpiel's C++ ``oh_hell`` (4 players, 10 tricks, uniform random bots through
``pyspiel.evaluate_bots``) is timed in the same run as the named baseline.
"""

from __future__ import annotations

import functools
import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass

from ..run.parallel import run_counts
from ..run.spec import RunSpec, make_spec


@dataclass
class BenchCase:
    name: str
    players: int
    cards: int | None  # None: full games
    strategy: str
    jobs: int
    size: int  # rounds (hands mode) or games
    specials: str | None = None


RULE_CASE = "rule(wizsim.rules_of_thumb:linear_example,play=heuristic)"
PLAY_CASE = "play(wizsim.players.play_habits:linear_play_example,bid=heuristic)"


def default_cases(scale: float = 1.0) -> list[BenchCase]:
    """The cases the Foundation issue asks for; ``scale`` shrinks them (``--quick``)."""

    def s(x: int) -> int:
        return max(1, int(x * scale))

    return [
        BenchCase("random 4x10", 4, 10, "random", 1, s(2_000_000)),
        BenchCase("random 4p full games", 4, None, "random", 1, s(100_000)),
        BenchCase("heuristic 4x10", 4, 10, "heuristic", 1, s(600_000)),
        BenchCase("heuristic 3x20", 3, 20, "heuristic", 1, s(300_000)),
        BenchCase("heuristic 6x10", 6, 10, "heuristic", 1, s(400_000)),
        BenchCase("table 4x10", 4, 10, "table", 1, s(600_000)),
        # a user's bid rule (wizsim.players.bid_rules), linear in 6 features, with the heuristic's card play
        BenchCase("linear bid rule 4x10", 4, 10, RULE_CASE, 1, s(600_000)),
        # a user's play rule (wizsim.players.play_rules), linear in 5 features, every seat, the heuristic's bids
        BenchCase("linear play rule 4x10", 4, 10, PLAY_CASE, 1, s(600_000)),
        BenchCase("learned 4x10", 4, 10, "learned", 1, s(300_000)),
        # 2 jobs: ~3 s of work per job after the workers started, so that start-up does not dominate
        BenchCase("random 4x10, 2 jobs", 4, 10, "random", 2, s(10_000_000)),
        BenchCase("random 4x10, all 7 specials", 4, 10, "random", 1, s(2_000_000), "all"),
        BenchCase("heuristic 4x10, all 7 specials", 4, 10, "heuristic", 1, s(600_000), "all"),
    ]


def _spec(case: BenchCase, size: int, seed: int):
    if case.cards is None:
        return make_spec(case.players, games=size, seed=seed, strategy=case.strategy, specials=case.specials)
    return make_spec(
        case.players, cards=case.cards, hands=size, seed=seed, strategy=case.strategy, specials=case.specials
    )


def _timed(run, repeats: int) -> list[float]:
    """Wall seconds of ``run(r)`` for r = 0 .. repeats - 1 (warm-up is the caller's, before this)."""
    times = []
    for r in range(repeats):
        t0 = time.perf_counter()
        run(r)
        times.append(time.perf_counter() - t0)
    return times


def time_case(case: BenchCase, repeats: int = 3) -> dict:
    """Warm up, then time ``repeats`` runs of ``case``; return the median throughput."""
    warm = _spec(case, max(case.size // 20, 1), seed=12345)
    run_counts(warm, jobs=case.jobs)  # compile, load caches, start workers
    spec = _spec(case, case.size, seed=1)
    times = _timed(lambda _: run_counts(spec, jobs=case.jobs), repeats)
    median = statistics.median(times)
    rounds = spec.rounds
    plays = spec.items * sum(spec.schedule) * spec.players
    return {
        "name": case.name,
        "players": case.players,
        "cards": case.cards if case.cards is not None else f"1..{max(spec.schedule)}",
        "strategy": case.strategy,
        "deck": spec.deck_name,
        "specials": list(spec.specials),
        "rules": spec.rules.as_dict(),
        "seed": spec.seed,
        "jobs": case.jobs,
        "rounds": rounds,
        "seconds_median": median,
        "seconds_all": times,
        "rounds_per_s": rounds / median,
        "card_plays_per_s": plays / median,
    }


def time_openspiel(seconds: float = 2.0, repeats: int = 3) -> dict | None:
    """Rounds/s of OpenSpiel's C++ oh_hell (4 players, 10 tricks, uniform random bots), or None."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("oh_hell(players=4,num_tricks_fixed=10)")
    bots = [pyspiel.make_uniform_random_bot(p, 1000 + p) for p in range(4)]

    def run(count: int, seed: int) -> None:
        for i in range(count):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + i)

    run(200, 0)  # warm-up
    t0 = time.perf_counter()
    run(500, 1)
    per_round = (time.perf_counter() - t0) / 500
    count = max(100, int(seconds / per_round))
    rates = []
    for r in range(repeats):
        t0 = time.perf_counter()
        run(count, 10_000 * (r + 1))
        rates.append(count / (time.perf_counter() - t0))
    return {
        "name": "OpenSpiel oh_hell 4x10 (C++, random bots)",
        "rounds": count,
        "rounds_per_s": statistics.median(rates),
        "card_plays_per_s": statistics.median(rates) * 40,
    }


STARTUP_CHILD = """
import json, time
t0 = time.perf_counter()
from wizsim.run.parallel import run_counts
from wizsim.run.simulate import make_spec
t1 = time.perf_counter()
run_counts(make_spec(4, cards=10, hands=1000, seed=1))
t2 = time.perf_counter()
run_counts(make_spec(4, cards=10, hands=4 * 16384, seed=2), jobs=2)  # 4 chunks: 2 workers start
t3 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "first_run_s": t2 - t1, "workers_s": t3 - t2}))
"""


def time_startup(repeats: int = 3) -> dict:
    """Start-up costs, apart from throughput: median seconds over ``repeats`` fresh processes.

    ``process_s``: the interpreter's start and exit (wall time of the child
    minus what it measured inside); ``import_s``: the imports of ``run_counts`` and ``make_spec``;
    ``first_run_s``: the first run, 1,000 rounds (loads the compiled kernels from
    Numba's cache, or compiles them if the cache is empty); ``workers_s``: the
    first 2-job run, 4 chunks of 16,384 rounds (starts two worker processes, which import and load too).
    """
    rows = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        res = subprocess.run([sys.executable, "-c", STARTUP_CHILD], capture_output=True, text=True, check=True)
        wall = time.perf_counter() - t0
        row = json.loads(res.stdout.strip().splitlines()[-1])
        row["process_s"] = wall - sum(row.values())
        rows.append(row)
    return {
        key: statistics.median(r[key] for r in rows) for key in ("process_s", "import_s", "first_run_s", "workers_s")
    }


ADVISE_HAND = "W,B13,R7,J,B2,G5,G11,Y1,Y9,R12"  # a 10-card hand; 4 players, second to bid, B5 turned up


def time_advise(samples: int = 100_000, repeats: int = 3) -> list[dict]:
    """Seconds for ``wizsim advise`` on a 10-card hand (both methods, its default player), median after a warm-up."""
    from .advise import BidOptions, advise

    out = []
    for method in ("own", "per-bid"):
        call = functools.partial(advise, players=4, position=2, hand=ADVISE_HAND, indicator="B5")
        call(options=BidOptions(samples=max(samples // 20, 1), seed=12345, method=method))  # compile / load caches
        options = functools.partial(BidOptions, samples=samples, method=method)
        times = _timed(lambda r, call=call, options=options: call(options=options(seed=r)), repeats)
        median = statistics.median(times)
        attempts = samples  # no earlier bids: every deal is kept
        rounds = attempts * (1 if method == "own" else 11)
        out.append(
            {
                "name": f"advise 4x10 (learned), {samples:,} samples, method {method}",
                "samples": samples,
                "seconds_median": median,
                "seconds_all": times,
                "rounds_per_s": rounds / median,
            }
        )
    return out


PIMC_CURVE = {0: (8, 16, 32, 64, 128, 256), 4: (8, 16, 32, 64)}  # rollout policy: samples (analyses/pimc_tradeoff.py)


def pimc_setting(rollout: int, samples: int) -> str:
    """A pimc setting of the strength/speed curve: ``samples`` for card play and bids alike."""
    return f"pimc(samples={samples},bid_samples={samples},rollout={rollout})"


def time_pimc_curve(seconds: float = 2.0, repeats: int = 3) -> list[dict]:
    """Card plays per second of every :data:`PIMC_CURVE` setting in 4x10 self-play (one core, after a warm-up).

    The rounds per setting are sized from the warm-up to take about ``seconds``.
    """
    out = []
    for rollout, ks in PIMC_CURVE.items():
        for k in ks:
            strategy = pimc_setting(rollout, k)
            warm = _warm_pimc(strategy)
            t0 = time.perf_counter()
            run_counts(warm)
            rounds = max(4, int(seconds * 4 / max(time.perf_counter() - t0, 1e-6)))
            out.append(
                {"name": strategy, "rollout": rollout, "samples": k, **_time_pimc_selfplay(strategy, rounds, repeats)}
            )
    return out


def _warm_pimc(strategy: str) -> RunSpec:
    """Compile (or load from the cache) ``strategy``'s kernels by a 4-round 4x10 run; return that run's spec."""
    warm = make_spec(4, cards=10, hands=4, seed=12345, strategy=strategy)
    run_counts(warm)
    return warm


def _time_pimc_selfplay(strategy: str, rounds: int, repeats: int) -> dict:
    """Median time of ``rounds`` 4x10 self-play rounds of ``strategy`` (warmed up) and its card plays per second."""
    spec = make_spec(4, cards=10, hands=rounds, seed=1, strategy=strategy)
    times = _timed(lambda _: run_counts(spec), repeats)
    median = statistics.median(times)
    return {"rounds": rounds, "seconds_median": median, "seconds_all": times, "card_plays_per_s": rounds * 40 / median}


def format_pimc_curve(curve: list[dict]) -> str:
    """Human-readable table of :func:`time_pimc_curve` results."""
    lines = [f"{'setting (4x10 self-play, one core)':<52} {'card plays/s':>13} {'median s':>9}"]
    for r in curve:
        lines.append(f"{r['name']:<52} {r['card_plays_per_s']:>13,.0f} {r['seconds_median']:>9.3f}")
    lines.append(f"(median of {len(curve[0]['seconds_all'])} timed repeats after an untimed warm-up run)")
    return "\n".join(lines)


def time_pimc(rounds: int = 100, repeats: int = 3) -> list[dict]:
    """Card plays per second of ``pimc`` (K = 32) in 4-player 10-card self-play, after a warm-up.

    Every seat is PIMC, so every card played is a PIMC decision (forced plays,
    with one legal card, included); bidding time (``bid_samples``) is included
    in the first case and left out (``table`` bids) in the second.
    """
    out = []
    for label, strategy in (
        ("pimc K=32", "pimc(samples=32)"),
        ("pimc K=32, table bids", "pimc(samples=32,bid_samples=0)"),
        ("pimc K=32, heuristic rollouts (the old pimc)", "pimc(samples=32,rollout=0)"),
    ):
        _warm_pimc(strategy)
        out.append({"name": f"{label}, 4x10 self-play", **_time_pimc_selfplay(strategy, rounds, repeats)})
    return out


def time_env(rounds: int = 200, repeats: int = 3) -> dict | None:
    """The PettingZoo environment (``wizsim.env``), 4x10: one agent taking the first legal action against three
    heuristic opponents inside the engine; agent decisions (AEC turns) per second, median after a warm-up.
    None without PettingZoo."""
    try:
        from ..env import WizardEnv
    except Exception:  # noqa: BLE001 - the optional extra is missing
        return None
    import numpy as np

    env = WizardEnv(players=4, cards=10, opponents={1: "heuristic", 2: "heuristic", 3: "heuristic"})

    def play(first: int, count: int) -> int:
        turns = 0
        for seed in range(first, first + count):
            env.reset(seed=seed)
            for _ in env.agent_iter():
                obs, _, done, cut, _ = env.last()
                env.step(None if done or cut else int(np.flatnonzero(obs["action_mask"])[0]))
                turns += 0 if done or cut else 1
        return turns

    play(10**6, 3)  # compile, load caches
    counts: list[int] = []
    times = _timed(lambda r: counts.append(play(r * rounds, rounds)), repeats)
    median = statistics.median(times)
    return {
        "name": "aec env 4x10 (1 agent, 3 heuristic opponents)",
        "rounds": rounds,
        "seconds_median": median,
        "seconds_all": times,
        "decisions_per_s": statistics.median(c / t for c, t in zip(counts, times, strict=True)),
        "rounds_per_s": rounds / median,
    }


def time_agent(deals: int = 2_000, repeats: int = 3) -> dict:
    """A Python agent seated in ``wizsim tournament`` (``external``): 4x10 duplicate against the heuristic, the agent
    taking the first legal action; its decisions per second (the whole tournament's wall time: the engine's
    rounds, the agent's calls, the tables), median after a warm-up."""
    import numpy as np

    from ..players.strategies import external
    from .tournament import tournament

    calls = [0]

    def first_legal(observation: dict, action_mask: np.ndarray) -> int:
        calls[0] += 1
        return int(np.flatnonzero(action_mask)[0])

    agent = external(first_legal, name="first_legal")

    def run(first_seed: int, count: int) -> None:
        tournament(4, [agent, "heuristic"], cards=10, deals=count, seed=first_seed, progress=False)

    run(10**6, 20)  # compile, load caches
    counts: list[int] = []

    def timed(r: int) -> None:
        calls[0] = 0
        run(r, deals)
        counts.append(calls[0])

    times = _timed(timed, repeats)
    median = statistics.median(times)
    return {
        "name": "agent tournament 4x10 (first legal action vs heuristic)",
        "deals": deals,
        "rounds": 6 * deals,  # 6 seatings of 2 strategies at 4 seats
        "seconds_median": median,
        "seconds_all": times,
        "decisions_per_s": statistics.median(c / t for c, t in zip(counts, times, strict=True)),
        "rounds_per_s": 6 * deals / median,
    }


def time_vec_env(tables: int = 1024, steps: int = 400, repeats: int = 3) -> dict | None:
    """The batched environment (``VecWizardEnv``), 4x10: ``tables`` tables, the learner at seat 0 taking the first
    legal action (a NumPy argmax over the masks), three heuristic opponents inside the kernel; learner decisions
    per second over ``steps`` steps, median after a warm-up. None without PettingZoo."""
    import numpy as np

    try:
        from ..env.vec import VecWizardEnv
    except Exception:  # noqa: BLE001 - the optional extra is missing
        return None
    env = VecWizardEnv(tables, players=4, cards=10)
    _, mask = env.reset(seed=1)
    for _ in range(20):  # compile, load caches, warm the tables
        _, mask, *_ = env.step(mask.argmax(axis=1))

    rounds = [0] * repeats  # rounds the tables finished in each timed run

    def run(r: int) -> None:
        nonlocal mask
        for _ in range(steps):
            _, mask, _, dones, _ = env.step(mask.argmax(axis=1))
            rounds[r] += int(np.count_nonzero(dones))  # ~1 us a step, against ~700 us for the step

    times = _timed(run, repeats)
    median = statistics.median(times)
    return {
        "name": "vec env 4x10",
        "tables": tables,
        "steps": steps,
        "seconds_median": median,
        "seconds_all": times,
        "decisions_per_s": tables * steps / median,
        "rounds_per_s": statistics.median(c / t for c, t in zip(rounds, times, strict=True)),
    }


def run_bench(quick: bool = False, repeats: int = 3, openspiel: bool = True) -> dict:
    """Run every case (and the OpenSpiel baseline) and return the results."""
    cases = default_cases(0.02 if quick else 1.0)
    results = [time_case(c, repeats) for c in cases]
    advise_results = time_advise(2_000 if quick else 100_000, repeats)
    pimc_results = time_pimc(4 if quick else 100, repeats)
    base = time_openspiel(0.3 if quick else 2.0, repeats) if openspiel else None
    startup = time_startup(repeats)
    env = time_env(20 if quick else 200, repeats)
    agent = time_agent(100 if quick else 2_000, repeats)
    vec = time_vec_env(256 if quick else 1024, 20 if quick else 400, repeats)
    by_name = {r["name"]: r for r in results}
    one = by_name["random 4x10"]["rounds_per_s"]
    two = by_name["random 4x10, 2 jobs"]["rounds_per_s"]
    out = {
        "cpu_count": os.cpu_count(),
        "repeats": repeats,
        "cases": results,
        "scaling_2_jobs": two / one,
        "specials_speed_ratio_random": by_name["random 4x10, all 7 specials"]["rounds_per_s"] / one,
        "specials_speed_ratio_heuristic": by_name["heuristic 4x10, all 7 specials"]["rounds_per_s"]
        / by_name["heuristic 4x10"]["rounds_per_s"],
        "rule_speed_ratio_heuristic": by_name["linear bid rule 4x10"]["rounds_per_s"]
        / by_name["heuristic 4x10"]["rounds_per_s"],
        "play_rule_speed_ratio_heuristic": by_name["linear play rule 4x10"]["rounds_per_s"]
        / by_name["heuristic 4x10"]["rounds_per_s"],
        "advise": advise_results,
        "pimc": pimc_results,
        "openspiel": base,
        "startup": startup,
        "env": env,
        "agent": agent,
        "vec_env": vec,
    }
    if base is not None:
        out["ratio_random_4x10_vs_openspiel"] = one / base["rounds_per_s"]
    return out


def format_bench(res: dict) -> str:
    """Human-readable table of :func:`run_bench` results."""
    lines = [
        f"wizsim bench: {res['cpu_count']} CPUs, median of {res['repeats']} timed runs after a warm-up; each case"
        " names its deck (standard rules, seed 1)",
        f"{'case':<32} {'jobs':>4} {'rounds/s':>14} {'card plays/s':>16} {'median s':>9}  deck",
    ]
    for r in res["cases"]:
        lines.append(
            f"{r['name']:<32} {r['jobs']:>4} {r['rounds_per_s']:>14,.0f} {r['card_plays_per_s']:>16,.0f}"
            f" {r['seconds_median']:>9.3f}  {r.get('deck', 'standard')}"
        )
    lines.append(f"scaling random 4x10, 2 jobs / 1 job: {res['scaling_2_jobs']:.2f}x")
    lines.append(
        f"all 7 specials / base game: random {res['specials_speed_ratio_random']:.2f},"
        f" heuristic {res['specials_speed_ratio_heuristic']:.2f}"
    )
    lines.append(
        f"linear bid rule / heuristic 4x10 (same card play): {res['rule_speed_ratio_heuristic']:.2f} ({RULE_CASE})"
    )
    lines.append(
        f"linear play rule / heuristic 4x10 (same bids): {res['play_rule_speed_ratio_heuristic']:.2f} ({PLAY_CASE})"
    )
    same = next(r for r in res["cases"] if r["name"] == "learned 4x10")["rounds_per_s"]
    for a in res.get("advise", []):
        lines.append(
            f"{a['name']}: {a['seconds_median']:.2f} s ({a['rounds_per_s']:,.0f} rounds/s;"
            f" {a['rounds_per_s'] / same:.2f}x learned 4x10 simulation)"
        )
    for r in res.get("pimc", []):
        lines.append(f"{r['name']}: {r['card_plays_per_s']:,.0f} PIMC card plays/s on one core")
    base = res.get("openspiel")
    if base is None:
        lines.append("OpenSpiel baseline: not measured (pip install open_spiel)")
    else:
        lines.append(
            f"{base['name']}: {base['rounds_per_s']:,.0f} rounds/s; wizsim random 4x10 is "
            f"{res['ratio_random_4x10_vs_openspiel']:.1f}x faster"
        )
    engine = next((r["rounds_per_s"] for r in res["cases"] if r["name"] == "heuristic 4x10"), float("nan"))
    for key in ("env", "agent"):  # the environment's turns, and an agent seated in a tournament
        r = res.get(key)
        if r:
            lines.append(
                f"{r['name']}: {r['decisions_per_s']:,.0f} agent decisions/s, {r['rounds_per_s']:,.0f} rounds/s"
                f" ({r['rounds_per_s'] / engine:.4f}x heuristic 4x10 simulation)"
            )
    vec = res.get("vec_env")
    if vec:
        lines.append(
            f"{vec['name']} ({vec['tables']} tables, learner first legal vs 3 heuristic): "
            f"{vec['decisions_per_s']:,.0f} learner decisions/s, {vec['rounds_per_s']:,.0f} rounds/s"
            f" ({vec['rounds_per_s'] / engine:.2f}x heuristic 4x10 simulation)"
        )
    st = res.get("startup")
    if st:
        lines.append(
            f"start-up (not in the rates above): process {st['process_s']:.2f} s, import {st['import_s']:.2f} s,"
            f" first run (cache load) {st['first_run_s']:.2f} s, 2 workers started {st['workers_s']:.2f} s"
        )
    lines.append(f"(median of {res['repeats']} timed repeats after an untimed warm-up run)")
    return "\n".join(lines)
