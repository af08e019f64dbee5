"""Players by name: parse a strategy string (``heuristic(ruff=0.4)``, ``rule(file.py:f,play=pimc)``) into a Strategy.

A strategy compiles to an integer id plus a parameter row (:mod:`.base`);
each registered player's class lives in its own module (:mod:`.random`,
:mod:`.heuristic`, :mod:`.table`, :mod:`.pimc`, :mod:`.learned`; a user's
bid rule in :mod:`.rule`), found here through the engine's registry
(docs/architecture.md, "Add a player"). Each player's module describes how it
bids and plays; the decision overrides every player takes (``pass=random``, ...)
are described in :mod:`.base`.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from ..engine.layout import PLAYERS
from ..errors import WizsimError
from .base import DECIDERS, DECISIONS, Strategy, strategy_label
from .bid_rules import PLAYS, BidRule, load_rule
from .external import ExternalStrategy, external
from .heuristic import HEURISTIC_DEFAULTS, HeuristicStrategy
from .learned import LearnedStrategy
from .pimc import PIMC_DEFAULTS, ROLLOUTS, PimcStrategy
from .play_rule import PlayRuleStrategy
from .play_rules import ABSTAIN, PlayRule
from .random import RandomStrategy
from .rule import RuleStrategy
from .table import TABLE_REFINEMENTS, TableStrategy

__all__ = [
    "ABSTAIN",
    "PlayRuleStrategy",
    "play_rule",
    "DECIDERS",
    "ExternalStrategy",
    "DECISIONS",
    "HEURISTIC_DEFAULTS",
    "PIMC_DEFAULTS",
    "ROLLOUTS",
    "STRATEGIES",
    "TABLE_REFINEMENTS",
    "HeuristicStrategy",
    "LearnedStrategy",
    "PimcStrategy",
    "RandomStrategy",
    "RuleStrategy",
    "Strategy",
    "TableStrategy",
    "bid_rule",
    "external",
    "make_strategy",
    "seat_strategies",
    "split_top_level",
    "strategy_arrays",
    "strategy_label",
]


def bid_rule(
    func: Callable[..., Any] | BidRule | str, play: str | Strategy = "table", name: str | None = None
) -> RuleStrategy:
    """A strategy that bids by your function and plays like a built-in player.

    Parameters
    ----------
    func : callable, BidRule or str
        A function whose parameters are feature names (:data:`wizsim.players.bid_rules.FEATURES`)
        returning the bid, or ``"path/to/file.py:function"``.
    play : str or Strategy
        Who plays the cards and makes the other decisions: ``table`` (default),
        ``heuristic``, ``random``, ``learned`` or ``pimc`` (with parameters, e.g. ``pimc(samples=8)``).
    name : str, optional
        The rule's label in tables (default: the function's name, or the file spec).

    Returns
    -------
    RuleStrategy
        Goes wherever a strategy goes: simulate, tournament, advise, history.

    Raises
    ------
    WizsimError
        Unknown feature, a rule that does not compile, an unknown player.
    """
    if isinstance(func, BidRule):
        rule = func if name is None else BidRule(func.func, name, func.origin)
    elif isinstance(func, str):
        rule = load_rule(func, name)
    else:
        rule = BidRule(func, name)
    player = make_strategy(play)
    if isinstance(player, RuleStrategy):
        raise WizsimError("a bid rule's card play must be a built-in player, not another rule")
    base = player.name
    if base not in PLAYS:
        raise WizsimError(f"a bid rule plays like one of {', '.join(PLAYS)}; got {base!r}")
    play_label = strategy_label(player)
    label = f"rule({rule.label})" if play_label == "table" else f"rule({rule.label},play={play_label})"
    strategy = RuleStrategy(name=label, strategy_id=player.strategy_id, rule=rule, play=player)
    strategy.param_row()
    return strategy


def _parse_rule(inner: str) -> RuleStrategy:
    """``rule(path.py:func)`` or ``rule(path.py:func,play=heuristic)`` from the command line."""
    parts = split_top_level(inner)
    if not parts:
        raise WizsimError("rule() needs a file and a function: rule(path/to/file.py:function)")
    play = "table"
    for part in parts[1:]:
        key, eq, value = part.partition("=")
        if not eq or key.strip() != "play":
            raise WizsimError(f"rule parameter {part!r}: the only one is play=PLAYER (one of {', '.join(PLAYS)})")
        play = value.strip()
    return bid_rule(parts[0], play=play)


def play_rule(
    func: Callable[..., Any] | PlayRule | str,
    bid: str | Strategy = "learned",
    fallback: str | Strategy | None = None,
    name: str | None = None,
) -> PlayRuleStrategy:
    """A strategy that plays its cards by your scoring function and makes every other decision as a built-in player.

    Parameters
    ----------
    func : callable, PlayRule or str
        A function whose parameters are play-feature names (:data:`wizsim.players.play_rules.FEATURES`)
        returning the score of one legal (card, form) pair, or ``"path/to/file.py:function"``. The seat plays
        the highest score (ties: the lowest form code); ``ABSTAIN`` (-inf) for every card leaves the card to
        ``fallback``.
    bid : str or Strategy
        Who bids and makes the trump, Werewolf and pass decisions: ``learned`` (default), ``table``,
        ``heuristic``, ``random``, ``pimc(...)``, or a bid rule, ``"rule(file.py:f,play=learned)"`` (a
        :func:`bid_rule` strategy).
    fallback : str or Strategy, optional
        Who chooses the card where the rule abstains: the card player of ``bid`` (a seat has one built-in
        player; give a bid rule to bid otherwise, e.g. ``rule(f.py:g,play=learned)``).
    name : str, optional
        The rule's label (default: the function's name, or the file spec).

    Returns
    -------
    PlayRuleStrategy
        Goes wherever a strategy goes: simulate, tournament, advise, history.

    Raises
    ------
    WizsimError
        An unknown feature (nearest names suggested), a rule that does not compile or scores NaN, an unknown
        player, a fallback that is not ``bid``'s card player.
    """
    if isinstance(func, PlayRule):
        rule = func if name is None else PlayRule(func.func, name, func.origin, func.source)
    elif isinstance(func, str):
        rule = load_rule(func, name, cls=PlayRule, what="play")  # type: ignore[assignment]
    else:
        rule = PlayRule(func, name)
    bidder = make_strategy(bid)
    if isinstance(bidder, PlayRuleStrategy):
        raise WizsimError("a play rule's bids come from a built-in player or a bid rule, not another play rule")
    card_player = bidder.play if isinstance(bidder, RuleStrategy) else bidder
    if card_player is None or card_player.name not in PLAYS:
        raise WizsimError(f"a play rule's bids come from one of {', '.join(PLAYS)} or a bid rule; got {bid!r}")
    if fallback is not None:
        wanted = make_strategy(fallback)
        if strategy_label(wanted) != strategy_label(card_player):
            raise WizsimError(
                f"fallback {strategy_label(wanted)} differs from the bidder's card player {strategy_label(card_player)}:"
                f" a seat has one built-in player; to bid otherwise give a bid rule,"
                f" bid=rule(file.py:function,play={strategy_label(wanted)})"
            )
    bid_label = strategy_label(bidder)
    label = f"play({rule.label})" if bid_label == "learned" else f"play({rule.label},bid={bid_label})"
    strategy = PlayRuleStrategy(name=label, strategy_id=bidder.strategy_id, rule=rule, bid=bidder)
    strategy.param_row()
    return strategy


def _parse_play(inner: str) -> PlayRuleStrategy:
    """``play(path.py:func)``, ``play(path.py:func,bid=heuristic)``, ``play(path.py:func,bid=rule(g.py:f),
    fallback=table)`` from the command line."""
    parts = split_top_level(inner)
    if not parts:
        raise WizsimError("play() needs a file and a function: play(path/to/file.py:function,bid=learned)")
    options: dict[str, str] = {}
    for part in parts[1:]:
        key, eq, value = part.partition("=")
        if not eq or key.strip() not in ("bid", "fallback"):
            raise WizsimError(f"play parameter {part!r}: the parameters are bid=PLAYER and fallback=PLAYER")
        options[key.strip()] = value.strip()
    return play_rule(parts[0], bid=options.get("bid", "learned"), fallback=options.get("fallback"))


class StrategyClass(Protocol):
    """A strategy class of :data:`STRATEGIES`: made from its parameters alone (name and id are its defaults)."""

    def __call__(self, *, params: dict[str, str | float]) -> Strategy: ...


# One entry per registry line of the engine (wizsim.engine.layout.REGISTRY): wizsim/players/<name>.py's STRATEGY.
STRATEGIES: dict[str, StrategyClass] = {
    name: importlib.import_module(f"{__package__}.{name}").STRATEGY for name in PLAYERS
}


def make_strategy(spec: str | Strategy) -> Strategy:
    """Return a strategy from a name like ``heuristic`` or ``heuristic(ruff=0.4)``."""
    if isinstance(spec, Strategy):
        return spec
    text = str(spec).strip()
    if text.lower().startswith("rule(") and text.endswith(")"):
        return _parse_rule(text[5:-1])
    if text.lower().startswith("play(") and text.endswith(")"):
        return _parse_play(text[5:-1])
    if text.lower().startswith("py(") and text.endswith(")"):
        return external(text[3:-1])
    name = text
    params: dict[str, str | float] = {}
    if "(" in text:
        if not text.endswith(")"):
            raise WizsimError(f"malformed strategy {text!r}: write NAME or NAME(key=value,...)")
        name, inner = text[:-1].split("(", 1)
        raw_parts = [p.strip() for p in inner.split(";" if ";" in inner else ",")]
        if len(raw_parts) > 1 and not all(raw_parts):
            raise WizsimError(f"malformed strategy {text!r}: a parameter between separators is empty")
        for part in filter(None, raw_parts):
            if "=" not in part:
                raise WizsimError(f"malformed strategy parameter {part!r} in {text!r}: write key=value")
            key, value = (x.strip() for x in part.split("=", 1))
            if key in DECISIONS:
                params[key] = value.lower()
                continue
            try:
                number = float(value)
            except ValueError:
                raise WizsimError(f"strategy parameter {part!r} in {text!r} is not a number") from None
            if not math.isfinite(number):
                raise WizsimError(f"strategy parameter {part!r} in {text!r} must be a finite number")
            params[key] = number
    cls = STRATEGIES.get(name.strip().lower())
    if cls is None:
        raise WizsimError(
            f"unknown strategy {name!r}; known strategies: {', '.join(STRATEGIES)}, rule(path/to/file.py:function),"
            " play(path/to/file.py:function) or py(path/to/file.py:function)"
        )
    strategy = cls(params=params)
    strategy.param_row()  # validates parameters
    return strategy


def seat_strategies(spec: str | Strategy | list | tuple | None, players: int) -> list[Strategy]:
    """Return one strategy per seat from ``NAME`` or ``NAME,NAME,...`` (one per seat), or Strategy objects."""
    if spec is None:
        spec = "random"
    parts: list[str | Strategy]
    if isinstance(spec, str):
        parts = list(split_top_level(spec))
    elif isinstance(spec, Strategy):
        parts = [spec]
    else:
        parts = list(spec)
    if len(parts) == 1:
        parts = parts * players
    if len(parts) != players:
        raise WizsimError(
            f"{len(parts)} strategies given for {players} players; give one name for every seat or one per seat"
        )
    return [make_strategy(p) for p in parts]


def split_top_level(text: str) -> list[str]:
    """Split a list of strategies on the commas outside brackets: ``"pimc(samples=8,prune=1),random"``."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    if depth != 0:
        raise WizsimError(f"malformed strategies {text!r}: a bracket is not closed or not opened")
    if len(parts) > 1 and not all(p.strip() for p in parts):
        raise WizsimError(f"strategies {text!r}: an entry between commas is empty; remove the extra comma")
    return [p.strip() for p in parts if p.strip()]


def strategy_arrays(strategies: list[Strategy]) -> tuple[np.ndarray, np.ndarray]:
    """Return (ids int64[n], params float64[n, N_PARAMS]) for the kernels."""
    ids = np.array([s.strategy_id for s in strategies], dtype=np.int64)
    params = np.stack([s.param_row() for s in strategies]).astype(np.float64)
    return ids, params
