"""Your own bid rule as a player: a plain Python function over named features, run inside the engine.

A bid rule is a function whose parameters are feature names; it returns the
bid (a number, rounded half up)::

    def sure_tricks(wizards, trumps_above_10, side_aces):
        return wizards + trumps_above_10 + side_aces

:func:`wizsim.players.strategies.bid_rule` makes it a strategy (card play and every
other decision by a built-in player, ``table`` by default); on the command
line ``--strategy "rule(path/to/file.py:func)"`` or
``"rule(path/to/file.py:func,play=heuristic)"`` loads it. wizsim compiles the
function with Numba (nopython mode: arithmetic, comparisons, ``if``,
``min``/``max``, ``round``, ``math``) and calls it inside the engine for every
bid of that seat, so a rule runs at the engine's speed.

Rules of the call:

* every parameter must be a feature of :data:`FEATURES` (integer features
  arrive as integers, ``estimate`` as a float);
* the value is rounded half up; it must lie in 0 .. ``cards`` (clip with
  ``min(max(bid, 0), cards)``), else the run stops with an error naming the rule;
* in clairvoyant rounds (``variant=clairvoyance``) the seat cannot see its own
  hand, so it bids as its card player does, not by the rule;
* an error inside the rule (a division by zero) stops the run with one error line;
* under the Canadian rule a bid that is forbidden is stepped one towards the
  heuristic's ``estimate``, as the built-in players step (one up from 0, one
  down from ``cards``): read ``forbidden`` to choose yourself.
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import importlib
import importlib.util
import inspect
import re
import sys
import types
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..engine import layout as L
from ..engine.bundles import BidRules
from ..errors import WizsimError

# Every bid feature: name -> (slot in the kernel's vector, float?, meaning). Kernel: engine/players/rule.py.
FEATURES: dict[str, tuple[int, bool, str]] = {
    "cards": (L.F_CARDS, False, "cards dealt to each player this round"),
    "players": (L.F_PLAYERS, False, "players in the round"),
    "position": (L.F_POSITION, False, "bidding position: 0 = first (the dealer's left), players - 1 = the dealer"),
    "first": (L.F_FIRST, False, "1 for the first bidder"),
    "last": (L.F_LAST, False, "1 for the last bidder (the dealer)"),
    "bids_before": (L.F_BIDS_BEFORE, False, "sum of the earlier bids (0 when bids are hidden)"),
    "bids_seen": (L.F_BIDS_SEEN, False, "1 when the earlier bids are visible (no hidden-bids rule)"),
    "forbidden": (L.F_FORBIDDEN, False, "the bid the Canadian rule forbids this seat, -1: none"),
    "no_trump": (L.F_NO_TRUMP, False, "1 when the round has no trump"),
    "trump_named": (L.F_TRUMP_NAMED, False, "1 when a player named trump (Wizard or special indicator, Werewolf)"),
    "wizards": (L.F_WIZARDS, False, "Wizards held"),
    "jesters": (L.F_JESTERS, False, "Jesters held"),
    "trumps": (L.F_TRUMPS, False, "trump-suit cards held (Wizards not counted)"),
    "side_aces": (L.F_SIDE_ACES, False, "13s held in the suits that are not trump"),
    "side_kings": (L.F_SIDE_KINGS, False, "12s held in the suits that are not trump"),
    "side_queens": (L.F_SIDE_QUEENS, False, "11s held in the suits that are not trump"),
    "longest_side": (L.F_LONGEST_SIDE, False, "length of the longest suit that is not trump"),
    "shortest_side": (L.F_SHORTEST_SIDE, False, "length of the shortest suit that is not trump"),
    "side_voids": (L.F_SIDE_VOIDS, False, "suits other than trump with no card held"),
    "side_singletons": (L.F_SIDE_SINGLETONS, False, "suits other than trump with one card held"),
    "side_doubletons": (L.F_SIDE_DOUBLETONS, False, "suits other than trump with two cards held"),
    "estimate": (L.F_ESTIMATE, True, "the heuristic player's expected tricks of the hand (a float)"),
    "heuristic_bid": (L.F_HEURISTIC_BID, False, "the heuristic player's bid: the estimate rounded, within 0..cards"),
    "table_bid": (L.F_TABLE_BID, False, "the table player's bid (learned mean scores around the heuristic's)"),
    **{
        name.lower(): (L.F_SPECIAL + i, False, f"{name}s held (0 or 1; 0 when it is not in the deck)")
        for i, name in enumerate(L.SPECIAL_NAMES)
    },
    **{f"trumps_above_{r}": (L.F_TRUMPS_ABOVE + r, False, f"trumps of rank {r + 1}..13") for r in range(1, 13)},
    **{
        f"side_above_{r}": (L.F_SIDE_ABOVE + r, False, f"cards of rank {r + 1}..13 in suits that are not trump")
        for r in range(1, 13)
    },
}
assert len({slot for slot, _, _ in FEATURES.values()}) == len(FEATURES) <= L.N_FEATURES

PLAYS = ("table", "heuristic", "random", "learned", "pimc")  # who plays the cards of a rule seat

with contextlib.suppress(ImportError):  # Numba marks first-class functions experimental; wizsim tests them
    from numba.core.errors import NumbaExperimentalFeatureWarning

    warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning, message=".*[Ff]irst-class function")


def one_line(exc: BaseException) -> str:
    """The most telling line of a (multi-line, coloured) Numba error."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", str(exc))
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    skip = ("Failed in nopython mode pipeline", "During:", "File ", "^", "raise ", "return ")
    keep = [ln for ln in lines if not ln.startswith(skip)]
    line = (keep or lines or [type(exc).__name__])[0]
    return line if len(line) <= 240 else line[:237] + "..."


