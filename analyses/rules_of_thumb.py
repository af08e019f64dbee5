"""How good are the popular bidding rules of thumb, against the built-in bidders?

Question
--------
If you bid by a published rule of thumb and play your cards as well as the
strongest fast player does, how many points per round do you lose against the
best bidder, how often do you make your bid, and where does each rule go wrong?

Method
------
Every bidder sits in seat 0 of the same deals (common random numbers) against
three ``learned`` players, and plays its cards by ``learned``'s network (its
every decision but the bid is ``learned``'s), so only the bid differs. The
bidders: the rules of :data:`wizsim.players.rules_of_thumb.PUBLISHED` (each with its
source and wording, see that module), the built-in ``heuristic`` and ``table``
bids (as rules: ``heuristic_bid``, ``table_bid``) and ``learned`` itself (its
bidding network: the yardstick). Two formats:

* duplicate 4 players x 10 cards: independent deals, the dealer rotating, so seat 0
  bids from every position equally often;
* full games of 3, 4, 5 and 6 players (60 / players rounds of 1, 2, ... cards),
  seat 0 dealing first.

"Loss" is the best bidder's points minus this bidder's, paired round by round
on the same deals (the best: the highest mean in that format). Intervals: 95%,
from the standard error of the paired per-deal differences, clustered by game
in full games (a game's rounds are not independent). Hit rate: bid = tricks.
"Where it goes wrong": the loss by round size (full games of 4 players, 1-15
cards), by bidding position (4 x 10) and by hand type (4 x 10); the cell with
the largest loss is reported per rule.

Outputs
-------
``rules_of_thumb.csv``: one row per bidder and format: source, wording, points
per round, loss against the best bidder, hit rate (each with a 95% interval),
deals and rounds. ``rules_of_thumb_cells.csv``: loss and hit rate per bidder
by round size, position and hand type. A chart (.png, .svg): the loss of every
bidder in each format, and the loss by round size in 4-player games.

Caveats
-------
A rule's loss depends on the table: here three strong players. The opponents
see the rule seat's bid and react to it, as at a real table. The
``one_card_thresholds`` rule differs from the heuristic only in one-card
rounds, so it equals the heuristic bidder in 4 x 10. Rules quoted from Oh
Hell count Wizards as sure tricks (our addition). Default rules, no special cards.
The best bidder of a format is chosen on the same deals its loss is measured
on, so its 0 and the others' losses ignore that choice; with 300,000 deals
the top three are within 0.2 points of each other and their order is not
settled, the rest is.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from wizsim.engine import layout as L
from wizsim.players.rules_of_thumb import BUILT_IN, PUBLISHED
from wizsim.players.strategies import LearnedStrategy, Strategy, bid_rule
from wizsim.plotting import save
from wizsim.plotting.rules_of_thumb import draw
from wizsim.run.history import record_chunk_arrays
from wizsim.run.io import write_table
from wizsim.run.parallel import map_tasks
from wizsim.run.spec import make_spec

NAME = "rules_of_thumb"
QUESTION = "How many points per round does each published bidding rule of thumb lose against the best bidder?"
FIELD = "learned"  # the opponents and the card play of every bidder
SIZES = {
    "quick": {"deals": 1_000, "games": 10},
    "default": {"deals": 300_000, "games": 5_000},
    "full": {"deals": 3_000_000, "games": 50_000},
}
PLAYERS = 4
CARDS = 10
GAME_PLAYERS = (3, 4, 5, 6)
HAND_TYPES = ("Wizard(s)", "3+ trumps, no Wizard", "side ace or king only", "weak", "no-trump round")


def bidders() -> dict[str, tuple[Strategy, str, str]]:
    """name -> (strategy in seat 0, source, wording); the yardstick ``learned`` last."""
    out: dict[str, tuple[Strategy, str, str]] = {}
    for name, (func, source, wording) in {**PUBLISHED, **BUILT_IN}.items():
        label = name if name not in BUILT_IN else f"{name} (built-in bid)"
        out[label] = (bid_rule(func, play=FIELD, name=name), source, wording)
    out["learned (built-in bid)"] = (LearnedStrategy(), "wizsim", "the learned player's bidding network")
    return out


def hand_types(rec, seat: int = 0) -> np.ndarray:
    """Index into :data:`HAND_TYPES` of each recorded round's hand of ``seat``."""
    k = rec.cards
    hands = rec.hands[:, seat, :].astype(np.int64)
    dealt = np.arange(hands.shape[1])[None, :] < k[:, None]
    trump = rec.trump[:, None]
    suit_card = dealt & (hands < 52)
    wizards = (dealt & (hands == L.WIZARD)).sum(1)
    trumps = (suit_card & (hands // 13 == trump)).sum(1)
    high_side = (suit_card & (hands // 13 != trump) & (hands % 13 >= 11)).sum(1)
    out = np.full(len(k), 3)
    out[high_side > 0] = 2
    out[(trumps >= 3) & (wizards == 0)] = 1
    out[wizards > 0] = 0
    out[rec.trump < 0] = 4
    return out


def _rounds(strategy: Strategy, players: int, size: int, games: bool, seed: int, jobs: int) -> pd.DataFrame:
    """Seat 0's rounds: deal (or game), cards, position, hand type, bid, tricks, score."""
    field = [FIELD] * (players - 1)
    if games:
        spec = make_spec(players, games=size, seed=seed, strategy=[strategy, *field])
    else:
        spec = make_spec(players, cards=CARDS, hands=size, seed=seed, strategy=[strategy, *field])
    parts = map_tasks(_chunk, [(spec, c) for c in range(spec.n_chunks)], jobs)
    return pd.concat(parts, ignore_index=True)


def _chunk(spec, chunk: int) -> pd.DataFrame:
    first, rec = record_chunk_arrays(spec, chunk)
    n = spec.players
    per_item = len(spec.schedule)
    return pd.DataFrame(
        {
            "deal": first + np.arange(len(rec)) // per_item,
            "round": np.arange(len(rec)) % per_item,
            "cards": rec.cards,
            "position": (-rec.dealer - 1) % n,  # seat 0's bidding position: 0 = the dealer's left
            "hand_type": hand_types(rec),
            "bid": rec.bids[:, 0],
            "tricks": rec.tricks_won[:, 0],
            "score": rec.scores[:, 0],
        }
    )


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
    se = np.sqrt(g / (g - 1) * (resid**2).sum()) / counts.sum()
    return float(mean), float(se)


def formats(deals: int, games: int, players: tuple[int, ...] = GAME_PLAYERS) -> list[tuple[str, int, int, bool]]:
    """(format, players, deals or games, full games?): duplicate 4x10 first, then full games of each player count."""
    return [("4x10", PLAYERS, deals, False)] + [(f"{n}-player games", n, games, True) for n in players]


def tables(
    bids: dict[str, tuple[Strategy, str, str]], fmts: list[tuple[str, int, int, bool]], seed: int, jobs: int = 1
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The two tables (``rules_of_thumb.csv``, ``_cells.csv``) of the bidders ``bids`` (see :func:`bidders`) in
    the formats ``fmts`` (see :func:`formats`), every bidder on the same deals."""
    data = {
        (fmt, name): _rounds(strategy, n, count, games, seed, jobs)
        for fmt, n, count, games in fmts
        for name, (strategy, _, _) in bids.items()
    }
    rows, cells = [], []
    for fmt, n, count, _ in fmts:
        means = {name: data[(fmt, name)].score.mean() for name in bids}
        best = max(means, key=lambda b: means[b])
        ref_score = data[(fmt, best)].score.to_numpy(float)
        for name, (_, source, wording) in bids.items():
            d = data[(fmt, name)]
            cluster = d.deal.to_numpy()
            score = d.score.to_numpy(float)
            diff = ref_score - score  # paired: the same deals, round for round
            made = (d.bid == d.tricks).to_numpy(float)
            pts, pts_se = _paired(score, cluster)
            loss, loss_se = _paired(diff, cluster)
            hit, hit_se = _paired(made, cluster)
            rows.append({
                "format": fmt, "players": n, "bidder": name, "source": source, "wording": wording,
                "best_bidder": best, "deals": count, "rounds": len(d),
                "points_per_round": pts, "points_per_round_lo": pts - 1.96 * pts_se, "points_per_round_hi": pts + 1.96 * pts_se,
                "loss": loss, "loss_lo": loss - 1.96 * loss_se, "loss_hi": loss + 1.96 * loss_se,
                "hit_rate": hit, "hit_rate_lo": hit - 1.96 * hit_se, "hit_rate_hi": hit + 1.96 * hit_se,
            })  # fmt: skip
            by = {"4x10": ("position", "hand_type"), f"{PLAYERS}-player games": ("cards",)}.get(fmt, ())
            for dim in by:
                for value in sorted(d[dim].unique()):
                    m = (d[dim] == value).to_numpy()
                    c_loss, c_se = _paired(diff[m], cluster[m])
                    c_hit, c_hit_se = _paired(made[m], cluster[m])
                    cells.append({
                        "format": fmt, "bidder": name, "best_bidder": best, "by": dim,
                        "value": HAND_TYPES[value] if dim == "hand_type" else int(value), "rounds": int(m.sum()),
                        "loss": c_loss, "loss_lo": c_loss - 1.96 * c_se, "loss_hi": c_loss + 1.96 * c_se,
                        "hit_rate": c_hit, "hit_rate_lo": c_hit - 1.96 * c_hit_se, "hit_rate_hi": c_hit + 1.96 * c_hit_se,
                    })  # fmt: skip
    return pd.DataFrame(rows), pd.DataFrame(cells)


def run(size: str = "default", seed: int = 20261129, outdir: Path = Path("results"), jobs: int = 1) -> dict:
    """Run the analysis; return its headline numbers and provenance."""
    cfg = SIZES[size]
    bids = bidders()
    table, cell_table = tables(bids, formats(cfg["deals"], cfg["games"]), seed, jobs)
    outdir.mkdir(parents=True, exist_ok=True)
    write_table(table, outdir / f"{NAME}.csv")
    write_table(cell_table, outdir / f"{NAME}_cells.csv")
    csv = [pd.read_csv(outdir / f"{NAME}{suffix}.csv") for suffix in ("", "_cells")]
    save(draw(*csv, cfg["deals"], cfg["games"]), outdir / NAME)  # drawn from the files: the gallery redraws them
    return {
        "name": NAME,
        "question": QUESTION,
        "headline": _headline(table, cell_table, cfg),
        "sample": (
            f"{len(bids)} bidders x ({cfg['deals']:,} deals of {PLAYERS}x{CARDS} + {cfg['games']:,} full games at each"
            f" of {', '.join(map(str, GAME_PLAYERS))} players), the same deals for every bidder"
        ),
        "seed": seed,
        "files": [f"{NAME}.csv", f"{NAME}_cells.csv", f"{NAME}.png", f"{NAME}.svg"],
        "command": f"python analyses/{NAME}.py --size {size} --seed {seed}",
    }


def _ci(x: float, lo: float, hi: float, scale: float = 1.0, digits: int = 2, unit: str = "") -> str:
    return f"{scale * x:.{digits}f}{unit} [{scale * lo:.{digits}f}, {scale * hi:.{digits}f}]"


def worst_cells(cells: pd.DataFrame) -> pd.DataFrame:
    """Per bidder and dimension, the cell with the largest loss against the best bidder."""
    idx = cells.groupby(["bidder", "by"], sort=False)["loss"].idxmax()
    return cells.loc[idx.to_numpy()]


def _headline(table: pd.DataFrame, cells: pd.DataFrame, cfg: dict) -> str:
    hands = table[table.format == "4x10"].sort_values("loss")
    best = hands.iloc[0].bidder
    ranking = "; ".join(
        f"{r.bidder} {_ci(r.loss, r.loss_lo, r.loss_hi, digits=1)} (hit {100 * r.hit_rate:.1f}%)"
        for r in hands.itertuples()
        if r.bidder != best
    )
    games = table[table.format != "4x10"]
    pub = games[~games.bidder.str.endswith("(built-in bid)")]
    mean_pub = pub.groupby("bidder").loss.mean().sort_values()
    best_pub = mean_pub.index[0]
    by_n = "; ".join(
        f"{r.players}p " + ("nothing (it is the best bidder there)" if r.bidder == r.best_bidder else
                            _ci(r.loss, r.loss_lo, r.loss_hi, digits=1))
        for r in games[games.bidder == best_pub].itertuples()
    )  # fmt: skip
    worst = worst_cells(cells[cells.by == "cards"])
    worst_k = ", ".join(f"{r.bidder} at {r.value} cards ({r.loss:.1f})" for r in worst.nlargest(3, "loss").itertuples())
    return (
        f"Bidding rules of thumb with learned's card play against three learned players, same deals for all."
        f" Duplicate 4x10 ({cfg['deals']:,} deals), points per round lost against the best bidder ({best},"
        f" hit {100 * hands.iloc[0].hit_rate:.1f}%), 95% intervals: {ranking}. Full games ({cfg['games']:,} per"
        f" player count): the best published rule, {best_pub}, loses {by_n}. Largest losses by round size"
        f" (4-player games): {worst_k}."
    )


if __name__ == "__main__":
    from wizsim.report.report import analysis_main

    analysis_main(run, QUESTION, SIZES)
