"""How do the Dragon and Fairy (and each other special card) change the game?

Question
--------
What happens to bidding accuracy and scores when special cards are mixed into
the 60-card deck: the Dragon and Fairy together, each of the other five
(Bomb, Werewolf, Juggler, Cloud, Shapeshifter) alone, and all seven at once?

Method
------
:data:`STRATEGY` self-play (``learned``: the strongest player, fitted to
pimc's values on every deck used here, so each deck is played by a player
fitted to it; a switch is the one line of the constant), full
games for 3, 4, 5 and 6 players and eight decks (standard, Dragon + Fairy, the
five single cards, all seven): ``SIZES[size]`` games per deck with 4 players
(the headline), ``OTHER_SIZES[size]`` with 3, 5 and 6, one seed. The games
come from the report's self-play corpus (:class:`wizsim.run.corpus.Corpus`:
played once per report; expected_tricks reads the same games of the standard
and all-specials decks, strategies_by_round_size and variant_balance the
standard deck's), with the numbers of :func:`wizsim.simulate_result` of the
same run. For each round size, and pooled over the game's rounds, the table
reports the hit rate (final bid = tricks, Wilson 95% interval), mean |final
bid - tricks|, mean points per round, mean bid and mean tricks (normal 95%
intervals), and the difference from the standard deck at the same player
count and round size.

Round sizes. Every deck plays the standard table (RULES.md 2;
``wizsim.game.rules.game_schedule``): 60 / n rounds of 1 .. 60 / n cards (3
players: 20, 4: 15, 5: 12, 6: 10), specials or not, and the last round turns
up no card and has no trump even where the specials leave cards over. So
every deck is compared over the same rounds: per round size, and pooled
(``cards = "game"``: one round of each size per game, every deck alike). The
decks still differ in what is left undealt: with specials mixed in a few
cards stay in the stock even in the last round, while the standard deck
deals all 60 there.

Caveats
-------
* The decks differ, so the deals cannot be identical: every deck runs with the
  same seed, but a shuffle of another deck deals other cards. Differences
  therefore use independent-sample 95% intervals: Newcombe's hybrid score
  interval (from the two Wilson intervals) for the hit rate, and
  ``d +/- sqrt(h1**2 + h2**2)`` (h: half-widths of the two normal intervals)
  for the means.
* Every interval counts each player's result in a round as one observation
  (``rounds`` = player-rounds = games x players for each round size), as
  ``SimulationResult.table`` does; the results of the players of one round
  (and of one game) are not independent, so the intervals are approximate.
  A check with 30 independent replicate runs of 1,000 four-player games of
  ``table`` self-play (pooled over round sizes 1-15; run when the all-seven
  deck's last round still turned up a trump) found the spread
  of the hit rate, mean |bid - tricks| and points between 0.97 and 0.99 times
  the reported standard errors with the standard deck and between 1.12 and
  1.19 with all seven (each ratio itself uncertain by about 13% with 30
  replicates; mean bid and tricks: 0.4 or less, conservative): the intervals
  are about right, perhaps slightly narrow with all seven specials. (The
  same check with ``heuristic`` self-play had found 0.75 to 1.05.)
* Mean tricks per player equals k / players exactly unless the Bomb is in the
  deck (a bombed trick goes to nobody); the tests use this.
* Effects are those of the :data:`STRATEGY` player. ``learned`` was fitted on
  each of these decks (pimc's values in self-play with the Dragon and Fairy,
  each single card, all seven; the deck's specials are features of its
  networks), so a deck's effect is no longer mixed with a player's ignorance
  of its cards, as it was with ``table`` (its bid table was learned on the
  standard deck only). Its other special-card decisions (naming trump, the
  Werewolf, the Juggler's passes) are still ``table``'s, i.e. the heuristic's.

Writes ``results/special_cards.csv`` (long format: players, deck, specials,
deck_size, game_rounds, games, cards (a round size, or ``game``: all the
game's rounds pooled), rounds, metric, estimate, lo, hi, diff, diff_lo,
diff_hi; ``diff`` is deck minus standard over the same rounds, empty for the
standard deck) and a chart (.png, .svg).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from wizsim.plotting import save
from wizsim.plotting.special_cards import draw
from wizsim.run.corpus import Corpus
from wizsim.run.simulate import AUX_HIT, AUX_MISS, AUX_MISS_SQ, AUX_SCORE, AUX_SCORE_SQ, SimulationResult
from wizsim.run.spec import make_spec
from wizsim.run.stats import mean_ci, wilson_ci

NAME = "special_cards"
QUESTION = "How do the Dragon and Fairy (and each other special card) change the game?"
SIZES = {"quick": 200, "default": 20_000, "full": 200_000}  # full games per deck, 4 players (the headline)
#: full games per deck with 3, 5 and 6 players: expected_tricks' sizes, so both read the same corpus games
OTHER_SIZES = {"quick": 200, "default": 8_192, "full": 81_920}
STRATEGY = "learned"  # the strongest player fast enough for this many games
PLAYERS = (3, 4, 5, 6)
#: deck label -> ``specials`` argument of :func:`wizsim.simulate_result`
DECKS: dict[str, str | None] = {
    "standard": None,
    "Dragon+Fairy": "dragon,fairy",
    "Bomb": "bomb",
    "Werewolf": "werewolf",
    "Juggler": "juggler",
    "Cloud": "cloud",
    "Shapeshifter": "shapeshifter",
    "all seven": "all",
}
METRICS = ("hit_rate", "mean_abs_diff", "mean_score", "mean_bid", "mean_tricks")
COLUMNS = [
    "players", "deck", "specials", "deck_size", "game_rounds", "games", "cards", "rounds",
    "metric", "estimate", "lo", "hi", "diff", "diff_lo", "diff_hi",
]  # fmt: skip


def estimates(res: SimulationResult, ks: list[int]) -> tuple[int, dict[str, tuple[float, float, float]]]:
    """Player-rounds and (estimate, lo, hi) of every metric over the rounds of sizes ``ks``, all seats pooled."""
    joint = res.counts.joint[ks].sum(axis=(0, 1, 2))  # [bid, tricks]
    aux = res.counts.aux[ks].sum(axis=(0, 1, 2))
    rounds = int(joint.sum())
    b = np.arange(joint.shape[0], dtype=np.int64)
    bid_n, tricks_n = joint.sum(axis=1), joint.sum(axis=0)
    out = {
        "hit_rate": wilson_ci(aux[AUX_HIT], rounds),
        "mean_abs_diff": mean_ci(aux[AUX_MISS], aux[AUX_MISS_SQ], rounds),
        "mean_score": mean_ci(aux[AUX_SCORE], aux[AUX_SCORE_SQ], rounds),
        "mean_bid": mean_ci((b * bid_n).sum(), (b * b * bid_n).sum(), rounds),
        "mean_tricks": mean_ci((b * tricks_n).sum(), (b * b * tricks_n).sum(), rounds),
    }
    return rounds, {m: tuple(float(x) for x in v) for m, v in out.items()}


def difference(metric: str, a: tuple[float, float, float], s: tuple[float, float, float]) -> tuple[float, ...]:
    """Deck ``a`` minus standard ``s`` with an independent-sample 95% interval.

    Hit rate: Newcombe's hybrid score interval from the two Wilson intervals;
    means: normal, half-width sqrt(h_a**2 + h_s**2).
    """
    (pa, la, ha), (ps, ls, hs) = a, s
    d = pa - ps
    if metric == "hit_rate":
        return d, d - np.hypot(pa - la, hs - ps), d + np.hypot(ha - pa, ps - ls)
    half = np.hypot((ha - la) / 2, (hs - ls) / 2)
    return d, d - half, d + half


def tabulate(results: dict[tuple[int, str], SimulationResult]) -> pd.DataFrame:
    """The table of :data:`COLUMNS` from the full-game result of each (players, deck label).

    The ``"standard"`` deck of a player count must come before its other decks: their differences are from it
    (empty without it).
    """
    rows = []
    std: dict[int, dict[str, dict]] = {}
    for (n, deck), res in results.items():
        schedule = list(res.spec.schedule)
        base = {
            "players": n,
            "deck": deck,
            "specials": "+".join(res.spec.specials) or "none",
            "deck_size": len(res.spec.deck),
            "game_rounds": len(schedule),
            "games": res.spec.items,
        }
        groups: list[tuple[str, list[int]]] = [(str(k), [k]) for k in schedule]
        groups.append(("game", schedule))  # every deck plays the standard table: the same rounds
        for label, ks in groups:
            rounds, est = estimates(res, ks)
            if deck == "standard":
                std.setdefault(n, {})[label] = est
            for metric in METRICS:
                diff = (np.nan, np.nan, np.nan)
                if deck != "standard" and label in std.get(n, {}):
                    diff = difference(metric, est[metric], std[n][label][metric])
                rows.append(
                    dict(base, cards=label, rounds=rounds, metric=metric, estimate=est[metric][0],
                         lo=est[metric][1], hi=est[metric][2], diff=diff[0], diff_lo=diff[1], diff_hi=diff[2])
                )  # fmt: skip
    return pd.DataFrame(rows, columns=COLUMNS)


def run(size: str = "default", seed: int = 20261129, outdir: Path = Path("results"), jobs: int = 1) -> dict:
    """Run the analysis; return its headline numbers and provenance."""
    games = SIZES[size]
    corpus = Corpus.beside(outdir)
    results = {
        (n, deck): corpus.result(
            make_spec(n, games=games if n == 4 else OTHER_SIZES[size], seed=seed, strategy=STRATEGY, specials=specials),
            jobs,
        )
        for n in PLAYERS
        for deck, specials in DECKS.items()
    }
    table = tabulate(results)
    outdir.mkdir(parents=True, exist_ok=True)
    from wizsim.run.io import write_table

    write_table(table, outdir / f"{NAME}.csv")
    # drawn from the file as written: the gallery redraws it
    save(draw(pd.read_csv(outdir / f"{NAME}.csv"), STRATEGY), outdir / NAME)

    pooled = table[table.cards == "game"].set_index(["players", "deck", "metric"])

    def fmt(n: int, deck: str, metric: str, scale: float = 1.0, unit: str = "") -> str:
        r = pooled.loc[(n, deck, metric)]
        return f"{scale * r['diff']:+.1f}{unit} (95% CI {scale * r.diff_lo:+.1f} to {scale * r.diff_hi:+.1f})"

    std4 = pooled.loc[(4, "standard", "hit_rate")]
    n_rounds = int(std4.game_rounds)
    singles = ["Bomb", "Werewolf", "Juggler", "Cloud", "Shapeshifter"]
    big = max(singles, key=lambda d: abs(pooled.loc[(4, d, "hit_rate"), "diff"]))
    headline = (
        f"4 players, {STRATEGY} self-play, {games:,} full games per deck, every deck over the same {n_rounds} rounds"
        f" (1-{n_rounds} cards; {int(std4.rounds):,} player-rounds): the standard deck's hit rate is"
        f" {100 * std4.estimate:.1f}%"
        f" (95% CI {100 * std4.lo:.1f}-{100 * std4.hi:.1f}); Dragon+Fairy changes"
        f" it by {fmt(4, 'Dragon+Fairy', 'hit_rate', 100, ' pp')} and points per round by"
        f" {fmt(4, 'Dragon+Fairy', 'mean_score')}; all seven specials: {fmt(4, 'all seven', 'hit_rate', 100, ' pp')}"
        f" and {fmt(4, 'all seven', 'mean_score')} points; the largest single card is the {big}:"
        f" {fmt(4, big, 'hit_rate', 100, ' pp')} (independent-sample intervals; decks cannot share deals)"
    )
    return {
        "name": NAME,
        "question": QUESTION,
        "headline": headline,
        "sample": (
            f"{games:,} full games of {STRATEGY} self-play per deck with 4 players, {OTHER_SIZES[size]:,} with 3, 5"
            f" and 6 players; {len(DECKS)} decks ({len(DECKS) * (games + 3 * OTHER_SIZES[size]):,} games, from the"
            " report's self-play corpus)"
        ),
        "seed": seed,
        "files": [f"{NAME}.csv", f"{NAME}.png", f"{NAME}.svg"],
        "command": f"python analyses/{NAME}.py --size {size} --seed {seed}",
    }


if __name__ == "__main__":
    from wizsim.report.report import analysis_main

    analysis_main(run, QUESTION, SIZES)
