"""Compatibility shim (issue 24): ``wizsim.advise`` moved to :mod:`wizsim.tools.advise`.

Kept for ``wizsim.advise.advise`` (users' code). Every attribute is looked up in the new module;
nothing else lives here.
"""

from typing import Any

from .tools import advise as _module


def __getattr__(name: str) -> Any:
    return getattr(_module, name)


def __dir__() -> list[str]:
    return dir(_module)
