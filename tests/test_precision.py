"""Precision-sized runs (``simulate(precision=...)``, ``wizsim simulate --precision``): the stopping chunk is the
first whose prefix is precise enough, the counts are those of a fixed run over that prefix, and neither depends on
the number of workers."""

from __future__ import annotations

import pytest

from wizsim.errors import WizsimError
from wizsim.run.parallel import run_counts
from wizsim.run.precision import check_precision, run_to_precision
from wizsim.run.simulate import CHUNK_GAMES, CHUNK_ROUNDS, hit_rate_half_width, make_spec, simulate_result

TARGET = 0.0021  # hit rate +- 0.21 pp: three chunks of 4 x 3 rounds (one gives about +- 0.38), so with two workers
# the stop falls in the middle of the second batch of two: its fourth chunk is computed and dropped


@pytest.fixture(scope="module")
def runs():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # stopping inside a batch must not cancel the workers' tasks (joblib warns)
        return _runs()


def _runs():
    kw = {"players": 4, "cards": 3, "seed": 11, "strategy": "random"}
    return {jobs: simulate_result(**kw, precision=TARGET, jobs=jobs) for jobs in (1, 2)}, kw


def test_same_stop_and_counts_for_any_jobs(runs):
    by_jobs, _ = runs
    one, two = by_jobs[1], by_jobs[2]
    assert one.spec.items == two.spec.items
    assert (one.counts.joint == two.counts.joint).all() and (one.counts.aux == two.counts.aux).all()
    assert one.table().equals(two.table())


def test_stops_at_the_first_chunk_precise_enough_with_a_fixed_runs_counts(runs):
    by_jobs, kw = runs
    res = by_jobs[1]
    n = res.spec.items // CHUNK_ROUNDS
    assert res.spec.items == n * CHUNK_ROUNDS and n == 3  # an odd count: with 2 workers a chunk was dropped
    fixed = make_spec(**kw, hands=res.spec.items)
    counts = run_counts(fixed)
    assert (counts.joint == res.counts.joint).all() and (counts.aux == res.counts.aux).all()
    assert hit_rate_half_width(fixed, counts) <= TARGET
    shorter = make_spec(**kw, hands=(n - 1) * CHUNK_ROUNDS)  # one chunk fewer is not precise enough
    assert hit_rate_half_width(shorter, run_counts(shorter)) > TARGET
    assert res.attrs["precision"] == TARGET and res.attrs["hands"] == res.spec.items


def test_games_mode_stops_on_whole_chunks_of_games():
    spec = make_spec(3, games=4 * CHUNK_GAMES, seed=2, strategy="random", schedule=[1, 2])
    done, counts = run_to_precision(spec, 0.02, hit_rate_half_width)
    assert done.items % CHUNK_GAMES == 0 and done.items < spec.items
    assert (run_counts(done).joint == counts.joint).all()


@pytest.mark.parametrize("bad", [0, -1, "x", float("nan"), float("inf"), None, True])
def test_bad_targets_are_refused(bad):
    with pytest.raises(WizsimError, match="precision"):
        check_precision(bad)


def test_a_cap_reached_first_says_the_width_reached_and_the_cap():
    spec = make_spec(4, cards=3, hands=CHUNK_ROUNDS, seed=1, strategy="random")
    with pytest.raises(WizsimError, match=r"half-width is 0\.\d+ after the cap of 16,384 hands"):
        run_to_precision(spec, 1e-5, hit_rate_half_width)
