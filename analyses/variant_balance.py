"""How do the rule variants change the game?

Question
--------
How do the Canadian rule, hidden bids, progressive scoring, Maximus and
elimination change bidding accuracy, the spread of scores, the advantage of a
seat or of the dealer, and how much skill (the strongest fast player,
:data:`STRATEGY`, against ``random``) is worth?

Method
------
Players: :data:`STRATEGY` = ``learned`` (the strongest player: bids and card
play fitted to pimc's values in every variant studied here) and :data:`WEAK` =
``random``; a switch is the one line of the constant, every text follows it.

Full games, one seed. 4 players (the headline and most of the chart):
``SIZES[size]`` games per (variant, seating); 3, 5 and 6 players:
``OTHER_SIZES[size]`` games (default 20,000 and 5,000). Variants (``--rule``
options of ``wizsim/game/rules.py``): standard, ``canadian=true``,
``hidden_bids=simultaneous``, ``hidden_bids=secret``, ``scoring=progressive``,
``variant=maximus`` (5 rounds dealing the whole deck, fixed trumps) and
``variant=elimination`` (rounds 1-20; whenever the next round could not be
dealt from 60 cards to everyone still playing, the lowest total leaves; round
20, with three players, turns up no card and has no trump, RULES.md 9). Each
is played in three seatings on the same seed:

* ``self``: :data:`STRATEGY` self-play. Hit rate (final bid = tricks), mean and
  standard deviation of points per player-round and of a player's game total,
  win probability per seat (seat 0 deals round 1), mean total per seat, mean
  points per round by position (1 = left of the dealer, n = dealer) and the
  dealer's mean minus the other positions' mean.
* ``mixed`` (``learned,random,learned,random``) and ``mirror``
  (``random,learned,random,learned``): the same deals (common random
  numbers: dealing has its own stream) with the seats swapped. The skill gap
  is the mean points per round of the :data:`STRATEGY` players minus that of
  the random players, both seatings pooled, and the win probability of a
  :data:`STRATEGY` player minus that of a random one (plus a random player's
  win probability, ``random_win_rate``).

Intervals (95%). Each run is cut into wizsim's fixed chunks of 256 games
(``wizsim.run.simulate.CHUNK_GAMES``); chunks are independent and identically
distributed, so each estimate, a smooth function of sums of integer counts,
gets a delta-method (linearisation) standard error from the spread of the
per-chunk sums: a cluster-robust ("batch") interval that accounts for the
dependence between the players of one round and the rounds of one game. This
covers hit rates, means, standard deviations (delta method on the per-chunk
sums of x and x**2; no bootstrap), the dealer difference and the points gap.
The per-chunk counts come from the report's self-play corpus
(:class:`wizsim.run.corpus.Corpus`: ``Corpus.counts``, the counts of
``wizsim.run.spec.run_block`` from the chunk's records; standard ``learned``
self-play is the games special_cards, expected_tricks and
strategies_by_round_size read); the tests check that they add up to
``simulate_result``'s.
Win probabilities: Wilson intervals on win shares over games (a win shared by
m tied players counts 1/m; games are independent): per seat, and for the
skill gap on the strong players' share h of the wins (a :data:`STRATEGY`
player wins with h / n_strong, a random one with (1 - h) / n_random), its
difference from the standard game by Newcombe's hybrid score interval. Mean
total per seat: normal interval over games. The other differences from the
standard game are paired by chunk (same seed, same chunk streams): with the
Canadian rule, hidden bids and progressive scoring the deals are identical
(common random numbers); Maximus and elimination deal other round sizes, so
their deals differ, the pairing gains nothing and the interval stays valid.

Caveats
-------
* Hidden bids change only what a player learns from the earlier bids.
  ``heuristic`` and ``random`` never read them (with them every number of a
  hidden-bids game equals the standard game's exactly; the tests check this
  on a ``heuristic`` run); ``learned`` does: its bid reads the earlier bids'
  sum (unless hidden), its card play every player's bid and tricks (unless
  bids are secret), and the hidden-bids mode is one of its features. So for
  ``learned`` the hidden-bids rows measure what those inputs are worth to a
  player fitted to both settings.
* The Canadian rule only changes the dealer's bid (the bids may not add up to
  the number of cards); progressive scoring changes the scores only, so on
  the same seed its bids and tricks, hence its hit rate, equal the standard
  game's exactly (not in elimination, where totals decide who leaves).
* ``learned`` was fitted in every variant here (pimc self-play with the
  Canadian rule, hidden bids simultaneous and secret, progressive scoring,
  Maximus and elimination; the scoring rule and hidden-bids mode are
  features), so each variant is played by a player fitted to it (until
  2026-12-01 the player was ``table``, whose bids were learned in standard
  games only). Its fitting data had pimc players at every seat, not random
  ones: against random players it plays as if they were strong.
* The :data:`STRATEGY` player beats random players in almost every game, so the
  win-probability gap sits at its ceiling (1 / 2 with 4 players); the points
  gap is the informative measure of skill.
* Maximus has 5 rounds (75 cards per player per game with 4 players, against
  120 in 15 standard rounds) and elimination 20, so their game totals and the
  spread of totals measure other things than the standard game's.
* Elimination: eliminated players keep their totals (and are counted in the
  mean total) but cannot win. Later rounds have fewer players, whose dealer
  is the last of them; the dealer difference uses the real dealer of every
  round, the per-position rows only the rounds with all n players.
* Rejected combinations (WizsimError; skipped and listed in the returned
  ``skipped``): hidden bids with the Canadian rule (RULES.md 4), elimination
  with 3 players. Mono (rejected with 5-6 players) and clairvoyance are not
  studied here.

Writes ``results/variant_balance.csv`` (per players, variant and metric:
estimate, lo, hi, ``n`` the number of observations (player-rounds, player-games
or games) and the difference from the standard game with its interval),
``results/variant_seats.csv`` (per players and variant: seat win probabilities
and mean totals, mean points per position) and a chart (.png, .svg).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from wizsim.errors import WizsimError
from wizsim.plotting import save
from wizsim.plotting.variant_balance import draw
from wizsim.run.corpus import PLAYED, Corpus
from wizsim.run.parallel import map_tasks
from wizsim.run.simulate import AUX_HIT, AUX_SCORE, AUX_SCORE_SQ, RunSpec, make_spec
from wizsim.run.stats import Est, mean_ci, ratio, wilson_ci

NAME = "variant_balance"
QUESTION = "How do the rule variants change the game?"
SIZES = {"quick": 1024, "default": 20_000, "full": 200_000}  # 4-player games per (variant, seating)
OTHER_SIZES = {"quick": 512, "default": 5_000, "full": 50_000}  # 3-, 5- and 6-player games per (variant, seating)
PLAYERS = 4  # the main table (headline, most of the chart)
ALL_PLAYERS = (3, 4, 5, 6)
STRATEGY = "learned"  # the strongest player fast enough for this many games
WEAK = "random"
#: variant label -> rule options; combinations RULES.md rejects are skipped (see ``run``'s ``skipped``)
VARIANTS: dict[str, list[str]] = {
    "standard": [],
    "canadian": ["canadian=true"],
    "hidden simultaneous": ["hidden_bids=simultaneous"],
    "hidden secret": ["hidden_bids=secret"],
    "progressive": ["scoring=progressive"],
    "maximus": ["variant=maximus"],
    "elimination": ["variant=elimination"],
    "canadian + hidden": ["canadian=true", "hidden_bids=simultaneous"],
}
BLOCK_CHUNKS = 8  # chunks per parallel task
METRICS = {
    "hit_rate": f"hit rate (final bid = tricks), {STRATEGY} self-play",
    "points_mean": f"mean points per player-round, {STRATEGY} self-play",
    "points_sd": f"standard deviation of points per player-round, {STRATEGY} self-play",
    "total_mean": f"mean game total of a player, {STRATEGY} self-play",
    "total_sd": f"standard deviation of a player's game total, {STRATEGY} self-play",
    "dealer_minus_others": f"dealer's mean points per round minus the other positions', {STRATEGY} self-play",
    "skill_gap_points": f"{STRATEGY} minus {WEAK}, mean points per round at the same table (both seatings)",
    "skill_gap_win": f"{STRATEGY} minus {WEAK}, win probability per player at the same table (both seatings)",
    "random_win_rate": f"win probability of a {WEAK} player at the {STRATEGY}/{WEAK} table (both seatings)",
}
COLUMNS = [
    "variant", "rules", "players", "games", "n", "metric", "estimate", "lo", "hi", "diff", "diff_lo", "diff_hi",
    "description",
]  # fmt: skip
SEAT_COLUMNS = ["players", "variant", "kind", "index", "games", "n", "estimate", "lo", "hi", "ci"]


def seatings(n: int) -> dict[str, str]:
    """:data:`STRATEGY` self-play, and STRATEGY/WEAK alternating from seat 0 and from seat 1."""
    mixed = [STRATEGY if s % 2 == 0 else WEAK for s in range(n)]
    mirror = [WEAK if s % 2 == 0 else STRATEGY for s in range(n)]
    return {"self": STRATEGY, "mixed": ",".join(mixed), "mirror": ",".join(mirror)}


# --------------------------------------------------------------------------- per-chunk counts


def _block(spec: RunSpec, lo: int, hi: int, corpus: Corpus = PLAYED) -> dict[str, np.ndarray]:
    """Counts of chunks ``lo .. hi - 1``, one row per chunk (the joint counts summed over the block)."""
    rows: dict[str, list] = {"games": [], "count": [], "aux": [], "game": []}
    joint = None
    games = spec.chunk_range(lo, hi)[1]
    for i, chunk in enumerate(range(lo, hi)):
        part = corpus.counts(spec, chunk, chunk + 1)
        rows["games"].append(games[i])
        rows["count"].append(part.joint.sum(axis=(3, 4)))  # [k, seat, pos]
        rows["aux"].append(part.aux)  # [k, seat, pos, AUX_*]
        rows["game"].append(part.game_acc)  # [4, seat]
        joint = part.joint if joint is None else joint + part.joint
    out = {key: np.stack(v) for key, v in rows.items()}
    out["joint"] = joint
    return out


def chunk_counts(specs: dict, jobs: int, corpus: Corpus = PLAYED) -> dict:
    """Per-chunk counts of every run in ``specs`` (key -> RunSpec), in chunk order; ``jobs`` processes."""
    tasks = [
        (key, lo, min(lo + BLOCK_CHUNKS, spec.n_chunks))
        for key, spec in specs.items()
        for lo in range(0, spec.n_chunks, BLOCK_CHUNKS)
    ]
    parts = map_tasks(_block, [(specs[k], lo, hi, corpus) for k, lo, hi in tasks], jobs)
    out: dict = {}
    for (key, _, _), part in zip(tasks, parts, strict=True):
        out.setdefault(key, []).append(part)
    return {
        key: {
            name: (sum(p["joint"] for p in ps) if name == "joint" else np.concatenate([p[name] for p in ps]))
            for name in ps[0]
        }
        for key, ps in out.items()
    }


# --------------------------------------------------------------------------- estimators with chunk influence


def std_dev(s1: np.ndarray, s2: np.ndarray, den: np.ndarray) -> Est:
    """Sample standard deviation from per-chunk sums of x and x**2 (delta method)."""
    s1, s2, den = (np.asarray(a, dtype=np.float64) for a in (s1, s2, den))
    total = den.sum()
    m1, m2 = s1.sum() / total, s2.sum() / total
    var = (m2 - m1 * m1) * total / (total - 1)
    sd = np.sqrt(var)
    z_var = ((s2 - m2 * den) - 2 * m1 * (s1 - m1 * den)) / total
    return Est(sd, z_var / (2 * sd))


# --------------------------------------------------------------------------- the analysis


def dealer_mask(count: np.ndarray) -> np.ndarray:
    """[k, pos] True where ``pos`` is the dealer: the last position of the players in rounds of size k."""
    per_pos = count.sum(axis=(0, 2))  # [k, pos]
    players = (per_pos > 0).sum(axis=1)
    pos = np.arange(per_pos.shape[1])
    return (pos[None, :] == players[:, None] - 1) & (players[:, None] > 0)


def self_metrics(c: dict, n: int) -> dict[str, Est]:
    """The :data:`STRATEGY` self-play metrics of one variant from its per-chunk counts."""
    cnt, aux, game, games = c["count"], c["aux"], c["game"], c["games"]
    rounds = cnt.sum(axis=(1, 2, 3))
    dealer = dealer_mask(cnt)  # [k, pos]
    d_mask = dealer[None, :, None, :]  # [chunk, k, seat, pos]
    score = aux[..., AUX_SCORE]
    return {
        "hit_rate": ratio(aux[..., AUX_HIT].sum(axis=(1, 2, 3)), rounds),
        "points_mean": ratio(score.sum(axis=(1, 2, 3)), rounds),
        "points_sd": std_dev(score.sum(axis=(1, 2, 3)), aux[..., AUX_SCORE_SQ].sum(axis=(1, 2, 3)), rounds),
        "total_mean": ratio(game[:, 0].sum(axis=1), games * n),
        "total_sd": std_dev(game[:, 0].sum(axis=1), game[:, 1].sum(axis=1), games * n),
        "dealer_minus_others": ratio((score * d_mask).sum(axis=(1, 2, 3)), (cnt * d_mask).sum(axis=(1, 2, 3)))
        - ratio((score * ~d_mask).sum(axis=(1, 2, 3)), (cnt * ~d_mask).sum(axis=(1, 2, 3))),
    }


def skill_metrics(mixed: dict, mirror: dict, seats: dict[str, str]) -> tuple[dict[str, Est], dict[str, float]]:
    """:data:`STRATEGY` minus :data:`WEAK` at the same table, the two seatings pooled (paired by chunk).

    Returns the points gap (delta method) and the strong players' share of
    the wins with its number of games, for :func:`win_gap`.
    """
    sums = {}
    for strategy in (STRATEGY, WEAK):
        score, rounds, wins, players = (np.zeros(len(mixed["games"])) for _ in range(4))
        for c, label in ((mixed, seats["mixed"]), (mirror, seats["mirror"])):
            idx = [s for s, name in enumerate(label.split(",")) if name == strategy]
            score = score + c["aux"][:, :, idx][..., AUX_SCORE].sum(axis=(1, 2, 3))
            rounds = rounds + c["count"][:, :, idx].sum(axis=(1, 2, 3))
            wins = wins + c["game"][:, 2, idx].sum(axis=1)  # win shares in 60ths
            players = players + len(idx)
        sums[strategy] = (score, rounds, wins, players)
    h, r = sums[STRATEGY], sums[WEAK]
    share = {
        "wins_60ths": int(h[2].sum()),
        "games": int(mixed["games"].sum() + mirror["games"].sum()),
        # h[3][0]: strong seats of both seatings; 2 games (one per seating) share 2 wins among them
        "per_strong": 2.0 / float(h[3][0]),
        "per_weak": 2.0 / float(r[3][0]),
    }
    return {"skill_gap_points": ratio(h[0], h[1]) - ratio(r[0], r[1])}, share


def win_gap(share: dict[str, float]) -> dict[str, tuple[float, float, float]]:
    """Win probability of a strong player minus a weak one, and a weak player's, with Wilson intervals.

    With h the strong (:data:`STRATEGY`) players' share of the wins (Wilson
    interval over the games of both seatings), a strong player wins with
    probability h / n_strong and a weak one with (1 - h) / n_weak: both are linear in h.
    """
    h = wilson_ci(share["wins_60ths"] / 60.0, share["games"])
    a, b = share["per_strong"], share["per_weak"]
    gap = tuple(float(a * x - b * (1 - x)) for x in h)
    rnd = tuple(float(b * (1 - x)) for x in h)
    return {"skill_gap_win": gap, "random_win_rate": (rnd[0], rnd[2], rnd[1]), "_h": tuple(float(x) for x in h)}


def newcombe(a: tuple[float, ...], s: tuple[float, ...]) -> tuple[float, float, float]:
    """Difference of two independent proportions (estimate, lo, hi each) with Newcombe's hybrid score interval."""
    d = a[0] - s[0]
    return d, d - float(np.hypot(a[0] - a[1], s[2] - s[0])), d + float(np.hypot(a[2] - a[0], s[0] - s[1]))