def _flat(exc: BaseException) -> str:
    """An exception's message on one line (a rule file's own exception may hold newlines)."""
    return " ".join(str(exc).split()) or type(exc).__name__


def _user_attribute(module: types.ModuleType, name: str, where: str) -> Any:
    """``module.name``, or None if it has none; a WizsimError if the module's own ``__getattr__`` fails otherwise."""
    try:
        return getattr(module, name, None)
    except (Exception, SystemExit) as exc:
        raise WizsimError(f"{where}: reading {name!r} fails: {type(exc).__name__}: {_flat(exc)}") from None


class BidRule:
    """A user's bid function, checked and compiled for the engine.

    Parameters
    ----------
    func : callable
        A function whose parameters are names of :data:`FEATURES`; it returns the bid.
    label : str, optional
        The rule's name in tables and histories (default: the function's name).
    origin : tuple[str, str], optional
        (file, function) when the rule was loaded from a file: a worker
        process then loads it again instead of unpickling the function.

    Raises
    ------
    WizsimError
        When a parameter is not a feature, or the function does not compile with Numba.
    """

    #: what the errors call it, the features it may read, where they are listed
    KIND = "bid rule"
    FEATURE_TABLE: dict[str, tuple[Any, ...]] = FEATURES
    LISTING = "list them with 'wizsim features' (wizsim.players.bid_rules.FEATURES)"

    def __init__(
        self,
        func: Callable[..., Any],
        label: str | None = None,
        origin: tuple[str, str] | None = None,
        source: str | None = None,
    ):
        if not callable(func):
            raise WizsimError(f"a {self.KIND} must be a function, got {type(func).__name__}")
        self.func = func
        self.label: str = str(label or getattr(func, "__name__", "rule"))
        self.origin = origin
        self.source = source
        self.features = self._check_signature()
        self._compiled: Any = None
        self.compiled()  # compile now: a rule that does not compile is refused before anything runs

    def _check_signature(self) -> tuple[str, ...]:
        if (
            inspect.iscoroutinefunction(self.func)
            or inspect.isgeneratorfunction(self.func)
            or inspect.isasyncgenfunction(self.func)
        ):
            raise WizsimError(f"{self.KIND} {self.label}: it is a generator or async function; write a plain def")
        try:
            sig = inspect.signature(self.func)
        except (Exception, SystemExit):  # a callable object's own __signature__ may raise anything
            raise WizsimError(f"{self.KIND} {self.label}: cannot read its parameters; write a plain def") from None
        names = []
        for prm in sig.parameters.values():
            if prm.kind in (prm.VAR_POSITIONAL, prm.VAR_KEYWORD, prm.KEYWORD_ONLY, prm.POSITIONAL_ONLY):
                raise WizsimError(
                    f"{self.KIND} {self.label}: parameter {prm.name!r} must be a plain named parameter (a feature name)"
                )
            if prm.name not in self.FEATURE_TABLE:
                near = difflib.get_close_matches(prm.name, self.FEATURE_TABLE, n=3)
                hint = f"did you mean {', '.join(near)}? " if near else ""
                raise WizsimError(f"{self.KIND} {self.label} reads unknown feature {prm.name!r}; {hint}{self.LISTING}")
            names.append(prm.name)
        return tuple(names)

    def needs(self) -> int:
        """``layout.NEEDS_*`` bits: the costly features the rule reads (the kernel computes only those)."""
        out = 0
        if {"estimate", "heuristic_bid"} & set(self.features):
            out |= L.NEEDS_ESTIMATE
        if "table_bid" in self.features:
            out |= L.NEEDS_TABLE | L.NEEDS_ESTIMATE
        return out

    def compiled(self) -> Any:
        """The rule as a Numba function ``float64(float64[::1])`` of the feature vector (compiled once per process)."""
        if self._compiled is None:
            from numba import njit, types

            args = ", ".join(
                f"fv[{FEATURES[n][0]}]" if FEATURES[n][1] else f"np.int64(fv[{FEATURES[n][0]}])" for n in self.features
            )
            namespace: dict[str, Any] = {"np": np}
            src = f"def rule_call(fv):\n    return np.float64(user_rule({args}))\n"
            try:
                namespace["user_rule"] = njit(cache=False)(self.func)
                exec(compile(src, f"<bid rule {self.label}>", "exec"), namespace)  # noqa: S102 - our own wrapper
                self._compiled = njit(types.float64(types.float64[::1]), cache=False)(namespace["rule_call"])
            except Exception as exc:  # Numba's typing and lowering errors have many classes
                raise WizsimError(
                    f"{self.KIND} {self.label} does not compile with Numba (nopython mode): {one_line(exc)}"
                ) from None
        return self._compiled

    def __call__(self, **features: float) -> float:
        """The rule's value for the given feature values (plain Python: for tests and exploring)."""
        return float(self.func(**{n: features[n] for n in self.features}))

    def __reduce__(self) -> tuple:
        # the compiled function stays behind: each process compiles its own
        if self.origin is not None and self.source is not None:
            return (rule_from_source, (self.source, self.origin[0], self.origin[1], self.label, None, type(self)))
        return (rule_from_function, (self.func, self.label, type(self)))

    def digest(self) -> str:
        """A fingerprint of the rule's code (checkpoints and provenance tell two versions apart)."""
        if self.source is not None:
            text = self.source.encode() + (self.origin[1] if self.origin else "").encode()
            return hashlib.sha1(text + self.label.encode()).hexdigest()[:16]
        return _function_digest(self.func, self.label)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and (self.func, self.label) == (other.func, other.label)

    def __hash__(self) -> int:
        return hash((type(self), self.func, self.label))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.label})"


