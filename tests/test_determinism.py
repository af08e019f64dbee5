"""Reproducibility: the same seed and selection give the same numbers, for any ``jobs``.

* ``simulate`` with the same seed twice is identical; another seed differs;
* ``jobs=1`` and ``jobs=2`` give identical tables and integer counts over runs of
  several chunks, in hands mode and games mode (and byte-identical CLI output);
* a history is the very rounds behind ``simulate`` with the same selection and seed;
* the seed of chunk ``i`` does not depend on the number of items in the run.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import wizsim
from wizsim.run.history import history, iter_history
from wizsim.run.simulate import CHUNK_GAMES, CHUNK_ROUNDS, make_spec, simulate_result

WIZSIM = [sys.executable, "-m", "wizsim.cli"]
TIMEOUT = 600  # generous: beside the other test worker a cold compile takes minutes

# 3.5 chunks each, so that jobs=2 splits the chunks unevenly and the last chunk is partial
HANDS_SEL = dict(
    players=4, cards=3, hands=CHUNK_ROUNDS * 7 // 2, seed=2024, strategy="heuristic,random,random,heuristic"
)
GAMES_SEL = dict(players=5, games=CHUNK_GAMES * 7 // 2, seed=99, strategy="random,heuristic,random,random,random")
SELECTIONS = {"hands": HANDS_SEL, "games": GAMES_SEL}


def assert_counts_equal(a, b) -> None:
    for name in ("joint", "aux", "game_acc"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.shape == y.shape, name
        np.testing.assert_array_equal(x, y, err_msg=name)


@pytest.fixture(scope="module")
def jobs_results():
    """simulate_result for each selection with jobs=1 and jobs=2 (the parallel runs reuse one worker pool)."""
    return {(mode, jobs): simulate_result(**sel, jobs=jobs) for mode, sel in SELECTIONS.items() for jobs in (1, 2)}


# --------------------------------------------------------------------------- same seed, same numbers


def test_same_seed_same_table_other_seed_other_numbers():
    sel = dict(players=4, cards=6, hands=3000, strategy="heuristic,random,heuristic,random")
    a = wizsim.simulate(**sel, seed=7)
    b = wizsim.simulate(**sel, seed=7)
    pd.testing.assert_frame_equal(a, b, check_exact=True)
    assert a.attrs == b.attrs
    c = wizsim.simulate(**sel, seed=8)
    assert list(c.columns) == list(a.columns)
    assert list(c["rounds"]) == list(a["rounds"])  # same design ...
    assert not np.array_equal(c["mean_score"].to_numpy(), a["mean_score"].to_numpy())  # ... other deals
    assert not np.array_equal(c["mean_bid"].to_numpy(), a["mean_bid"].to_numpy())


def test_same_seed_same_games_table():
    sel = dict(players=3, games=40, schedule=[2, 4, 6])
    a = wizsim.simulate_result(**sel, seed=1)
    b = wizsim.simulate_result(**sel, seed=1)
    pd.testing.assert_frame_equal(a.games_table(), b.games_table(), check_exact=True)
    assert_counts_equal(a.counts, b.counts)
    c = wizsim.simulate_result(**sel, seed=2)
    assert not np.array_equal(a.counts.game_acc, c.counts.game_acc)


# --------------------------------------------------------------------------- jobs do not matter


@pytest.mark.parametrize("mode", list(SELECTIONS))
def test_jobs_1_and_2_identical(mode, jobs_results):
    one, two = jobs_results[(mode, 1)], jobs_results[(mode, 2)]
    size = CHUNK_GAMES if mode == "games" else CHUNK_ROUNDS
    assert one.spec.chunk_size == size
    assert -(-one.spec.items // size) == 4  # the run really spans several chunks
    assert_counts_equal(one.counts, two.counts)
    pd.testing.assert_frame_equal(one.table(), two.table(), check_exact=True)
    pd.testing.assert_frame_equal(one.summary(), two.summary(), check_exact=True)
    for by in ("position", "seat", "strategy"):
        pd.testing.assert_frame_equal(one.joint_counts(by), two.joint_counts(by), check_exact=True)
    if mode == "games":
        pd.testing.assert_frame_equal(one.games_table(), two.games_table(), check_exact=True)
        assert one.counts.game_acc[2].sum() == 60 * one.spec.items  # one win (in 60ths) per game
    # every round was played exactly once
    assert one.counts.joint.sum() == one.spec.rounds * one.spec.players


def test_simulate_table_is_the_result_table(jobs_results):
    table = wizsim.simulate(**HANDS_SEL, jobs=1)
    pd.testing.assert_frame_equal(table, jobs_results[("hands", 2)].table(), check_exact=True)


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*WIZSIM, *args], cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT)


def test_cli_output_identical_for_any_jobs_and_repeat_runs(tmp_path):
    games = str(CHUNK_GAMES * 7 // 2)
    sim = [
        "simulate",
        "--players",
        "4",
        "--games",
        games,
        "--seed",
        "31",
        "--strategy",
        "heuristic,random,random,random",
    ]
    his = ["history", "--players", "4", "--cards", "4", "--hands", "300", "--seed", "31", "--strategy", "heuristic"]
    runs = {
        "a": [*sim, "--out", "a.csv", "--jobs", "1"],
        "b": [*sim, "--out", "b.csv", "--jobs", "2"],
        "h1": [*his, "--out", "h1.jsonl"],
        "h2": [*his, "--out", "h2.jsonl"],
    }
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        futures = {name: pool.submit(_run, args, tmp_path) for name, args in runs.items()}
        results = {name: f.result() for name, f in futures.items()}
    for name, res in results.items():
        assert res.returncode == 0, f"{name}: exit {res.returncode}\n{res.stderr}"
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()
    assert (tmp_path / "a_games.csv").read_bytes() == (tmp_path / "b_games.csv").read_bytes()
    assert (tmp_path / "a.csv.json").read_bytes() == (tmp_path / "b.csv.json").read_bytes()
    h1 = (tmp_path / "h1.jsonl").read_bytes()
    assert h1 and h1 == (tmp_path / "h2.jsonl").read_bytes()
    assert h1.count(b"\n") == 300


# --------------------------------------------------------------------------- history == simulate


def aggregate(records: list[dict], labels: list[str]):
    """Counts of (position, cards, bid, tricks) over all seats, and per (strategy, cards, position) sums."""
    joint: Counter = Counter()
    per_seat: Counter = Counter()
    sums: dict = {}
    for rec in records:
        n, dealer, k = rec["players"], rec["dealer"], rec["cards_per_player"]
        for seat in range(n):
            pos = (seat - dealer - 1) % n + 1
            bid, won, score = rec["bids"][seat], rec["tricks_won"][seat], rec["scores"][seat]
            joint[(pos, k, bid, won)] += 1
            per_seat[(seat, k, bid, won)] += 1
            s = sums.setdefault((labels[seat], k, pos), [0, 0, 0, 0, 0])
            s[0] += 1
            s[1] += bid
            s[2] += won
            s[3] += int(bid == won)
            s[4] += score
    return joint, per_seat, sums


def assert_history_matches(records: list[dict], result) -> None:
    labels = result.spec.provenance()["strategies"]
    assert len(records) == result.spec.rounds
    joint, per_seat, sums = aggregate(records, labels)
    jc = result.joint_counts(by="position")
    got = {(int(r.position), int(r.cards), int(r.bid), int(r.tricks)): int(r.count) for r in jc.itertuples()}
    assert got == dict(joint)
    js = result.joint_counts(by="seat")
    got = {(int(r.seat), int(r.cards), int(r.bid), int(r.tricks)): int(r.count) for r in js.itertuples()}
    assert got == dict(per_seat)
    table = result.table()
    assert len(table) == len(sums)
    for row in table.itertuples():
        rounds, bid, won, hits, score = sums[(row.strategy, row.cards, row.position)]
        assert row.rounds == rounds
        # the table divides exact integer sums, so the means agree exactly
        assert row.mean_bid == np.float64(bid) / np.float64(rounds)
        assert row.mean_tricks == np.float64(won) / np.float64(rounds)
        assert row.hit_rate == np.float64(hits) / np.float64(rounds)
        assert row.mean_score == np.float64(score) / np.float64(rounds)


CONSISTENCY = {
    # two chunks of hands, mixed strategies, a rule option
    "hands": dict(
        players=3,
        cards=2,
        hands=CHUNK_ROUNDS + 500,
        seed=5,
        strategy="heuristic,random,heuristic",
        rules=["canadian=true"],
    ),
    # two chunks of games with a custom schedule
    "games": dict(
        players=4, games=CHUNK_GAMES + 44, schedule=[1, 3, 5], seed=6, strategy="random,heuristic,random,random"
    ),
    # standard full games, progressive scoring
    "full games": dict(players=6, games=20, seed=7, strategy="heuristic", rules={"scoring": "progressive"}),
}


@pytest.mark.parametrize("case", list(CONSISTENCY))
def test_history_is_the_rounds_behind_simulate(case):
    sel = CONSISTENCY[case]
    records = history(**sel)
    result = simulate_result(**sel)
    assert_history_matches(records, result)
    if result.spec.games_mode:
        # per-game totals and wins from the records equal the games accumulators
        n = result.spec.players
        totals = np.zeros((result.spec.items, n), dtype=np.int64)
        for rec in records:
            totals[rec["game"]] += rec["scores"]
        acc = result.counts.game_acc
        np.testing.assert_array_equal(acc[0], totals.sum(axis=0))
        np.testing.assert_array_equal(acc[1], (totals * totals).sum(axis=0))
        top = totals.max(axis=1, keepdims=True)
        winners = totals == top
        shares = winners * (60 // winners.sum(axis=1, keepdims=True))
        np.testing.assert_array_equal(acc[2], shares.sum(axis=0))


# --------------------------------------------------------------------------- chunk seeding


def test_chunk_seeds_do_not_depend_on_run_length_hands():
    sel = dict(players=3, cards=1, seed=12, strategy="heuristic,random,random")
    long_spec = make_spec(**sel, hands=2 * CHUNK_ROUNDS)
    first = list(itertools.islice(iter_history(long_spec), CHUNK_ROUNDS))
    short = history(**sel, hands=CHUNK_ROUNDS)
    assert first == short
    # and the short run's counts are the counts of those rounds
    assert_history_matches(first, simulate_result(**sel, hands=CHUNK_ROUNDS))
    # the second chunk is not a copy of the first
    second = list(itertools.islice(iter_history(long_spec), CHUNK_ROUNDS, CHUNK_ROUNDS + 50))
    assert [r["hands"] for r in second] != [r["hands"] for r in first[:50]]


def test_chunk_seeds_do_not_depend_on_run_length_games():
    sel = dict(players=4, schedule=[1, 2], seed=12)
    long = history(**sel, games=2 * CHUNK_GAMES + 3)
    short = history(**sel, games=CHUNK_GAMES)
    assert long[: len(short)] == short
    assert_history_matches(short, simulate_result(**sel, games=CHUNK_GAMES))


def test_prefix_within_a_chunk():
    sel = dict(players=5, cards=4, seed=3, strategy="heuristic")
    assert history(**sel, hands=40)[:25] == history(**sel, hands=25)
