"""What does each common card-play habit cost or gain, as a change to a strong player?

Question
--------
Strategy guides give play advice: duck once your bid is made, lead your high
trump when you need every trick, keep the boss trump for the end, dump your
Jesters early... If the strongest fast player (``learned``) follows one such
habit where it applies, and plays as it would everywhere else, how many points
per round does it win or lose, and in which situations is the habit right?

Method
------
Each habit of :data:`wizsim.players.play_habits.HABITS` (source and wording
there) is a play rule that reads the ``fallback`` feature: the seat's
``learned`` player chooses its card first, and the habit replaces that card
only where it applies. The habit seat is seat 0 against three ``learned``
players, and its bids (and every other decision) are ``learned``'s. Every
habit and the plain ``learned`` player are played on the same deals (common
random numbers), so a round in which the habit never changed a card has the
same score; the difference is the habit's. Formats: duplicate 4 players x 10
cards (independent deals, the dealer rotating), and full games of 3, 4, 5 and 6
players (seat 0 dealing first). Intervals: 95%, from the paired per-round
differences, clustered by game in full games.

Situations: in every round the habit changed, the first changed card is
classified by the tricks the seat still needed then (need), its position in
the trick (leading, between, last) and its trump length as dealt; the table
gives the mean gain of those rounds per class (4 x 10).

Outputs
-------
``play_habits.csv``: one row per habit and format: points per round gained
over ``learned`` (95% interval), share of rounds changed, hit rate change.
``play_habits_situations.csv``: the gain of changed rounds by need, position
and trump length (4 x 10). A chart (.png, .svg).

Caveats
-------
A habit's replacement card, where it forbids ``learned``'s card, is the
heuristic's card if allowed, else the lowest card code of the rest (see each
habit's docstring): a small part of a forbidding habit's cost is that choice.
The opponents are ``learned``; no special cards; default rules.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from wizsim.players.play_habits import HABITS
from wizsim.players.strategies import LearnedStrategy, Strategy, play_rule
from wizsim.plotting import save
from wizsim.plotting.play_habits import draw
from wizsim.run.history import record_chunk_arrays
from wizsim.run.io import write_table
from wizsim.run.parallel import map_tasks
from wizsim.run.spec import make_spec

NAME = "play_habits"
QUESTION = "How many points per round does each common card-play habit cost or gain, applied on top of learned?"
FIELD = "learned"
SIZES = {
    "quick": {"deals": 1_000, "games": 10},
    "default": {"deals": 40_000, "games": 400},
    "full": {"deals": 400_000, "games": 4_000},
}
PLAYERS = 4
CARDS = 10
GAME_PLAYERS = (3, 4, 5, 6)
NEED = ("need <= -1", "need 0", "need 1", "need 2+")
POSITION = ("leading", "between", "last")
TRUMPS = ("0 trumps", "1 trump", "2 trumps", "3+ trumps")


def seats(habits: dict | None = None) -> dict[str, Strategy]:
    """name -> seat-0 strategy: ``learned`` (the yardstick, first) and each habit (default :data:`HABITS`) over it."""
    out: dict[str, Strategy] = {FIELD: LearnedStrategy()}
    for name, (func, _, _) in (HABITS if habits is None else habits).items():
        out[name] = play_rule(func, bid=FIELD, name=name)
    return out


def _specs(players: int, size: int, games: bool, seed: int, habits: dict | None = None) -> dict:
    kw = {"games": size} if games else {"cards": CARDS, "hands": size}
    return {name: make_spec(players, seed=seed, strategy=[s] + [FIELD] * (players - 1), **kw)
            for name, s in seats(habits).items()}  # fmt: skip


def _seat0_plays(rec) -> np.ndarray:
    """[rows, kmax] seat 0's form in each trick."""
    n = rec.round_players[:, None]
    j0 = (-rec.leaders) % n
    return np.take_along_axis(rec.plays, j0[:, :, None], axis=2)[:, :, 0]


