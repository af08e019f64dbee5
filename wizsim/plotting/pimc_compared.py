"""The chart of ``results/pimc_compared``: the pairs with ``pimc``, drawn as ``results/players_compared``."""

from __future__ import annotations

from .players_compared import draw

__all__ = ["TABLES", "draw"]

#: the CSV stems :func:`draw` reads, in its argument order
TABLES = ("pimc_compared", "pimc_compared_strategies")
