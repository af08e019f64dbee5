"""Python agents seated in a simulation: the engine calls the agent at each decision of its seat.

A run whose strategies include agents (:func:`wizsim.players.external.external`,
``--strategy "py(file.py:function)"``) plays its chunks with the same kernels
as any run, its agents' seats marked external (:mod:`wizsim.engine.external`).
:func:`seated` gives the run a script header whose ``X_CALLBACK`` is the
address of a C-callable Python function (``ctypes``): at each decision of an
agent's seat the engine records the decision in the header and calls it. The
function makes the seat's observation from the header
(:class:`.encoding.Encoder`, the environment's encoding), calls the agent,
checks the action against the legal ones and returns it to the engine, which
plays on. One call per decision, no replay: a trivial agent plays some tens of
thousands of decisions per second.

An agent that raises, returns a non-integer or an illegal action stops the
run: the engine finishes the chunk with stand-in choices (the agent is not
called again), and :func:`seated` raises one :class:`~wizsim.errors.WizsimError`
naming the agent, the seat, the decision and the action. Nothing is written,
since every caller writes only after its kernels return.
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
from collections.abc import Iterator

import numpy as np

from ..engine import layout as L
from ..errors import WizsimError, one_line
from ..players.external import ExternalStrategy
from .encoding import FORMS_OF, KIND_NAMES, Encoder

CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int64)


def _first_legal(kind: int, legal: int) -> int:
    """The stand-in engine action after an error: the lowest legal one (a flexible card in its first form)."""
    b = (legal & -legal).bit_length() - 1
    return FORMS_OF.get(b, (b,))[0] if kind == L.DK_CARD else b


class AgentTable:
    """The callback of one run's agents: observation, the agent's call, the check, the engine action."""

    def __init__(self, spec, agents: dict[int, ExternalStrategy]) -> None:
        self.agents = {p: s.agent for p, s in agents.items()}
        self.labels = {p: s.agent.label for p, s in agents.items() if s.agent is not None}
        rules = spec.rules.to_array(spec.specials)
        self.kmax = max(spec.schedule)
        self.encoder = Encoder(spec.players, self.kmax, rules, len(spec.schedule))
        self.games_mode = spec.games_mode
        self.script = np.zeros(L.X_ACTIONS, dtype=np.int64)
        self.callback = CALLBACK(self._decide)  # kept alive as long as the table
        self.script[L.X_ON] = 1
        self.script[L.X_CALLBACK] = ctypes.cast(self.callback, ctypes.c_void_p).value or 0
        self.spec = dataclasses.replace(spec, script=self.script, external_seats=tuple(sorted(agents)))
        self.error: BaseException | None = None

    def _where(self, seat: int, kind: int) -> str:
        x = self.script
        item = int(x[L.X_ITEM])
        when = f"round {int(x[L.X_ROUND]) + 1} of game {item}" if self.games_mode else f"round {item}"
        return f"agent {self.labels[seat]} at seat {seat}, {KIND_NAMES.get(kind, '?')} decision ({when})"

    def _decide(self) -> int:
        x = self.script
        kind, legal = int(x[L.X_KIND]), int(x[L.X_LEGAL]) & ((1 << 64) - 1)
        if self.error is not None:
            return _first_legal(kind, legal)
        seat = int(x[L.X_GSEATS + x[L.X_SEAT]])
        try:
            obs = self.encoder.observe(x, seat)
            mask = obs["action_mask"]
            agent = self.agents[seat]
            assert agent is not None
            try:
                action = agent(obs, mask)
            except Exception as exc:
                raise WizsimError(
                    f"{self._where(seat, kind)}: the agent raised {type(exc).__name__}: {one_line(exc)}"
                ) from None
            return self._engine_action(seat, kind, action, mask)
        except BaseException as exc:  # never into the engine: kept, and raised when the kernel returns
            self.error = exc
            return _first_legal(kind, legal)

    def _engine_action(self, seat: int, kind: int, action: object, mask: np.ndarray) -> int:
        enc = self.encoder
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise WizsimError(
                f"{self._where(seat, kind)}: the agent returned {action!r} ({type(action).__name__}); an action is an"
                f" integer 0..{enc.n_actions - 1} whose action_mask entry is 1"
            )
        code = int(action)
        if not 0 <= code < enc.n_actions or mask[code] == 0:
            legal = np.flatnonzero(mask)
            names = ", ".join(f"{a} ({enc.action_name(int(a))})" for a in legal[:12])
            more = f" and {len(legal) - 12} more" if len(legal) > 12 else ""
            raise WizsimError(
                f"{self._where(seat, kind)}: the agent returned action {code} ({enc.action_name(code)}), which is"
                f" not legal; legal: {names}{more}"
            )
        return enc.engine_action(kind, code)

    def check(self) -> None:
        """Raise the first error of the agents (after the kernel returned)."""
        if self.error is not None:
            raise self.error


def agent_seats(spec) -> dict[int, ExternalStrategy]:
    """The seats of ``spec`` played by Python agents."""
    return {p: s for p, s in enumerate(spec.strategies) if isinstance(s, ExternalStrategy)}


@contextlib.contextmanager
def seated(spec) -> Iterator:
    """``spec`` with its agents seated (a copy whose script calls them), or ``spec`` itself when it has none.

    Use around one process's kernel calls; on leaving, the first error of an
    agent is raised.
    """
    agents = agent_seats(spec)
    if not agents:
        yield spec
        return
    if max(spec.schedule) > L.X_MAX_TRICKS:  # pragma: no cover - no deck deals that many
        raise WizsimError(f"rounds of {max(spec.schedule)} cards: agents play rounds of at most {L.X_MAX_TRICKS}")
    table = AgentTable(spec, agents)
    yield table.spec
    table.check()


__all__ = ["AgentTable", "agent_seats", "seated"]
