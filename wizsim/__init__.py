"""wizsim: Monte-Carlo analysis and simulation of the card game Wizard."""

from .errors import WizsimError
from .rules import Rules, parse_rules
from .simulate import SimulationResult, simulate, simulate_result
from .version import __version__

__all__ = ["Rules", "SimulationResult", "WizsimError", "__version__", "parse_rules", "simulate", "simulate_result"]
