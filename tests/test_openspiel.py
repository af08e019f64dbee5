"""The OpenSpiel game ``python_wizsim`` (wizsim.env.openspiel): OpenSpiel's own checks, resampling, the engine's rules."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import wizsim.env.openspiel as wo  # noqa: E402
from wizsim.engine import layout as L  # noqa: E402
from wizsim.env.replay import Replay  # noqa: E402
from wizsim.errors import WizsimError  # noqa: E402

CONFIGS = [
    {},
    {"specials": "all"},
    {"players": 3, "cards": 6, "specials": "all", "rules": "werewolf=may,hidden_bids=secret"},
    {"players": 5, "cards": 4, "specials": "juggler,werewolf,cloud", "rules": "hidden_bids=simultaneous"},
    {"players": 6, "cards": 3, "rules": "canadian=true", "dealer": 4},
    {
        "players": 4,
        "cards": 5,
        "specials": "bomb,fairy,dragon,shapeshifter",
        "rules": "bomb=cancel_bids,scoring=progressive",
    },
    {"players": 3, "cards": 20},  # every card dealt: nothing turned up
    {"players": 4, "cards": 4, "rules": "wizard_indicator=no_trump,passive_indicator=no_trump", "specials": "all"},
]


def deal(game, rng):
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    return state


@pytest.mark.parametrize("params", CONFIGS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "base")
def test_random_sim_test(params):
    game = pyspiel.load_game("python_wizsim", params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


@pytest.mark.parametrize("params", CONFIGS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "base")
def test_resampled_states_have_the_same_information_state(params):
    """Every decision of two random rounds, every seat, twice: the same information state, the same seat to move
    and (for it) the same legal actions, a history OpenSpiel can read, and other cards than the truth."""
    game = pyspiel.load_game("python_wizsim", params)
    core = wo.core_of(game)
    core.resample_fallbacks = 0
    rng = np.random.default_rng(3)
    sampler = pyspiel.UniformProbabilitySampler(11, 0.0, 1.0)
    resamples = differ = 0
    for _ in range(2):
        state = deal(game, rng)
        while not state.is_terminal():
            for p in range(game.num_players()):
                for _ in range(2):
                    r = state.resample_from_infostate(p, sampler)
                    resamples += 1
                    assert r.information_state_string(p) == state.information_state_string(p)
                    assert r.observation_string(p) == state.observation_string(p)
                    assert r.current_player() == state.current_player()
                    assert (r.hands[p] == state.hands[p]).all()
                    if p == state.current_player():
                        assert r.legal_actions() == state.legal_actions()
                    assert len(r.history()) >= game.get_parameters()["cards"] * game.num_players()
                    differ += int(not np.array_equal(r.hands, state.hands))
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert core.resample_fallbacks == 0
    assert differ > 0.8 * resamples  # the hidden cards are drawn, not copied from the truth


def test_a_resampled_state_plays_on():
    """A resampled state is a state like any other: clone it, play it to the end, read its scores."""
    game = pyspiel.load_game("python_wizsim", {"specials": "all"})
    rng = np.random.default_rng(5)
    state = deal(game, rng)
    for _ in range(9):
        state.apply_action(int(rng.choice(state.legal_actions())))
    r = state.resample_from_infostate(state.current_player(), pyspiel.UniformProbabilitySampler(2, 0.0, 1.0))
    c = r.clone()
    while not c.is_terminal():
        c.apply_action(int(rng.choice(c.legal_actions())))
    assert c.is_terminal() and not r.is_terminal()
    table = Replay(4, 10, [None] * 4, specials="all")
    assert table.start_fixed(c.hands, c.indicator, 0, 0, c.actions) is None  # every action legal in its deal
    assert c.returns() == [float(x) for x in table.records.scores[0, :4]]
    assert len(c.history()) == 41 + len(c.actions)  # the deal's outcomes and the decisions


def test_the_engine_plays_the_rounds():
    """With built-in players in every seat the game plays the engine's round on the same cards, score for score."""
    game = pyspiel.load_game("python_wizsim", {"specials": "all", "dealer": 2})
    rng = np.random.default_rng(8)
    for _ in range(4):
        state = deal(game, rng)
        hands, indicator = state.hands.copy(), state.indicator
        while not state.is_terminal():
            action = wo.builtin_action(state, "heuristic")
            assert action in state.legal_actions()
            state.apply_action(action)
        table = Replay(4, 10, ["heuristic"] * 4, specials="all")
        assert table.start_fixed(hands, indicator, dealer=2) is None
        assert state.returns() == [float(x) for x in table.records.scores[0, :4]]


def test_a_fixed_deal_replays_the_seeds_round():
    """start_fixed with a seed's dealt hands and actions plays that round again: the same bids, plays and scores."""
    for specials in (None, "all"):
        for seed in range(3):
            seats = [None, "heuristic", "heuristic", "heuristic"]
            r = Replay(4, 10, seats, specials=specials)
            pend = r.start(seed, dealer=seed % 4)
            while pend is not None:
                pend = r.act(pend.legal[-1])
            rec = r.records
            hands = np.zeros((4, 64), dtype=np.int64)
            for q in range(4):
                np.add.at(hands[q], rec.hands[0, q, :10], 1)
            again = Replay(4, 10, seats, specials=specials)
            assert (
                again.start_fixed(hands, int(rec.indicator[0]), dealer=seed % 4, seed=seed, actions=r.actions) is None
            )
            for name in ("bids", "plays", "leaders", "tricks_won", "scores", "indicator", "trump"):
                assert np.array_equal(getattr(rec, name), getattr(again.records, name)), name


def test_an_action_the_deal_cannot_take_is_an_error():
    game = pyspiel.load_game("python_wizsim", {})
    state = deal(game, np.random.default_rng(1))
    core = wo.core_of(game)
    p = state.current_player()
    for a in range(4):  # bids: every seat bids; then seat p's first card, which it does not hold
        state.apply_action(a % 3)
    absent = next(c for c in range(52) if state.hands[state.current_player(), c] == 0)
    with pytest.raises(WizsimError, match="action 4 .* is not legal"):
        core.table.start_fixed(state.hands, state.indicator, 0, 0, [*state.actions, absent])
    assert core.table.bad_action == 4 and p == 1


def test_refused_variants_and_bad_parameters():
    for rules in ("variant=clairvoyance", "variant=mono"):
        with pytest.raises(WizsimError, match="is refused"):
            wo.WizsimGame({"rules": rules})
    with pytest.raises(WizsimError, match="dealer 5 is not a seat"):
        wo.WizsimGame({"dealer": 5})


def test_ismcts_runs_on_the_game():
    """OpenSpiel's Python ISMCTS plays a round (its root check: every resampled state has the root's key)."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_wizsim", {"players": 3, "cards": 3, "specials": "all", "rules": "werewolf=may"})
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 40.0, max_simulations=8, random_state=rs)
    sampler = pyspiel.UniformProbabilitySampler(3, 0.0, 1.0)
    bot.set_resampler(lambda s, p: s.resample_from_infostate(p, sampler))
    for seed in range(3):
        state = deal(game, np.random.default_rng(seed))
        while not state.is_terminal():
            if state.current_player() == 0:
                state.apply_action(int(bot.step(state)))
            else:
                state.apply_action(wo.builtin_action(state, "pimc"))
    assert wo.core_of(game).resample_fallbacks == 0
    assert L.X_BAD < L.X_ACTIONS
