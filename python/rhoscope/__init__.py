"""rhoscope: anchor contamination (ρ_k) in LLM-judge panels, from Python.

Every function runs the same library code as the ``rhoscope`` command of the same name, and
its result's ``to_dict()`` is exactly that command's ``--json``::

    import rhoscope
    result = rhoscope.battery(df)          # a DataFrame of judge and anchor scores
    result.verdicts()                      # one row per test
"""

from __future__ import annotations

import os
import sys
import tempfile
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Union

from . import _rhoscope
from ._data import prepare
from ._errors import IdentificationError, InputError, RhoscopeError, UsageError, from_failure
from ._results import Battery, Estimate, Identify, Plan, Power, Result, Validate

__version__: str = _rhoscope.__version__

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


def _value(v: Any) -> str:
    if isinstance(v, Mapping):
        return ",".join(f"{k}={x}" for k, x in v.items())
    if isinstance(v, (list, tuple)):
        return ",".join(str(x) for x in v)
    return str(v)


def _flags(**kw: Any) -> List[str]:
    """Command-line flags from keyword arguments: None and False are left out (the CLI's
    default applies), True is a bare flag, a sequence is a comma list."""
    out: List[str] = []
    for key, v in kw.items():
        if v is None or v is False:
            continue
        flag = "--" + key.replace("_", "-")
        if v is True:
            out.append(flag)
        elif key == "set":
            for k, x in v.items():
                out += ["--set", f"{k}={_value(x)}"]
        else:
            out += [flag, _value(v)]
    return out


# Keyword arguments that are no flag of the command: the data and how to read it, the
# threads (passed last, as the CLI's global flag) and a plot's kind (its positional argument).
_NOT_FLAGS = frozenset({"data", "names", "long", "threads", "kind"})
# The keyword arguments that describe a panel's columns: they make the typed panel request
# the library's loader takes, never command-line text.
_PANEL_OPTIONS = ("judges", "anchors", "set_aside", "families", "id", "continuous")


def _columns_of(key: str, value: Any) -> List[Union[str, int]]:
    """Column names (str) or 1-based positions (int) from any iterable, one by one."""
    if isinstance(value, (str, bytes, int)) or isinstance(value, Mapping):
        value = [value]
    try:
        items = list(value)
    except TypeError:
        raise UsageError(f"{key}= takes column names or 1-based positions, not a {type(value).__name__}", 2) from None
    out: List[Union[str, int]] = []
    for v in items:
        if hasattr(v, "item") and not isinstance(v, (str, bytes)):
            v = v.item()  # a numpy scalar
        if isinstance(v, bool) or not isinstance(v, (str, int)):
            raise UsageError(f"{key}= takes column names (str) or 1-based positions (int), not {v!r}", 2)
        if isinstance(v, int) and v < 1:
            raise UsageError(f"{key}=: position {v} is not a column; positions count from 1", 2)
        out.append(v)
    if not out and key in ("judges", "anchors"):
        raise UsageError(f"{key}= is empty: name the columns, or leave {key}= out for the header's name patterns", 2)
    return out


def _families_of(value: Any) -> Dict[str, Any]:
    """``families=`` as judge → family pairs or a file path."""
    if isinstance(value, (str, os.PathLike)):
        return {"families_file": os.fspath(value)}
    mod = type(value).__module__.split(".")[0]
    if mod == "pandas" and hasattr(value, "columns"):
        if len(value.columns) != 2:
            raise UsageError("families= as a DataFrame has two columns: judge, family", 2)
        pairs = list(zip(value.iloc[:, 0], value.iloc[:, 1]))
    elif hasattr(value, "items"):
        pairs = list(value.items())
    else:
        raise UsageError(
            f"families= takes a mapping of judge to family, a pandas Series or two-column DataFrame, or a path, not a {type(value).__name__}",
            2,
        )
    return {"families": [(str(j), str(f)) for j, f in pairs]}


def _panel_request(given: Mapping[str, Any]) -> Optional[Dict[str, Any]]:
    """The typed panel request of a function's keyword arguments (None: the defaults)."""
    request: Dict[str, Any] = {}
    for key in ("judges", "anchors", "set_aside"):
        if given.get(key) is not None:
            request[key] = _columns_of(key, given[key])
    if given.get("id") is not None:
        (request["id"],) = _columns_of("id", [given["id"]])
    if given.get("families") is not None:
        request.update(_families_of(given["families"]))
    continuous = given.get("continuous")
    if continuous is not None:
        if isinstance(continuous, str) and continuous.strip().lower() == "all":
            request["continuous_all"] = True
        else:
            names = _columns_of("continuous", continuous)
            if any(isinstance(c, int) for c in names):
                raise UsageError("continuous= takes column names, or \"all\"", 2)
            request["continuous"] = names
    return request


