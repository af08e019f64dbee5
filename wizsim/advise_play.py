"""Compatibility shim (issue 24): ``wizsim.advise_play`` moved to :mod:`wizsim.tools.advise_play`.

Kept for ``wizsim.advise_play.advise_play`` (users' code). Every attribute is looked up in the new
module; nothing else lives here.
"""

from typing import Any

from .tools import advise_play as _module


def __getattr__(name: str) -> Any:
    return getattr(_module, name)


def __dir__() -> list[str]:
    return dir(_module)
