"""The ``pimc`` player: legal under every rule, blind to hidden cards, stronger than the heuristic."""

from __future__ import annotations

import numpy as np
import pytest
import reference as R
from conftest import bare_tables, no_snapshots, pimc_view

from wizsim.engine import layout as L
from wizsim.engine.bundles import BidTurn, Turn
from wizsim.engine.game.trick import open_trick
from wizsim.engine.players.heuristic import heuristic_estimate
from wizsim.engine.players.pimc_search import pimc_bid, pimc_play, pimc_pool, rollout, sample_world, world_bids
from wizsim.errors import WizsimError
from wizsim.game import cards as C
from wizsim.players.learned_data import rollout_net
from wizsim.players.strategies import make_strategy
from wizsim.run.history import iter_history
from wizsim.run.simulate import kernel_tables, make_spec
from wizsim.tools.tournament import tournament

FAST = "pimc(samples=4,bid_samples=4)"


@pytest.mark.parametrize(
    "sel",
    [
        {"players": 4, "cards": 7, "hands": 40},
        {"players": 3, "cards": 12, "hands": 20, "rules": {"canadian": "true"}},
        {"players": 5, "cards": 6, "hands": 30, "specials": "all"},
        {"players": 4, "cards": 8, "hands": 40, "specials": "all", "rules": {"bomb": "cancel_bids"}},
        {"players": 4, "cards": 9, "hands": 30, "specials": "werewolf,juggler,cloud"},
        {"players": 4, "games": 1, "rules": {"variant": "mono"}},
        {"players": 4, "games": 1, "rules": {"variant": "maximus"}},
    ],
)
def test_pimc_rounds_replay_cleanly(sel):
    """Every PIMC round, special cards and variants included, obeys the rules (reference replay)."""
    seats = [FAST, "heuristic", FAST, "random", "heuristic", "heuristic"][: sel["players"]]
    spec = make_spec(**sel, seed=3, strategy=",".join(seats))
    rounds = 0
    for rec in iter_history(spec, include_legal=True):
        rounds += 1
        problems = R.replay(rec)
        assert not problems, problems[:3]
    assert rounds > 0