def _given_panel_options(given: Mapping[str, Any]) -> List[str]:
    """The panel keyword arguments given (not None)."""
    return [k for k in _PANEL_OPTIONS + ("long",) if given.get(k) is not None]


def _options(given: Mapping[str, Any]) -> List[str]:
    """The command's own flags: every argument of the function (its ``locals()``) that is
    neither a panel option nor the call's own, so a new option is one line in a signature."""
    return _flags(**{k: v for k, v in given.items() if k not in _NOT_FLAGS and k not in _PANEL_OPTIONS})


def _call(args: List[str], shown: Optional[str] = None, prepared: Any = None, panel: Any = None) -> tuple:
    try:
        text, notes, error = _rhoscope.run_json(args, shown, panel)
    except _rhoscope.Failure as f:
        code, message = f.args
        if prepared is not None:
            message = prepared.message(message)
        raise from_failure(code, message) from None
    if prepared is not None:
        notes = [prepared.message(n) for n in notes]
    return text, notes, error


def _panel_command(command: str, cls: type, given: Mapping[str, Any]) -> Any:
    """Runs a reporting command on the panel in ``given["data"]``."""
    request = _panel_request(given)
    p = prepare(given["data"], names=given["names"], long=given["long"])
    request["long"] = p.long
    args = [command, p.path] + _options(given)
    text, notes, error = _call(args + ["--json"] + _flags(threads=given["threads"]), p.shown, p, request)
    result = cls(text, notes)
    if error is not None:
        code, message = error
        exc = from_failure(code, p.message(message))
        exc.result = result  # type: ignore[attr-defined]
        raise exc
    return result


def _design_command(command: str, cls: type, given: Mapping[str, Any]) -> Any:
    """Runs a reporting command on a design (no panel; panel options are refused as usage)."""
    stray = _given_panel_options(given)
    if stray:
        raise UsageError(
            f"{stray[0]}= describes a panel: give data too, or leave it out for the paper's design", 2
        )
    args = [command] + _options(given) + ["--json"] + _flags(threads=given["threads"])
    text, notes, _ = _call(args)
    return cls(text, notes)


PanelData = Any


def estimate(
    data: PanelData,
    *,
    judges: Optional[Sequence[Union[str, int]]] = None,
    anchors: Optional[Sequence[Union[str, int]]] = None,
    set_aside: Optional[Sequence[Union[str, int]]] = None,
    families: Optional[Union[str, Mapping[str, str], os.PathLike, Any]] = None,
    method: Optional[str] = None,
    blocked: bool = False,
    designated_clean: Optional[Union[str, int]] = None,
    bias_correct: bool = False,
    bias_reps: Optional[int] = None,
    seed: Optional[int] = None,
    id: Optional[Union[str, int]] = None,
    long: Optional[Sequence[str]] = None,
    continuous: Optional[Union[str, Sequence[str]]] = None,
    names: Optional[Sequence[str]] = None,
    threads: Optional[int] = None,
) -> Estimate:
    """``rhoscope estimate``: every anchor's ρ̂ (Theorem 1), and ML / free-scale / blocked /
    designated-clean fits when asked (``method="closed" | "ml" | "both" | "free-scale" | "all"``)."""
    return _panel_command("estimate", Estimate, dict(locals()))


def battery(
    data: PanelData,
    *,
    judges: Optional[Sequence[Union[str, int]]] = None,
    anchors: Optional[Sequence[Union[str, int]]] = None,
    set_aside: Optional[Sequence[Union[str, int]]] = None,
    families: Optional[Union[str, Mapping[str, str], os.PathLike, Any]] = None,
    bootstrap: Optional[int] = None,
    null_draws: Optional[int] = None,
    seed: Optional[int] = None,
    codes_as_numbers: bool = False,
    fail_on_diagnostic: bool = False,
    id: Optional[Union[str, int]] = None,
    long: Optional[Sequence[str]] = None,
    continuous: Optional[Union[str, Sequence[str]]] = None,
    names: Optional[Sequence[str]] = None,
    threads: Optional[int] = None,
) -> Battery:
    """``rhoscope battery``: bootstrap CIs, the weak-ID screen and Tests A/B/C/J/O."""
    return _panel_command("battery", Battery, dict(locals()))


