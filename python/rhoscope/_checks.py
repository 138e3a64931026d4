"""Each keyword argument checked by its Python type before the library sees it; every
refusal is one line naming the keyword the user typed."""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Iterable, Mapping
from typing import Any

from ._errors import UsageError

#: The largest whole number the library takes (an unsigned 64-bit count).
_MAX = 2**64 - 1


def refuse(message: str) -> UsageError:
    """A usage error (the command line's exit code 2)."""
    return UsageError(message, 2)


def _scalar(v: Any) -> Any:
    """A numpy scalar as its Python value."""
    if hasattr(v, "item") and not isinstance(v, (str, bytes)) and getattr(v, "ndim", None) == 0:
        return v.item()
    return v


def count(key: str, v: Any, signed: bool = False) -> int | None:
    """A whole number ≥ 0 (the library checks its range), or None; ``signed`` passes a
    negative one on, for a library that states the whole range in its refusal."""
    if v is None:
        return None
    v = _scalar(v)
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        raise refuse(f"{key}= takes a whole number, not {v!r}")
    v = int(v)
    if signed:
        if not -(2**63) <= v < 2**63:
            raise refuse(f"{key}= is out of range: {v}")
        return v
    if not 0 <= v <= _MAX:
        raise refuse(f"{key}= takes a whole number from 0 up, not {v}" if v < 0 else f"{key}= is too large: {v}")
    return v


def number(key: str, v: Any) -> float | None:
    """A finite real number, or None."""
    if v is None:
        return None
    v = _scalar(v)
    if isinstance(v, bool) or not isinstance(v, numbers.Real):
        raise refuse(f"{key}= takes a number, not {v!r}")
    if not math.isfinite(float(v)):
        raise refuse(f"{key}= takes a finite number, not {v!r}")
    return float(v)


def flag(key: str, v: Any) -> bool:
    """True or False (numpy's too)."""
    v = _scalar(v)
    if not isinstance(v, bool):
        raise refuse(f"{key}= takes True or False, not {v!r}")
    return v


def collected(key: str, data: Any) -> Any:
    """A polars LazyFrame collected (its query's failure as one line naming `key`); any
    other value as it is."""
    if type(data).__module__.split(".")[0] != "polars" or type(data).__name__ != "LazyFrame":
        return data
    try:
        return data.collect()
    except Exception as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise UsageError(f"{key}= is a LazyFrame whose query fails: {first}", 2) from None


def text(key: str, v: Any) -> str | None:
    """A string, or None."""
    if v is None:
        return None
    if not isinstance(v, str):
        raise refuse(f"{key}= takes a string, not {v!r}")
    return v


def items(key: str, v: Any) -> list:
    """The values of any ordered iterable (list, tuple, Index, array, Series, generator); one
    value is a list of one. A set has no order and is refused; so is a mapping."""
    if isinstance(v, (str, bytes, numbers.Number)) or getattr(v, "ndim", None) == 0:
        return [v]
    if isinstance(v, (set, frozenset)):
        fix = "the columns' names in their order" if key == "names" else "a list (e.g. sorted(...))"
        raise refuse(f"{key}= is a set, which has no order: give {fix}")
    if isinstance(v, Mapping):
        raise refuse(f"{key}= takes a list, not a {type(v).__name__}")
    if not isinstance(v, Iterable) and not hasattr(v, "__iter__"):
        raise refuse(f"{key}= takes a list, not a {type(v).__name__}")
    return [_scalar(x) for x in v]


def counts(key: str, v: Any) -> list | None:
    """Whole numbers (one or several), or None."""
    if v is None:
        return None
    out = [count(key, x) for x in items(key, v)]
    if not out:
        raise refuse(f"{key}= is empty: give at least one value")
    return out


def numbers_(key: str, v: Any) -> list | None:
    """Real numbers (one or several), or None."""
    if v is None:
        return None
    out = [number(key, x) for x in items(key, v)]
    if not out:
        raise refuse(f"{key}= is empty: give at least one value")
    return out


def column(key: str, v: Any) -> str | int:
    """A column: its name (str), or a number read by the command's rule: the column of that
    name if there is one (a frame's integer labels), else the 1-based position."""
    v = _scalar(v)
    if isinstance(v, bool) or not isinstance(v, (str, numbers.Integral)):
        raise refuse(f"{key}= takes column names (str) or 1-based positions (int), not {v!r}")
    if isinstance(v, numbers.Integral):
        if not -(2**127) <= int(v) < 2**127:
            raise refuse(f"{key}=: {v} is no column's name or position")
        return int(v)
    return v


def columns(key: str, v: Any) -> list | None:
    """Columns by name or position, in the order given; `judges=` and `anchors=` are never
    empty (leave them out for the header's name patterns)."""
    if v is None:
        return None
    out = [column(key, x) for x in items(key, v)]
    if not out and key in ("judges", "anchors"):
        raise refuse(f"{key}= is empty: name the columns, or leave {key}= out for the header's name patterns")
    return out


