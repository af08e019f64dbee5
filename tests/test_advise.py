"""The bid advisor (``wizsim advise``): exact one-card values, conditioning on earlier bids, CLI contract.

One-card rounds are checked against exact enumeration with the reference
engine's trick rules: play is forced, so P(win) depends only on the deal.
"""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter

import numpy as np
import pytest
import reference as R
from conftest import record_arrays

from wizsim.cli import main
from wizsim.game import cards as C
from wizsim.run.parallel import run_counts
from wizsim.tools.advise import BidOptions, advise, prepare

Z_MAX = 4.5  # per-check z bound: a false alarm about once in 150,000 checks


def _exact_one_card(n: int, position: int, card: str, indicator: str | None, trump: str | None) -> float:
    """P(the card at ``position`` takes the trick) by enumerating every deal of the unseen cards."""
    pool = Counter(R.full_deck())
    pool[card] -= 1
    if indicator is not None:
        pool[indicator] -= 1
    physical = [c for c, m in pool.items() for _ in range(m)]  # every physical card once
    wins = total = 0
    draw = n - 1 + (1 if indicator is None and trump is None else 0)
    for combo in itertools.permutations(range(len(physical)), draw):
        others = [physical[i] for i in combo[: n - 1]]
        if trump is not None:
            t = None if trump == "none" else trump
        else:
            shown = indicator if indicator is not None else physical[combo[-1]]
            if shown == "W":
                continue  # the dealer names trump: a strategy choice, left out of these cases
            t = None if shown == "J" else R.card_suit(shown)
        trick = others[: position - 1] + [card] + others[position - 1 :]
        wins += R.trick_taker(trick, t) == position - 1
        total += 1
    return wins / total


ONE_CARD_CASES = [
    # players, position, card, indicator, trump
    (3, 1, "B13", "R5", None),  # an off-suit ace led: wins unless trumped or a Wizard follows
    (3, 2, "R9", "R5", None),  # a middle trump
    (3, 3, "J", "G2", None),  # a Jester: wins only if everybody plays one
    (3, 1, "Y7", "J", None),  # no trump (Jester turned up)
    (3, 2, "G12", None, "none"),  # trump told: none
    (3, 3, "B10", None, "B"),  # trump told: blue
    (4, 2, "R13", "R1", None),  # the top trump, second to play
]


@pytest.mark.parametrize(("n", "position", "card", "indicator", "trump"), ONE_CARD_CASES)
def test_one_card_rounds_match_exact_enumeration(n, position, card, indicator, trump):
    exact = _exact_one_card(n, position, card, indicator, trump)
    samples = 40_000
    adv = advise(n, position, card, indicator=indicator, trump=trump, options=BidOptions(samples=samples, seed=11))
    assert adv.samples == samples and adv.attempts == samples
    p = adv.p_tricks[1]
    assert adv.p_tricks[0] + p == pytest.approx(1.0)
    se = math.sqrt(max(exact * (1 - exact), 1e-12) / samples)
    assert abs(p - exact) / se < Z_MAX, (p, exact)
    # expected scores: bid 1 scores 30 on a win and -10 otherwise; bid 0 scores 20 or -10
    assert adv.expected_score[1] == pytest.approx(30 * p - 10 * (1 - p), abs=1e-9)
    assert adv.expected_score[0] == pytest.approx(20 * (1 - p) - 10 * p, abs=1e-9)
    lo, hi = adv.expected_score_ci[1]
    assert lo <= adv.expected_score[1] <= hi
    if abs(exact - 3 / 7) > 0.02:  # clear of the break-even point: the advice must follow it
        assert adv.best_bid == int(exact > 3 / 7)


def test_exact_values_that_need_no_enumeration():
    # a led Jester wins only when the other two play Jesters too (3 of the 58 unseen cards are Jesters);
    # a Jester played last never wins (all Jesters: the first one takes the trick)
    assert advise(3, 3, "J", indicator="G2", options=BidOptions(samples=5_000, seed=3)).p_tricks[1] == 0.0
    adv = advise(3, 1, "J", indicator="G2", options=BidOptions(samples=60_000, seed=3))
    exact = (3 / 58) * (2 / 57)
    se = math.sqrt(exact * (1 - exact) / adv.samples)
    assert abs(adv.p_tricks[1] - exact) / se < Z_MAX
    # a Wizard led always wins
    adv = advise(5, 1, "W", indicator="B3", options=BidOptions(samples=2_000, seed=3))
    assert adv.p_tricks == [0.0, 1.0] and adv.best_bid == 1


