"""The player registry: every registered player is two files, one registry line and its branches in the switch.

docs/architecture.md's recipe ("Add a player") says what a player is; these
checks fail when a registered player lacks one of its parts, when the switch
branches on an id that is not registered, or when the parameter row's slots
are not the registry's numbering.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

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


def _branches(func_name: str) -> list[tuple[str, str]]:
    """(S_* id compared with, module alias called) for every branch of ``func_name`` in seats.py."""
    tree = ast.parse(Path(seats.__file__).read_text())
    func = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == func_name)
    found = []
    for node in ast.walk(func):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Compare):
            ids = [c.id for c in node.test.comparators if isinstance(c, ast.Name) and c.id.startswith("S_")]
            calls = [
                c.func.value.id
                for stmt in node.body
                for c in ast.walk(stmt)
                if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and isinstance(c.func.value, ast.Name)
            ]
            if ids and calls:
                found.append((ids[0], calls[0]))
    return found


def _alias_modules() -> dict[str, str]:
    """Module alias in seats.py -> the player module it names."""
    tree = ast.parse(Path(seats.__file__).read_text())
    out = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module is None:
            for alias in node.names:
                out[alias.asname or alias.name] = alias.name
    return out


@pytest.mark.parametrize(("func_name", "entry"), [("seat_bid", "bid"), ("seat_card", "card")])
def test_every_registered_player_has_its_branch(func_name, entry):
    modules = _alias_modules()
    branches = {ident: modules[alias] for ident, alias in _branches(func_name)}
    source = inspect.getsource(getattr(seats, func_name).py_func)
    # the last player is the final ``else``/fall-through: it is called by its entry point without a test
    last = L.PLAYERS[-1]
    assert f"{[a for a, m in modules.items() if m == last][0]}.{entry}(" in source
    for name in L.PLAYERS[:-1]:
        ident = f"S_{name.upper()}"
        assert branches.get(ident) == name, f"{func_name} has no branch {ident} -> {name}.{entry}"
    assert set(branches) <= {f"S_{name.upper()}" for name in L.PLAYERS}


def test_parameter_slots_are_numbered_from_the_blocks():
    columns = [v for k, v in L.SLOT.items() if not k.endswith(".end")]
    assert columns == list(range(L.N_PARAMS))  # every slot once, no gaps
    assert [block for block, _ in L.PARAM_BLOCKS] == [
        "heuristic",
        "decision",
        *(p.name for p in L.REGISTRY if p.params),
        "rule",
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
