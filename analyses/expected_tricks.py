"""How many tricks does a hand take, and what is each card worth? (self-play of the best fast player, 3-6 players)

Question
--------
How many tricks does a player take, by number of players and round size, and
how many tricks does each card of the dealt hand contribute?

Method
------
Full games of :data:`STRATEGY` self-play (``learned``: the strongest player,
fitted to pimc's values on both decks; it beats ``pimc`` itself and is fast
enough for these samples; a switch is the one line of the constant, every
text follows it) for 3, 4, 5 and 6 players, each with
the standard 60-card deck and with every special card mixed in
(``specials="all"``: Dragon, Fairy, Bomb, Werewolf, Juggler, Cloud,
Shapeshifter; 67 cards). Both decks play the standard table (RULES.md 2):
60 / n rounds of 1 .. 60/n cards (20/15/12/10), the last one without a card
turned up and without trump, specials or not. Every round size 1 .. 60/n is
covered: a full game plays each once. Every round is read back from the
report's self-play corpus (:class:`wizsim.run.corpus.Corpus`: the chunks are
played once per report and shared with special_cards, strategies_by_round_size
and variant_balance; chunks seeded by their index, so the rows do not depend on
``jobs``) as :class:`wizsim.game.records.RoundRecords`:
the dealer, the round size k, the final trump (-1 for no trump; after a
Werewolf swap it is the trump its holder named), the tricks won by each
*seat* and the winner of each trick (-1: bombed). Seat s sits at position
``(s - dealer - 1) mod n + 1`` (1 leads the first trick, n is the dealer).

1. ``results/expected_tricks.csv`` (long format): per deck, players, round size
   and position (0 = all positions pooled), the mean tricks (``measure =
   mean_tricks``) and P(tricks = t) (``measure = p_tricks``). Per position a
   round gives one independent observation: normal interval for the mean,
   Wilson interval for P. Pooled over positions the seats of one round are
   dependent (their tricks sum to k), so the intervals are clustered by round:
   the mean uses the per-round total (standard deck: exactly k/n with a
   zero-width interval, since every trick goes to someone), and P uses a
   Wilson interval at the effective sample size p(1 - p) / Var_cluster(p^)
   (Var_cluster from the per-round count of seats with t tricks; a count that
   is the same in every round, e.g. one trick per 1-card round, gives an exact
   value).
2. ``results/card_values.csv``: least-squares regression of a seat's tricks on
   the card counts of its *dealt* hand: trump by rank 1-13 (0/1), off-suit by
   rank (0-3, or 0-4 in a no-trump round, where every suit card is off-suit),
   Wizards (0-4), Jesters (0-4) and each special card (0/1), with fixed
   effects for every (round size, trump / no-trump) cell (round-size effects
   split by trump: a game's last round never has trump, with either deck,
   and plain round-size effects would push its much stronger off-suit cards
   into the values of every round). Fitted per deck and
   player count over all round sizes ("all") and separately over the small
   (k <= K/2) and large (k > K/2) halves, K the largest round size. The card
   counts of a k-card hand add up to k, so with round-size fixed effects only
   differences between cards are identified; the level is fixed by letting
   the fixed effects average zero over the hands of the fit, i.e. the values
   of a hand's cards add up, on average over the sample, to the tricks taken
   (each dealt card is worth 1/n on average, a bit less with the Bomb). The
   Jester then comes out near zero on its own, which is a check on that
   level. Standard errors are cluster-robust by round (CR1 sandwich: the
   seats of a round share the deal and their tricks sum to k; it is also
   heteroskedasticity-robust); intervals are value +- 1.96 SE. Base cards come
   from both decks (``deck`` column), special cards from the specials deck.
   Columns: deck, players, round_sizes (all / small / large), k_min, k_max,
   card, kind, rank, value, value_se, value_lo, value_hi, points,
   points_se, points_lo, points_hi, hands_holding (hands with the card),
   hands, rounds. ``points``: the same regression with the seat's round
   score as the outcome, so a card's value in expected points (Wizard's
   scoring rewards exact bids, not tricks: a card that takes a trick its
   holder can bid on is worth more than one whose trick is a surprise). The
   level is set the same way: the values of a hand's cards add up, on
   average, to the round score.
3. ``results/expected_tricks.png/.svg``: (a) mean tricks by round size with
   95% bands per player count (with all specials the Bomb voids tricks, so
   the mean falls below k/n), (b) mean tricks by seat position minus k/n,
   4 players, (c) card values for 4 players (suit cards, Wizard and Jester
   from the standard deck, specials from the specials deck).
   ``results/card_values.png/.svg``: card values for every player count, with
   the small/large round-size split.

Sample sizes
------------
``SIZES`` gives the games per (player count, deck): quick 512, default 8,192,
full 81,920 (e.g. 4 players, default: 122,880 standard rounds, 491,520
player-hands; 3 players: 163,840 rounds). The two decks deal different cards
(independent samples, no common random numbers); the four player counts are
independent too. Every round size of a game (1 .. 60/n) is covered at every
size.

Caveats
-------
* A card value is the expected tricks a card contributes *given the players'
  strategy* (:data:`STRATEGY` self-play): a regression contribution in a linear
  model of the dealt hand, not the causal effect of swapping one card for
  another; a player who holds a strong card also bids and plays the rest of
  the hand differently. The linear model averages over round sizes (see the
  small/large split) and ignores interactions (a trump 2 is worth more with
  more trumps).
* The features are the *dealt* hand. After the deal the Werewolf's holder
  swaps it for the face-up card and names trump; the Juggler makes players
  pass cards. The Werewolf's value therefore includes getting the face-up
  card and choosing trump (except in the last round, where no card is
  turned up: the holder keeps the Werewolf, which plays as a Jester, and
  there is no trump); trump and off-suit are classified by the final trump
  (the one the round is played with).
* The dealer chooses trump after a face-up Wizard (every player but
  ``random`` names the heuristic's choice, its strongest suit:
  ``engine.players.decisions.decider``), so the dealer's trump count is not purely random in
  those rounds.
* ``learned`` was fitted on both decks (pimc's values in self-play with
  and without the specials), so each deck is played by a player fitted to
  it. Card values measure how many tricks (and points) the cards bring under
  that player.
* Pooled P(tricks = t) with no occurrence at all uses the number of rounds
  as its sample size (conservative upper bound).
* With the heuristic's card play (``heuristic`` and ``table``, the default
  player until 2026-12-01) the trump ace came out worth *less* than the
  trump queen for every player count. In a probe of 4-player 8-card rounds
  the heuristic lost 26% of the tricks it played its trump ace into (to
  Wizards played after it), the queen 13%: a property of the player, not of
  the card. The headline states the order the run finds, and where the
  points value of a suit card falls with rank (with its interval).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from wizsim.plotting import save
from wizsim.plotting.card_values import draw as draw_values
from wizsim.plotting.expected_tricks import draw as draw_tricks
from wizsim.run.corpus import PLAYED, Corpus
from wizsim.run.parallel import map_tasks
from wizsim.run.simulate import RunSpec, make_spec
from wizsim.run.stats import Z95, mean_ci, wilson_ci

NAME = "expected_tricks"
QUESTION = "How many tricks does a hand take, and what is each card worth?"
SIZES = {"quick": 512, "default": 8_192, "full": 81_920}  # games per (players, deck)
STRATEGY = "learned"  # self-play by the strongest player fast enough for this many games
PLAYERS = (3, 4, 5, 6)
DECKS = {"standard": None, "all specials": "all"}
SPECIALS = ("Dragon", "Fairy", "Bomb", "Werewolf", "Juggler", "Cloud", "Shapeshifter")

# features of a dealt hand: trump ranks 1-13, off-suit ranks 1-13, Wizard, Jester, specials
N_FEAT = 26 + 2 + len(SPECIALS)
WIZARD_F, JESTER_F = 26, 27
FEATURES = (
    [("trump", r, f"trump {r}") for r in range(1, 14)]
    + [("off-suit", r, f"off-suit {r}") for r in range(1, 14)]
    + [("Wizard", 0, "Wizard"), ("Jester", 0, "Jester")]
    + [("special", 0, s) for s in SPECIALS]
)
DIGITS = 6  # decimals in the tables (byte-stable files)


# --------------------------------------------------------------------------- data


def chunk_data(spec: RunSpec, chunk: int, corpus: Corpus = PLAYED) -> dict[str, np.ndarray]:
    """Per-round arrays of one chunk and its exact regression sums per cell.

    Per round: ``k``, ``no_trump``, ``dealer``, ``won`` (tricks by seat), ``bombed``
    (tricks voided by the Bomb) and ``feats[r, seat, f]``, the count of feature
    ``f`` (see :data:`FEATURES`) in the seat's *dealt* hand, classified by the
    round's final trump. Per (round size, no-trump) cell ``c = 2 (k - 1) +
    no_trump``: ``sum_FF[c]`` = F'F, ``sum_Fy[c]`` = F'y, ``sum_F[c]``,
    ``sum_holders[c]`` (hands with the feature), ``sum_rows[c]``, ``sum_y[c]``
    (integers: they add up across chunks in any order).
    """
    return records_data(spec, corpus.records(spec, chunk)[1])


def records_data(spec: RunSpec, rec) -> dict[str, np.ndarray]:
    """:func:`chunk_data` of rounds already recorded (``rec``: the chunk's RoundRecords)."""
    n, kmax = spec.players, max(spec.schedule)
    if np.any(rec.round_players != n):
        raise ValueError("every round must have all players (no elimination)")
    rows = len(rec)
    k, trump = rec.cards, rec.trump
    in_round = np.arange(kmax)[None, :] < k[:, None]
    bombed = ((rec.winners < 0) & in_round).sum(1)
    won = rec.tricks_won
    hands = rec.hands.astype(np.int64)  # [rows, n, kmax]; slots >= k are padding
    suit, rank = hands // 13, hands % 13
    cat = np.where(hands < 52, np.where(suit == trump[:, None, None], rank, 13 + rank), hands - 52 + WIZARD_F)
    slot = np.arange(rows * n).reshape(rows, n, 1) * N_FEAT + cat
    valid = np.broadcast_to(in_round[:, None, :], hands.shape)
    feats = np.bincount(slot[valid], minlength=rows * n * N_FEAT).reshape(rows, n, N_FEAT).astype(np.int32)
    n_cells = 2 * kmax
    cell = 2 * (k - 1) + (trump < 0)
    out = {
        "k": k.astype(np.int16),
        "no_trump": trump < 0,
        "dealer": rec.dealer.astype(np.int8),
        "won": won.astype(np.int16),
        "score": rec.scores.astype(np.int16),
        "bombed": bombed.astype(np.int16),
        "feats": feats.astype(np.int8),
        "sum_FF": np.zeros((n_cells, N_FEAT, N_FEAT), dtype=np.int64),
        "sum_Fy": np.zeros((n_cells, N_FEAT), dtype=np.int64),
        "sum_Fs": np.zeros((n_cells, N_FEAT), dtype=np.int64),
        "sum_F": np.zeros((n_cells, N_FEAT), dtype=np.int64),
        "sum_holders": np.zeros((n_cells, N_FEAT), dtype=np.int64),
        "sum_rows": np.zeros(n_cells, dtype=np.int64),
        "sum_y": np.zeros(n_cells, dtype=np.int64),
        "sum_s": np.zeros(n_cells, dtype=np.int64),
    }
    y = won.astype(np.int32)
    score = rec.scores.astype(np.int32)
    for c in np.unique(cell):
        m = cell == c
        F = feats[m].reshape(-1, N_FEAT)
        # einsum (not BLAS): exact integer sums on one thread, whatever the machine's load
        out["sum_FF"][c] = np.einsum("ij,ik->jk", F, F)
        out["sum_Fy"][c] = np.einsum("ij,i->j", F, y[m].reshape(-1))
        out["sum_Fs"][c] = np.einsum("ij,i->j", F, score[m].reshape(-1))
        out["sum_F"][c] = F.sum(0)
        out["sum_holders"][c] = (F > 0).sum(0)
        out["sum_rows"][c] = F.shape[0]
        out["sum_y"][c] = y[m].sum()
        out["sum_s"][c] = score[m].sum()
    return out


def collect(spec: RunSpec, jobs: int = 1, corpus: Corpus = PLAYED) -> dict[str, np.ndarray]:
    """:func:`chunk_data` of every chunk of ``spec``: rows concatenated in chunk order, ``sum_*`` added.

    The result is the same for every ``jobs``, and whether the chunks are played or read from ``corpus``.
    """
    parts = map_tasks(chunk_data, [(spec, c, corpus) for c in range(spec.n_chunks)], jobs)
    return {
        key: sum(p[key] for p in parts) if key.startswith("sum_") else np.concatenate([p[key] for p in parts])
        for key in parts[0]
    }


# --------------------------------------------------------------------------- 1. tricks per player


def _wilson_clustered(s1: np.ndarray, s2: np.ndarray, n: int, rounds: int) -> tuple[np.ndarray, ...]:
    """P(tricks = t) pooled over the n seats, Wilson interval at the round-clustered effective size.

    ``s1``/``s2``: sums over rounds of c and c**2, c = seats of the round with t tricks.
    """
    s1, s2 = s1.astype(np.int64), s2.astype(np.int64)
    p = s1 / (n * rounds)
    var_num = rounds * s2 - s1 * s1  # R (R - 1) * sample variance of c, exact
    var_p = var_num / (rounds * (rounds - 1.0)) / (n * n * rounds) if rounds > 1 else np.full(p.shape, np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        n_eff = np.where(var_num > 0, p * (1 - p) / var_p, float(rounds))
    _, lo, hi = wilson_ci(p * n_eff, n_eff)
    exact = (var_num == 0) & (p > 0) & (p < 1)  # the same count in every round: no sampling error
    return p, np.where(exact, p, lo), np.where(exact, p, hi)


def trick_table(d: dict[str, np.ndarray], n: int, deck: str) -> pd.DataFrame:
    """Mean tricks and P(tricks = t) by round size and position (0 = pooled), with 95% intervals."""
    k = d["k"].astype(np.int64)
    won = d["won"].astype(np.int64)
    dealer = d["dealer"].astype(np.int64)
    seat_at = (dealer[:, None] + 1 + np.arange(n)[None, :]) % n  # seat at position p + 1
    won_pos = np.take_along_axis(won, seat_at, 1)
    rows = []

    def add(kk, pos, measure, t, est, lo, hi, rounds):
        for i in range(len(est)):
            rows.append((deck, n, kk, pos, measure, t[i] if t is not None else pd.NA, est[i], lo[i], hi[i], rounds))

    for kk in np.unique(k):
        m = k == kk
        r = int(m.sum())
        wp = won_pos[m]
        total = wp.sum(1)
        mean, lo, hi = mean_ci(total.sum(), (total * total).sum(), r)
        add(kk, 0, "mean_tricks", None, [mean / n], [lo / n], [hi / n], r)
        for p in range(n):
            x = wp[:, p]
            mean, lo, hi = mean_ci(x.sum(), (x * x).sum(), r)
            add(kk, p + 1, "mean_tricks", None, [mean], [lo], [hi], r)
        ts = np.arange(kk + 1)
        hit = wp[:, :, None] == ts[None, None, :]  # [r, n, t]
        c = hit.sum(1)
        est, lo, hi = _wilson_clustered(c.sum(0), (c * c).sum(0), n, r)
        add(kk, 0, "p_tricks", ts, est, lo, hi, r)
        for p in range(n):
            est, lo, hi = wilson_ci(hit[:, p, :].sum(0), r)
            add(kk, p + 1, "p_tricks", ts, est, lo, hi, r)
    cols = ["deck", "players", "cards", "position", "measure", "tricks", "estimate", "lo", "hi", "rounds"]
    out = pd.DataFrame(rows, columns=cols)
    out["tricks"] = out["tricks"].astype("Int64")
    return out


# --------------------------------------------------------------------------- 2. card values


def cell_stats(d: dict[str, np.ndarray]) -> dict:
    """The (round size, no-trump) cells present, their rounds and their exact sums (from :func:`chunk_data`)."""
    cell = 2 * (d["k"].astype(np.int64) - 1) + d["no_trump"]
    order = np.argsort(cell, kind="stable")
    cells, start = np.unique(cell[order], return_index=True)
    bounds = list(start) + [len(order)]
    return {
        "k": cells // 2 + 1,
        "index": [order[bounds[j] : bounds[j + 1]] for j in range(len(cells))],
        **{key[4:]: d[key][cells] for key in d if key.startswith("sum_")},
    }


def card_values(d: dict[str, np.ndarray], st: dict, cells: np.ndarray, target: str = "won") -> pd.DataFrame:
    """Card values (regression contributions) over the (round size, no-trump) cells ``cells`` (indices into ``st``).

    ``target``: ``won`` (tricks) or ``score`` (the seat's round score, points). Returns one row per
    feature held in these cells: value, cluster-robust SE, 95% bounds.
    """
    fy, ysum = ("Fy", "y") if target == "won" else ("Fs", "s")
    n = d["won"].shape[1]
    fsum = st["F"][cells].sum(0)
    present = [f for f in range(N_FEAT) if fsum[f] > 0]
    if JESTER_F not in present:
        raise ValueError("no Jester dealt in these rounds: the value level cannot be set")
    fc = [f for f in present if f != JESTER_F]  # the Jester column is the one the fixed effects make redundant
    nf, nc = len(fc), len(cells)
    p = nf + nc
    xtx = np.zeros((p, p), dtype=np.int64)
    xty = np.zeros(p, dtype=np.int64)
    xtx[:nf, :nf] = st["FF"][cells].sum(0)[np.ix_(fc, fc)]
    xty[:nf] = st[fy][cells].sum(0)[fc]
    for i, j in enumerate(cells):
        xtx[:nf, nf + i] = xtx[nf + i, :nf] = st["F"][j][fc]
        xtx[nf + i, nf + i] = st["rows"][j]
        xty[nf + i] = st[ysum][j]
    bread = np.linalg.inv(xtx.astype(np.float64))
    theta = bread @ xty.astype(np.float64)
    beta, alpha = np.zeros(N_FEAT), theta[nf:]
    beta[fc] = theta[:nf]
    # cluster-robust meat: per round, the sum over its seats of x * residual
    meat = np.zeros((p, p))
    rounds = 0
    for i, j in enumerate(cells):
        idx = st["index"][j]
        F = d["feats"][idx]  # [rounds, n, N_FEAT]
        e = d[target][idx] - np.einsum("gsf,f->gs", F, beta) - alpha[i]
        sc = np.einsum("gsf,gs->gf", F, e)[:, fc]
        eg = e.sum(1)
        meat[:nf, :nf] += np.einsum("gi,gj->ij", sc, sc)
        meat[:nf, nf + i] = meat[nf + i, :nf] = np.einsum("gi,g->i", sc, eg)
        meat[nf + i, nf + i] = np.einsum("g,g->", eg, eg)
        rounds += len(idx)
    obs = rounds * n
    cov = bread @ meat @ bread * (rounds / (rounds - 1.0)) * ((obs - 1.0) / (obs - p))
    # the level: fixed effects average zero over the hands, i.e. values add up to the tricks on average
    w = st["rows"][cells].astype(np.float64)
    kc = st["k"][cells].astype(np.float64)
    shift = np.zeros(p)
    shift[nf:] = w / (w @ kc)
    a = np.zeros((len(present), p))
    for r, f in enumerate(present):
        if f != JESTER_F:
            a[r, fc.index(f)] = 1.0
        a[r] += shift
    value = a @ theta
    se = np.sqrt(np.maximum(np.einsum("ij,jk,ik->i", a, cov, a), 0.0))
    holders = st["holders"][cells].sum(0)
    out = pd.DataFrame(
        {
            "card": [FEATURES[f][2] for f in present],
            "kind": [FEATURES[f][0] for f in present],
            "rank": pd.array([FEATURES[f][1] or pd.NA for f in present], dtype="Int64"),
            "value": value,
            "value_se": se,
            "value_lo": value - Z95 * se,
            "value_hi": value + Z95 * se,
            "hands_holding": [int(holders[f]) for f in present],
            "hands": obs,
            "rounds": rounds,
        }
    )
    return out


def value_table(d: dict[str, np.ndarray], n: int, deck: str) -> pd.DataFrame:
    """Card values for all round sizes and for the small and large halves."""
    st = cell_stats(d)
    kmax = int(st["k"].max())
    groups = {"all": (1, kmax), "small": (1, kmax // 2), "large": (kmax // 2 + 1, kmax)}
    parts = []
    for group, (lo, hi) in groups.items():
        cells = np.flatnonzero((st["k"] >= lo) & (st["k"] <= hi))
        t = card_values(d, st, cells)
        pts = card_values(d, st, cells, target="score")
        assert list(pts.card) == list(t.card)
        for col in ("value", "value_se", "value_lo", "value_hi"):
            t[col.replace("value", "points")] = pts[col].to_numpy()
        t.insert(0, "deck", deck)
        t.insert(1, "players", n)
        t.insert(2, "round_sizes", group)
        t.insert(3, "k_min", lo)
        t.insert(4, "k_max", hi)
        parts.append(t)
    return pd.concat(parts, ignore_index=True)


def rank_drops(v: pd.DataFrame) -> tuple[list[str], int]:
    """Where a suit card's points value falls from one rank to the next (trump and off-suit): the falls
    whose 95% intervals do not overlap (e.g. ``"off-suit 7 0.42 < off-suit 6 0.98"``), and how many
    falls lie within the intervals. ``v`` is indexed by card name."""
    significant, within = [], 0
    for kind in ("trump", "off-suit"):
        for r in range(2, 14):
            hi, lo = v.loc[f"{kind} {r}"], v.loc[f"{kind} {r - 1}"]
            if hi.points < lo.points:
                if hi.points_hi < lo.points_lo:
                    significant.append(f"{kind} {r} {hi.points:.2f} < {kind} {r - 1} {lo.points:.2f}")
                else:
                    within += 1
    return significant, within


def bombed_share(d: dict[str, np.ndarray]) -> tuple[float, float, float, bool]:
    """Share of tricks voided by the Bomb (ratio of sums, 95% interval clustered by round), and whether none is.

    The last value is True when every round's tricks add up to its size k.
    """
    b = d["bombed"].astype(np.int64)
    k = d["k"].astype(np.int64)
    rounds = len(k)
    share = b.sum() / k.sum()
    u = b - share * k  # linearised ratio estimator
    se = np.sqrt((u @ u) / (rounds * (rounds - 1.0))) / (k.sum() / rounds)
    exact = bool(np.array_equal(d["won"].astype(np.int64).sum(1), k))
    return float(share), float(max(share - Z95 * se, 0.0)), float(share + Z95 * se), exact


def measure(
    players: int, deck: str, games: int, seed: int, jobs: int = 1, corpus: Corpus = PLAYED, strategy: str = STRATEGY
) -> tuple[pd.DataFrame, pd.DataFrame, tuple]:
    """One (player count, deck) of the analysis: ``games`` full games of ``strategy`` self-play.

    ``deck`` is a key of :data:`DECKS`. Returns the rows of :func:`trick_table`, of :func:`value_table`
    (full precision: the analysis rounds them to :data:`DIGITS` decimals when it writes them) and
    :func:`bombed_share`.
    """
    spec = make_spec(players, games=games, seed=seed, strategy=strategy, specials=DECKS[deck])
    d = collect(spec, jobs, corpus)
    return trick_table(d, players, deck), value_table(d, players, deck), bombed_share(d)


# --------------------------------------------------------------------------- run


def run(size: str = "default", seed: int = 20261129, outdir: Path = Path("results"), jobs: int = 1) -> dict:
    """Run the analysis; return its headline numbers and provenance."""
    from wizsim.run.io import write_table

    games = SIZES[size]
    tricks, values, bomb = [], [], {}
    for deck in DECKS:
        for n in PLAYERS:
            t, v, bomb[(deck, n)] = measure(n, deck, games, seed, jobs, Corpus.beside(outdir))
            tricks.append(t)
            values.append(v)
    tricks_df = pd.concat(tricks, ignore_index=True)
    values_df = pd.concat(values, ignore_index=True)
    outdir.mkdir(parents=True, exist_ok=True)
    write_table(tricks_df.round(DIGITS), outdir / f"{NAME}.csv")
    write_table(values_df.round(DIGITS), outdir / "card_values.csv")

    # drawn from the files as written: the gallery (wizsim.plotting.chart) redraws them
    tricks_csv, values_csv = pd.read_csv(outdir / f"{NAME}.csv"), pd.read_csv(outdir / "card_values.csv")
    save(draw_tricks(tricks_csv, values_csv, games, strategy=STRATEGY), outdir / NAME)
    save(draw_values(values_csv, strategy=STRATEGY), outdir / "card_values")

    v4 = values_df[(values_df.players == 4) & (values_df.round_sizes == "all")].set_index(["deck", "card"])

    def val(deck: str, card: str) -> str:
        r = v4.loc[(deck, card)]
        return f"{r.value:.2f} ({r.value_lo:.2f} to {r.value_hi:.2f})"

    def pval(deck: str, card: str) -> str:
        r = v4.loc[(deck, card)]
        return f"{r.points:.2f} ({r.points_lo:.2f} to {r.points_hi:.2f})"

    ace, queen = v4.loc[("standard", "trump 13")], v4.loc[("standard", "trump 12")]
    if ace.value_hi < queen.value_lo:
        order = "less than"
    elif ace.value_lo > queen.value_hi:
        order = "more than"
    else:
        order = "about as much as"  # overlapping intervals: no clear order

    pts = f"a trump ace is worth {pval('standard', 'trump 13')} points, a trump queen {pval('standard', 'trump 12')}"
    falls, within = rank_drops(v4.loc["standard"])
    pts += f", an off-suit ace {pval('standard', 'off-suit 13')}, an off-suit 2 {pval('standard', 'off-suit 2')}"
    pts += (
        "; the points value never falls significantly from one rank to the next"
        if not falls
        else "; it falls significantly from one rank to the next at "
        + ", ".join(falls)
        + " (the low cards: a card sure to lose a trick helps a player take exactly its bid, and an exact"
        " bid is where the points are)"
    )
    pts += f" ({within} smaller falls lie within the 95% intervals)" if within else ""
    exact = all(bomb[("standard", n)][3] for n in PLAYERS)
    b, b_lo, b_hi, _ = bomb[("all specials", 4)]
    tricks_note = "Every standard-deck round hands out exactly k tricks (mean k/n per player); w" if exact else "W"
    headline = (
        f"With 4 players ({STRATEGY} self-play, 95% CIs) a Wizard is worth {val('standard', 'Wizard')} tricks, "
        f"a trump ace {val('standard', 'trump 13')}, {order} a trump queen {val('standard', 'trump 12')}, "
        f"an off-suit ace {val('standard', 'off-suit 13')}, a trump 2 {val('standard', 'trump 2')} and a Jester "
        f"{val('standard', 'Jester')}; the Dragon {val('all specials', 'Dragon')}, the Werewolf "
        f"{val('all specials', 'Werewolf')}. In points per round (what holding the card adds to the score): "
        f"{pts}. {tricks_note}ith all specials {100 * b:.1f}% "
        f"({100 * b_lo:.1f} to {100 * b_hi:.1f}) of the tricks are bombed."
    )
    return {
        "name": NAME,
        "question": QUESTION,
        "headline": headline,
        "sample": f"{games:,} full games of {STRATEGY} self-play per player count (3-6) and deck (standard, all specials)",
        "seed": seed,
        "files": [
            f"{NAME}.csv",
            "card_values.csv",
            f"{NAME}.png",
            f"{NAME}.svg",
            "card_values.png",
            "card_values.svg",
        ],  # fmt: skip
        "command": f"python analyses/{NAME}.py --size {size} --seed {seed}",
    }


if __name__ == "__main__":
    from wizsim.report.report import analysis_main

    analysis_main(run, QUESTION, SIZES)