def families(v: Any) -> dict:
    """`families=` as the request's judge → family pairs or a file path."""
    if isinstance(v, (str, os.PathLike)):
        return {"families_file": os.fspath(v)}
    v = collected("families", v)
    mod = type(v).__module__.split(".")[0]
    if mod in ("pandas", "polars") and hasattr(v, "columns"):
        if len(v.columns) != 2:
            raise refuse(f"families= as a DataFrame has two columns (judge, family), not {len(v.columns)}")
        first, second = (list(v[c]) for c in v.columns) if mod == "polars" else (list(v.iloc[:, 0]), list(v.iloc[:, 1]))
        pairs = list(zip(first, second))
    elif mod == "pandas" and hasattr(v, "index"):
        pairs = list(v.items())
    elif isinstance(v, Mapping):
        pairs = list(v.items())
    elif mod == "polars":
        raise refuse(
            "families= is a polars Series, which has no judge names: give a dict of judge to family, "
            "a pandas Series indexed by judge, a two-column frame (judge, family) or a path"
        )
    else:
        raise refuse(
            "families= takes a dict of judge to family, a pandas Series indexed by judge, a two-column "
            f"frame (judge, family) or a path, not a {type(v).__name__}"
        )
    if not pairs:
        raise refuse("families= is empty: give judge → family pairs, or leave it out")
    out = []
    for j, f in pairs:
        for what in (j, f):
            if what is None or (isinstance(what, float) and math.isnan(what)) or type(what).__name__ == "NAType":
                raise refuse(f"families= has a missing value in the pair ({j!r}, {f!r})")
            if not isinstance(_scalar(what), (str, numbers.Number)):
                raise refuse(f"families= pairs a judge with a family name, not ({j!r}, {f!r})")
        out.append((str(_scalar(j)), str(_scalar(f))))
    return {"families": out}


#: Keywords of the panel functions that a scenario function does not take (`families` is
#: also a scenario parameter, the number of judge families, as `--set families=3` is).
_NOT_SCENARIO = ("data", "judges", "anchors", "set_aside", "id", "long", "continuous", "names")


def overrides(set: Mapping[str, Any], what: str) -> list:
    """Scenario overrides as (key, value) pairs: a number, a list of numbers, or the
    scenario's own text; None is a parameter left out."""
    out = []
    for key, v in set.items():
        if key in _NOT_SCENARIO:
            hint = "; for a panel's fitted design, rhoscope.battery(data) gives the plan() call" if what == "plan" else ""
            raise refuse(f"{what}() takes no {key}=: it works on a scenario (preset= and its parameters), not a panel{hint}")
        if v is None:
            continue
        if isinstance(v, str):
            out.append((key, v))  # the scenario's own text ("0.2,0.5")
        elif key == "families":
            out.append((key, _scenario_families(v)))
        else:
            out.append((key, ",".join(setting(x) for x in numbers_(key, v) or [])))
    return out


def _scenario_families(v: Any) -> str:
    """A scenario's `families=`: a count of judge families, or one label per judge (a list of
    names, none with a comma in it), as the scenario's text."""
    v = _scalar(v)
    if isinstance(v, numbers.Real) and not isinstance(v, bool):
        return setting(number("families", v) or 0.0)
    if isinstance(v, (Mapping, str, bytes)) or hasattr(v, "columns"):
        raise refuse(
            f"families= in a scenario is a count of judge families or one label per judge (a list), "
            f"not a {type(v).__name__}; a panel's judge → family mapping goes to estimate() or battery()"
        )
    labels = items("families", v)
    if not labels or not all(isinstance(x, str) for x in labels):
        raise refuse("families= in a scenario is a count of judge families or a list of one label (str) per judge")
    if any("," in x for x in labels):
        raise refuse(f"families=: a family label has no comma in it, not {next(x for x in labels if ',' in x)!r}")
    return ",".join(labels)


def setting(x: float) -> str:
    """A setting's number as the scenario reads it: a whole number without ".0" (p=6, not
    "6.0", which a whole-number key refuses), any other exactly (repr round-trips)."""
    if x.is_integer() and abs(x) < 2**53:
        return str(int(x))
    return repr(x)


def family_count(v: Any) -> bool:
    """Whether `families=` is a number (the scenario parameter), not a panel's families."""
    v = _scalar(v)
    return isinstance(v, (int, float)) and not isinstance(v, bool)


#: What the COLS part of a scenario's ``ordinal=``/``thresholds=`` may be.
_COLS = "COLS is judges, anchors, all or one column (J1, A2, …)"


def scenario_words(message: str, scenario: Any) -> str:
    """A scenario parameter's refusal in Python's terms: the keyword that gave a column,
    what ``COLS`` may be, labels as a list."""
    keys = [k for k in ("ordinal", "thresholds") if k in scenario]
    if keys and message.startswith("no column '") and "(columns are J1.." in message:
        message = f"{'= or '.join(keys)}=: {message}"
    for key in keys:
        if message.startswith(f"{key}=") and message.endswith(("expected COLS:LEVELS", "expected COLS:p1/p2/…")):
            example = 'ordinal="anchors:5"' if key == "ordinal" else 'thresholds="A1:0.2/0.5/0.8"'
            message = f'{key}= takes "COLS:{message.rsplit(":", 1)[1]}" text ({_COLS}; e.g. {example}), not {message.split(":")[0][len(key) + 1 :]}'
    if "families" in scenario and message.startswith("families= '"):
        message = message.replace("or one label per judge, comma-separated", 'or a list of one label per judge (families=["a", "a", "b", "b", "c", "c"])')
    return message