def identify(
    data: Optional[PanelData] = None,
    *,
    judges: Optional[Sequence[Union[str, int]]] = None,
    anchors: Optional[Sequence[Union[str, int]]] = None,
    set_aside: Optional[Sequence[Union[str, int]]] = None,
    families: Optional[Union[str, Mapping[str, str], os.PathLike, Any]] = None,
    id: Optional[Union[str, int]] = None,
    long: Optional[Sequence[str]] = None,
    continuous: Optional[Union[str, Sequence[str]]] = None,
    names: Optional[Sequence[str]] = None,
    threads: Optional[int] = None,
) -> Identify:
    """``rhoscope identify``: Section 7's hierarchy on a panel, or at the paper's design."""
    if data is None:
        return _design_command("identify", Identify, dict(locals()))
    return _panel_command("identify", Identify, dict(locals()))


def validate(
    data: PanelData,
    *,
    inject: Optional[Sequence[float]] = None,
    n: Optional[Sequence[int]] = None,
    reps: Optional[int] = None,
    seed: Optional[int] = None,
    bootstrap: Optional[int] = None,
    null_draws: Optional[int] = None,
    balanced: bool = False,
    judges: Optional[Sequence[Union[str, int]]] = None,
    anchors: Optional[Sequence[Union[str, int]]] = None,
    set_aside: Optional[Sequence[Union[str, int]]] = None,
    families: Optional[Union[str, Mapping[str, str], os.PathLike, Any]] = None,
    id: Optional[Union[str, int]] = None,
    long: Optional[Sequence[str]] = None,
    continuous: Optional[Union[str, Sequence[str]]] = None,
    names: Optional[Sequence[str]] = None,
    threads: Optional[int] = None,
) -> Validate:
    """``rhoscope validate``: recovery of injected ρ on synthetic panels built on the
    judges' own textures."""
    return _panel_command("validate", Validate, dict(locals()))


def power(
    *,
    design: str,
    strength: Union[float, Sequence[float]],
    n: Union[int, Sequence[int]],
    reps: Optional[int] = None,
    null_draws: Optional[int] = None,
    coverage: Optional[int] = None,
    seed: Optional[int] = None,
    ordinal: Optional[int] = None,
    skewed: bool = False,
    threads: Optional[int] = None,
) -> Power:
    """``rhoscope power``: a test's false-positive rate and power by simulation."""
    return _design_command("power", Power, dict(locals()))


def plan(
    *,
    target: str,
    preset: Optional[str] = None,
    reps: Optional[int] = None,
    null_draws: Optional[int] = None,
    bootstrap: Optional[int] = None,
    max_n: Optional[int] = None,
    seed: Optional[int] = None,
    threads: Optional[int] = None,
    **set: Any,
) -> Plan:
    """``rhoscope plan``: the N a design needs for a target; keyword arguments beyond these
    are ``--set KEY=VALUE`` overrides of the preset."""
    return _design_command("plan", Plan, dict(locals()))


def _files(args: List[str], prepared: Any = None, panel: Any = None) -> List[str]:
    """Runs a file-writing command; returns the notes it wrote on stderr (the panel's
    temporary path replaced by its shown name, the "wrote FILE" line left out)."""
    failure = None
    with tempfile.TemporaryFile() as err:
        saved = os.dup(2)
        try:
            sys.stderr.flush()
            os.dup2(err.fileno(), 2)
            try:
                _rhoscope.run_files(args, panel)
            except _rhoscope.Failure as f:
                failure = f.args
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        err.seek(0)
        lines = err.read().decode("utf-8", "replace").splitlines()
    notes = [
        prepared.message(line) if prepared is not None else line
        for line in lines
        if line and not line.startswith("rhoscope: wrote ")
    ]
    if failure is not None:
        code, message = failure
        if prepared is not None:
            message = prepared.message(message)
        raise from_failure(code, message) from None
    return notes


def simulate(
    preset: Optional[str] = None,
    *,
    n: int,
    seed: int,
    threads: Optional[int] = None,
    **set: Any,
) -> Any:
    """``rhoscope simulate``: a panel drawn from a scenario, as a pandas DataFrame (the
    numbers of the command's CSV, bit for bit); keyword arguments beyond these are
    ``--set KEY=VALUE`` overrides. Judge families, when the design has them, are in
    ``df.attrs["families"]``."""
    given = dict(locals())
    import pandas as pd

    with tempfile.TemporaryDirectory(prefix="rhoscope-") as d:
        out = os.path.join(d, "panel.csv")
        args = ["simulate"] + _options(given) + ["-o", out]
        _files(args + _flags(threads=threads))
        # pandas 3 parses floats exactly by default; earlier versions only when asked.
        exact = {} if int(pd.__version__.split(".")[0]) >= 3 else {"float_precision": "round_trip"}
        df = pd.read_csv(out, **exact)
        side = os.path.join(d, "panel.families.csv")
        if os.path.exists(side):
            fam = pd.read_csv(side, dtype=str)
            df.attrs["families"] = dict(zip(fam["judge"], fam["family"]))
    return df


