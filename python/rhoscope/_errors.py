"""The exceptions: one per kind of failure of the command line, carrying its message."""

from __future__ import annotations


class RhoscopeError(Exception):
    """Any rhoscope failure; ``exit_code`` is the command line's for the same failure."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


class InputError(RhoscopeError):
    """The data cannot be used: unreadable, malformed, too small (exit codes 65 and 66)."""


class IdentificationError(RhoscopeError):
    """ρ is not identified on this panel, e.g. every column ordinal (exit code 3)."""


class UsageError(RhoscopeError):
    """An argument is wrong or does not fit the data (exit code 2)."""


_BY_CODE = {2: UsageError, 3: IdentificationError, 65: InputError, 66: InputError}


def from_failure(code: int, message: str) -> RhoscopeError:
    """The exception for a library error with this exit code."""
    message = message[len("rhoscope: ") :] if message.startswith("rhoscope: ") else message
    # The identification refusal points to the command; here the function says the same.
    message = message.replace("`rhoscope identify` shows why", "rhoscope.identify(data) shows why")
    return _BY_CODE.get(code, RhoscopeError)(message, code)
