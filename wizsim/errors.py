"""Errors that wizsim reports to the user as one line (exit status 2 on the command line)."""


class WizsimError(ValueError):
    """Bad input: the message says what is wrong and how to fix it."""


def one_line(exc: BaseException) -> str:
    """An exception's message on one line (a user's code may raise messages with newlines), or its type's name."""
    return " ".join(str(exc).split()) or type(exc).__name__