def load_rule(spec: str, label: str | None = None, cls: type[BidRule] = BidRule, what: str = "rule") -> BidRule:
    """Load ``path/to/file.py:func`` as a :class:`BidRule` (or ``cls``; labelled by ``spec`` unless ``label`` is
    given; ``what``: the strategy's word in the errors, ``rule`` or ``play``)."""
    path_text, sep, name = spec.strip().rpartition(":")
    if not sep or not path_text or not name.isidentifier():
        raise WizsimError(f"{what} {spec!r}: write {what}(path/to/file.py:function)")
    if not path_text.endswith(".py") and re.fullmatch(r"[A-Za-z_][\w.]*", path_text):
        return _load_module_rule(path_text, name, label or spec.strip(), cls)
    source, resolved = read_user_file(spec, path_text, what)
    return rule_from_source(source, resolved, name, label or spec.strip(), spec.strip(), cls)


def read_user_file(spec: str, path_text: str, what: str) -> tuple[str, str]:
    """The text and resolved path of a user's file ``path_text`` (``what``: ``rule``, ``py``...: for the errors)."""
    try:
        path = Path(path_text).expanduser()
        found = path.is_file()
        data = path.read_bytes() if found else b""
        resolved = str(path.resolve()) if found else ""
    except (OSError, RuntimeError, ValueError) as exc:  # RuntimeError: ~user unknown; ValueError: a NUL
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else _flat(exc)
        raise WizsimError(f"{what} {spec!r}: cannot read {path_text!r}: {why}") from None
    if not found:
        raise WizsimError(f"{what} {spec!r}: no file {str(path)!r}")
    try:
        # as Python reads a source file: a UTF-8 byte order mark or a coding declaration (PEP 263) is honoured
        source = importlib.util.decode_source(data)
    except (SyntaxError, UnicodeDecodeError, LookupError) as exc:
        where = f" (byte {exc.start})" if isinstance(exc, UnicodeDecodeError) else ""
        raise WizsimError(
            f"{what} {spec!r}: {str(path)!r} is not text in its encoding{where}: save it as UTF-8"
            " (or declare its encoding: # -*- coding: latin-1 -*-)"
        ) from None
    return source, resolved