def export(
    data: Union[str, os.PathLike],
    *,
    syntax: Optional[str] = None,
    output: Optional[Union[str, os.PathLike]] = None,
    force: bool = False,
    judges: Optional[Sequence[Union[str, int]]] = None,
    anchors: Optional[Sequence[Union[str, int]]] = None,
    set_aside: Optional[Sequence[Union[str, int]]] = None,
    families: Optional[Union[str, Mapping[str, str], os.PathLike, Any]] = None,
    id: Optional[Union[str, int]] = None,
    continuous: Optional[Union[str, Sequence[str]]] = None,
) -> str:
    """``rhoscope export``: the model as a lavaan or semopy script (text), also written to
    ``output`` when given. The script reads the panel file again, so ``data`` is a path; a
    file it cannot read (Parquet, JSON, gzip) needs ``output``, beside which its data is
    written as CSV (``refit.R`` → ``refit.data.csv``)."""
    if not isinstance(data, (str, os.PathLike)):
        raise UsageError(
            "export writes a script that reads the panel file again: give the path of a panel file "
            "(e.g. df.to_csv('panel.csv', index=False))",
            2,
        )
    given = dict(locals())
    given["output"] = None if output is None else os.fspath(output)
    if output is not None:
        _files(["export", os.fspath(data)] + _options(given), panel=_panel_request(given))
        with open(given["output"], encoding="utf-8") as f:
            return f.read()
    with tempfile.TemporaryDirectory(prefix="rhoscope-") as d:
        out = os.path.join(d, "model.txt")
        _files(["export", os.fspath(data)] + _options({**given, "output": out}), panel=_panel_request(given))
        if os.path.exists(os.path.join(d, "model.data.csv")):
            raise UsageError(
                f"{os.fspath(data)}: the script cannot read this file's format: give output='refit.R' "
                "(or .py), and the panel's data is written beside the script as CSV",
                2,
            )
        with open(out, encoding="utf-8") as f:
            return f.read()


def plot(
    kind: str,
    data: Optional[PanelData] = None,
    *,
    preset: Optional[str] = None,
    n: Optional[int] = None,
    ns: Optional[Sequence[int]] = None,
    strength: Optional[float] = None,
    reps: Optional[int] = None,
    bootstrap: Optional[int] = None,
    null_draws: Optional[int] = None,
    seed: Optional[int] = None,
    judges: Optional[Sequence[Union[str, int]]] = None,
    anchors: Optional[Sequence[Union[str, int]]] = None,
    set_aside: Optional[Sequence[Union[str, int]]] = None,
    families: Optional[Union[str, Mapping[str, str], os.PathLike, Any]] = None,
    id: Optional[Union[str, int]] = None,
    long: Optional[Sequence[str]] = None,
    continuous: Optional[Union[str, Sequence[str]]] = None,
    names: Optional[Sequence[str]] = None,
    threads: Optional[int] = None,
    **set: Any,
) -> str:
    """``rhoscope plot KIND``: a figure as SVG text (``rho``, ``bootstrap`` and ``battery`` on
    a panel or a scenario; ``power`` and ``boundary`` on a scenario)."""
    given = dict(locals())
    prepared = None
    request = None
    args = ["plot", kind]
    if data is not None:
        request = _panel_request(given)
        prepared = prepare(data, names=names, long=long)
        request["long"] = prepared.long
        args.append(prepared.path)
    elif _given_panel_options(given):
        raise UsageError(
            f"{_given_panel_options(given)[0]}= describes a panel: give data too, or leave it out for a scenario", 2
        )
    args += _options(given)
    with tempfile.TemporaryDirectory(prefix="rhoscope-") as d:
        out = os.path.join(d, "figure.svg")
        _files(args + ["-o", out] + _flags(threads=threads), prepared, request)
        with open(out, encoding="utf-8") as f:
            svg = f.read()
    if prepared is not None and prepared.shown:
        # The figure's title names the panel file; an in-memory panel is named by its kind.
        svg = svg.replace(os.path.basename(prepared.path), prepared.shown.strip("<>"))
    return svg
