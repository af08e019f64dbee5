"""wizsim: Monte-Carlo analysis and simulation of the card game Wizard."""

__version__ = "0.1.0"

from .errors import WizsimError  # noqa: E402
from .rules import Rules, parse_rules  # noqa: E402
from .simulate import SimulationResult, simulate, simulate_result  # noqa: E402

__all__ = ["Rules", "SimulationResult", "WizsimError", "__version__", "parse_rules", "simulate", "simulate_result"]
