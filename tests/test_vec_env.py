"""The batched environment (wizsim.env.VecWizardEnv): each table plays the engine's round, as WizardEnv does."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from wizsim.engine.vec import S_DEAL0, S_DEC0, V_DEALER  # noqa: E402
from wizsim.env import WizardEnv  # noqa: E402
from wizsim.env.vec import VecWizardEnv  # noqa: E402
from wizsim.errors import WizsimError  # noqa: E402
from wizsim.players.bid_rules import BidRule  # noqa: E402
from wizsim.players.play_rules import PlayRule  # noqa: E402
from wizsim.players.strategies import bid_rule, play_rule  # noqa: E402

ALL = "all"
# (players, cards, specials, rules, learner seats): all seven specials (one compiled kernel: the suite's time),
# every rule option a round has; the base deck's rounds are the same code with fewer card kinds
TABLES = [
    (4, 5, ALL, ["canadian=true"], (0,)),
    (3, 6, ALL, ["werewolf=may"], (0, 2)),
    (4, 6, ALL, ["bomb=cancel_bids", "hidden_bids=secret"], (1,)),
    (6, 3, ALL, ["hidden_bids=simultaneous"], (0, 3)),
    (4, 4, ALL, ["scoring=progressive", "wizard_indicator=no_trump", "passive_indicator=no_trump"], (0, 1, 2, 3)),
    (4, 3, ALL, ["variant=clairvoyance"], (2,)),
]


def hashed_action(obs_vector, mask):
    """A choice that depends on the whole observation: two differing views play differently."""
    legal = np.flatnonzero(mask)
    return int(legal[int(np.abs(obs_vector).sum()) % len(legal)])


@pytest.mark.parametrize("t", TABLES, ids=lambda t: f"{t[0]}p{t[1]}-{t[2] or 'base'}-{'+'.join(t[3])}-{t[4]}")
def test_each_table_plays_the_engines_round_as_the_environment_does(t):
    """Every table's round, replayed in WizardEnv from the same deal and decision streams and dealer: the same
    observation and mask at each learner decision, the same scores, round after round."""
    replayed(*t, opponent="heuristic")


def test_a_play_rule_opponent_plays_as_in_the_environment():
    """A user's play rule (heuristic bids) at the other seats, all seven specials: the same replay check."""
    replayed(4, 6, ALL, [], (1,), opponent="play(wizsim.players.play_habits:linear_play_example,bid=heuristic)")


def test_every_kind_of_opponent_plays_as_in_the_environment():
    """The table player, the random player and a bid rule beside the learner, all seven specials (the kernel is
    compiled without reference counts: each player's code must compile and play there as in the engine)."""
    rule = bid_rule(BidRule(lambda heuristic_bid, cards: min(heuristic_bid + 1, cards), label="plus_one"),
                    play="heuristic")  # fmt: skip
    replayed(4, 5, ALL, [], None, opponent={1: "table", 2: "random", 3: rule})


def test_a_user_rules_bad_value_is_one_clear_error_and_the_tables_need_a_reset():
    """All seven specials, as the rule opponents above: the same compiled kernel (the suite's time)."""

    def play_until_stopped(venv):
        obs, mask = venv.reset(seed=1)
        for _ in range(4 * 8):
            obs, mask, *_ = venv.step(mask.argmax(axis=1))

    over = bid_rule(BidRule(lambda cards: cards + 3, label="over"), play="heuristic")
    venv = VecWizardEnv(2, players=3, cards=3, seats=[None, over, "heuristic"], specials=ALL)
    with pytest.raises(WizsimError, match=r"bid rule over returned 6 in a 3-card round"):
        play_until_stopped(venv)
    with pytest.raises(WizsimError, match="call reset"):
        venv.step(np.zeros(2, dtype=np.int64))
    late = play_rule(PlayRule(lambda trick: math.nan if trick == 1 else 0.0, "late"), bid="heuristic")
    venv = VecWizardEnv(2, players=3, cards=3, seats=[None, late, "heuristic"], specials=ALL)
    with pytest.raises(WizsimError, match=r"play rule late scored .* NaN"):
        play_until_stopped(venv)


