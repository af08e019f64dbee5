"""Compatibility shim (issue 24): ``wizsim.simulate`` moved to :mod:`wizsim.run.simulate`.

Kept for ``import wizsim.simulate`` as a module (scripts/compare_engines.py loads it by name in any
checkout, old or new: ``make_spec``, ``run_counts``, ``__file__``). Every attribute is looked up in
the new module; nothing else lives here.
"""

from typing import Any

from .run import simulate as _module


def __getattr__(name: str) -> Any:
    return getattr(_module, name)


def __dir__() -> list[str]:
    return dir(_module)