def _chunk(specs: dict, chunk: int) -> pd.DataFrame:
    """Per round of one chunk: seat 0's score under each seat-0 strategy and, for the habits, where the first
    changed card was played (need, position, trump length)."""
    first, base = record_chunk_arrays(specs[FIELD], chunk)
    per_item = len(specs[FIELD].schedule)
    rows = len(base)
    k = base.cards
    trump = base.trump[:, None]
    hands = base.hands[:, 0, :].astype(np.int64)
    dealt = np.arange(hands.shape[1])[None, :] < k[:, None]
    trumps = (dealt & (hands < 52) & (hands // 13 == trump) & (trump >= 0)).sum(1)
    out = {"deal": first + np.arange(rows) // per_item, "cards": k, "trumps": np.minimum(trumps, 3),
           f"score:{FIELD}": base.scores[:, 0], f"made:{FIELD}": base.bids[:, 0] == base.tricks_won[:, 0]}  # fmt: skip
    base_plays = _seat0_plays(base)
    live = np.arange(base_plays.shape[1])[None, :] < k[:, None]
    for name, spec in specs.items():
        if name == FIELD:
            continue
        _, rec = record_chunk_arrays(spec, chunk)
        plays = _seat0_plays(rec)
        diff = (plays != base_plays) & live
        changed = diff.any(1)
        t = np.argmax(diff, axis=1)
        won_before = ((rec.winners == 0) & (np.arange(rec.winners.shape[1])[None, :] < t[:, None])).sum(1)
        need = rec.bids[:, 0] - won_before
        j0 = (-rec.leaders[np.arange(rows), t]) % rec.round_players
        out[f"score:{name}"] = rec.scores[:, 0]
        out[f"made:{name}"] = rec.bids[:, 0] == rec.tricks_won[:, 0]
        out[f"changed:{name}"] = changed
        out[f"need:{name}"] = np.where(changed, np.clip(need, -1, 2) + 1, -1)
        out[f"position:{name}"] = np.where(
            changed, np.where(j0 == 0, 0, np.where(j0 == rec.round_players - 1, 2, 1)), -1
        )
    return pd.DataFrame(out)


def _paired(diff: np.ndarray, cluster: np.ndarray) -> tuple[float, float]:
    """Mean of ``diff`` per round and its standard error, clustered by ``cluster`` (ratio estimator)."""
    sums = np.bincount(cluster, weights=diff)
    counts = np.bincount(cluster).astype(float)
    keep = counts > 0
    sums, counts = sums[keep], counts[keep]
    g = len(sums)
    mean = sums.sum() / counts.sum()
    if g < 2:
        return float(mean), float("nan")
    resid = sums - mean * counts
    return float(mean), float(np.sqrt(g / (g - 1) * (resid**2).sum()) / counts.sum())


def _interval(row: dict, key: str, mean: float, se: float) -> None:
    row[key], row[f"{key}_lo"], row[f"{key}_hi"] = mean, mean - 1.96 * se, mean + 1.96 * se


def formats(deals: int, games: int, players: tuple[int, ...] = GAME_PLAYERS) -> list[tuple[str, int, int, bool]]:
    """(format, players, deals or games, full games?): duplicate 4x10 first, then full games of each player count."""
    return [("4x10", PLAYERS, deals, False)] + [(f"{n}-player games", n, games, True) for n in players]


def tables(
    habits: dict, fmts: list[tuple[str, int, int, bool]], seed: int, jobs: int = 1
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The two tables (``play_habits.csv``, ``_situations.csv``) of ``habits`` (name -> (play rule, source,
    wording), as :data:`HABITS`) in the formats ``fmts`` (see :func:`formats`), all on the same deals."""
    rows, cells = [], []
    for fmt, n, count, games in fmts:
        specs = _specs(n, count, games, seed, habits)
        d = pd.concat(map_tasks(_chunk, [(specs, c) for c in range(specs[FIELD].n_chunks)], jobs), ignore_index=True)
        cluster = d.deal.to_numpy()
        base = d[f"score:{FIELD}"].to_numpy(float)
        for name, (_, source, wording) in habits.items():
            gain = d[f"score:{name}"].to_numpy(float) - base
            changed = d[f"changed:{name}"].to_numpy()
            row = {"format": fmt, "players": n, "habit": name, "source": source, "wording": wording,
                   "deals": count, "rounds": len(d), "changed_share": float(changed.mean())}  # fmt: skip
            _interval(row, "gain", *_paired(gain, cluster))
            made = d[f"made:{name}"].to_numpy(float) - d[f"made:{FIELD}"].to_numpy(float)
            _interval(row, "hit_rate_change", *_paired(made, cluster))
            _interval(
                row,
                "gain_when_changed",
                *_paired(gain[changed], cluster[changed]) if changed.sum() > 1 else (np.nan, np.nan),
            )
            rows.append(row)
            if fmt != "4x10":
                continue
            for by, labels, codes in (("need", NEED, d[f"need:{name}"].to_numpy()),
                                      ("position", POSITION, d[f"position:{name}"].to_numpy()),
                                      ("trump length", TRUMPS, d.trumps.to_numpy())):  # fmt: skip
                for i, label in enumerate(labels):
                    m = changed & (codes == i)
                    cell = {"habit": name, "by": by, "value": label, "rounds_changed": int(m.sum())}
                    _interval(
                        cell, "gain_when_changed", *(_paired(gain[m], cluster[m]) if m.sum() > 1 else (np.nan, np.nan))
                    )
                    cells.append(cell)
    return pd.DataFrame(rows), pd.DataFrame(cells)


def run(size: str = "default", seed: int = 20261206, outdir: Path = Path("results"), jobs: int = 1) -> dict:
    """Run the analysis; return its headline numbers and provenance."""
    cfg = SIZES[size]
    table, situations = tables(HABITS, formats(cfg["deals"], cfg["games"]), seed, jobs)
    outdir.mkdir(parents=True, exist_ok=True)
    write_table(table, outdir / f"{NAME}.csv")
    write_table(situations, outdir / f"{NAME}_situations.csv")
    csv = [pd.read_csv(outdir / f"{NAME}{suffix}.csv") for suffix in ("", "_situations")]
    save(draw(*csv, cfg["deals"], cfg["games"]), outdir / NAME)  # drawn from the files: the gallery redraws them
    return {
        "name": NAME,
        "question": QUESTION,
        "headline": _headline(table, situations, cfg),
        "sample": (
            f"{len(HABITS)} habits and learned x ({cfg['deals']:,} deals of {PLAYERS}x{CARDS} + {cfg['games']:,} full"
            f" games at each of {', '.join(map(str, GAME_PLAYERS))} players), the same deals for every one"
        ),
        "seed": seed,
        "files": [f"{NAME}.csv", f"{NAME}_situations.csv", f"{NAME}.png", f"{NAME}.svg"],
        "command": f"python analyses/{NAME}.py --size {size} --seed {seed}",
    }


def _ci(x: float, lo: float, hi: float, digits: int = 2) -> str:
    return f"{x:+.{digits}f} [{lo:+.{digits}f}, {hi:+.{digits}f}]"


def _headline(table: pd.DataFrame, situations: pd.DataFrame, cfg: dict) -> str:
    hands = table[table.format == "4x10"].sort_values("gain", ascending=False)
    games = table[table.format != "4x10"].groupby("habit", sort=False).gain.mean()
    parts = "; ".join(
        f"{r.habit} {_ci(r.gain, r.gain_lo, r.gain_hi)} (changes {100 * r.changed_share:.1f}% of rounds;"
        f" full games, mean over 3-6 players, {games[r.habit]:+.2f})"
        for r in hands.itertuples()
    )
    big = situations.dropna()
    big = big[big.rounds_changed >= 1_000] if (big.rounds_changed >= 1_000).any() else big  # not a noisy small cell
    worst = big.sort_values("gain_when_changed").iloc[0]
    return (
        f"Card-play habits applied on top of learned (seat 0, three learned opponents, same deals). Points per"
        f" round gained over learned, duplicate 4x10 ({cfg['deals']:,} deals), 95% intervals: {parts}."
        f" Largest loss by situation (first changed card, cells of 1,000+ changed rounds): {worst.habit} at"
        f" {worst.value} ({worst['by']}), {worst.gain_when_changed:+.1f}"
        f" [{worst.gain_when_changed_lo:+.1f}, {worst.gain_when_changed_hi:+.1f}] points per changed round."
    )


if __name__ == "__main__":
    from wizsim.report.report import analysis_main

    analysis_main(run, QUESTION, SIZES)