def seat_rows(variant: str, c: dict, n: int) -> list[dict]:
    """Per seat: win probability (Wilson) and mean total (normal) over games; per position: mean points."""
    games = int(c["games"].sum())
    g = c["game"].sum(axis=0)
    rows = []
    for seat in range(n):
        w = wilson_ci(g[2, seat] / 60.0, games)
        rows.append(dict(players=n, variant=variant, kind="seat_win_rate", index=seat, games=games, n=games,
                         estimate=w[0], lo=w[1], hi=w[2], ci="Wilson over games (win shares)"))  # fmt: skip
        m = mean_ci(g[0, seat], g[1, seat], games)
        rows.append(dict(players=n, variant=variant, kind="seat_mean_total", index=seat, games=games, n=games,
                         estimate=m[0], lo=m[1], hi=m[2], ci="normal over games"))  # fmt: skip
    cnt, score = c["count"], c["aux"][..., AUX_SCORE]
    full = cnt.sum(axis=(0, 2))[:, n - 1] > 0  # round sizes with all n players (not after an elimination)
    for pos in range(n):
        e = ratio(score[:, full][:, :, :, pos].sum(axis=(1, 2)), cnt[:, full][:, :, :, pos].sum(axis=(1, 2)))
        v, lo, hi = e.interval()
        rows.append(dict(players=n, variant=variant, kind="position_mean_points", index=pos + 1, games=games,
                         n=int(cnt[:, full][:, :, :, pos].sum()), estimate=v, lo=lo, hi=hi,
                         ci="delta method over chunks of 256 games"))  # fmt: skip
    return rows


