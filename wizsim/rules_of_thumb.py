"""Compatibility shim (issue 24): ``wizsim.rules_of_thumb`` moved to :mod:`wizsim.players.rules_of_thumb`.

Kept for strategy strings ``rule(wizsim.rules_of_thumb:NAME)`` (golden outputs, users' files). Every
attribute is looked up in the new module; nothing else lives here.
"""

from typing import Any

from .players import rules_of_thumb as _module


def __getattr__(name: str) -> Any:
    return getattr(_module, name)


def __dir__() -> list[str]:
    return dir(_module)
