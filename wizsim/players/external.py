"""A Python agent at wizsim's table: ``py(path/to/file.py:function)`` or ``wizsim.strategies.external(fn)``.

The agent is any callable ``agent(observation, action_mask) -> action`` in the
terms of the environment (:mod:`wizsim.env.encoding`: one flat action space,
seat-relative observations). It takes every decision of its seat: bids,
cards in their form, naming trump, the Werewolf's choice, the Juggler pass.
The engine calls it at each decision (:mod:`wizsim.env.seated`), so it goes
wherever a strategy goes: ``simulate``, ``tournament``, ``history``, ``advise``.

Not a registry line: in the kernels an agent's seat is an *external* seat
(``SEAT_EXTERNAL``) whose strategy id is the heuristic's; that id only tells
pimc's rollouts how to imagine the seat's play.

An agent from a file is rebuilt in each worker process from the file's text
read once in the main process (as bid rules are); an agent given as a Python
object is pickled to the workers, so it must be importable there (a function
of a module, or one defined in the script itself). Results are the same for
any ``--jobs`` when the agent's choice depends only on what it is given.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import pickle
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..engine.layout import S_HEURISTIC
from ..engine.players import heuristic as heuristic_engine
from ..errors import WizsimError, one_line
from .base import Strategy
from .bid_rules import exec_user_source, read_user_file

Agent = Callable[[dict[str, np.ndarray], np.ndarray], Any]


def _check_signature(func: Any, label: str) -> None:
    """A WizsimError unless ``func`` can be called as ``func(observation, action_mask)``."""
    if not callable(func):
        raise WizsimError(f"agent {label}: {func!r} is not callable: give a function (observation, action_mask)")
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        return  # a builtin or C callable without a signature: trust it
    try:
        sig.bind(None, None)
    except TypeError:
        raise WizsimError(
            f"agent {label}: its signature is {func.__name__ if hasattr(func, '__name__') else 'it'}{sig}; an agent"
            " takes two arguments, (observation, action_mask), and returns an action"
        ) from None


class ExternalAgent:
    """A checked agent callable with its label (and, when loaded from a file, the file's text for the workers)."""

    def __init__(self, func: Agent, label: str, origin: tuple[str, str] | None = None, source: str | None = None):
        _check_signature(func, label)
        self.func = func
        self.label = label
        self.origin = origin
        self.source = source

    def __call__(self, observation: dict[str, np.ndarray], action_mask: np.ndarray) -> Any:
        return self.func(observation, action_mask)

    def __reduce__(self) -> tuple:
        if self.origin is not None and self.source is not None:
            return (agent_from_source, (self.source, self.origin[0], self.origin[1], self.label))
        try:
            payload = _dumps(self.func)
        except Exception as exc:
            raise WizsimError(
                f"agent {self.label} cannot be sent to the worker processes ({type(exc).__name__}: {one_line(exc)}):"
                " define it at the top level of a module or file, or run with --jobs 1"
            ) from None
        return (agent_from_payload, (payload, self.label))

    def digest(self) -> str:
        """A fingerprint of the agent's code (provenance)."""
        if self.source is not None:
            return hashlib.sha1(self.source.encode() + self.label.encode()).hexdigest()[:16]
        code = getattr(self.func, "__code__", None)
        text = repr(self.func) if code is None else code.co_code.hex() + repr(code.co_consts)
        return hashlib.sha1(text.encode() + self.label.encode()).hexdigest()[:16]

    def __repr__(self) -> str:
        return f"ExternalAgent({self.label})"


def _dumps(func: Any) -> bytes:
    try:
        import cloudpickle  # type: ignore[import-untyped]  # joblib's workers' pickler: functions of the main script travel by value
    except ImportError:  # pragma: no cover - joblib brings it
        return pickle.dumps(func)
    return bytes(cloudpickle.dumps(func))


def agent_from_payload(payload: bytes, label: str) -> ExternalAgent:
    """An agent as a worker process unpickles it (a clear error when it cannot be imported there)."""
    try:
        func = pickle.loads(payload)  # noqa: S301 - the user's own agent, pickled by this run
    except Exception as exc:
        raise WizsimError(
            f"agent {label} cannot be loaded in a worker process ({type(exc).__name__}: {one_line(exc)}): the agent"
            " must be importable there; give it as py(path/to/file.py:function) or run with --jobs 1"
        ) from None
    return ExternalAgent(func, label)


_FROM_SOURCE: dict[tuple[str, str, str], ExternalAgent] = {}  # per process: a file's agent is loaded once


def agent_from_source(source: str, path: str, name: str, label: str) -> ExternalAgent:
    """The agent ``name`` of a file's text ``source`` (read once in the main process, run again in workers)."""
    digest = hashlib.sha1(source.encode()).hexdigest()
    key = (digest, name, label)
    if key not in _FROM_SOURCE:
        spec = label[3:-1] if label.startswith("py(") else label
        func = exec_user_source(source, path, name, "agent", spec, f"wizsim_user_agent_{digest[:12]}")
        _FROM_SOURCE[key] = ExternalAgent(func, label, origin=(path, name), source=source)
    return _FROM_SOURCE[key]


def load_agent(spec: str) -> ExternalAgent:
    """``path/to/file.py:function`` (or ``package.module:function``) as an agent labelled ``py(spec)``."""
    text = spec.strip()
    label = f"py({text})"
    path_text, sep, name = text.rpartition(":")
    if not sep or not path_text or not name.isidentifier():
        raise WizsimError(f"agent {text!r}: write py(path/to/file.py:function)")
    if not path_text.endswith(".py") and re.fullmatch(r"[A-Za-z_][\w.]*", path_text):
        return ExternalAgent(_import_function(path_text, name, label), label)
    source, resolved = read_user_file(text, path_text, "agent")
    return agent_from_source(source, resolved, name, label)


def _import_function(module_name: str, name: str, label: str) -> Any:
    try:
        module = importlib.import_module(module_name)
    except (Exception, SystemExit) as exc:
        raise WizsimError(f"{label}: cannot import {module_name!r}: {type(exc).__name__}: {one_line(exc)}") from None
    func = getattr(module, name, None)
    if not callable(func):
        raise WizsimError(f"{label}: module {module_name!r} has no function {name!r}")
    return func


@dataclass(frozen=True, eq=False)
class ExternalStrategy(Strategy):
    """A seat played by a Python agent (:class:`ExternalAgent`); see the module docstring."""

    name: str = "py"
    strategy_id: int = S_HEURISTIC
    agent: ExternalAgent | None = None

    def needs(self) -> frozenset[str]:
        return heuristic_engine.NEEDS  # the stand-in id's (pimc's rollouts play the seat as the heuristic)

    def _row(self) -> np.ndarray:
        if self.agent is None:
            raise WizsimError("an agent seat needs an agent: use wizsim.strategies.external(fn)")
        return super()._row()


def external(func: Agent | str, name: str | None = None) -> ExternalStrategy:
    """A strategy whose every decision is made by a Python agent, ``func(observation, action_mask) -> action``.

    Parameters
    ----------
    func : callable or str
        The agent (observations and actions of :mod:`wizsim.env.encoding`), or
        ``"path/to/file.py:function"``.
    name : str, optional
        Its label in tables and histories (default ``py(<function name>)``, or
        ``py(<file spec>)``).

    Returns
    -------
    ExternalStrategy
        Goes wherever a strategy goes: simulate, tournament, history, advise.

    Raises
    ------
    WizsimError
        A file that does not load, a function with the wrong signature.
    """
    if isinstance(func, str):
        agent = load_agent(func)
        if name is not None:
            agent = ExternalAgent(agent.func, name, agent.origin, agent.source)
    else:
        label = name or f"py({getattr(func, '__name__', type(func).__name__)})"
        agent = ExternalAgent(func, label)
    return ExternalStrategy(name=agent.label, agent=agent)
