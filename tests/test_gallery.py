"""The documentation gallery: every chart of results/ has its drawing module and its example, the chart redrawn
from the committed CSV is the committed chart, and every example runs (at the tiny size, ``WIZSIM_EXAMPLES=tiny``)."""

from __future__ import annotations

import hashlib
import runpy
from pathlib import Path

import matplotlib.pyplot as plt
import pytest

import wizsim.plotting as wp
from wizsim.errors import WizsimError

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("plot_*.py"))
CHARTS = sorted(p.stem for p in (ROOT / "results").glob("*.png"))


def test_every_chart_is_registered_and_has_an_example():
    assert CHARTS and sorted(wp.CHARTS) == CHARTS
    examples = {p.stem.removeprefix("plot_") for p in EXAMPLES}
    assert set(CHARTS) <= examples, set(CHARTS) - examples
    assert {"my_bid_rule", "advisor_one_hand", "my_variant"} <= examples


@pytest.mark.parametrize("name", CHARTS)
def test_a_chart_redrawn_from_its_csv_is_the_committed_chart(name, tmp_path):
    """``wizsim.plotting.chart`` draws from the CSV files as the analysis drew the committed PNG (house style:
    byte-stable files)."""
    wp.save(wp.chart(name), tmp_path / name)
    got = hashlib.sha256((tmp_path / f"{name}.png").read_bytes()).hexdigest()
    assert got == hashlib.sha256((ROOT / "results" / f"{name}.png").read_bytes()).hexdigest()


def test_unknown_names_are_refused_with_the_choices():
    with pytest.raises(WizsimError, match="unknown chart 'nope': use one of .*players_compared"):
        wp.chart("nope")
    with pytest.raises(WizsimError, match="no analysis 'nope' in .*sections.json: use one of"):
        wp.provenance("nope")
    with pytest.raises(WizsimError, match="no analysis .*nope.py: use one of"):
        wp.analysis("nope")


def test_example_size_follows_the_environment(monkeypatch):
    monkeypatch.setenv("WIZSIM_EXAMPLES", "tiny")
    assert wp.example_size(small=1000, tiny=3) == 3
    monkeypatch.delenv("WIZSIM_EXAMPLES")
    assert wp.example_size(small=1000, tiny=3) == 1000


@pytest.mark.parametrize("script", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_an_example_runs_at_the_tiny_size(script, monkeypatch, capsys):
    monkeypatch.setenv("WIZSIM_EXAMPLES", "tiny")
    monkeypatch.chdir(script.parent)  # as sphinx-gallery runs it
    try:
        runpy.run_path(str(script), run_name="__main__")
        assert plt.get_fignums(), "an example draws at least one chart"
        assert capsys.readouterr().out, "an example prints its provenance or its numbers"
    finally:
        plt.close("all")
