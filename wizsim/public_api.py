"""The public API of wizsim: the functions and classes its users call, by dotted name.

:data:`PUBLIC` is the one list of them. The documentation's API reference
(``docs/conf.py``) documents exactly these names, from their docstrings, and
``tests/test_docstrings.py`` checks that each one (and, for a class, each of
its public methods) has a numpydoc docstring with a summary, every parameter
of its signature and, when it returns something, a Returns section.
Everything else in the package is internal and may change.

The names are strings, so importing this module imports nothing else; the
environment's names (``wizsim.env``) need the extra ``wizsim[env]`` and the
OpenSpiel game's (``wizsim.env.openspiel``) the extra ``wizsim[openspiel]``.
"""

from __future__ import annotations

PUBLIC: list[str] = [
    # wizsim.__all__ (its functions and classes; ABSTAIN and __version__ are constants)
    "wizsim.simulate",
    "wizsim.simulate_result",
    "wizsim.SimulationResult",
    "wizsim.RunOptions",
    "wizsim.Rules",
    "wizsim.parse_rules",
    "wizsim.bid_rule",
    "wizsim.play_rule",
    "wizsim.external",
    "wizsim.WizsimError",
    # tools: tournaments, the advisors, the review of a recorded game
    "wizsim.tools.tournament.tournament",
    "wizsim.tools.tournament.TournamentResult",
    "wizsim.tools.advise.advise",
    "wizsim.tools.advise.BidOptions",
    "wizsim.tools.advise.Advice",
    "wizsim.tools.advise_play.advise_play",
    "wizsim.tools.advise_play.PlayOptions",
    "wizsim.tools.advise_play.PlayAdvice",
    "wizsim.tools.review.review",
    "wizsim.tools.review.Review",
    # histories: the rounds and games as HISTORY.md records them
    "wizsim.run.history.history",
    "wizsim.run.history.write_history",
    "wizsim.game.history_file.read_history",
    "wizsim.game.history_file.HistoryLine",
    # the report: the analyses of analyses/ and their results
    "wizsim.report.report.run_report",
    # the agents' environments (wizsim.env.__all__) and the OpenSpiel game's bots
    "wizsim.env.WizardEnv",
    "wizsim.env.agent",
    "wizsim.env.VecWizardEnv",
    "wizsim.env.openspiel.builtin_action",
    "wizsim.env.openspiel.WizsimBot",
    # the charts of results/, in the house style
    "wizsim.plotting.chart",
    "wizsim.plotting.read_result",
    "wizsim.plotting.provenance",
    "wizsim.plotting.analysis",
    "wizsim.plotting.example_size",
    "wizsim.plotting.sample_sizes",
    "wizsim.plotting.figure",
    "wizsim.plotting.save",
]

__all__ = ["PUBLIC"]
