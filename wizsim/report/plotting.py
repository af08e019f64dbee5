"""The house style for charts: fixed look, no timestamps, byte-stable files."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.rcsetup import cycler  # noqa: E402

from ..run.io import atomic_path  # noqa: E402

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

STYLE: dict[RcKeyType, Any] = {
    "figure.figsize": (9.0, 4.8),
    "figure.dpi": 100,
    "savefig.dpi": 120,
    "font.size": 10,
    "font.family": "DejaVu Sans",
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titleweight": "bold",
    "legend.frameon": False,
    "svg.hashsalt": "wizsim",
    "svg.fonttype": "path",
}
COLORS = ["#1f5aa6", "#c0392b", "#2e8b57", "#d4a017", "#6c3483", "#555555"]


def figure(nrows: int = 1, ncols: int = 1, **kw):
    """A new figure in the house style."""
    plt.rcParams.update(STYLE)
    plt.rcParams["axes.prop_cycle"] = cycler(color=COLORS)
    return plt.subplots(nrows, ncols, **kw)


def save(fig, stem: str | Path) -> list[Path]:
    """Write ``stem.png`` and ``stem.svg`` atomically, without dates or version stamps."""
    stem = Path(stem)
    out = []
    for suffix, meta in ((".png", {"Software": None}), (".svg", {"Date": None, "Creator": None})):
        path = stem.with_suffix(suffix)
        with atomic_path(path) as tmp:
            fig.savefig(tmp, format=suffix[1:], metadata=meta, bbox_inches="tight")
        out.append(path)
    plt.close(fig)
    return out
