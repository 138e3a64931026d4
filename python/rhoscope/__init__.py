"""rhoscope: anchor contamination (ρ_k) in LLM-judge panels, from Python.

Every function runs the same library code as the ``rhoscope`` command of the same name, and
its result's ``to_dict()`` is exactly that command's ``--json``::

    import rhoscope
    result = rhoscope.battery(df)          # a DataFrame of judge and anchor scores
    result                                 # the reading first: which estimate to read, ρ̂ and CIs
    result.tidy()                          # one row per estimator and anchor

The names load on first use, so the ``rhoscope`` command (which runs the extension alone)
starts without importing the functions, pandas or numpy.
"""

from __future__ import annotations

from ._rhoscope import __version__

# Not `from typing import TYPE_CHECKING`: importing typing costs the command more start-up
# than the extension's own load; type checkers read the constant as typing's.
TYPE_CHECKING = False

if TYPE_CHECKING:
    from ._api import (
        battery,
        estimate,
        export,
        identify,
        plan,
        plot,
        power,
        simulate,
        validate,
    )
    from ._designs import Identify, Plan, Power, Validate
    from ._errors import IdentificationError, InputError, RhoscopeError, UsageError
    from ._results import Battery, Estimate, Result

#: Each public name and the module that defines it.
_HOME = {
    **dict.fromkeys(
        ["battery", "estimate", "export", "identify", "plan", "plot", "power", "simulate", "validate"], "._api"
    ),
    **dict.fromkeys(["IdentificationError", "InputError", "RhoscopeError", "UsageError"], "._errors"),
    **dict.fromkeys(["Battery", "Estimate", "Result"], "._results"),
    **dict.fromkeys(["Identify", "Plan", "Power", "Validate"], "._designs"),
}

__all__ = [
    "Battery",
    "Estimate",
    "IdentificationError",
    "Identify",
    "InputError",
    "Plan",
    "Power",
    "Result",
    "RhoscopeError",
    "UsageError",
    "Validate",
    "__version__",
    "battery",
    "estimate",
    "export",
    "identify",
    "plan",
    "plot",
    "power",
    "simulate",
    "validate",
]


def __getattr__(name: str) -> object:
    """A public name, imported from its module the first time it is asked for."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'rhoscope' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(home, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list:
    return list(__all__)


del TYPE_CHECKING
