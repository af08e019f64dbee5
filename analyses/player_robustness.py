"""Do the headlines hold under another strong player (default pimc instead of learned)?

Question
--------
Every self-play headline in results/README.md is measured with ``learned``.
pimc searches each decision (32 sampled deals, rollouts by learned's
network) instead of reading it off a network; would the headlines read the
same under it? (Which of the two is stronger depends on the network
generation: pimc beat generation 1 by 2.1 points per round, generation 3
beats pimc by 2.1; README.md, "Network generations".) For each headline this analysis
measures the value under ``learned`` self-play and under default ``pimc``
self-play (K = 32 sampled deals per decision, rollouts by the network) on the
same deals, and the difference pimc - learned with its 95% interval; ``agree``
says whether that interval covers 0.

Method
------
* Common random numbers: dealing has its own random stream, so the two
  players play the very same deals (games or rounds) of each configuration;
  the difference is paired game by game (cluster = one full game, or one round
  in the hands sample), a ratio estimator with its delta-method variance.
* Full 4-player games (standard table, 15 rounds) for: the standard deck
  (card values, dealer's advantage, baseline hit rate and points), Dragon +
  Fairy, all seven specials, the Canadian rule, elimination, Maximus and
  hidden bids (simultaneous). ``SIZES[size]["games"]`` games per
  configuration and player. An effect (deck or variant minus standard) is a
  difference of two configurations, which do not share deals
  (independent-sample interval); pimc - learned of an effect pairs each
  configuration game by game first.
* Card values (a Wizard, the trump ace (13), the trump queen (12), a Jester;
  tricks and points a holding adds): the regression of
  ``analyses/expected_tricks.py`` (:func:`card_values` there) run on these
  games; its intervals, and the difference's interval as if independent
  (conservative: the common deals make the two estimates positively
  correlated).
* The example hand (4 players x 5 cards, exactly one Wizard and two trumps,
  as in ``analyses/bid_probabilities.py``): mean tricks and the best bid by
  expected score over the tricks the cell's hands took,
  ``SIZES[size]["hands"]`` rounds per player; ``agree`` for the best bid is
  whether both players name the same bid.
* The rules-of-thumb ranking is not measured here: it seats twelve bidders
  with the player's card play against three of its own, 300,000 deals each;
  under pimc that is days, not minutes (see the closing notes of issue 25).
* Ladder: every headline on which the two disagree is measured again under
  heuristic, table, learned, pimc (K = 32) and pimc with K = 64
  (:data:`LADDER`), on the same deals, and charted, so a reader sees whether
  the effect settles as play gets stronger.

Caveats
-------
* The pimc sample is what the time allows (256 games per configuration by
  default: about 10 minutes of the main job on 2 cores, the ladder included); its
  intervals are wider than the learned-only analyses', whose larger samples
  give the published values. The learned values here are on the same small
  sample, so the pair is comparable; they differ from the published ones by
  sampling error only.
* Seat results within a game are correlated: clustering by game accounts for it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from wizsim.plotting import save
from wizsim.plotting.player_robustness import draw
from wizsim.report.report import load_analysis
from wizsim.run.corpus import PLAYED, Corpus
from wizsim.run.history import record_chunk_arrays
from wizsim.run.parallel import map_tasks
from wizsim.run.simulate import make_spec
from wizsim.run.stats import Est, ratio

NAME = "player_robustness"
QUESTION = "Do the headlines hold when pimc plays instead of learned?"
#: run by ``wizsim report --full`` only; the main job keeps its committed files (wizsim.report.report)
FULL_ONLY = "every headline re-measured under pimc self-play: about 10 minutes of pimc"
#: which value results/README.md trusts where the two disagree, and why
TRUST = (
    "Where they disagree, the learned value stands: learned (generation 3) beats the default pimc head to head by"
    " 2.14 +- 0.49 points per round (README.md, network generations), and the ladder shows whether the value"
    " settles as play gets stronger. With this many headlines about one in twenty disagrees by chance alone."
)
#: sibling analyses whose code this one runs (their source is part of the report's cache key)
USES = ("expected_tricks",)
SIZES = {
    "quick": {"games": 3, "hands": 400},
    "default": {"games": 256, "hands": 2048},
    "full": {"games": 1024, "hands": 8192},
}
PLAYERS = ("learned", "pimc")  # the published player, the stronger one (its defaults: K = 32, learned rollouts)
LADDER = ("heuristic", "table", "learned", "pimc", "pimc(samples=64,bid_samples=64)")
#: configuration -> (specials, rule options); every one is 4 players, full games on the standard table
CONFIGS: dict[str, tuple[str | None, list[str]]] = {
    "standard": (None, []),
    "Dragon+Fairy": ("dragon,fairy", []),
    "all seven": ("all", []),
    "canadian": (None, ["canadian=true"]),
    "elimination": (None, ["variant=elimination"]),
    "maximus": (None, ["variant=maximus"]),
    "hidden simultaneous": (None, ["hidden_bids=simultaneous"]),
}
CARDS = {"Wizard": "Wizard", "trump ace": "trump 13", "trump queen": "trump 12", "Jester": "Jester"}
EXAMPLE = (4, 5, 1, 2)  # players, cards, Wizards, trumps


def columns(players: tuple[str, ...] = PLAYERS) -> list[str]:
    """The columns of ``player_robustness.csv`` for the two players ``players`` (``diff`` is the second minus the first)."""
    a, b = players
    return ["headline", "analysis", "unit", a, f"{a}_lo", f"{a}_hi", b, f"{b}_lo", f"{b}_hi", "diff", "diff_lo",
            "diff_hi", "agree", "sample"]  # fmt: skip


COLUMNS = columns(PLAYERS)


def source_of(headline: str) -> str:
    """The analysis whose published headline ``headline`` checks (results/README.md flags it in that section)."""
    if headline.startswith("example hand"):
        return "bid_probabilities"
    if headline.endswith(" value"):
        return "expected_tricks"
    if headline.startswith(("Dragon+Fairy ", "all seven ")):
        return "special_cards"
    if headline.startswith("dealer's advantage") or any(headline.startswith(f"{c} effect on the ") for c in CONFIGS):
        return "variant_balance"
    raise ValueError(f"no analysis publishes the headline {headline!r}: add it to source_of")


def _sibling(name: str):
    """Another analysis script of this folder, imported by path as the report imports it."""
    return load_analysis(Path(__file__).resolve().with_name(f"{name}.py"))


# --------------------------------------------------------------------------- one chunk of a run


def _game_chunk(spec, chunk: int, values: bool, corpus: Corpus = PLAYED) -> dict:
    """Per-game sums of one chunk of full games; with ``values`` also expected_tricks' regression data.

    The rounds come from ``corpus``: the report's self-play corpus holds learned's standard games (the ones the
    main job's analyses read); pimc's are played here.
    """
    _, rec = corpus.records(spec, chunk)
    n = spec.players
    per_game = len(spec.schedule)
    games = len(rec) // per_game
    present = rec.seats >= 0  # a seat of a player eliminated from the game plays no more
    hit = (rec.final_bids == rec.tricks_won) & present
    score = np.where(present, rec.scores, 0)
    dealer = np.arange(n)[None, :] == rec.dealer[:, None]

    def per_game_sum(x: np.ndarray) -> np.ndarray:
        return x.reshape(games, per_game, -1).sum(axis=(1, 2)).astype(np.int64)

    out = {
        "hits": per_game_sum(hit),
        "rounds": per_game_sum(present),
        "points": per_game_sum(score),
        "dealer_points": per_game_sum(np.where(dealer, score, 0)),
        "dealer_rounds": per_game_sum(dealer & present),
        "other_points": per_game_sum(np.where(~dealer, score, 0)),
        "other_rounds": per_game_sum(~dealer & present),
    }
    if values:
        out["values"] = _sibling("expected_tricks").records_data(spec, rec)
    return out


def _hand_chunk(spec, chunk: int) -> dict:
    """Per-round sums of one chunk of the example hand's rounds: the cell's hands and their tricks (0..k)."""
    _, rec = record_chunk_arrays(spec, chunk)
    _, k, wizards, trumps = EXAMPLE
    h = rec.hands[:, :, :k].astype(np.int64)
    trump = rec.trump[:, None, None]
    in_cell = (
        ((h == 52).sum(2) == wizards) & (((h < 52) & (h // 13 == trump)).sum(2) == trumps) & (rec.trump >= 0)[:, None]
    )
    tricks = rec.tricks_won
    counts = np.zeros((len(rec), k + 1), dtype=np.int64)  # per round: the cell's hands taking t tricks
    for t in range(k + 1):
        counts[:, t] = (in_cell & (tricks == t)).sum(1)
    return {"counts": counts}


def _task(kind: str, spec, chunk: int, values: bool, corpus: Corpus = PLAYED) -> dict:
    return _hand_chunk(spec, chunk) if kind == "hands" else _game_chunk(spec, chunk, values, corpus)


def _spec(kind: str, config: str, strategy: str, sizes: dict, seed: int):
    if kind == "hands":
        n, k, _, _ = EXAMPLE
        return make_spec(n, cards=k, hands=sizes["hands"], seed=seed, strategy=strategy)
    specials, rules = CONFIGS[config]
    return make_spec(4, games=sizes["games"], seed=seed, strategy=strategy, specials=specials, rules=rules)


def measure(jobs_list: list[tuple[str, str, str]], sizes: dict, seed: int, jobs: int, corpus: Corpus = PLAYED) -> dict:
    """Run every (kind, config, strategy) of ``jobs_list``, chunk by chunk in one pool; their chunks' sums joined.

    Full games are read from ``corpus`` where it keeps them (the same numbers as playing them)."""
    specs = {key: _spec(key[0], key[1], key[2], sizes, seed) for key in jobs_list}
    tasks = [(key, c) for key, spec in specs.items() for c in range(spec.n_chunks)]
    parts = map_tasks(_task, [(key[0], specs[key], c, key[1] == "standard", corpus) for key, c in tasks], jobs)
    out: dict = {}
    for (key, _), part in zip(tasks, parts, strict=True):
        out.setdefault(key, []).append(part)
    joined = {}
    for key, ps in out.items():
        d = {name: np.concatenate([p[name] for p in ps]) for name in ps[0] if name != "values"}
        if "values" in ps[0]:
            vs = [p["values"] for p in ps]
            d["values"] = {
                name: sum(v[name] for v in vs) if name.startswith("sum_") else np.concatenate([v[name] for v in vs])
                for name in vs[0]
            }
        joined[key] = d
    return joined


# --------------------------------------------------------------------------- estimators


def game_metrics(d: dict) -> dict[str, Est]:
    """Hit rate, points per player-round and the dealer's advantage of one configuration's games."""
    return {
        "hit": ratio(d["hits"], d["rounds"]),
        "points": ratio(d["points"], d["rounds"]),
        "dealer": ratio(d["dealer_points"], d["dealer_rounds"]) - ratio(d["other_points"], d["other_rounds"]),
    }


def best_bid(counts: np.ndarray) -> tuple[int, float, float, float, float, float]:
    """(best bid, its expected score and 95% interval, mean tricks and its half-width) of the cell's hands."""
    k = counts.shape[1] - 1
    t = np.arange(k + 1)
    per_round_hands = counts.sum(1)
    expected = []
    for b in range(k + 1):
        s = np.where(t == b, 20 + 10 * t, -10 * np.abs(t - b))
        expected.append(ratio(counts @ s, per_round_hands))
    top = int(np.argmax([e.value for e in expected]))
    tricks = ratio(counts @ t, per_round_hands)
    e = expected[top]
    return top, e.value, e.value - e.half(), e.value + e.half(), tricks.value, tricks.half()


# --------------------------------------------------------------------------- the headlines


def _interval(e: Est, scale: float = 1.0) -> tuple[float, float]:
    return scale * e.value, scale * e.half()


def headline_rows(data: dict, players: tuple[str, ...], sizes: dict) -> pd.DataFrame:
    """One row per headline: each player's value with its 95% interval, pimc - learned and whether they agree."""
    a, b = players
    rows = []
    games = f"{sizes['games']:,} 4-player games per configuration, the same deals for both players"

    def add(headline: str, unit: str, va: tuple, vb: tuple, d: tuple, sample: str, agree=None) -> None:
        (x, hx), (y, hy), (z, hz) = va, vb, d
        rows.append({
            "headline": headline, "analysis": source_of(headline), "unit": unit, a: x, f"{a}_lo": x - hx, f"{a}_hi": x + hx,
            b: y, f"{b}_lo": y - hy, f"{b}_hi": y + hy, "diff": z, "diff_lo": z - hz, "diff_hi": z + hz,
            "agree": bool(z - hz <= 0 <= z + hz) if agree is None else bool(agree), "sample": sample,
        })  # fmt: skip

    # the example hand: mean tricks (paired by round) and the best bid
    n, k, w, t = EXAMPLE
    ca, cb = data[("hands", "example", a)]["counts"], data[("hands", "example", b)]["counts"]
    sample = f"{sizes['hands']:,} rounds of {n} x {k} per player, the same deals; {int(ca.sum()):,} hands in the cell"
    ta, tb = (ratio(c @ np.arange(k + 1), c.sum(1)) for c in (ca, cb))
    add(f"example hand ({n}x{k}, {w} Wizard + {t} trumps): mean tricks", "tricks", _interval(ta), _interval(tb),
        _interval(tb - ta), sample)  # fmt: skip
    ra, rb = best_bid(ca), best_bid(cb)
    nan = float("nan")
    add(f"example hand ({n}x{k}, {w} Wizard + {t} trumps): best bid", "bid", (ra[0], nan), (rb[0], nan),
        (rb[0] - ra[0], nan), sample + f"; expected points of the best bid {ra[1]:.1f} [{ra[2]:.1f}, {ra[3]:.1f}] and "
        f"{rb[1]:.1f} [{rb[2]:.1f}, {rb[3]:.1f}]", agree=ra[0] == rb[0])  # fmt: skip

    # card values: expected_tricks' regression on the standard games; the difference as if independent
    et = _sibling("expected_tricks")
    va, vb = (
        v[v.round_sizes == "all"].set_index("card")
        for v in (et.value_table(data[("games", "standard", p)]["values"], 4, "standard") for p in players)
    )
    for label, card in CARDS.items():
        for col, unit in (("value", "tricks"), ("points", "points per round")):
            x, y = va.loc[card], vb.loc[card]
            hx, hy = x[f"{col}_hi"] - x[col], y[f"{col}_hi"] - y[col]
            add(f"{label} value", unit, (x[col], hx), (y[col], hy), (y[col] - x[col], float(np.hypot(hx, hy))),
                games + "; regression of analyses/expected_tricks.py; difference interval as if independent")  # fmt: skip

    # the dealer's advantage, and the effects of decks and variants
    base = {p: game_metrics(data[("games", "standard", p)]) for p in players}
    ea, eb = base[a]["dealer"], base[b]["dealer"]
    add("dealer's advantage (dealer minus other positions)", "points per round", _interval(ea), _interval(eb),
        _interval(eb - ea), games)  # fmt: skip
    for config in CONFIGS:
        if config == "standard":
            continue
        m = {p: game_metrics(data[("games", config, p)]) for p in players}
        for metric, unit, scale in (("hit", "pp", 100.0), ("points", "points per round", 1.0)):
            # effect = config - standard (they share no deals); pimc - learned pairs each configuration first
            eff = {}
            for p in players:
                e, s0 = m[p][metric], base[p][metric]
                eff[p] = (scale * (e.value - s0.value), scale * float(np.hypot(e.half(), s0.half())))
            pair_c, pair_s = m[b][metric] - m[a][metric], base[b][metric] - base[a][metric]
            d = (scale * (pair_c.value - pair_s.value), scale * float(np.hypot(pair_c.half(), pair_s.half())))
            what = "hit rate" if metric == "hit" else "points"
            add(f"{config} effect on the {what}", unit, eff[a], eff[b], d,
                games + "; the configurations share no deals")  # fmt: skip
    return pd.DataFrame(rows, columns=columns(players))


def ladder_values(data: dict, headline: str, unit: str, strategy: str) -> tuple[float, float, float]:
    """(value, lo, hi) of ``headline`` (in ``unit``) under ``strategy`` (the headlines of :func:`headline_rows`)."""
    if headline.startswith("example hand"):
        counts = data[("hands", "example", strategy)]["counts"]
        top, _, _, _, tricks, half = best_bid(counts)
        return (tricks, tricks - half, tricks + half) if "mean tricks" in headline else (float(top), top, top)
    if headline.startswith("dealer"):
        e = game_metrics(data[("games", "standard", strategy)])["dealer"]
        return e.value, e.value - e.half(), e.value + e.half()
    if headline.endswith(" value"):
        card = CARDS[headline.removesuffix(" value")]
        v = _sibling("expected_tricks").value_table(data[("games", "standard", strategy)]["values"], 4, "standard")
        r = v[v.round_sizes == "all"].set_index("card").loc[card]
        col = "value" if unit == "tricks" else "points"
        return float(r[col]), float(r[f"{col}_lo"]), float(r[f"{col}_hi"])
    config, _, what = headline.partition(" effect on the ")
    metric, scale = ("hit", 100.0) if what == "hit rate" else ("points", 1.0)
    e = game_metrics(data[("games", config, strategy)])[metric]
    s = game_metrics(data[("games", "standard", strategy)])[metric]
    half = scale * float(np.hypot(e.half(), s.half()))
    v = scale * (e.value - s.value)
    return v, v - half, v + half


def _jobs_for(headline: str, strategy: str) -> list[tuple[str, str, str]]:
    if headline.startswith("example hand"):
        return [("hands", "example", strategy)]
    config = headline.partition(" effect on the ")[0] if " effect on the " in headline else "standard"
    return [("games", "standard", strategy)] + ([("games", config, strategy)] if config != "standard" else [])


def tables(
    players: tuple[str, ...] = PLAYERS,
    ladder: tuple[str, ...] = LADDER,
    sizes: dict | None = None,
    seed: int = 20261129,
    jobs: int = 1,
    corpus: Corpus = PLAYED,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The two tables (``player_robustness.csv``, ``_ladder.csv``): every headline under the two ``players``
    on the same deals, and each disagreeing headline again under every player of ``ladder``.

    ``sizes`` is an entry of :data:`SIZES` (default: ``"default"``); full games are read from ``corpus`` where it
    keeps them."""
    sizes = SIZES["default"] if sizes is None else sizes
    todo = [("hands", "example", p) for p in players] + [("games", c, p) for c in CONFIGS for p in players]
    data = measure(todo, sizes, seed, jobs, corpus)
    table = headline_rows(data, players, sizes)
    # the ladder: each disagreeing headline again under weaker and stronger players, on the same deals
    ladder_rows = []
    disagree = [(h, u) for h, u, ok in zip(table.headline, table.unit, table.agree, strict=True) if not ok]
    extra = sorted({job for h, _ in disagree for s in ladder for job in _jobs_for(h, s)} - set(data))
    if extra:
        data.update(measure(extra, sizes, seed, jobs, corpus))
    for h, u in disagree:
        for rung, s in enumerate(ladder):
            v, lo, hi = ladder_values(data, h, u, s)
            ladder_rows.append({"headline": h, "unit": u, "rung": rung, "player": s, "value": v, "lo": lo, "hi": hi})
    return table, pd.DataFrame(ladder_rows, columns=["headline", "unit", "rung", "player", "value", "lo", "hi"])


def run(size: str = "default", seed: int = 20261129, outdir: Path = Path("results"), jobs: int = 1) -> dict:
    """Run the analysis; return its headline numbers and provenance."""
    sizes = SIZES[size]
    table, ladder = tables(PLAYERS, LADDER, sizes, seed, jobs, Corpus.beside(outdir))
    outdir.mkdir(parents=True, exist_ok=True)
    from wizsim.run.io import write_table

    write_table(table, outdir / f"{NAME}.csv")
    write_table(ladder, outdir / f"{NAME}_ladder.csv")
    # drawn from the files: the gallery redraws them
    save(draw(pd.read_csv(outdir / f"{NAME}.csv"), pd.read_csv(outdir / f"{NAME}_ladder.csv")), outdir / NAME)
    n_dis = int((~table.agree).sum())
    listed = "; ".join(
        f"{r.headline}: learned {r.learned:.2f}, pimc {r.pimc:.2f} (difference {r['diff']:+.2f}"
        + ("" if np.isnan(r.diff_lo) else f", 95% CI {r.diff_lo:+.2f} to {r.diff_hi:+.2f}")
        + ")"
        for _, r in table[~table.agree].iterrows()
    )
    headline = (
        f"{len(table)} headlines measured under learned and under default pimc self-play on the same deals "
        f"({sizes['games']:,} 4-player games per configuration, {sizes['hands']:,} rounds for the example hand): "
        f"{len(table) - n_dis} agree (the 95% interval of pimc - learned covers 0), {n_dis} disagree"
        + (f": {listed}" if n_dis else "")
        + f". {TRUST} The rules-of-thumb ranking is not re-measured (twelve bidders x 300,000 deals are out of"
        " pimc's reach)."
    )
    return {
        "name": NAME,
        "question": QUESTION,
        "headline": headline,
        "sample": (
            f"{sizes['games']:,} full 4-player games x {len(CONFIGS)} configurations x 2 players "
            f"(pimc: 32 card-play and 32 bid samples per decision) and {sizes['hands']:,} rounds of 4x5 per player; "
            f"the ladder ({', '.join(LADDER)}) on the same deals for each disagreement"
        ),
        "seed": seed,
        "files": [f"{NAME}.csv", f"{NAME}_ladder.csv", f"{NAME}.png", f"{NAME}.svg"],
        "command": f"python analyses/{NAME}.py --size {size} --seed {seed}",
        "trust": TRUST,  # results/README.md repeats it beside every disagreeing headline, in that headline's section
    }


if __name__ == "__main__":
    from wizsim.report.report import analysis_main

    analysis_main(run, QUESTION, SIZES)