def replayed(players, cards, specials, rules, learners, opponent):
    if isinstance(opponent, dict):  # a player per seat; the others are the learner's
        seats = [opponent.get(p) for p in range(players)]
    else:
        seats = [None if p in learners else opponent for p in range(players)]
    learners = tuple(p for p, s in enumerate(seats) if s is None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        venv = VecWizardEnv(3, players=players, cards=cards, seats=seats, specials=specials, rules=rules)
        env = WizardEnv(players=players, cards=cards, specials=specials, rules=rules,
                        opponents={p: s for p, s in enumerate(seats) if s is not None})  # fmt: skip
    obs, mask = venv.reset(seed=5)
    seats_now = venv.seats.copy()
    rounds: list[list[dict]] = [[] for _ in range(3)]

    def start(i):
        st = venv._state
        streams = np.array([st.streams[i, S_DEAL0], st.streams[i, S_DEC0]], dtype=np.uint64)
        rounds[i].append({"streams": streams, "dealer": int(st.ints[i, V_DEALER]), "steps": [], "rewards": None})

    for i in range(3):
        start(i)
    for _ in range(4 * (cards + 1) * len(learners)):  # four rounds at each table, or almost
        actions = np.array([hashed_action(obs[i], mask[i]) for i in range(3)])
        for i in range(3):
            rounds[i][-1]["steps"].append((obs[i].copy(), mask[i].copy(), int(actions[i]), int(seats_now[i])))
        obs, mask, rewards, dones, seats_now = venv.step(actions)
        seats_now = seats_now.copy()
        for i in np.flatnonzero(dones):
            rounds[i][-1]["rewards"] = rewards[i].copy()
            start(i)
    checked = 0
    for i in range(3):
        for r in rounds[i][:-1]:  # every finished round, replayed in the environment from its streams
            env.reset(seed=0, options={"dealer": r["dealer"]})
            env.table.start(0, r["dealer"], r["streams"])
            env._settle()
            for vec_obs, vec_mask, action, seat in r["steps"]:
                agent = env.agent_selection
                assert agent == f"player_{seat}"  # the same seat decides
                want = env.observe(agent)
                assert np.array_equal(vec_obs.astype(np.float32), want["vector"])
                assert np.array_equal(vec_mask, want["action_mask"])
                env.step(action)
            assert all(env.terminations.values())
            assert list(r["rewards"]) == env.history()[0]["scores"]
            checked += 1
    assert checked >= 9


def test_first_legal_learner_scores_as_the_same_agent_seated_in_a_simulation():
    """The learner taking the first legal action against three heuristic players, all seven specials: its mean
    score over thousands of rounds agrees with the same agent seated by the engine (other deals, same rules)."""
    from wizsim.players.strategies import external
    from wizsim.run.history import record_chunk_arrays
    from wizsim.run.spec import make_spec

    def first_legal(observation, action_mask):
        return int(np.flatnonzero(action_mask)[0])

    venv = VecWizardEnv(256, players=4, cards=10, specials=ALL)
    obs, mask = venv.reset(seed=3)
    scores = []
    for _ in range(11 * 16):
        obs, mask, rewards, dones, seats = venv.step(mask.argmax(axis=1))
        assert (seats == 0).all()
        scores.extend(rewards[dones, 0].tolist())
    spec = make_spec(4, cards=10, hands=4000, seed=8, strategy=[external(first_legal)] + ["heuristic"] * 3,
                     specials=ALL)  # fmt: skip
    _, rec = record_chunk_arrays(spec, 0)
    seated = rec.scores[:, 0]
    assert len(scores) >= 256 * 12 and len(seated) == 4000
    se = np.sqrt(np.var(scores) / len(scores) + np.var(seated) / len(seated))
    assert abs(np.mean(scores) - np.mean(seated)) < 3 * se, (np.mean(scores), np.mean(seated), se)
    assert np.mean(seated) < -10  # the first legal action bids 0 and loses: a real difference from the heuristic


def test_bad_input_is_one_clear_error_and_no_table_moves():
    venv = VecWizardEnv(4, players=4, cards=5, specials=ALL)
    with pytest.raises(WizsimError, match="call reset"):
        venv.step(np.zeros(4, dtype=np.int64))
    obs, mask = venv.reset(seed=1)
    before = obs.copy()
    actions = mask.argmax(axis=1)
    actions[2] = 6  # a card (the bids are 0..5)
    with pytest.raises(WizsimError, match=r"table 2, seat 0: action 6 \(card B1\) is not legal; legal: 0 \(bid 0\)"):
        venv.step(actions)
    assert np.array_equal(obs, before)
    venv.step(mask.argmax(axis=1))  # no table moved: the tables play on
    with pytest.raises(WizsimError, match=r"one integer action per table: an array of shape \(4,\)"):
        venv.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(WizsimError, match="keeps a view of the round"):
        VecWizardEnv(2, players=4, cards=5, seats=[None, "learned", "heuristic", "heuristic"])
    with pytest.raises(WizsimError, match="one-round tables: give cards"):
        VecWizardEnv(2, players=4, cards=None)
    with pytest.raises(WizsimError, match="leave at least one seat"):
        VecWizardEnv(2, players=3, cards=5, seats=["heuristic"] * 3)
