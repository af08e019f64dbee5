"""wizsim: Monte-Carlo analysis and simulation of the card game Wizard."""

# First: importing the compatibility module wizsim.simulate later would rebind the package's attribute
# ``simulate`` (the function below) to the module.
from . import simulate as _compat_simulate  # noqa: F401

# isort: split
from .errors import WizsimError
from .game.rules import Rules, parse_rules
from .players.strategies import ABSTAIN, bid_rule, external, play_rule
from .run.parallel import RunOptions
from .run.simulate import SimulationResult, simulate, simulate_result
from .version import __version__

__all__ = [
    "ABSTAIN",
    "Rules",
    "RunOptions",
    "SimulationResult",
    "WizsimError",
    "__version__",
    "bid_rule",
    "external",
    "parse_rules",
    "play_rule",
    "simulate",
    "simulate_result",
]
