"""Every chart in ``results/``, drawn from its committed CSV, in the house style.

Each chart of ``results/`` has a module here (``wizsim/plotting/<chart>.py``)
with ``TABLES``, the CSV stems it reads in ``draw``'s argument order, and
``draw(*tables, **options) -> Figure``. The analysis that writes the chart
calls the same ``draw`` on the tables it wrote, so a chart redrawn from the
committed CSVs is the committed chart. One line of :data:`CHARTS` adds a chart.

>>> import wizsim.plotting as wp
>>> fig = wp.chart("strategies_by_round_size")     # from results/strategies_by_round_size.csv
>>> wp.provenance("strategies_by_round_size")["command"]
'python analyses/strategies_by_round_size.py --size default --seed 20261129'

The house style (:data:`STYLE`, :data:`COLORS`, :func:`figure`, :func:`save`)
has a fixed look and writes byte-stable files: no dates, no version stamps.
"""

from __future__ import annotations

import importlib
import json
import os
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.rcsetup import cycler  # noqa: E402

from ..errors import WizsimError  # noqa: E402
from ..run.io import atomic_path  # noqa: E402

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure
    from matplotlib.typing import RcKeyType

__all__ = [
    "CHARTS",
    "COLORS",
    "RESULTS",
    "STYLE",
    "analysis",
    "chart",
    "example_size",
    "figure",
    "provenance",
    "read_result",
    "sample_sizes",
    "save",
]

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

#: the checkout's results/ and analyses/ (wizsim is installed from a clone with ``pip install -e .``)
RESULTS = Path(__file__).resolve().parents[2] / "results"
ANALYSES = RESULTS.with_name("analyses")

#: chart name (the stem of results/<chart>.png) -> the module that draws it; one line adds a chart
CHARTS: dict[str, str] = {
    "bid_probabilities": "wizsim.plotting.bid_probabilities",
    "one_card_breakeven": "wizsim.plotting.one_card_breakeven",
    "expected_tricks": "wizsim.plotting.expected_tricks",
    "card_values": "wizsim.plotting.card_values",
    "pimc_compared": "wizsim.plotting.pimc_compared",
    "pimc_tradeoff": "wizsim.plotting.pimc_tradeoff",
    "play_habits": "wizsim.plotting.play_habits",
    "player_robustness": "wizsim.plotting.player_robustness",
    "players_compared": "wizsim.plotting.players_compared",
    "rules_of_thumb": "wizsim.plotting.rules_of_thumb",
    "special_cards": "wizsim.plotting.special_cards",
    "strategies_by_round_size": "wizsim.plotting.strategies_by_round_size",
    "variant_balance": "wizsim.plotting.variant_balance",
}


def figure(nrows: int = 1, ncols: int = 1, **kw):
    """A new figure in the house style.

    Parameters
    ----------
    nrows, ncols : int
        The grid of axes, as for :func:`matplotlib.pyplot.subplots`.
    **kw
        Passed on to :func:`matplotlib.pyplot.subplots`.

    Returns
    -------
    tuple
        ``(fig, axes)``, as :func:`matplotlib.pyplot.subplots` returns them.
    """
    plt.rcParams.update(STYLE)
    plt.rcParams["axes.prop_cycle"] = cycler(color=COLORS)
    return plt.subplots(nrows, ncols, **kw)


def save(fig, stem: str | Path) -> list[Path]:
    """Write ``stem.png`` and ``stem.svg`` atomically, without dates or version stamps, and close the figure.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The chart.
    stem : str or Path
        The path without its suffix.

    Returns
    -------
    list of Path
        The two files written.
    """
    stem = Path(stem)
    out = []
    for suffix, meta in ((".png", {"Software": None}), (".svg", {"Date": None, "Creator": None})):
        path = stem.with_suffix(suffix)
        with atomic_path(path) as tmp:
            fig.savefig(tmp, format=suffix[1:], metadata=meta, bbox_inches="tight")
        out.append(path)
    plt.close(fig)
    return out


def _module(name: str) -> ModuleType:
    try:
        return importlib.import_module(CHARTS[name])
    except KeyError:
        raise WizsimError(f"unknown chart {name!r}: use one of {', '.join(sorted(CHARTS))}") from None


