"""The house style for charts, kept here for older imports: it lives in :mod:`wizsim.plotting`."""

from __future__ import annotations

from ..plotting import COLORS, STYLE, figure, save

__all__ = ["COLORS", "STYLE", "figure", "save"]
