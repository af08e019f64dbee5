"""The wizsim version (its own module: every other module may import it without an import circle)."""

__version__ = "0.1.0"