def read_result(stem: str, results: str | Path | None = None) -> pd.DataFrame:
    """Read ``results/<stem>.csv``, a table an analysis wrote.

    Parameters
    ----------
    stem : str
        The file name without ``.csv``, e.g. ``"players_compared_strategies"``.
    results : str or Path, optional
        The results directory (default: the checkout's ``results/``, :data:`RESULTS`).

    Returns
    -------
    pandas.DataFrame
        The table as written.
    """
    import pandas as pd

    path = Path(results if results is not None else RESULTS) / f"{stem}.csv"
    if not path.is_file():
        raise WizsimError(f"no table {path}: run `wizsim report` (or pass results= the directory that has it)")
    return pd.read_csv(path)


def chart(name: str, results: str | Path | None = None, **options) -> Figure:
    """Draw a chart of ``results/`` from its CSV files.

    Parameters
    ----------
    name : str
        The chart, a key of :data:`CHARTS` (the stem of ``results/<name>.png``).
    results : str or Path, optional
        The directory with the CSV files (default: the checkout's ``results/``).
    **options
        Passed on to the chart module's ``draw`` (e.g. colours, a subset).

    Returns
    -------
    matplotlib.figure.Figure
        The chart; :func:`save` writes it as ``.png`` and ``.svg``.
    """
    module = _module(name)
    tables = [read_result(stem, results) for stem in module.TABLES]
    return module.draw(*tables, **options)


def provenance(analysis_name: str, results: str | Path | None = None, show: bool = False) -> dict:
    """Where an analysis's committed files come from: its command, seed, sample, headline and file digests.

    Parameters
    ----------
    analysis_name : str
        The analysis (``analyses/<name>.py``), e.g. ``"bid_probabilities"``.
    results : str or Path, optional
        The results directory (default: the checkout's ``results/``).
    show : bool, default False
        Also print its command, seed, sample and headline (the gallery's second cell).

    Returns
    -------
    dict
        The analysis's entry of ``results/sections.json``: ``command``, ``seed``, ``sample``, ``headline``,
        ``files`` and ``digests`` (sha256 of each file).
    """
    path = Path(results if results is not None else RESULTS) / "sections.json"
    try:
        sections = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise WizsimError(f"cannot read {path}: {exc}; run `wizsim report` to write it") from None
    if analysis_name not in sections:
        raise WizsimError(f"no analysis {analysis_name!r} in {path}: use one of {', '.join(sorted(sections))}")
    prov = dict(sections[analysis_name])
    if show:
        for key in ("command", "seed", "sample", "headline"):
            print(f"{key}: {prov[key]}")
    return prov


def analysis(name: str) -> ModuleType:
    """Import ``analyses/<name>.py`` of the checkout, to rerun its question or reuse its functions.

    Parameters
    ----------
    name : str
        The analysis, e.g. ``"strategies_by_round_size"``.

    Returns
    -------
    module
        The analysis script as a module (its ``run``, ``NAME``, ``SIZES`` and helpers).
    """
    from ..report.report import load_analysis

    path = ANALYSES / f"{name}.py"
    if not path.is_file():
        found = sorted(p.stem for p in ANALYSES.glob("*.py"))
        raise WizsimError(f"no analysis {path}: use one of {', '.join(found)}")
    return load_analysis(path)


def example_size(small: int, tiny: int) -> int:
    """The sample size of a gallery example: ``small`` for the site, ``tiny`` in the tests.

    The test suite sets ``WIZSIM_EXAMPLES=tiny`` to run every example quickly.

    Parameters
    ----------
    small : int
        The size the site's build runs (seconds, not minutes).
    tiny : int
        The size the tests run.

    Returns
    -------
    int
        ``tiny`` when the environment variable ``WIZSIM_EXAMPLES`` is ``tiny``, else ``small``.
    """
    return tiny if os.environ.get("WIZSIM_EXAMPLES", "") == "tiny" else small


def sample_sizes(table: pd.DataFrame, deals: int | None = None, games: int | None = None) -> tuple[int, int]:
    """The sample sizes a two-panel chart's title quotes: duplicate deals and full games per player count.

    The table's first format (``4x10``, duplicate deals) gives the deals, its second (full games) the games;
    an explicit value is kept.

    Parameters
    ----------
    table : pandas.DataFrame
        A table with a row per (format, entry) and its ``deals``, the duplicate format first.
    deals, games : int, optional
        The values to quote instead.

    Returns
    -------
    tuple of int
        ``(deals, games)``; games is 0 when the table has one format.
    """
    fmts = list(dict.fromkeys(table.format))
    if deals is None:
        deals = int(table[table.format == fmts[0]].deals.iloc[0])
    if games is None:
        games = int(table[table.format == fmts[1]].deals.iloc[0]) if len(fmts) > 1 else 0
    return deals, games
