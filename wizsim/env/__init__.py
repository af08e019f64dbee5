"""Wizard for agents: a PettingZoo AEC environment played by the wizsim engine (extra ``wizsim[env]``).

``WizardEnv(players=4, cards=10, specials=..., rules={...}, opponents={seat: strategy})``:
see :mod:`wizsim.env.aec` for the environment, :mod:`wizsim.env.encoding` for
the actions and observations, :mod:`wizsim.env.replay` for how the engine
plays the table; ``VecWizardEnv`` (:mod:`wizsim.env.vec`) steps many one-round tables together, and
:mod:`wizsim.env.seated` seats a Python agent in any simulation.
"""

from __future__ import annotations

from typing import Any

from ..errors import WizsimError


def __getattr__(name: str) -> Any:
    if name == "VecWizardEnv":  # NumPy arrays only: no extra needed
        from .vec import VecWizardEnv

        return VecWizardEnv
    # PettingZoo and Gymnasium are an optional extra: imported when the environment is asked for
    if name in ("WizardEnv", "agent"):
        try:
            from . import aec, agents
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise WizsimError(
                f"the environment needs PettingZoo and Gymnasium ({exc.name} is missing): pip install 'wizsim[env]'"
            ) from None
        return aec.WizardEnv if name == "WizardEnv" else agents.agent
    raise AttributeError(f"module 'wizsim.env' has no attribute {name!r}")


__all__ = ["VecWizardEnv", "WizardEnv", "agent"]
