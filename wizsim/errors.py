"""Errors that wizsim reports to the user as one line (exit status 2 on the command line)."""


class WizsimError(ValueError):
    """Bad input: the message says what is wrong and how to fix it."""