_FROM_SOURCE: dict[tuple[str, str, str, str], BidRule] = {}  # per process: a worker compiles each rule once
_FROM_FUNCTION: dict[str, BidRule] = {}


def _function_digest(func: Callable[..., Any], label: str) -> str:
    code = getattr(func, "__code__", None)
    if code is None:
        text = repr(func).encode()
    else:
        text = code.co_code + repr(code.co_consts).encode() + repr(code.co_names).encode()
        text += repr(code.co_varnames).encode() + getattr(func, "__qualname__", "").encode()
        # what the code reads besides its parameters: closure cells and globals (a rule made in a loop over
        # a weight differs only there; Numba freezes both at compile time)
        cells = [c.cell_contents for c in (getattr(func, "__closure__", None) or ())]
        glob = getattr(func, "__globals__", {})
        text += repr(cells).encode() + repr([(n, glob[n]) for n in code.co_names if n in glob]).encode()
    return hashlib.sha1(text + label.encode()).hexdigest()[:16]


def rule_from_function(func: Callable[..., Any], label: str, cls: type[BidRule] = BidRule) -> BidRule:
    """The rule of ``func`` as a worker process unpickles it: compiled once per process, however many tasks
    bring it (each unpickled copy of a function is a new object; its code is the same)."""
    key = cls.__name__ + _function_digest(func, label)
    if key not in _FROM_FUNCTION:
        _FROM_FUNCTION[key] = cls(func, label)
    return _FROM_FUNCTION[key]


def rule_from_source(
    source: str, path: str, name: str, label: str, spec: str | None = None, cls: type[BidRule] = BidRule
) -> BidRule:
    """The rule ``name`` defined by ``source`` (the text of the file ``path``, read once in the main process).

    Worker processes rebuild a file rule from this text, not from the file: an
    edit to the file during a run cannot mix two rules, and the worker's
    working folder does not matter.
    """
    spec = spec or f"{path}:{name}"
    digest = hashlib.sha1(source.encode()).hexdigest()
    key = (digest, name, label, cls.__name__)
    if key in _FROM_SOURCE:
        return _FROM_SOURCE[key]
    what = "play" if cls.KIND == "play rule" else "rule"
    func = exec_user_source(source, path, name, what, spec, f"wizsim_user_rule_{digest[:12]}")
    rule = cls(func, label=label, origin=(path, name), source=source)
    _FROM_SOURCE[key] = rule
    return rule


def exec_user_source(source: str, path: str, name: str, what: str, spec: str, mod_name: str) -> Any:
    """Run a user's file ``source`` as module ``mod_name`` and return its function ``name`` (errors name ``what``)."""
    module = types.ModuleType(mod_name)
    module.__file__ = path
    try:
        sys.modules[mod_name] = module  # dataclasses and pickling look the module up
        exec(compile(source, path, "exec"), module.__dict__)  # noqa: S102 - the user's own file
    except (Exception, SystemExit) as exc:  # whatever the file's own code raises, exit() included
        sys.modules.pop(mod_name, None)
        where = f" (line {exc.lineno})" if isinstance(exc, SyntaxError) and exc.lineno else ""
        raise WizsimError(
            f"{what} {spec!r}: {path!r} fails to load{where}: {type(exc).__name__}: {_flat(exc)}"
        ) from None
    func = _user_attribute(module, name, f"{what} {spec!r}: {path!r}")
    if not callable(func):
        raise WizsimError(f"{what} {spec!r}: {path!r} has no function {name!r}")
    return func


def _load_module_rule(module_name: str, name: str, label: str, cls: type[BidRule] = BidRule) -> BidRule:
    """``package.module:func``: a rule in an importable module (wizsim.players.rules_of_thumb)."""
    try:
        module = importlib.import_module(module_name)
    except (Exception, SystemExit) as exc:
        raise WizsimError(
            f"rule {module_name}:{name}: cannot import {module_name!r}: {type(exc).__name__}: {_flat(exc)}"
        ) from None
    func = _user_attribute(module, name, f"rule {module_name}:{name}: module {module_name!r}")
    if not callable(func):
        raise WizsimError(f"rule {module_name}:{name}: module {module_name!r} has no function {name!r}")
    return cls(func, label=label)