def test_per_bid_equals_own_when_play_is_forced():
    """One card: the bid cannot change the play, so both methods see the same deals and tricks."""
    own = advise(4, 3, "G11", indicator="B4", options=BidOptions(samples=20_000, seed=5, method="own"))
    per = advise(4, 3, "G11", indicator="B4", options=BidOptions(samples=20_000, seed=5, method="per-bid"))
    assert per.method == "per-bid" and own.method == "own"
    assert per.p_tricks == own.p_tricks
    for b in (0, 1):
        assert per.expected_score[b] == pytest.approx(own.expected_score[b], abs=1e-9)


def test_preset_deals_hold_the_hand_and_nothing_seen():
    hand = ["W", "B13", "R7", "J", "B2", "G5"]
    su = prepare(4, 2, ",".join(hand), indicator="B5", seed=9)
    rec = record_arrays(su.spec(3_000))
    hands = rec.hands
    assert (rec.cards == 6).all()  # every row was played (no earlier bids: nothing rejected)
    assert (rec.dealer == su.spec(1).preset[0][2]).all()  # the dealer puts seat 0 at position 2
    assert (rec.indicator == C.card_code("B5")).all() and (rec.trump == 0).all()  # indicator B5, trump blue
    mine = sorted(C.card_code(c) for c in hand)
    deck = Counter(int(c) for c in su.unseen)
    for row in range(len(rec)):
        assert sorted(hands[row, 0].tolist()) == mine
        others = Counter(int(c) for c in hands[row, 1:].ravel())
        assert all(others[c] <= deck[c] for c in others), "a card dealt more often than it is unseen"
    # the other hands are uniform over the unseen cards: each unseen suit card lands in some hand 18/54 of the time
    held = Counter(int(c) for c in hands[:, 1:].ravel())
    rate = held[C.card_code("Y12")] / len(rec)
    assert abs(rate - 18 / 54) < Z_MAX * math.sqrt((18 / 54) * (36 / 54) / len(rec))


def test_earlier_bids_condition_exactly():
    """Conditioning = filtering: the kept deals are exactly the unconditioned deals with those bids.

    Heuristic players with a suit indicator make no random decisions, so both
    runs deal and play identically; the conditioned counts must equal the
    filtered unconditioned ones cell by cell.
    """
    hand = "W,Y13,R7,J,B2,G5,G9"
    items = 6_000
    free = prepare(4, 3, hand, indicator="Y5", seed=21)
    rec = record_arrays(free.spec(items))
    n, k = 4, 7
    dealer = int(rec.dealer[0])
    first, second = (dealer + 1) % n, (dealer + 2) % n
    bids = rec.bids
    pair = Counter(zip(bids[:, first], bids[:, second], strict=True)).most_common(1)[0][0]
    keep = (bids[:, first] == pair[0]) & (bids[:, second] == pair[1])
    expected = np.zeros((k + 1, k + 1), dtype=np.int64)
    np.add.at(expected, (bids[keep, 0], rec.tricks_won[keep, 0]), 1)

    cond = prepare(4, 3, hand, indicator="Y5", bids=list(pair), seed=21)
    joint = run_counts(cond.spec(items)).joint[k, 0, 2]
    assert joint.sum() == keep.sum() > 100
    assert (joint == expected).all()


def test_random_earlier_bidders_are_accepted_at_the_uniform_rate():
    adv = advise(
        4, 3, "W,B2,R5", indicator="G7", bids=[1, 2], strategy="random", options=BidOptions(samples=4_000, seed=2)
    )
    rate = 1 / 16  # two random bids, each one of 4 values
    n = adv.attempts
    assert abs(adv.samples - rate * n) < Z_MAX * math.sqrt(n * rate * (1 - rate))
    assert adv.samples >= 0.9 * 4_000  # the second run aims at the requested number


