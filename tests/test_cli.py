"""The ``wizsim`` command-line contract.

* bad input: exit status 2, one line ``wizsim: error: ...`` on stderr, no traceback,
  no output file;
* ``simulate --out X.csv|X.parquet`` writes the documented tables (games mode also
  ``X_games.*``), every estimate inside its interval;
* output is written atomically (``wizsim.run.io.atomic_path``);
* ``history --out X.jsonl`` writes one HISTORY.md record per round;
* ``bench --json`` prints the documented JSON.

Every command runs as a real subprocess (``python -m wizsim.cli``). Independent
subprocesses are started concurrently to keep the file fast.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import wizsim
from wizsim.errors import WizsimError
from wizsim.run.io import atomic_path, write_table

WIZSIM = [sys.executable, "-m", "wizsim.cli"]
TIMEOUT = 600  # generous: beside the other test worker a cold compile takes minutes
# ../shared next to the repository (WIZSIM_SHARED may point elsewhere)
HISTORY_MD = Path(os.environ.get("WIZSIM_SHARED", Path(__file__).resolve().parents[2] / "shared")) / "HISTORY.md"

TABLE_ESTIMATES = ["mean_bid", "mean_tricks", "hit_rate", "mean_abs_diff", "mean_score"]
TABLE_KEYS = ["strategy", "cards", "position", "rounds"]
TABLE_COLUMNS = [*TABLE_KEYS, *(f"{m}{s}" for m in TABLE_ESTIMATES for s in ("", "_lo", "_hi"))]
GAMES_COLUMNS = [
    "seat",
    "strategy",
    "games",
    "mean_total",
    "mean_total_lo",
    "mean_total_hi",
    "win_rate",
    "win_rate_lo",
    "win_rate_hi",
]

# The keys of HISTORY.md (checked against the document when it is present).
HISTORY_KEYS = [
    "seed",
    "game",
    "players",
    "round",
    "cards_per_player",
    "dealer",
    "specials",
    "options",
    "strategies",
    "hands",
    "indicator",
    "werewolf",
    "trump",
    "bids",
    "tricks",
    "tricks_won",
    "final_bids",
    "scores",
]
HISTORY_OPTION_KEYS = ["canadian", "scoring", "bomb", "wizard_indicator", "werewolf", "variant", "hidden_bids"]
TRICK_KEYS = ["leader", "cards", "winner", "next_leader"]


def run_wizsim(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*WIZSIM, *args], cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT, env=os.environ.copy()
    )


def run_many(jobs: dict[str, tuple[list[str], Path]]) -> dict[str, subprocess.CompletedProcess]:
    """Run several independent ``wizsim`` commands at the same time."""
    workers = max(2, min(len(jobs), (os.cpu_count() or 2) + 1))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {name: pool.submit(run_wizsim, args, cwd) for name, (args, cwd) in jobs.items()}
        return {name: f.result() for name, f in futures.items()}


def assert_ok(res: subprocess.CompletedProcess) -> None:
    assert res.returncode == 0, f"exit {res.returncode}\nstdout:\n{res.stdout}\nstderr:\n{res.stderr}"
    assert "Traceback" not in res.stderr


def files_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# --------------------------------------------------------------------------- bad input

SIM = ["simulate", "--players", "4"]
SEL = ["--cards", "3", "--hands", "20", "--seed", "1"]

# name: (arguments, output file name or None, a fragment the message must contain)
BAD_INPUT = {
    "2 players": (["simulate", "--players", "2", *SEL], "out.csv", "2 players"),
    "7 players": (["simulate", "--players", "7", *SEL], "out.csv", "7 players"),
    "cards beyond deck": ([*SIM, "--cards", "16", "--hands", "20", "--seed", "1"], "out.csv", "16 cards"),
    "cards 0": ([*SIM, "--cards", "0", "--hands", "20", "--seed", "1"], "out.csv", "0 cards"),
    "unknown strategy": ([*SIM, *SEL, "--strategy", "nosuchbot"], "out.csv", "nosuchbot"),
    "wrong number of strategies": ([*SIM, *SEL, "--strategy", "random,heuristic"], "out.csv", "strategies"),
    "unknown rule key": ([*SIM, *SEL, "--rule", "nosuchrule=1"], "out.csv", "nosuchrule"),
    "malformed rule": ([*SIM, *SEL, "--rule", "canadian"], "out.csv", "canadian"),
    "bad rule value": ([*SIM, *SEL, "--rule", "scoring=foo"], "out.csv", "foo"),
    "unsupported rule value": ([*SIM, *SEL, "--rule", "variant=mono"], "out.csv", "mono"),
    "games with cards": ([*SIM, *SEL, "--games", "3"], "out.csv", "--games"),
    "missing seed": ([*SIM, "--cards", "3", "--hands", "20"], "out.csv", "--seed"),
    "cards not an integer": ([*SIM, "--cards", "x", "--hands", "20", "--seed", "1"], "out.csv", "--cards"),
    "bad out suffix": ([*SIM, *SEL], "file.txt", ".csv"),
    "schedule beyond deck": ([*SIM, "--games", "3", "--schedule", "1,99", "--seed", "1"], "out.csv", "99"),
    # 67 cards with all seven specials: at most 16 rounds for 4 players
    "rounds beyond deck with specials": (
        [*SIM, "--games", "3", "--seed", "1", "--specials", "all", "--rule", "rounds=17"],
        "out.csv",
        "rounds=17",
    ),
    "history rounds beyond deck": (
        ["history", "--players", "4", "--games", "1", "--seed", "1", "--rule", "rounds=16"],
        "out.jsonl",
        "rounds=16",
    ),
    "jobs 0": ([*SIM, *SEL, "--jobs", "0"], "out.csv", "jobs"),
    # a few more of the same contract
    "missing output folder": ([*SIM, *SEL], "nodir/out.csv", "nodir"),
    "history hidden bids with canadian": (
        ["history", "--players", "4", *SEL, "--rule", "hidden_bids=secret", "canadian=true"],
        "out.jsonl",
        "hidden bids",
    ),
    "mono with specials": (
        [*SIM, "--games", "3", "--seed", "1", "--rule", "variant=mono", "--specials", "bomb"],
        "out.csv",
        "mono",
    ),
    "mono with 5 players": (
        ["simulate", "--players", "5", "--games", "3", "--seed", "1", "--rule", "variant=mono"],
        "out.csv",
        "mono",
    ),
    "elimination with 3 players": (
        ["simulate", "--players", "3", "--games", "3", "--seed", "1", "--rule", "variant=elimination"],
        "out.csv",
        "elimination",
    ),
    "two game variants": ([*SIM, "--games", "3", "--seed", "1", "--rule", "variant=mono+maximus"], "out.csv", "mono"),
    "unknown special": ([*SIM, *SEL, "--specials", "dragon,unicorn"], "out.csv", "unicorn"),
    "special named twice": ([*SIM, *SEL, "--specials", "dragon,Dragon"], "out.csv", "twice"),
    "no command": ([], None, "command"),
    # --precision: a positive half-width, reachable within the cap (one line that says what was reached)
    "precision 0": ([*SIM, "--cards", "3", "--seed", "1", "--precision", "0"], "out.csv", "positive"),
    "precision negative": ([*SIM, "--cards", "3", "--seed", "1", "--precision", "-0.01"], "out.csv", "-0.01"),
    "precision not a number": ([*SIM, "--cards", "3", "--seed", "1", "--precision", "tight"], "out.csv", "tight"),
    "precision nan": ([*SIM, "--cards", "3", "--seed", "1", "--precision", "nan"], "out.csv", "nan"),
    "precision beyond the cap": (
        # --quiet: a run that compiles for more than 2 s shows its progress line on stderr before the error
        [*SIM, "--cards", "3", "--hands", "20000", "--seed", "1", "--precision", "0.0001", "--quiet"],
        "out.csv",
        "after the cap of 20,000 hands",
    ),
    "precision with checkpoint": (
        [*SIM, "--cards", "3", "--seed", "1", "--precision", "0.01", "--checkpoint", "ck"],
        "out.csv",
        "--checkpoint",
    ),
}


@pytest.fixture(scope="module")
def bad_runs(tmp_path_factory) -> dict[str, tuple[subprocess.CompletedProcess, Path]]:
    jobs = {}
    for i, (name, (args, out, _)) in enumerate(BAD_INPUT.items()):
        cwd = tmp_path_factory.mktemp(f"bad{i}")
        jobs[name] = ([*args, "--out", out] if out else args, cwd)
    results = run_many(jobs)
    return {name: (results[name], jobs[name][1]) for name in jobs}


@pytest.mark.parametrize("case", list(BAD_INPUT))
def test_bad_input_is_one_error_line_and_exit_2(case, bad_runs):
    res, cwd = bad_runs[case]
    fragment = BAD_INPUT[case][2]
    assert res.returncode == 2, f"exit {res.returncode}\nstdout:\n{res.stdout}\nstderr:\n{res.stderr}"
    assert "Traceback" not in res.stderr and "Traceback" not in res.stdout
    lines = res.stderr.splitlines()
    assert len(lines) == 1, f"stderr should be one line:\n{res.stderr}"
    assert res.stderr == lines[0] + "\n"
    assert lines[0].startswith("wizsim: error: ")
    assert lines[0][len("wizsim: error: ") :].strip()
    assert fragment in lines[0]
    assert files_in(cwd) == [], f"bad input left files behind: {files_in(cwd)}"


def test_console_script_is_installed(tmp_path):
    exe = shutil.which("wizsim")
    if exe is None:
        pytest.skip("the wizsim console script is not on PATH")
    res = subprocess.run(
        [exe, "simulate", "--players", "9", *SEL], cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT
    )
    assert res.returncode == 2
    assert res.stderr.startswith("wizsim: error: ") and len(res.stderr.splitlines()) == 1


# --------------------------------------------------------------------------- simulate --out

HANDS = 400
GAMES = 30
HANDS_ARGS = [
    *SIM,
    "--cards",
    "4",
    "--hands",
    str(HANDS),
    "--seed",
    "11",
    "--strategy",
    "heuristic,random,random,random",
]
GAMES_ARGS = [
    "simulate",
    "--players",
    "3",
    "--games",
    str(GAMES),
    "--seed",
    "5",
    "--strategy",
    "heuristic,random,random",
]


@pytest.fixture(scope="module")
def sim_runs(tmp_path_factory) -> dict[str, tuple[subprocess.CompletedProcess, Path]]:
    folder = tmp_path_factory.mktemp("simulate")
    jobs = {
        "hands.csv": ([*HANDS_ARGS, "--out", "hands.csv"], folder),
        "hands.parquet": ([*HANDS_ARGS, "--out", "hands.parquet"], folder),
        "games.csv": ([*GAMES_ARGS, "--out", "games.csv"], folder),
        "games.parquet": ([*GAMES_ARGS, "--out", "games.parquet"], folder),
    }
    results = run_many(jobs)
    return {name: (results[name], folder) for name in jobs}


def read(path: Path) -> pd.DataFrame:
    return pd.read_csv(path) if path.suffix == ".csv" else pd.read_parquet(path)


def assert_inside_intervals(df: pd.DataFrame, names: list[str], tol: float = 0.0) -> None:
    for name in names:
        lo, val, hi = df[f"{name}_lo"], df[name], df[f"{name}_hi"]
        assert np.isfinite(val).all(), name
        bad = df[(lo > val + tol) | (val > hi + tol)]
        assert bad.empty, f"{name} outside [{name}_lo, {name}_hi]:\n{bad[[name + '_lo', name, name + '_hi']]}"


def check_table(df: pd.DataFrame, players: int) -> None:
    assert list(df.columns[:4]) == TABLE_KEYS
    assert sorted(df.columns) == sorted(TABLE_COLUMNS)
    assert len(df) > 0
    assert set(df["position"]) == set(range(1, players + 1))
    assert (df["rounds"] > 0).all()
    assert df["hit_rate"].between(0, 1).all()
    assert (df["mean_abs_diff"] >= 0).all()


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_simulate_hands_writes_table(suffix, sim_runs):
    res, folder = sim_runs[f"hands{suffix}"]
    assert_ok(res)
    df = read(folder / f"hands{suffix}")
    check_table(df, 4)
    assert set(df["cards"]) == {4}
    assert set(df["strategy"]) == {"heuristic", "random"}
    # every hand has exactly one seat at each position
    assert (df.groupby("position")["rounds"].sum() == HANDS).all()
    # hands mode: no games table
    assert not (folder / f"hands_games{suffix}").exists()
    assert_inside_intervals(df, TABLE_ESTIMATES)
    meta = json.loads((folder / f"hands{suffix}.json").read_text())
    assert meta["seed"] == 11 and meta["hands"] == HANDS and meta["players"] == 4


def test_simulate_csv_and_parquet_hold_the_same_table(sim_runs):
    for name in ("hands.csv", "hands.parquet", "games.csv", "games.parquet"):
        assert_ok(sim_runs[name][0])
    folder = sim_runs["hands.csv"][1]
    for stem in ("hands", "games", "games_games"):
        a = pd.read_csv(folder / f"{stem}.csv")
        b = pd.read_parquet(folder / f"{stem}.parquet")
        pd.testing.assert_frame_equal(a, b, check_dtype=False, check_exact=False, rtol=1e-12, atol=0)


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_simulate_games_writes_table_and_games_table(suffix, sim_runs):
    res, folder = sim_runs[f"games{suffix}"]
    assert_ok(res)
    df = read(folder / f"games{suffix}")
    check_table(df, 3)
    assert set(df["cards"]) == set(range(1, 21))  # 60 / 3 rounds of 1..20 cards
    assert (df.groupby(["cards", "position"])["rounds"].sum() == GAMES).all()
    # Hit rates of 0 or 1 occur in small cells; see test_wilson_interval_contains_0_and_1
    # for why a rounding tolerance is needed here.
    assert_inside_intervals(df, TABLE_ESTIMATES)

    games = read(folder / f"games_games{suffix}")
    assert list(games.columns) == GAMES_COLUMNS
    assert list(games["seat"]) == [0, 1, 2]
    assert list(games["strategy"]) == ["heuristic", "random", "random"]
    assert (games["games"] == GAMES).all()
    assert games["win_rate"].between(0, 1).all()
    assert_inside_intervals(games, ["mean_total", "win_rate"])
    # one win per game, shared on ties
    assert games["win_rate"].sum() == pytest.approx(1.0, abs=1e-12)


def test_win_rates_share_ties(tmp_path):
    # one-round games of 1 card: ties for the top total are frequent
    res = run_wizsim(
        ["simulate", "--players", "6", "--games", "200", "--schedule", "1", "--seed", "3", "--out", "t.csv"], tmp_path
    )
    assert_ok(res)
    games = pd.read_csv(tmp_path / "t_games.csv")
    assert games["win_rate"].sum() == pytest.approx(1.0, abs=1e-12)
    # wins are counted in 60ths of a game (60 / number of tied winners)
    sixtieths = games["win_rate"] * 60 * 200
    assert np.allclose(sixtieths, np.round(sixtieths), atol=1e-6)
    assert sorted(files_in(tmp_path)) == ["t.csv", "t.csv.json", "t_games.csv"]


def test_wilson_interval_contains_0_and_1():
    df = wizsim.simulate(players=4, games=3, seed=0)
    assert (df["hit_rate"] == 0).any()
    assert_inside_intervals(df, ["hit_rate"])


# --------------------------------------------------------------------------- atomic writing


class Boom(Exception):
    pass


@pytest.mark.parametrize("exc", [Boom, KeyboardInterrupt])
def test_atomic_path_leaves_nothing_on_failure(tmp_path, exc):
    target = tmp_path / "table.csv"
    with pytest.raises(exc):
        with atomic_path(target) as tmp:
            assert tmp.parent == tmp_path and tmp != target
            tmp.write_text("half a table\n")
            raise exc()
    assert not target.exists()
    assert files_in(tmp_path) == []  # no .part file left


@pytest.mark.parametrize("exc", [Boom, KeyboardInterrupt])
def test_atomic_path_keeps_existing_target_on_failure(tmp_path, exc):
    target = tmp_path / "table.csv"
    target.write_text("old results\n")
    with pytest.raises(exc):
        with atomic_path(target) as tmp:
            tmp.write_text("new, half written\n")
            raise exc()
    assert target.read_text() == "old results\n"
    assert files_in(tmp_path) == ["table.csv"]


def test_atomic_path_replaces_on_success(tmp_path):
    target = tmp_path / "table.csv"
    target.write_text("old\n")
    with atomic_path(target) as tmp:
        tmp.write_text("new\n")
        assert target.read_text() == "old\n"  # not visible before the block ends
    assert target.read_text() == "new\n"
    assert files_in(tmp_path) == ["table.csv"]


def test_atomic_path_missing_folder(tmp_path):
    with pytest.raises(WizsimError, match="does not exist"):
        with atomic_path(tmp_path / "nodir" / "x.csv"):
            pass
    assert files_in(tmp_path) == []


def test_write_table_failure_leaves_nothing(tmp_path):
    bad = pd.DataFrame({"a": [object(), 1]})  # pyarrow cannot store this column
    with pytest.raises(Exception):  # noqa: B017
        write_table(bad, tmp_path / "t.parquet")
    assert files_in(tmp_path) == []
    with pytest.raises(WizsimError):
        write_table(pd.DataFrame({"a": [1]}), tmp_path / "t.txt")
    assert files_in(tmp_path) == []


def test_output_file_mode_follows_umask(tmp_path):
    old = os.umask(0o022)
    try:
        with atomic_path(tmp_path / "t.csv") as tmp:
            tmp.write_text("x\n")
        plain = tmp_path / "plain.csv"
        plain.write_text("x\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "t.csv").stat().st_mode) == stat.S_IMODE(plain.stat().st_mode)


# --------------------------------------------------------------------------- history --out


def history_doc_keys() -> tuple[list[str], list[str]]:
    if not HISTORY_MD.exists():
        return HISTORY_KEYS, HISTORY_OPTION_KEYS
    text = HISTORY_MD.read_text()
    keys = re.findall(r"^\| `(\w+)` \|", text, flags=re.M)
    options_row = next(line for line in text.splitlines() if line.startswith("| `options` |"))
    option_keys = re.findall(r"`(\w+)` \(", options_row)
    return keys, option_keys


def test_history_keys_match_the_document():
    keys, option_keys = history_doc_keys()
    assert keys == HISTORY_KEYS
    assert sorted(option_keys) == sorted(HISTORY_OPTION_KEYS)


HIST_CASES = {
    "hands": (["--players", "4", "--cards", "5", "--hands", "37", "--seed", "2"], 37, None),
    "games": (["--players", "5", "--games", "3", "--seed", "2", "--strategy", "heuristic"], 3 * 12, list(range(1, 13))),
    "schedule": (["--players", "4", "--games", "7", "--schedule", "1,3,5", "--seed", "2", "--quiet"], 7 * 3, [1, 3, 5]),
}


@pytest.fixture(scope="module")
def history_runs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("history")
    jobs = {name: (["history", *args, "--out", f"{name}.jsonl"], folder) for name, (args, _, _) in HIST_CASES.items()}
    results = run_many(jobs)
    return {name: (results[name], folder / f"{name}.jsonl") for name in jobs}


@pytest.mark.parametrize("case", list(HIST_CASES))
def test_history_writes_one_record_per_round(case, history_runs):
    res, path = history_runs[case]
    args, n_lines, schedule = HIST_CASES[case]
    assert_ok(res)
    if "--quiet" in args:
        assert res.stderr == ""
    players = int(args[args.index("--players") + 1])
    keys, option_keys = history_doc_keys()
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n")
    lines = text.split("\n")[:-1]
    assert len(lines) == n_lines
    assert sorted(p.name for p in path.parent.iterdir() if p.name.startswith(f".{path.name}")) == []  # no .part
    records = [json.loads(line) for line in lines]
    for i, rec in enumerate(records):
        assert isinstance(rec, dict)
        missing = set(keys) - set(rec)
        assert not missing, f"line {i + 1} lacks {missing}"
        assert set(option_keys) <= set(rec["options"])
        assert rec["seed"] == 2 and rec["players"] == players
        k = rec["cards_per_player"]
        for key in ("bids", "tricks_won", "final_bids", "scores", "hands", "strategies"):
            assert len(rec[key]) == players, key
        assert all(len(h) == k for h in rec["hands"])
        assert len(rec["tricks"]) == k
        for trick in rec["tricks"]:
            assert set(TRICK_KEYS) <= set(trick)
            assert len(trick["cards"]) == players
        assert sum(rec["tricks_won"]) == k  # no Bomb in the base game
        if schedule is not None:
            assert rec["game"] == i // len(schedule)
            assert rec["round"] == i % len(schedule) + 1
            assert k == schedule[i % len(schedule)]
            assert rec["dealer"] == (rec["round"] - 1) % players
        else:
            assert rec["game"] == 0 and k == 5
            assert rec["dealer"] == i % players


# --------------------------------------------------------------------------- bench


def test_bench_quick_json(tmp_path):
    res = run_wizsim(["bench", "--quick", "--json", "--repeats", "1", "--no-openspiel"], tmp_path)
    assert_ok(res)
    out = json.loads(res.stdout)
    assert out["cases"], "no bench cases"
    for case in out["cases"]:
        assert case["rounds_per_s"] > 0 and np.isfinite(case["rounds_per_s"]), case
        assert case["card_plays_per_s"] > 0 and np.isfinite(case["card_plays_per_s"]), case
        assert case["card_plays_per_s"] >= case["rounds_per_s"]
    assert out["scaling_2_jobs"] > 0
    assert out["repeats"] == 1
    # start-up is reported apart from the rates; each part took some time
    assert set(out["startup"]) == {"process_s", "import_s", "first_run_s", "workers_s"}
    assert all(v > 0 for v in out["startup"].values()), out["startup"]
    assert out.get("openspiel") is None
    # the PettingZoo environment's case: agent decisions (AEC turns) per second
    assert out["env"]["decisions_per_s"] > out["env"]["rounds_per_s"] > 0
    # the batched environment's case: learner decisions and the rounds its tables finished, per second
    assert out["vec_env"]["decisions_per_s"] > out["vec_env"]["rounds_per_s"] > 0
    assert files_in(tmp_path) == []