_NO_PLAY: Any = None
_NO_BID: Any = None

#: the compiled type of every play-rule function: the situation (int64[PC_*]) and the card table -> the form
PLAY_SIGNATURE = "int64(int64[::1], int64[:, ::1])"


def no_play_rule() -> Any:
    """The stand-in of an unused play-rule slot (never called: no seat names it)."""
    global _NO_PLAY
    if _NO_PLAY is None:
        from numba import njit

        _NO_PLAY = njit(PLAY_SIGNATURE, cache=False)(lambda ctx, table: np.int64(-1))
    return _NO_PLAY


def no_bid_rule() -> Any:
    """The stand-in of an unused bid-rule slot (never called: no seat names it)."""
    global _NO_BID
    if _NO_BID is None:
        from numba import njit

        _NO_BID = njit("float64(float64[::1])", cache=False)(lambda fv: np.float64(0.0))
    return _NO_BID


def kernel_rules(rules: Sequence[BidRule], play_rules: Sequence[BidRule] | None = None) -> Any:
    """What the kernels take as ``feats.rules``: a :class:`~wizsim.engine.bundles.BidRules` (N_BID_RULES compiled
    bid-rule functions, their feature buffer, N_PLAY_RULES compiled play-rule functions, their situation buffer),
    or a bool array (off) when the run has neither."""
    play_rules = play_rules or []
    if not rules and not play_rules:
        return np.zeros(1, dtype=np.bool_)
    fns = [r.compiled() for r in rules] or [no_bid_rule()]
    fns += [fns[0]] * (L.N_BID_RULES - len(fns))  # one tuple type for any number of rules: one compiled round
    plays = [r.compiled() for r in play_rules] or [no_play_rule()]
    plays += [plays[0]] * (L.N_PLAY_RULES - len(plays))
    return BidRules(tuple(fns), np.zeros(L.N_FEATURES, dtype=np.float64), tuple(plays),
                    np.zeros(L.N_PLAY_CTX, dtype=np.int64))  # fmt: skip


@contextlib.contextmanager
def rule_errors(rules: Sequence[BidRule], play_rules: Sequence[BidRule] | None = None) -> Iterator[None]:
    """Turn the kernel's report of an impossible bid (or a play rule's NaN score) into a :class:`WizsimError`
    naming the rule."""
    play_rules = play_rules or []
    try:
        yield
    except WizsimError:
        raise
    except Exception as exc:
        if exc.args and exc.args[0] == "wizsim-rule" and len(exc.args) == 4:
            _, slot, value, k = exc.args
            label = rules[int(slot)].label if 0 <= int(slot) < len(rules) else "?"
            raise WizsimError(
                f"bid rule {label} returned {value:g} in a {int(k)}-card round: a bid must be a whole number from 0"
                f" to {int(k)} (values are rounded; clip with min(max(bid, 0), cards))"
            ) from None
        if exc.args and exc.args[0] == "wizsim-play-rule" and len(exc.args) == 3:
            from ..game.cards import card_name

            _, slot, form = exc.args
            label = play_rules[int(slot)].label if 0 <= int(slot) < len(play_rules) else "?"
            raise WizsimError(
                f"play rule {label} scored {card_name(int(form))} NaN: return a number (or wizsim.ABSTAIN,"
                " -inf, to leave the card to the fallback player)"
            ) from None
        if not rules and not play_rules:
            raise
        # what a rule raises while bidding or playing: a division by zero, an assert, an index out of range, its
        # own raise (Numba raises as Python does; the engine raises nothing else)
        names = ", ".join(r.label for r in [*rules, *play_rules])
        kind, doing = ("rule", "deciding") if rules and play_rules else (
            ("bid rule", "bidding") if rules else ("play rule", "playing"))  # fmt: skip
        raise WizsimError(f"{kind} {names} failed while {doing}: {type(exc).__name__}: {_flat(exc)}") from None


@dataclass(frozen=True)
class FeatureRow:
    """One feature for listings (``wizsim features``)."""

    name: str
    kind: str
    meaning: str


def feature_rows() -> list[FeatureRow]:
    """Every feature a bid rule may read, in the order of :data:`FEATURES`."""
    return [FeatureRow(n, "float" if f else "int", m) for n, (_, f, m) in FEATURES.items()]