def test_canadian_rule_forbids_the_dealers_bid():
    adv = advise(
        3, 3, "B13,R2", indicator="G4", bids=[1, 0], rules=["canadian=true"], options=BidOptions(samples=5_000, seed=1)
    )
    assert adv.forbidden_bid == 1
    assert adv.expected_score[1] is None and adv.best_bid != 1


def test_cloud_switches_to_per_bid():
    adv = advise(4, 1, "Cloud,B7", indicator="R3", specials="cloud", options=BidOptions(samples=2_000, seed=1))
    assert adv.method == "per-bid" and set(adv.p_tricks_by_bid) == {0, 1, 2}


def _cli(capsys, args: list[str]) -> tuple[int, str, str]:
    rc = main(["advise", *args])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_cli_json_contract_and_jobs(capsys):
    args = ["--players", "4", "--position", "2", "--hand", "W,B13,R7,J", "--indicator", "B5", "--bids", "1"]
    args += ["--samples", "20000", "--seed", "4", "--json"]
    rc, out, err = _cli(capsys, args)
    assert rc == 0, err
    doc = json.loads(out)
    for key in ("p_tricks", "p_tricks_ci", "expected_score", "best_bid", "samples", "attempts"):
        assert key in doc
    assert len(doc["p_tricks"]) == 5 and sum(doc["p_tricks"]) == pytest.approx(1.0)
    assert all(lo <= p <= hi for p, (lo, hi) in zip(doc["p_tricks"], doc["p_tricks_ci"], strict=True))
    assert set(doc["expected_score"]) == {"0", "1", "2", "3", "4"}
    assert doc["best_bid"] == max(range(5), key=lambda b: doc["expected_score"][str(b)])
    rc2, out2, _ = _cli(capsys, [*args, "--jobs", "2"])
    assert rc2 == 0 and json.loads(out2) == doc  # same seed, same advice, any worker count
    rc, text, _ = _cli(capsys, args[:-1])
    assert rc == 0 and "best bid" in text and "95% interval" in text


BAD = {
    "unknown card": ["--hand", "W,X5"],
    "duplicate": ["--hand", "B13,B13"],
    "five wizards": ["--hand", "W,W,W,W,W"],
    "indicator in hand": ["--hand", "W,B13", "--indicator", "B13"],
    "too large": ["--hand", ",".join(f"B{r}" for r in range(1, 14)) + ",R1,R2,R3"],
    "7 players": ["--hand", "W", "--players", "7"],
    "position": ["--hand", "W", "--position", "5"],
    "bids count": ["--hand", "W,B2", "--bids", "1,1"],
    "bid range": ["--hand", "W,B2", "--bids", "3"],
    "special not in deck": ["--hand", "Dragon,B2"],
    "variant": ["--hand", "W", "--rule", "variant=maximus"],
    "both": ["--hand", "W", "--indicator", "B2", "--trump", "B"],
    "bad trump": ["--hand", "W", "--trump", "Q"],
    "hidden bids": ["--hand", "W,B2", "--bids", "1", "--rule", "hidden_bids=secret"],
    "indicator last round": ["--hand", ",".join(f"B{r}" for r in range(1, 14)) + ",R1,R2", "--indicator", "Y3"],
    "indicator last round with specials": [
        "--hand", ",".join(f"B{r}" for r in range(1, 14)) + ",R1,R2", "--indicator", "Y3", "--specials", "all",
    ],
    "trump last round with specials": [
        "--hand", ",".join(f"B{r}" for r in range(1, 14)) + ",R1,R2", "--trump", "B", "--specials", "all",
    ],
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(BAD))
def test_cli_bad_input_is_one_line_exit_2(capsys, case):
    args = BAD[case]
    base = ["--players", "4", "--position", "2"]
    if "--players" in args:
        base = ["--position", "2"]
    if "--position" in args:
        base = ["--players", "4"]
    rc, out, err = _cli(capsys, [*base, *args, "--samples", "100"])
    assert rc == 2, (case, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("wizsim: error: "), err
    assert "Traceback" not in err and out == ""
