"""Compatibility shim (issue 24): ``wizsim.strategies`` moved to :mod:`wizsim.players.strategies`.

Kept for ``wizsim.strategies.bid_rule`` (users' code). Every attribute is looked up in the new
module; nothing else lives here.
"""

from typing import Any

from .players import strategies as _module


def __getattr__(name: str) -> Any:
    return getattr(_module, name)


def __dir__() -> list[str]:
    return dir(_module)
