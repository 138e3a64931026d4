"""rhoscope: anchor contamination (ρ_k) in LLM-judge panels, from Python.

Every function runs the same library code as the ``rhoscope`` command of the same name, and
its result's ``to_dict()`` is exactly that command's ``--json``::

    import rhoscope
    result = rhoscope.battery(df)          # a DataFrame of judge and anchor scores
    result                                 # the reading first: which estimate to read, ρ̂ and CIs
    result.tidy()                          # one row per estimator and anchor
"""

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
from ._errors import IdentificationError, InputError, RhoscopeError, UsageError
from ._results import Battery, Estimate, Identify, Plan, Power, Result, Validate
from ._rhoscope import __version__

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
