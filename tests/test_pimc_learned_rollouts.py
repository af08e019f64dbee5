"""pimc's learned rollouts (``pimc(rollout=3)``, ``rollout=4``): the rollout plays exactly like the players.

A rollout from the start of a round, with every seat's hand and bid as dealt,
must take the same tricks as the engine's ``learned`` self-play of that deal:
that checks the rollout's own copies of the cards played and of the voids
(the learned player's features read them) against the engine's view.
"""

from __future__ import annotations

import numpy as np
import pytest
import reference as R
from conftest import no_snapshots

from wizsim.engine.bundles import Turn
from wizsim.engine.game.trick import open_trick
from wizsim.engine.players.pimc_search import rollout
from wizsim.game import cards as C
from wizsim.players.learned_data import rollout_net
from wizsim.run.history import iter_history
from wizsim.run.simulate import make_spec

LEARNED_ROLLOUTS = "pimc(samples=4,bid_samples=4,rollout=3)"


def _hands(rec: dict) -> tuple[np.ndarray, np.ndarray]:
    n = rec["players"]
    hands = np.zeros(n, dtype=np.uint64)
    cnt = np.zeros((n, 64), dtype=np.int64)
    for q, names in enumerate(rec["hands"]):
        for name in names:
            c = C.card_code(name)
            cnt[q, c] += 1
            hands[q] |= np.uint64(1) << np.uint64(c)
    return hands, cnt


@pytest.mark.parametrize(
    "sel",
    [
        {"players": 4, "cards": 10, "hands": 60},
        {"players": 4, "cards": 9, "hands": 60, "strategy": "learned,heuristic,table,learned", "policy": 4},
        {
            "players": 5,
            "cards": 7,
            "hands": 40,
            "strategy": "table,learned,heuristic,heuristic,learned",
            "policy": 4,
            "specials": "dragon,fairy,bomb,cloud,shapeshifter,juggler",
        },  # fmt: skip
        {"players": 3, "cards": 13, "hands": 40, "rules": {"scoring": "progressive"}},
        {"players": 5, "cards": 8, "hands": 60, "specials": "dragon,fairy,bomb,cloud,shapeshifter,juggler"},
        {"players": 6, "cards": 9, "hands": 40, "specials": "dragon,fairy,bomb", "rules": {"bomb": "cancel_bids"}},
    ],
)
def test_a_learned_rollout_replays_learned_self_play(sel):
    """Policy 3 (everyone by the network) replays learned self-play; policy 4 (each seat as its strategy
    plays) replays a table of learned, heuristic and table seats."""
    sel = dict(sel)
    policy = sel.pop("policy", 3)
    strategy = sel.pop("strategy", "learned")
    spec = make_spec(**sel, seed=11, strategy=strategy)
    setup, (ids, params) = spec.kernel_args()
    tables = setup.tables
    deck = np.asarray(spec.deck, dtype=np.int64)
    n = sel["players"]
    full = np.bincount(deck, minlength=64).astype(np.int64)
    hstrat = ids  # Juggler passes as the seats pass
    work = np.zeros(8, dtype=np.int64)
    sn = no_snapshots()
    compared = 0
    for rec in iter_history(spec):
        k = rec["cards_per_player"]
        shown = C.card_code(rec["indicator"]) if rec["indicator"] else -1
        trump = C.SUITS.index(rec["trump"]) if rec["trump"] in C.SUITS else -1
        hands, cnt = _hands(rec)
        bids = np.asarray(rec["bids"], dtype=np.int64)
        won = np.zeros(n, dtype=np.int64)
        leader = (rec["dealer"] + 1) % n
        net = rollout_net(n, full, True)  # fresh: nothing played, no voids
        turn = Turn(0, 0, 0, n, k, trump, shown, np.uint64(0), False, -1)
        score, _ = rollout(turn, open_trick(leader, -1), hands, cnt, bids, won, tables, hstrat, params, policy, work,
                           np.uint64(5), sn, net)  # fmt: skip
        assert won.tolist() == rec["tricks_won"], (rec["round"], rec["game"])
        assert score == rec["scores"][0]
        compared += 1
    assert compared == sel["hands"]


@pytest.mark.parametrize("policy", [3, 4])
def test_learned_rollouts_change_pimc_and_stay_legal_and_reproducible(policy):
    """pimc(rollout=3 or 4) plays legal rounds under every special and bomb rule, the same for the same seed,
    and not the rounds pimc with heuristic rollouts plays (the network is used)."""
    sel = {"players": 4, "cards": 8, "hands": 12, "specials": "all", "rules": {"bomb": "cancel_bids"}}
    mine = LEARNED_ROLLOUTS.replace("rollout=3", f"rollout={policy}")
    seats = f"{mine},heuristic,{mine},random"
    spec = make_spec(**sel, seed=4, strategy=seats)
    recs = list(iter_history(spec, include_legal=True))
    for rec in recs:
        assert not R.replay(rec)
    again = [(r["bids"], r["tricks"]) for r in iter_history(spec)]
    assert again == [(r["bids"], r["tricks"]) for r in recs]
    plain = make_spec(**sel, seed=4, strategy=seats.replace(f",rollout={policy}", ",rollout=0"))
    assert [(r["bids"], r["tricks"]) for r in iter_history(plain)] != again


def test_learned_rollouts_in_mono_and_maximus_replay_cleanly():
    for variant in ("mono", "maximus"):
        spec = make_spec(players=4, games=1, rules={"variant": variant}, seed=2, strategy=LEARNED_ROLLOUTS)
        rounds = 0
        for rec in iter_history(spec, include_legal=True):
            assert not R.replay(rec)
            rounds += 1
        assert rounds > 0
