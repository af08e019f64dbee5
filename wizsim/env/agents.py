"""The built-in players as agents: ``agent("learned", env)`` decides an environment's turns as the engine's player.

The agent asks the engine (:meth:`.replay.Replay.ask`): the round is replayed
to the current decision with that seat played by the built-in player, which
decides exactly as it does in every simulation. It reads what its seat may
read there: its own hand, the bids and cards seen, the table's view of voids
and passed cards (pimc samples the hidden hands from that). Its random draws
come from the round's decision stream at that point.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import WizsimError
from ..players.strategies import make_strategy
from ..run.spec import strategy_label
from .aec import WizardEnv


class BuiltInAgent:
    """A built-in player deciding the turns of a :class:`~.aec.WizardEnv` (see :func:`agent`)."""

    def __init__(self, strategy: str, env: WizardEnv) -> None:
        if not isinstance(env, WizardEnv):
            raise WizsimError(f"a built-in agent plays in a wizsim.env.WizardEnv, got {type(env).__name__}")
        self.label = strategy_label(make_strategy(strategy))  # an unknown name or parameter: one clear error
        self.env = env

    def __call__(self, observation: dict[str, np.ndarray] | None = None, action_mask: Any = None) -> int:
        """The action of the player at the environment's current decision (``observation``: that decision's)."""
        env = self.env
        pend = env.table.pending
        if pend is None:
            raise WizsimError("the episode is over: nothing to decide (call reset())")
        mask = action_mask if action_mask is not None else (observation or {}).get("action_mask")
        if mask is not None and not np.array_equal(np.asarray(mask), env.encoder.mask(pend)):
            raise WizsimError(
                f"agent {self.label}: the action mask is not the one of the environment's current decision"
                f" ({env.agent_selection}'s {pend.kind_name}): call it with env.last()'s observation"
            )
        return env.encoder.action(pend.kind, env.table.ask(self.label))

    def __repr__(self) -> str:
        return f"agent({self.label!r})"


def agent(strategy: str, env: WizardEnv) -> BuiltInAgent:
    """Built-in player ``strategy`` (``"learned"``, ``"pimc(samples=50)"``, ``"heuristic"``, ``"table"``,
    ``"random"``, a bid rule...) as an agent of ``env``: ``agent(observation, action_mask) -> action``.

    Parameters
    ----------
    strategy : str
        The built-in player, as ``wizsim simulate --strategy`` names it.
    env : WizardEnv
        The environment whose turns it decides.

    Returns
    -------
    BuiltInAgent
        A callable ``(observation, action_mask) -> int``: the action the player takes at the
        environment's current decision (the observation, when given, must be that decision's).

    Raises
    ------
    WizsimError
        For an unknown strategy, or an ``env`` that is not a :class:`~.aec.WizardEnv`.

    Examples
    --------
    >>> env = WizardEnv(players=4, cards=5)
    >>> env.reset(seed=1)
    >>> players = {a: agent("heuristic", env) for a in env.possible_agents}
    >>> for name in env.agent_iter():
    ...     obs, reward, done, cut, info = env.last()
    ...     env.step(None if done or cut else players[name](obs))
    """
    return BuiltInAgent(strategy, env)