def _nothing_known(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(known cards by seat, cards played by seat, Wizards played by seat): all empty."""
    return np.zeros((n, 64), dtype=np.int64), np.zeros(n, dtype=np.uint64), np.zeros(n, dtype=np.int64)


def test_pimc_does_not_look_at_hidden_cards():
    """Two deals that differ only in the other players' cards give PIMC the same decision."""
    table, masks = kernel_tables()
    rules = np.zeros(L.N_RULE_SLOTS, dtype=np.int64)
    n, k = 4, 6
    params = np.stack([make_strategy("pimc(samples=16)").param_row()] * n)
    deck = np.asarray(C.build_deck(), dtype=np.uint8)
    full = np.bincount(deck.astype(np.int64), minlength=64).astype(np.int64)
    rng = np.random.default_rng(0)
    decisions = []
    mine = [C.card_code(c) for c in ("B13", "B2", "R7", "G4", "Y11", "W")]
    others = [c for c in deck.tolist() if c not in mine or c == C.WIZARD][: 3 * k + 10]
    for _ in range(2):
        pool = list(others)
        rng.shuffle(pool)
        hands = np.zeros(n, dtype=np.uint64)
        cnt = np.zeros((n, 64), dtype=np.int64)
        for q in range(n):
            cards = mine if q == 0 else pool[(q - 1) * k : q * k]
            for c in cards:
                hands[q] |= np.uint64(1) << np.uint64(c)
                cnt[q, c] += 1
        bids = np.array([2, 1, 1, 2], dtype=np.int64)
        won = np.zeros(n, dtype=np.int64)
        played = np.zeros(64, dtype=np.int64)
        void = np.zeros(n, dtype=np.int64)
        turn = Turn(0, 0, 0, n, k, 1, C.card_code("R5"), np.uint64(0), False, -1)
        f, _ = pimc_play(turn, open_trick(0, -1), hands, cnt, bids, won, pimc_view(n, full, played, void),
                         _nothing_known(n)[0], bare_tables(table, masks, rules, n), params,
                         rollout_net(n, full, True), np.uint64(12345))  # fmt: skip
        decisions.append(int(f))
    assert decisions[0] == decisions[1]


def test_pimc_parameters_are_checked():
    row = make_strategy("pimc(samples=8,bid_samples=0,rollout=1)").param_row()
    assert (row[L.P_SAMPLES], row[L.P_BID_SAMPLES], row[L.P_ROLLOUT]) == (8, 0, 1)
    assert make_strategy("pimc(rollout=2)").param_row()[L.P_ROLLOUT] == 2
    assert make_strategy("pimc").param_row()[L.P_ROLLOUT] == 4  # the default: each seat as it plays
    assert make_strategy("pimc(rollout=0)").param_row()[L.P_ROLLOUT] == 0  # the old pimc
    for bad in (
        "pimc(samples=0)",
        "pimc(samples=2.5)",
        "pimc(rollout=5)",
        "pimc(prune=-1)",
        "pimc(prune=2000)",
        "pimc(infer=-1)",
        "pimc(infer=0.001)",
    ):
        with pytest.raises(WizsimError):
            make_strategy(bad)
    assert make_strategy("pimc(prune=2.5)").param_row()[L.P_PRUNE] == 2.5
    row = make_strategy("pimc(samples=7,bid_samples=5,rollout=2,prune=3,infer=0.5)").param_row()
    assert [row[s] for s in (L.P_SAMPLES, L.P_BID_SAMPLES, L.P_ROLLOUT, L.P_PRUNE, L.P_INFER)] == [7, 5, 2, 3, 0.5]
    assert make_strategy("pimc(infer=0.8)").param_row()[L.P_INFER] == 0.8


def _random_bid_situation(rng, n, k, table, masks):
    deck = np.asarray(C.build_deck(), dtype=np.int64)
    full = np.bincount(deck, minlength=64).astype(np.int64)
    order = rng.permutation(deck)
    hands = np.zeros(n, dtype=np.uint64)
    cnt = np.zeros((n, 64), dtype=np.int64)
    for q in range(n):
        for c in order[q * k : (q + 1) * k]:
            hands[q] |= np.uint64(1) << np.uint64(c)
            cnt[q, c] += 1
    shown = int(order[n * k])
    trump = int(table[shown, L.T_SUIT]) if table[shown, L.T_CLASS] == L.CLASS_SUIT else -1
    return hands, cnt, full, shown, trump


def _pimc_bid_one_rollout_per_bid(p, n, k, dealer, trump, hands, cnt, bids, full, shown, base, forbidden, table,
                                  masks, rules, params, st):  # fmt: skip
    """The plain PIMC bid: every bid played out in every deal (what the kernel's shared rollouts must equal)."""
    samples = int(params[p, L.P_BID_SAMPLES])
    pool = pimc_pool(p, full, cnt, np.zeros(64, dtype=np.int64), shown)
    sizes = np.full(n, k, dtype=np.int64)
    void = np.zeros(n, dtype=np.int64)
    hstrat = np.full(n, L.S_HEURISTIC, dtype=np.int64)
    lo, hi = max(base - 2, 0), min(base + 2, k)
    total = {b: 0 for b in range(lo, hi + 1) if b != forbidden}
    wh = np.zeros(n, dtype=np.uint64)
    wc = np.zeros((n, 64), dtype=np.int64)
    work = np.zeros(8, dtype=np.int64)
    sn = no_snapshots()
    leader = (dealer + 1) % n
    net = rollout_net(n, full, True)
    for _ in range(samples):
        st = np.uint64(sample_world(p, n, pool, sizes, void, _nothing_known(n)[0], hands, cnt, wh, wc, st))
        b2 = np.zeros(n, dtype=np.int64)
        passed = True
        for i in range(n):
            q = (dealer + 1 + i) % n
            if q == p:
                passed = False
            elif passed:
                b2[q] = bids[q]
            else:
                e = heuristic_estimate(wh[q], wc[q], trump, n, k, params[p])
                b2[q] = min(max(int(np.floor(e + 0.5)), 0), k)
        for b in total:
            b2[p] = b
            h2, c2, won2 = wh.copy(), wc.copy(), np.zeros(n, dtype=np.int64)
            turn = Turn(p, 0, 0, n, k, trump, shown, np.uint64(0), False, -1)
            score, st = rollout(turn, open_trick(leader, -1), h2, c2, b2, won2, bare_tables(table, masks, rules, n),
                                hstrat, params, 0, work, st, sn, net)  # fmt: skip
            st = np.uint64(st)
            total[b] += score
    return max(total, key=lambda b: (total[b], -b)), st


def test_pimc_bid_shared_rollouts_equal_one_rollout_per_bid():
    """Lower bids reuse the top bid's rollout (snapshots) with exactly the result of their own rollouts."""
    table, masks = kernel_tables()
    rules = np.zeros(L.N_RULE_SLOTS, dtype=np.int64)
    rng = np.random.default_rng(7)
    checked = 0
    for trial in range(40):
        n = 3 + trial % 4
        k = 1 + trial % (59 // n)
        params = np.stack([make_strategy("pimc(bid_samples=6,rollout=0)").param_row()] * n)  # shared: heuristic
        hands, cnt, full, shown, trump = _random_bid_situation(rng, n, k, table, masks)
        dealer = trial % n
        p = (dealer + 1 + trial % n) % n
        bids = np.array([int(x) for x in rng.integers(0, k + 1, n)], dtype=np.int64)
        base = int(rng.integers(0, k + 1))
        forbidden = int(rng.integers(0, k + 1)) if trial % 3 == 0 else -1
        st = np.uint64(1000 + trial)
        turn = BidTurn(p, (p - dealer - 1) % n, n, k, dealer, trump, shown, 0, forbidden)
        got = pimc_bid(turn, hands, cnt, bids, full, _nothing_known(n)[0], base, bare_tables(table, masks, rules, n),
                       params, rollout_net(n, full, True), st)  # fmt: skip
        want = _pimc_bid_one_rollout_per_bid(p, n, k, dealer, trump, hands, cnt, bids, full, shown, base, forbidden,
                                             table, masks, rules, params, st)  # fmt: skip
        assert (int(got[0]), int(got[1])) == (int(want[0]), int(want[1])), trial
        checked += 1
    assert checked == 40


def test_pimc_prune_keeps_the_decisions_legal_and_is_deterministic():
    """Pruning (successive halving of clearly worse candidates) still plays legal, reproducible rounds."""
    spec = make_spec(
        players=4, cards=8, hands=20, specials="all", seed=9, strategy="pimc(samples=16,bid_samples=16,prune=2)"
    )
    a = [(r["bids"], r["tricks"]) for r in iter_history(spec, include_legal=True)]
    for rec in iter_history(spec, include_legal=True):
        assert not R.replay(rec)
    b = [(r["bids"], r["tricks"]) for r in iter_history(spec)]
    assert a == b


def test_pimc_is_deterministic_for_any_jobs():
    a = tournament(4, f"{FAST},heuristic", cards=5, deals=300, seed=2, jobs=1).table()
    b = tournament(4, f"{FAST},heuristic", cards=5, deals=300, seed=2, jobs=2).table()
    assert a.equals(b)


def test_pimc_beats_the_heuristic_on_the_same_deals():
    res = tournament(4, "pimc(samples=16,bid_samples=0),heuristic", cards=10, deals=300, seed=4).pairwise()
    row = res.iloc[0]
    assert row.strategy_a.startswith("pimc") and row.points_per_round_diff_lo > 3.0, row


def test_advise_with_pimc_players():
    """The advisor's deck holds only the unseen cards; PIMC seats still reason about the whole deck."""
    from wizsim.tools.advise import BidOptions, advise

    adv = advise(
        3, 1, "W,B13", indicator="R4", strategy="pimc(samples=4,bid_samples=4)", options=BidOptions(samples=300, seed=1)
    )
    assert adv.samples == 300 and abs(sum(adv.p_tricks) - 1) < 1e-12
    assert adv.p_tricks[2] > 0.3  # the Wizard and often the ace of a side suit
    one = advise(
        3, 1, "W", indicator="R4", strategy="pimc(samples=4,bid_samples=4)", options=BidOptions(samples=200, seed=1)
    )
    assert one.p_tricks == [0.0, 1.0]  # a Wizard led always takes the trick


def test_known_cards_are_dealt_to_their_holder():
    """A card PIMC knows a seat holds (a Werewolf's indicator, its own Juggler pass) is always dealt there."""
    n, k = 4, 5
    deck = np.asarray(C.build_deck(), dtype=np.uint8)
    full = np.bincount(deck.astype(np.int64), minlength=64).astype(np.int64)
    hands = np.zeros(n, dtype=np.uint64)
    cnt = np.zeros((n, 64), dtype=np.int64)
    for c in ("B13", "B2", "R7", "G4", "Y11"):
        hands[0] |= np.uint64(1) << np.uint64(C.card_code(c))
        cnt[0, C.card_code(c)] += 1
    pool = pimc_pool(0, full, cnt, np.zeros(64, dtype=np.int64), -1)
    known = np.zeros((n, 64), dtype=np.int64)
    g9 = C.card_code("G9")
    known[2, g9] = 1
    known[3, C.WIZARD] = 2
    sizes = np.full(n, k, dtype=np.int64)
    wh = np.zeros(n, dtype=np.uint64)
    wc = np.zeros((n, 64), dtype=np.int64)
    st = np.uint64(5)
    wizards_elsewhere = 0
    for _ in range(200):
        st = np.uint64(sample_world(0, n, pool, sizes, np.zeros(n, dtype=np.int64), known, hands, cnt, wh, wc, st))
        assert wc[2, g9] == 1 and wc[1, g9] == 0 and wc[3, g9] == 0
        assert wc[3, C.WIZARD] >= 2
        wizards_elsewhere += wc[1, C.WIZARD] + wc[2, C.WIZARD]
        assert (wc.sum(axis=1) == k).all()
        assert wc[:, C.WIZARD].sum() <= 4
    assert wizards_elsewhere > 0  # the other two Wizards are still dealt at random


def test_world_bids_model_secret_bids_and_weight_visible_ones():
    n, k, trump = 4, 5, 0
    prm = make_strategy("pimc").param_row()
    wh = np.zeros(n, dtype=np.uint64)
    wc = np.zeros((n, 64), dtype=np.int64)
    hands = {1: ["W", "W", "B13", "B12", "R13"], 2: ["R2", "G3", "Y4", "G5", "R6"], 3: ["B5", "R9", "G11", "Y2", "J"]}
    for q, names in hands.items():
        for name in names:
            c = C.card_code(name)
            wh[q] |= np.uint64(1) << np.uint64(c)
            wc[q, c] += 1
    spmask, spwiz = np.zeros(n, dtype=np.uint64), np.zeros(n, dtype=np.int64)
    tmp, out = np.zeros(64, dtype=np.int64), np.zeros(n, dtype=np.int64)
    est = [heuristic_estimate(wh[q], wc[q], trump, n, k, prm) for q in range(n)]
    every_seat = (1 << n) - 1
    bids = np.array([1, 4, 0, 1], dtype=np.int64)
    w = world_bids(0, n, k, trump, wh, wc, spmask, spwiz, bids, every_seat, False, 0.0, False, prm, tmp, out)
    assert w == 1 and out[0] == 1  # secret: own bid kept, the others' replaced by rounded estimates
    assert [int(out[q]) for q in (1, 2, 3)] == [min(max(int(np.floor(est[q] + 0.5)), 0), k) for q in (1, 2, 3)]
    good = world_bids(0, n, k, trump, wh, wc, spmask, spwiz, bids, every_seat, True, 1.0, False, prm, tmp, out)
    assert list(out) == list(bids)  # visible bids stand
    bad = world_bids(
        0, n, k, trump, wh, wc, spmask, spwiz, np.array([1, 0, 4, 1]), every_seat, True, 1.0, False, prm, tmp, out
    )
    assert 1 <= bad < good <= 64
    assert world_bids(0, n, k, trump, wh, wc, spmask, spwiz, bids, every_seat, True, 0.0, False, prm, tmp, out) == 1


def test_pimc_does_not_use_secret_bids():
    """Under secret hidden bids PIMC's decision does not depend on the others' bids."""
    table, masks = kernel_tables()
    n, k = 4, 6
    deck = np.asarray(C.build_deck(), dtype=np.uint8)
    full = np.bincount(deck.astype(np.int64), minlength=64).astype(np.int64)
    hands = np.zeros(n, dtype=np.uint64)
    cnt = np.zeros((n, 64), dtype=np.int64)
    rng = np.random.default_rng(3)
    order = rng.permutation(deck.astype(np.int64))
    for q in range(n):
        for c in order[q * k : (q + 1) * k]:
            hands[q] |= np.uint64(1) << np.uint64(c)
            cnt[q, c] += 1
    params = np.stack([make_strategy("pimc(samples=16,infer=1)").param_row()] * n)
    decisions = {}
    for secret in (False, True):
        rules = np.zeros(L.N_RULE_SLOTS, dtype=np.int64)
        rules[L.R_HIDDEN_BIDS] = 2 if secret else 0
        for others in ([0, 0, 0], [3, 4, 5], [6, 0, 6]):
            bids = np.array([2, *others], dtype=np.int64)
            turn = Turn(0, 0, 0, n, k, 1, int(order[n * k]), np.uint64(0), False, -1)
            f, _ = pimc_play(turn, open_trick(0, -1), hands, cnt, bids, np.zeros(n, dtype=np.int64),
                             pimc_view(n, full), _nothing_known(n)[0], bare_tables(table, masks, rules, n), params,
                             rollout_net(n, full, True), np.uint64(99))  # fmt: skip
            decisions.setdefault(secret, set()).add(int(f))
    assert len(decisions[True]) == 1
