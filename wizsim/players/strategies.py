"""Players: named, parameterised strategies that compile to an integer id plus a parameter row.

The kernels dispatch on ``STRATEGY_ID`` and read the strategy's parameters
from a float64 row, so a strategy is data to them. To add a strategy, add a
class here with a new id (``engine/layout.py``) and its decisions in ``engine/players/``.

``random``
    A uniformly random legal bid, a uniformly random legal card (uniform over
    the distinct legal cards: holding two Wizards and R5 it plays W or R5 with
    probability 1/2 each), a uniformly random suit when it names trump. Every
    special-card decision is uniform too: a Juggler's or Cloud's suit (of 4),
    a Shapeshifter's role (of 2), the Werewolf swap under ``werewolf=may``
    (1/2) and its trump (4 suits or none), the card passed after a Juggler.
``table``
    Bids by maximising the mean score learned by simulation for hands like
    this one; plays like ``heuristic`` with two refinements: with its bid made
    it leads its lowest trump that can still lose, and when it cannot win a
    trick it needs it keeps its Jesters (see :class:`TableStrategy`).
``pimc``
    Perfect-Information Monte-Carlo bids and card play (see :class:`PimcStrategy`).
``heuristic``
    A club player. Bids the rounded sum of per-card trick estimates (Wizards,
    trumps by rank, high side cards, discounted for more players and longer
    rounds, plus ruffing chances from short side suits), stepping to the
    nearer allowed bid under the Canadian rule. Plays to make the bid
    exactly: while it needs tricks it wins as cheaply as it can (the cheapest
    winning card when last to play, otherwise the cheapest card that no unseen
    card of the suit can beat, else a Wizard), and sheds its lowest card when it
    cannot win; once it has enough it ducks with its most dangerous losing card,
    keeping Jesters for emergencies. Names the suit its hand is strongest in.
    Special cards: Dragon, Juggler, Cloud and Shapeshifter add to the bid
    estimate; a Juggler or Cloud is played in trump (or the led suit) to win
    and in a side suit to lose, a Shapeshifter as Wizard to win and as Jester
    to lose; a Fairy takes a Dragon's trick when it can; a trick with a Bomb
    counts for nobody, so it is a safe place to shed a dangerous card; after a
    Juggler trick it passes its weakest card while it needs tricks and its most
    dangerous one once it has enough; it always swaps the Werewolf and names
    its strongest suit (no trump if no suit is worth it).

Every special-card decision can be overridden per seat with a decision
parameter: ``heuristic(pass=random)``, ``random(form=heuristic)``; the keys
are ``trump``, ``swap`` (the Werewolf), ``form`` and ``pass``, the values ``own``,
``random`` and ``heuristic``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from ..engine import layout as L
from ..engine.layout import (  # the parameter blocks of a seat's row
    D_FORM,
    D_PASS,
    D_TRUMP,
    D_WEREWOLF,
    DECIDE_HEURISTIC,
    DECIDE_OWN,
    DECIDE_RANDOM,
    H_BID_SHIFT,
    H_LENGTH_DECAY,
    H_NT_ACE,
    H_PLAYER_DECAY,
    H_RUFF,
    H_SIDE_ACE,
    H_SIDE_DROP,
    H_SIDE_SECOND,
    H_SPECIAL,
    H_TRUMP_FLOOR,
    H_TRUMP_SLOPE,
    H_TRUMP_TOP,
    H_WIZARD,
    N_PARAMS,
    P_BID_SAMPLES,
    P_INFER,
    P_KIND,
    P_PRUNE,
    P_ROLLOUT,
    P_SAMPLES,
    REFINE_KEEP_JESTER,
    REFINE_LEAD_TRUMP,
    S_HEURISTIC,
    S_LEARNED,
    S_PIMC,
    S_RANDOM,
    S_TABLE,
    SPECIAL_NAMES,
    TP_EXPLORE,
    TP_REFINE,
)
from ..errors import WizsimError
from .bid_rules import PLAYS, BidRule, load_rule

# Decision overrides, for every strategy: which rule makes each special-card decision.
DECISIONS = {
    "trump": D_TRUMP,  # the dealer names trump after a Wizard or special indicator
    "swap": D_WEREWOLF,  # the Werewolf: swap it (werewolf=may) and name trump
    "form": D_FORM,  # the suit of a Juggler or Cloud, the role of a Shapeshifter
    "pass": D_PASS,  # the card passed after a Juggler trick
}
DECIDERS = {"own": DECIDE_OWN, "random": DECIDE_RANDOM, "heuristic": DECIDE_HEURISTIC}


@dataclass(frozen=True)
class Strategy:
    """A named player; ``strategy_id`` selects its decision code in the kernels."""

    name: str
    strategy_id: int
    params: dict = field(default_factory=dict)

    def needs(self) -> frozenset[str]:
        """What a seat of this player needs from the round beyond the deal, which decides what a run compiles
        and loads (:meth:`wizsim.run.spec.RunSpec.kernel_args`): ``heuristic`` (its estimate and card play),
        ``bid_table`` (the table player's learned bid values), ``pimc`` (pimc's search), ``learned`` (the
        learned card player), ``network`` (the learned player's card network), ``view`` (the round's view of
        the cards played, voids and known cards, :mod:`wizsim.engine.players.pimc_view`)."""
        return frozenset()

    def param_row(self) -> np.ndarray:
        """Return the float64 parameter row the kernels read (a subclass fills its own slots in ``_row``)."""
        row = self._row()
        row[P_KIND] = self.strategy_id  # whom pimc's rollouts play this seat as (rollout=4)
        return row

    def _row(self) -> np.ndarray:
        row = np.zeros(N_PARAMS, dtype=np.float64)
        for key in self.params:
            if key not in DECISIONS:
                raise WizsimError(
                    f"unknown parameter {key!r} for strategy {self.name}; decisions: {', '.join(DECISIONS)}"
                )
        self._fill_decisions(row)
        return row

    def _fill_decisions(self, row: np.ndarray) -> None:
        for key, slot in DECISIONS.items():
            value = self.params.get(key, "own")
            if value not in DECIDERS:
                raise WizsimError(
                    f"decision {key}={value!r} for strategy {self.name}: use one of {', '.join(DECIDERS)}"
                )
            row[slot] = DECIDERS[value]


@dataclass(frozen=True)
class RandomStrategy(Strategy):
    """Uniformly random legal decisions."""

    name: str = "random"
    strategy_id: int = S_RANDOM


# Tuned by scripts/tune_heuristic.py (--games 2000 --passes 3, seed 777): self-play
# points per round over 3-6 players rose from 9.92 to 15.73 on a fresh seed (31337).
HEURISTIC_DEFAULTS = {
    "wizard": 0.86,
    "trump_top": 0.9433,
    "trump_slope": 0.055,
    "trump_floor": 0.1,
    "side_ace": 0.525,
    "side_drop": 0.7,
    "player_decay": 0.25,
    "length_decay": -0.025,
    "ruff": 0.05,
    "bid_shift": -0.075,
    "nt_ace": 1.2,
    "side_second": 0.95,
    # special cards (not tuned yet): expected tricks of each when bidding
    "dragon": 0.95,
    "fairy": 0.05,
    "bomb": 0.0,
    "werewolf": 0.0,
    "juggler": 0.35,
    "cloud": 0.45,
    "shapeshifter": 0.75,
}
_HEURISTIC_SLOTS = {
    "wizard": H_WIZARD,
    "trump_top": H_TRUMP_TOP,
    "trump_slope": H_TRUMP_SLOPE,
    "trump_floor": H_TRUMP_FLOOR,
    "side_ace": H_SIDE_ACE,
    "side_drop": H_SIDE_DROP,
    "player_decay": H_PLAYER_DECAY,
    "length_decay": H_LENGTH_DECAY,
    "ruff": H_RUFF,
    "bid_shift": H_BID_SHIFT,
    "nt_ace": H_NT_ACE,
    "side_second": H_SIDE_SECOND,
    # every special card of the layout has a slot; a card without a default is worth 0 tricks when bidding
    **{name.lower(): H_SPECIAL + i for i, name in enumerate(SPECIAL_NAMES)},
}
for _name in _HEURISTIC_SLOTS:
    HEURISTIC_DEFAULTS.setdefault(_name, 0.0)


@dataclass(frozen=True)
class HeuristicStrategy(Strategy):
    """Rule-of-thumb bidding and bid-directed card play (see module docstring)."""

    name: str = "heuristic"
    strategy_id: int = S_HEURISTIC

    def needs(self) -> frozenset[str]:
        return frozenset({"heuristic"})

    def _row(self) -> np.ndarray:
        row = np.zeros(N_PARAMS, dtype=np.float64)
        values = dict(HEURISTIC_DEFAULTS)
        for key, value in self.params.items():
            if key in DECISIONS:
                continue
            if key not in _HEURISTIC_SLOTS:
                raise WizsimError(
                    f"unknown heuristic parameter {key!r}; known: {', '.join(_HEURISTIC_SLOTS)},"
                    f" and decisions {', '.join(DECISIONS)}"
                )
            if not isinstance(value, float):
                raise WizsimError(f"heuristic parameter {key}={value!r} must be a number")
            values[key] = value
        for key, slot in _HEURISTIC_SLOTS.items():
            row[slot] = values[key]
        self._fill_decisions(row)
        return row


TABLE_REFINEMENTS = {"lead_trump": REFINE_LEAD_TRUMP, "keep_jester": REFINE_KEEP_JESTER}  # parameter -> bit


@dataclass(frozen=True)
class TableStrategy(HeuristicStrategy):
    """Bids from learned mean scores (``wizsim/data/bid_table.npz``), plays like a refined ``heuristic``.

    The heuristic's estimate of the hand (its parameters apply) picks a row of
    the table by players, round size, position, estimate (in quarter tricks)
    and whether the earlier bids were low, normal or high; the row holds the
    mean score, measured by simulation, of bidding the heuristic's bid plus
    -2..+2. It bids the best of those (never the Canadian rule's forbidden
    bid). ``table(explore=1)`` bids the heuristic's bid plus a uniformly
    random step instead: the training mode of ``scripts/train_bid_table.py``.

    It plays like the heuristic with two refinements, each on by default
    (``table(lead_trump=0,keep_jester=0)`` plays exactly like ``heuristic``):
    ``lead_trump``: on lead with its bid made, it leads its lowest trump that
    an unseen trump still beats, before any side card, to shed the card most
    likely to take an unwanted trick later. ``keep_jester``: needing tricks
    but unable to win the trick, it sheds its lowest side card and keeps its
    Jesters (and Jester-like cards) as sure losers for later. Watching where
    ``pimc`` plays differently found both; each is worth about 2 points per
    round in 4 x 10.
    """

    name: str = "table"
    strategy_id: int = S_TABLE

    def needs(self) -> frozenset[str]:
        # exploring (training) bids step off the heuristic's bid at random, not from the table
        return frozenset({"heuristic"} if self.params.get("explore") else {"heuristic", "bid_table"})

    def _row(self) -> np.ndarray:
        explore = self.params.get("explore", 0.0)
        if explore not in (0.0, 1.0):
            raise WizsimError(f"table parameter explore={explore!r} must be 0 or 1")
        refine = 0
        for key, bit in TABLE_REFINEMENTS.items():
            on = self.params.get(key, 1.0)
            if on not in (0.0, 1.0):
                raise WizsimError(f"table parameter {key}={on!r} must be 0 or 1")
            refine |= bit if on else 0
        own = ("explore", *TABLE_REFINEMENTS)
        row = HeuristicStrategy(params={k: v for k, v in self.params.items() if k not in own}).param_row()
        row[TP_EXPLORE] = explore
        row[TP_REFINE] = refine
        return row


ROLLOUTS = (L.ROLLOUT_HEURISTIC, L.ROLLOUT_RANDOM, L.ROLLOUT_TABLE, L.ROLLOUT_LEARNED, L.ROLLOUT_SEATS)
PIMC_DEFAULTS = {"samples": 32.0, "bid_samples": 32.0, "rollout": float(L.ROLLOUT_SEATS), "prune": 2.0, "infer": 0.0}


@dataclass(frozen=True)
class PimcStrategy(HeuristicStrategy):
    """Perfect-Information Monte-Carlo: decisions by playing sampled deals out.

    At every card decision with a choice it deals the cards it cannot see
    ``samples`` times consistently with what it knows (its hand, the cards
    played, the face-up card, the suits the others have shown out of, their
    hand sizes, the indicator a Werewolf took, the card it passed after a
    Juggler trick), plays each candidate (each
    legal card; a Juggler, Cloud or Shapeshifter in its winning and its
    losing form) out in every deal with the ``rollout`` policy for everyone
    (0 = heuristic, 1 = random, 2 = the ``table`` player's refined play, 3 = the
    ``learned`` player's card network, 4 = each seat as its own strategy plays,
    pimc and learned seats by that network), and plays the candidate with the best mean
    own score. Equivalent cards (neighbours in a suit with nothing unseen
    between them) count as one candidate; a single candidate is played at
    once. It bids the same way: ``bid_samples`` deals, each bid within 2 of
    the ``table`` player's bid played out (later bidders bid the heuristic's
    estimate of their sampled hands); ``bid_samples=0`` bids like ``table``.
    Other special-card decisions (trump, Werewolf, passes) are the
    heuristic's.

    ``prune`` (default 2; 0 = off: every candidate in every deal) races
    the candidates, cards or bids: every 8 deals, a candidate whose paired
    score differences to the current best have a positive mean more than
    ``prune`` standard errors from zero (or that is worse by the same margin
    in every deal so far) is dropped; the others go on to all the deals,
    and once one is left it is played at once. With heuristic rollouts the
    bids share rollouts exactly (see ``_pimc_bid``).

    ``infer`` (a spread in tricks; 0 = off) weights every sampled deal by
    how well it explains the bids: prod over the others of
    exp(-(bid - est)^2 / (2 infer^2)), est the heuristic's estimate of the
    hand the deal gives them (plus the cards they have played), rounded to
    an integer weight 1..64. Under secret hidden bids the others' bids are
    never used: in each deal they are the rounded estimates; under any hidden
    bids the earlier bids are not used for bidding.
    """

    name: str = "pimc"
    strategy_id: int = S_PIMC

    def needs(self) -> frozenset[str]:
        rollout = float(self.params.get("rollout", PIMC_DEFAULTS["rollout"]))
        learned = rollout in (L.ROLLOUT_LEARNED, L.ROLLOUT_SEATS)  # rollouts that play the card network
        return frozenset({"heuristic", "bid_table", "pimc", "view", *(("network",) if learned else ())})

    def _row(self) -> np.ndarray:
        own = {k: v for k, v in self.params.items() if k in PIMC_DEFAULTS}
        values = {**PIMC_DEFAULTS, **own}
        if values["rollout"] not in ROLLOUTS:
            raise WizsimError(
                f"pimc parameter rollout={values['rollout']!r} must be 0 (heuristic), 1 (random), 2 (table's play),"
                " 3 (learned's play) or 4 (each seat as its strategy plays)"
            )
        for key in ("samples", "bid_samples"):
            v = values[key]
            if v != int(v) or not 0 <= v <= 100_000 or (key == "samples" and v < 1):
                raise WizsimError(f"pimc parameter {key}={v!r} must be a whole number (samples >= 1)")
        if not (values["infer"] == 0 or 0.05 <= values["infer"] <= 100):
            raise WizsimError(
                f"pimc parameter infer={values['infer']!r} must be 0 (off) or a spread in tricks from 0.05 to 100"
            )
        if not 0 <= values["prune"] <= 1000:
            raise WizsimError(
                f"pimc parameter prune={values['prune']!r} must be a number of standard errors from 0 to 1000 (0 = off)"
            )
        row = HeuristicStrategy(params={k: v for k, v in self.params.items() if k not in PIMC_DEFAULTS}).param_row()
        row[P_SAMPLES] = values["samples"]
        row[P_BID_SAMPLES] = values["bid_samples"]
        row[P_ROLLOUT] = values["rollout"]
        row[P_PRUNE] = values["prune"]
        row[P_INFER] = values["infer"]
        return row


@dataclass(frozen=True)
class LearnedStrategy(TableStrategy):
    """Bids and card play by two small networks fitted to ``pimc``'s values.

    At every card decision with a choice, each candidate (the legal cards,
    equivalent neighbours once; a Juggler, Cloud or Shapeshifter in its
    winning and its losing form) is scored by a network
    (``wizsim/data/learned.npz``, fitted by ``scripts/train_learned.py`` to
    pimc's mean round score of each candidate in pimc's own games) and the
    best is played. It sees what pimc sees: its hand, the cards played, the
    face-up card, the suits others showed out of, the bids (not under secret
    hidden bids) and the tricks won. It bids the best of the ``table``
    player's bid -2..+2 by a second network (pimc's mean score of each bid);
    in clairvoyance and mono it bids like ``table`` (the heuristic's bid).
    The other special-card decisions (trump, Werewolf, passes, a lone legal
    special card's form) are ``table``'s.
    """

    name: str = "learned"
    strategy_id: int = S_LEARNED

    def needs(self) -> frozenset[str]:
        return frozenset({"heuristic", "bid_table", "learned", "network", "view"})


@dataclass(frozen=True)
class RuleStrategy(Strategy):
    """A user's bid rule (:mod:`wizsim.players.bid_rules`) with a built-in player's card play.

    The seat bids by ``rule``; every other decision (cards, trump, the
    Werewolf, forms, passes) is ``play``'s. In the kernels the seat is a
    ``play`` seat (``strategy_id`` is its id) whose row names the rule
    (``B_RULE``, set by the run: :meth:`wizsim.run.spec.RunSpec.kernel_args`).
    """

    name: str = "rule"
    strategy_id: int = S_TABLE
    rule: BidRule | None = None
    play: Strategy | None = None

    def needs(self) -> frozenset[str]:
        # a rule reads the heuristic's estimate and the table's bid (its features); the card play is play's
        return frozenset({"heuristic", "bid_table"}) | (self.play.needs() if self.play is not None else frozenset())

    def _row(self) -> np.ndarray:
        if self.rule is None or self.play is None:
            raise WizsimError("a rule strategy needs a bid rule and a player: use wizsim.players.strategies.bid_rule")
        return self.play.param_row()


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


def strategy_label(s: Strategy) -> str:
    """The canonical name of a strategy with its parameters, e.g. ``heuristic(bid_shift=0.2)``."""
    if not s.params:
        return s.name
    # repr keeps every digit: two strategies differing in the 8th digit stay apart
    inner = ",".join(f"{k}={v!r}" if isinstance(v, float) else f"{k}={v}" for k, v in sorted(s.params.items()))
    return f"{s.name}({inner})"


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


class StrategyClass(Protocol):
    """A strategy class of :data:`STRATEGIES`: made from its parameters alone (name and id are its defaults)."""

    def __call__(self, *, params: dict[str, str | float]) -> Strategy: ...


STRATEGIES: dict[str, StrategyClass] = {
    "random": RandomStrategy,
    "heuristic": HeuristicStrategy,
    "table": TableStrategy,
    "pimc": PimcStrategy,
    "learned": LearnedStrategy,
}


def make_strategy(spec: str | Strategy) -> Strategy:
    """Return a strategy from a name like ``heuristic`` or ``heuristic(ruff=0.4)``."""
    if isinstance(spec, Strategy):
        return spec
    text = str(spec).strip()
    if text.lower().startswith("rule(") and text.endswith(")"):
        return _parse_rule(text[5:-1])
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
            f"unknown strategy {name!r}; known strategies: {', '.join(STRATEGIES)}, or rule(path/to/file.py:function)"
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
