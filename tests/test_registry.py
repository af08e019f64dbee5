"""The player registry: every registered player is two files and one registry line (the switch is made from it).

docs/architecture.md's recipe ("Add a player") says what a player is; these
checks fail when a registered player lacks one of its parts, when the switch
does not branch to every registered player's module, or when the parameter row's slots
are not the registry's numbering.
"""

from __future__ import annotations

import ast
import importlib
import inspect

import numpy as np
import pytest

from wizsim.engine import layout as L
from wizsim.engine.players import seats
from wizsim.players import strategies as S
from wizsim.players.base import Strategy

ENGINE_SIG = {
    "bid": ["turn", "named", "clairvoyant", "setup", "players", "dec_st", "seats", "view"],
    "card": ["turn", "trick", "legal", "setup", "players", "dec_st", "seats", "view", "net"],
}


def _signature(func) -> list[str]:
    return list(inspect.signature(func.py_func).parameters)


@pytest.mark.parametrize("player", L.REGISTRY, ids=lambda p: p.name)
def test_engine_module_has_fixed_entry_points_and_needs(player):
    module = importlib.import_module(f"wizsim.engine.players.{player.name}")
    for entry, params in ENGINE_SIG.items():
        assert _signature(getattr(module, entry)) == params, f"{player.name}.{entry}"
    assert isinstance(module.NEEDS, frozenset)


@pytest.mark.parametrize("player", L.REGISTRY, ids=lambda p: p.name)
def test_python_module_has_its_strategy(player):
    module = importlib.import_module(f"wizsim.players.{player.name}")
    cls = module.STRATEGY
    assert issubclass(cls, Strategy)
    strategy = cls(params={})
    assert strategy.name == player.name
    assert strategy.strategy_id == L.PLAYERS.index(player.name)
    assert S.STRATEGIES[player.name] is cls
    assert S.make_strategy(player.name) == strategy
    engine = importlib.import_module(f"wizsim.engine.players.{player.name}")
    assert engine.NEEDS <= strategy.needs() | {"bid_table", "network"}  # table(explore=1), pimc's rollouts drop these
    row = strategy.param_row()
    assert row.shape == (L.N_PARAMS,) and row[L.P_KIND] == strategy.strategy_id


def test_switch_is_made_from_the_registry():
    """seats.py's switch has one branch per registered player, calling that player's module, in registry order."""
    assert [m.__name__ for m in seats.PLAYER_MODULES] == [f"wizsim.engine.players.{p.name}" for p in L.REGISTRY]
    assert seats.VIEW_IDS == tuple(i for i, p in enumerate(L.REGISTRY) if "view" in seats.PLAYER_MODULES[i].NEEDS)
    assert set(seats.VIEW_IDS) == {L.S_PIMC, L.S_LEARNED}  # the two players that read the view of the table
    for func, entry in ((seats.player_bid, "bid"), (seats.player_card, "card")):
        source = inspect.getsource(func.py_func)
        calls = ast.parse(source).body[0]
        branches = {}
        for node in ast.walk(calls):
            if isinstance(node, ast.If):
                kind = node.test.comparators[0].value
                call = node.body[0].value
                branches[kind] = (call.func.value.id, call.func.attr)
        fallthrough = calls.body[-1].value
        branches[len(L.REGISTRY) - 1] = (fallthrough.func.value.id, fallthrough.func.attr)
        assert branches == {i: (f"player_{i}", entry) for i in range(len(L.REGISTRY))}
        # and each player_<i> the generated code calls is registry line i's module
        for i, module in enumerate(seats.PLAYER_MODULES):
            assert func.py_func.__globals__[f"player_{i}"] is module


def test_switch_source_grows_with_the_registry():
    """A registry line is all a new player needs in the switch: the source has its branch and its view test."""
    source = seats.switch_source(("a", "b", "c"), (2,))
    assert "if kind == 0:  # a\n        return player_0.bid(" in source
    assert "if kind == 1:  # b\n        return player_1.card(" in source
    assert "return player_2.card(turn, trick, legal, setup, players, dec_st, seats, view, net)  # c" in source
    assert "track |= strat[p] == 2\n" in source
    assert "track |= False" in seats.switch_source(("a",), ())
    namespace: dict = {}
    exec(source, namespace)  # the generated source is valid Python with the fixed signatures
    assert list(inspect.signature(namespace["player_bid"]).parameters) == ENGINE_SIG["bid"]
    assert list(inspect.signature(namespace["player_card"]).parameters) == ENGINE_SIG["card"]


def test_parameter_slots_are_numbered_from_the_blocks():
    columns = [v for k, v in L.SLOT.items() if not k.endswith(".end")]
    assert columns == list(range(L.N_PARAMS))  # every slot once, no gaps
    assert [block for block, _ in L.PARAM_BLOCKS] == [
        "heuristic",
        "decision",
        *(p.name for p in L.REGISTRY if p.params),
        "rule",
        "seat",
    ]
    # the named constants the kernels read are the registry's slots
    assert (L.TP_EXPLORE, L.TP_REFINE) == (L.SLOT["table.explore"], L.SLOT["table.refine"])
    assert L.P_SAMPLES == L.SLOT["pimc.samples"] and L.P_KIND == L.SLOT["pimc.kind"]
    assert L.B_RULE == L.SLOT["rule.rule"] and L.H_SPECIAL + L.N_SPECIALS == L.H_END
    assert L.number_slots((("a", ("x", "y")), ("b", ("z",)))) == {"a.x": 0, "a.y": 1, "a.end": 2, "b.z": 2, "b.end": 3}


def test_python_slots_follow_the_layout_names():
    row = S.make_strategy("heuristic(dragon=1.25,pass=random)").param_row()
    assert row[L.SLOT["heuristic.dragon"]] == 1.25
    assert row[L.SLOT["decision.pass"]] == L.DECIDE_RANDOM
    assert set(S.DECISIONS) == set(L.DECISION_SLOTS)
    row = S.make_strategy("table(explore=1,lead_trump=0)").param_row()
    assert row[L.TP_EXPLORE] == 1 and row[L.TP_REFINE] == L.REFINE_KEEP_JESTER
    assert np.all(S.make_strategy("random").param_row()[: L.H_END] == 0)


@pytest.mark.parametrize(
    "strategy",
    [*L.PLAYERS, "rule(scripts/my_rule_example.py:my_rule)", "pimc(rollout=4),random,random,random"],
)
def test_a_kernel_compiles_the_branch_of_every_player_it_seats(strategy):
    """The round kernels compile the switch of the players their switches admit (run.seated_ids): never fewer
    than the run seats, and a random-only run only random's branch."""
    from numba import typeof

    from wizsim.engine.run import seated_ids
    from wizsim.run.simulate import make_spec

    spec = make_spec(4, cards=3, hands=10, seed=1, strategy=strategy)
    setup, players = spec.kernel_args()
    ids = seated_ids(typeof(setup.feats))
    assert set(np.unique(players.strat).tolist()) <= set(ids), (strategy, ids)
    if strategy == "random":
        assert ids == (L.S_RANDOM,)
    if strategy in ("heuristic", "table"):
        assert L.S_PIMC not in ids and L.S_LEARNED not in ids