def tables(
    n_games: dict[int, int], rule_variants: dict[str, list[str]], seed: int, jobs: int = 1, corpus: Corpus = PLAYED
) -> tuple[pd.DataFrame, pd.DataFrame, dict[int, list[str]], dict[str, str]]:
    """The two tables (``variant_balance.csv``, ``variant_seats.csv``) of ``rule_variants`` (label -> rule
    options, as :data:`VARIANTS`; ``"standard"`` must be one: the differences are from it) with ``n_games[n]``
    full games per seating for each player count ``n``; also the variants played per player count and the
    skipped (rejected) combinations."""
    specs, skipped, variants = {}, {}, {}
    for n in n_games:
        variants[n] = []
        for variant, rules in rule_variants.items():
            try:
                for name, strategy in seatings(n).items():
                    specs[(n, variant, name)] = make_spec(
                        n, games=n_games[n], seed=seed, strategy=strategy, rules=rules
                    )
                variants[n].append(variant)
            except WizsimError as exc:
                skipped[f"{variant}, {n} players"] = str(exc)
    counts = chunk_counts(specs, jobs, corpus)
    rows, seat_table = [], []
    for n in n_games:
        games, seats = n_games[n], seatings(n)
        metrics, wins = {}, {}
        for v in variants[n]:
            gap, share = skill_metrics(counts[(n, v, "mixed")], counts[(n, v, "mirror")], seats)
            metrics[v] = self_metrics(counts[(n, v, "self")], n) | gap
            wins[v] = (win_gap(share), share)
        for v in variants[n]:
            c = counts[(n, v, "self")]
            player_rounds = int(c["count"].sum())
            mixed_rounds = int(counts[(n, v, "mixed")]["count"].sum() + counts[(n, v, "mirror")]["count"].sum())
            sizes = {"hit_rate": player_rounds, "points_mean": player_rounds, "points_sd": player_rounds,
                     "total_mean": games * n, "total_sd": games * n, "dealer_minus_others": player_rounds,
                     "skill_gap_points": mixed_rounds, "skill_gap_win": 2 * games,
                     "random_win_rate": 2 * games}  # fmt: skip
            for metric, description in METRICS.items():
                d = (np.nan, np.nan, np.nan)
                if metric in metrics[v]:
                    e = metrics[v][metric]
                    est, lo, hi = e.interval()
                    if v != "standard":
                        d = (e - metrics["standard"][metric]).interval()
                else:  # win probabilities: Wilson on the strong players' share h, linear maps of h
                    (w, share), (w0, _) = wins[v], wins["standard"]
                    est, lo, hi = w[metric]
                    if v != "standard":
                        dh = newcombe(w["_h"], w0["_h"])
                        if metric == "skill_gap_win":
                            scale = share["per_strong"] + share["per_weak"]
                            d = tuple(scale * x for x in dh)
                        else:
                            b = share["per_weak"]
                            d = (0.0 - b * dh[0], 0.0 - b * dh[2], 0.0 - b * dh[1])
                rows.append(dict(variant=v, rules=" ".join(rule_variants[v]) or "(none)", players=n, games=games,
                                 n=sizes[metric], metric=metric, estimate=est, lo=lo, hi=hi, diff=d[0],
                                 diff_lo=d[1], diff_hi=d[2], description=description))  # fmt: skip
            seat_table += seat_rows(v, c, n)
    return pd.DataFrame(rows, columns=COLUMNS), pd.DataFrame(seat_table, columns=SEAT_COLUMNS), variants, skipped


def run(size: str = "default", seed: int = 20261129, outdir: Path = Path("results"), jobs: int = 1) -> dict:
    """Run the analysis; return its headline numbers and provenance."""
    n_games = {n: SIZES[size] if n == PLAYERS else OTHER_SIZES[size] for n in ALL_PLAYERS}
    table, seat_df, variants, skipped = tables(n_games, VARIANTS, seed, jobs, Corpus.beside(outdir))
    outdir.mkdir(parents=True, exist_ok=True)
    from wizsim.run.io import write_table

    write_table(table, outdir / f"{NAME}.csv")
    write_table(seat_df, outdir / "variant_seats.csv")
    # drawn from the files as written: the gallery redraws them
    save(draw(pd.read_csv(outdir / f"{NAME}.csv"), pd.read_csv(outdir / "variant_seats.csv"), PLAYERS), outdir / NAME)

    games, n = n_games[PLAYERS], PLAYERS
    t = table[table.players == n].set_index(["variant", "metric"])

    def ci(v: str, m: str, col: str = "estimate", scale: float = 1.0, unit: str = "") -> str:
        r = t.loc[(v, m)]
        lo, hi = ("lo", "hi") if col == "estimate" else ("diff_lo", "diff_hi")
        sign = "+" if col == "diff" else ""
        return f"{scale * r[col]:{sign}.1f}{unit} (95% CI {scale * r[lo]:{sign}.1f} to {scale * r[hi]:{sign}.1f})"

    s0 = seat_df[(seat_df.players == n) & (seat_df.variant == "standard") & (seat_df.kind == "seat_win_rate")]
    s0 = s0.set_index("index")
    headline = (
        f"4 players, {games:,} full games per variant and seating: standard {STRATEGY} self-play makes"
        f" {ci('standard', 'hit_rate', scale=100, unit='%')} of its bids; the Canadian rule changes that by"
        f" {ci('canadian', 'hit_rate', 'diff', 100, ' pp')}, elimination by"
        f" {ci('elimination', 'hit_rate', 'diff', 100, ' pp')}, Maximus by {ci('maximus', 'hit_rate', 'diff', 100, ' pp')};"
        f" hidden bids (simultaneous) by {ci('hidden simultaneous', 'hit_rate', 'diff', 100, ' pp')} and points per"
        f" round by {ci('hidden simultaneous', 'points_mean', 'diff')} ({STRATEGY} can no longer read the earlier"
        f" bids); {STRATEGY} minus {WEAK} at the same table: {ci('standard', 'skill_gap_points')} points per round"
        f" (standard), {ci('maximus', 'skill_gap_points')} (Maximus); the dealer scores"
        f" {ci('standard', 'dealer_minus_others')} points per round more than the"
        f" other positions (Canadian rule: {ci('canadian', 'dealer_minus_others')}); seat 0 (first dealer) wins"
        f" {100 * s0.loc[0, 'estimate']:.1f}% of standard games (95% CI {100 * s0.loc[0, 'lo']:.1f}-"
        f"{100 * s0.loc[0, 'hi']:.1f})"
    )
    return {
        "name": NAME,
        "question": QUESTION,
        "headline": headline,
        "sample": (
            f"{games:,} full 4-player games and {OTHER_SIZES[size]:,} 3-, 5- and 6-player games per variant and seating"
            f" ({STRATEGY} self-play, {STRATEGY}/{WEAK} and its mirror); {len(variants[PLAYERS])} variants at 4 players; rejected"
            f" combinations skipped: {'; '.join(skipped) or 'none'}"
        ),
        "seed": seed,
        "files": [f"{NAME}.csv", "variant_seats.csv", f"{NAME}.png", f"{NAME}.svg"],
        "command": f"python analyses/{NAME}.py --size {size} --seed {seed}",
        "skipped": skipped,
    }


if __name__ == "__main__":
    from wizsim.report.report import analysis_main

    analysis_main(run, QUESTION, SIZES)
