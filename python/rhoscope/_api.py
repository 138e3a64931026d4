"""The package's functions: each checks its keyword arguments by type, hands the library a
typed call (the panel request and the command's options, never a command line), and wraps
the document it returns."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, Optional, Union

from . import _checks as c
from . import _rhoscope
from ._designs import Identify, Plan, Power, Validate
from ._errors import UsageError, from_failure
from ._results import Battery, Estimate

#: A panel: a pandas or polars DataFrame (or LazyFrame), a 2-D numpy array with `names=`, a
#: mapping of columns, or a path.
PanelData = Any
#: Columns by name or 1-based position: a list, tuple, Index, array or generator.
Columns = Optional[Union[str, int, Sequence[Union[str, int]], Any]]
#: Judge families: a mapping of judge to family, a Series, a two-column frame or a path.
FamiliesArg = Optional[Union[str, "os.PathLike[str]", Mapping[str, str], Any]]


def _request(given: Mapping[str, Any]) -> dict:
    """The typed panel request of the panel keyword arguments."""
    request: dict = {}
    for key in ("judges", "anchors", "set_aside"):
        cols = c.columns(key, given.get(key))
        if cols is not None:
            request[key] = cols
    if given.get("id") is not None:
        request["id"] = c.column("id", given["id"])
    if given.get("families") is not None:
        request.update(c.families(given["families"]))
    cont = given.get("continuous")
    if cont is not None:
        if isinstance(cont, str) and cont.strip().lower() == "all":
            request["continuous_all"] = True
        else:
            names = c.columns("continuous", cont) or []
            if any(isinstance(x, int) for x in names):
                raise c.refuse('continuous= takes column names, or "all"')
            request["continuous"] = names
    return request


_PANEL_KEYS = ("judges", "anchors", "set_aside", "families", "id", "continuous", "long", "names")


def _no_panel_options(given: Mapping[str, Any], what: str) -> None:
    stray = [k for k in _PANEL_KEYS if given.get(k) is not None]
    if stray:
        raise c.refuse(f"{stray[0]}= describes a panel: give data too, or leave it out for {what}")


def _failure(f: Exception, prepared: Any, families: Any = None, scenario: Any = ()) -> Exception:
    code, message = f.args
    for key in scenario:
        # A scenario parameter as the keyword typed: `rho= 'abc' …`, not `rho: 'abc' …` or
        # `dist 't': …`.
        for said in (f"{key}: '", f"{key} '"):
            if message.startswith(said):
                message = f"{key}= {message[len(said) - 1 :]}"
                break
    message = c.scenario_words(message, scenario)
    if isinstance(families, (str, os.PathLike)) and message.startswith(os.fspath(families) + ":"):
        # A families file's error, named by the keyword that gave its path.
        return from_failure(code, f"families=: {message}")
    if prepared is not None and prepared.shown is None and message.startswith(prepared.path + ": cannot read"):
        # A panel file that cannot be opened is the path the keyword gave (its content's errors
        # name file, row and column, as the command's do).
        return from_failure(code, f"data=: {message}")
    return from_failure(code, prepared.message(message) if prepared is not None else message)


def _report(command: str, cls: type, data: Any, given: Mapping[str, Any], options: dict) -> Any:
    """Runs a reporting command on the panel `data` (None: no panel)."""
    threads = c.count("threads", given.get("threads"), signed=True)
    if data is None and command in ("estimate", "battery", "validate"):
        raise c.refuse(f"{command}() needs data=: a DataFrame, a 2-D array with names=, a mapping of columns or a path")
    prepared = None
    path = request = None
    if data is not None:
        from ._data import prepare

        request = _request(given)
        prepared = prepare(data, names=given.get("names"), long=given.get("long"))
        request["long"] = prepared.long
        path = prepared.path
    shown = prepared.shown if prepared is not None else None
    try:
        text, notes, error = _rhoscope.report(command, path, request, options, threads, shown)
    except _rhoscope.Failure as f:
        raise _failure(f, prepared, given.get("families"), given.get("scenario", ())) from None
    if prepared is not None:
        text = prepared.document(text)
        notes = [prepared.message(n) for n in notes]
    result = cls(text, notes)
    if error is not None:
        message = prepared.message(error[1]) if prepared is not None else error[1]
        which = _alarms(result) if options.get("fail_on_diagnostic") else ""
        exc = from_failure(error[0], f"{message}: here, {which}" if which else message)
        exc.result = result  # type: ignore[attr-defined]
        raise exc
    return result


def _alarms(result: Any) -> str:
    """Which of `fail_on_diagnostic=`'s alarms the reading raised, from its own data."""
    reading = result.reading
    said = [f"Test {a.get('test')} fires" for a in reading.get("alarms") or []]
    if ((reading.get("evidence") or {}).get("weak_id") or {}).get("verdict") == "weak":
        said.append("weak identification is flagged")
    if reading.get("read") is None:
        said.append("no estimate can be read")
    return ", ".join(said)


def estimate(
    data: PanelData,
    *,
    judges: Columns = None,
    anchors: Columns = None,
    set_aside: Columns = None,
    families: FamiliesArg = None,
    method: str | None = None,
    blocked: bool = False,
    designated_clean: str | int | None = None,
    bias_correct: bool = False,
    bias_reps: int | None = None,
    seed: int | None = None,
    id: str | int | None = None,
    long: Sequence[str] | None = None,
    continuous: str | Sequence[str] | None = None,
    names: Sequence[str] | None = None,
    threads: int | None = None,
) -> Estimate:
    """Every anchor's ρ̂ (Theorem 1), and ML / free-scale / blocked / designated-clean fits
    when asked (``method="closed" | "ml" | "both" | "free-scale" | "all"``)."""
    options = {
        "method": c.text("method", method),
        "blocked": c.flag("blocked", blocked),
        "designated_clean": _clean(designated_clean),
        "bias_correct": c.flag("bias_correct", bias_correct),
        "bias_reps": c.count("bias_reps", bias_reps),
        "seed": c.count("seed", seed),
    }
    return _report("estimate", Estimate, data, locals(), options)


def _clean(designated_clean: str | int | None) -> str | None:
    """The ``designated_clean=`` anchor as the core reads it: a name, or a 1-based position."""
    if designated_clean is None:
        return None
    return str(c.column("designated_clean", designated_clean))


def battery(
    data: PanelData,
    *,
    judges: Columns = None,
    anchors: Columns = None,
    set_aside: Columns = None,
    families: FamiliesArg = None,
    bootstrap: int | None = None,
    null_draws: int | None = None,
    seed: int | None = None,
    codes_as_numbers: bool = False,
    fail_on_diagnostic: bool = False,
    designated_clean: str | int | None = None,
    id: str | int | None = None,
    long: Sequence[str] | None = None,
    continuous: str | Sequence[str] | None = None,
    names: Sequence[str] | None = None,
    threads: int | None = None,
) -> Battery:
    """Bootstrap CIs, the weak-ID screen and Tests A/B/C/J/O, led by the panel's reading."""
    options = {
        "bootstrap": c.count("bootstrap", bootstrap),
        "null_draws": c.count("null_draws", null_draws),
        "seed": c.count("seed", seed),
        "codes_as_numbers": c.flag("codes_as_numbers", codes_as_numbers),
        "fail_on_diagnostic": c.flag("fail_on_diagnostic", fail_on_diagnostic),
        "designated_clean": _clean(designated_clean),
    }
    return _report("battery", Battery, data, locals(), options)


def identify(
    data: PanelData | None = None,
    *,
    judges: Columns = None,
    anchors: Columns = None,
    set_aside: Columns = None,
    families: FamiliesArg = None,
    id: str | int | None = None,
    long: Sequence[str] | None = None,
    continuous: str | Sequence[str] | None = None,
    names: Sequence[str] | None = None,
    threads: int | None = None,
) -> Identify:
    """Section 7's identification hierarchy on a panel, or at the paper's design."""
    if data is None:
        _no_panel_options(locals(), "the paper's design")
    return _report("identify", Identify, data, locals(), {})


def validate(
    data: PanelData,
    *,
    inject: Sequence[float] | None = None,
    n: int | Sequence[int] | None = None,
    reps: int | None = None,
    seed: int | None = None,
    bootstrap: int | None = None,
    null_draws: int | None = None,
    balanced: bool = False,
    judges: Columns = None,
    anchors: Columns = None,
    set_aside: Columns = None,
    families: FamiliesArg = None,
    id: str | int | None = None,
    long: Sequence[str] | None = None,
    continuous: str | Sequence[str] | None = None,
    names: Sequence[str] | None = None,
    threads: int | None = None,
) -> Validate:
    """Recovery of injected ρ on synthetic panels built on the judges' own textures."""
    options = {
        "inject": c.numbers_("inject", inject),
        "n": c.counts("n", n) or [],
        "reps": c.count("reps", reps),
        "seed": c.count("seed", seed),
        "bootstrap": c.count("bootstrap", bootstrap),
        "null_draws": c.count("null_draws", null_draws),
        "balanced": c.flag("balanced", balanced),
    }
    return _report("validate", Validate, data, locals(), options)


def power(
    *,
    design: str,
    strength: float | Sequence[float],
    n: int | Sequence[int],
    reps: int | None = None,
    null_draws: int | None = None,
    coverage: int | None = None,
    seed: int | None = None,
    ordinal: int | None = None,
    skewed: bool = False,
    threads: int | None = None,
) -> Power:
    """A test's false-positive rate and power by simulation. ``ordinal=`` here is a number of
    levels L (every judge observed on L ordinal levels), not the ``"COLS:LEVELS"`` text the
    scenario functions (simulate, plan, plot) take."""
    options = {
        "design": c.text("design", design),
        "strength": c.numbers_("strength", strength),
        "n": c.counts("n", n),
        "reps": c.count("reps", reps),
        "null_draws": c.count("null_draws", null_draws),
        "coverage": c.count("coverage", coverage),
        "seed": c.count("seed", seed),
        "ordinal": c.count("ordinal", ordinal),
        "skewed": c.flag("skewed", skewed),
    }
    return _report("power", Power, None, locals(), options)


def plan(
    *,
    target: str,
    preset: str | None = None,
    reps: int | None = None,
    null_draws: int | None = None,
    bootstrap: int | None = None,
    max_n: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    **set: Any,
) -> Plan:
    """The N a design needs for a target; further keyword arguments override the preset's
    parameters (the keys of `simulate`)."""
    if target is None:
        raise c.refuse("plan() needs target=: ci-width=W (0 < W < 2) or power=TEST:P@S (e.g. power=test-a:0.8@0.4)")
    options = {
        "target": c.text("target", target),
        "preset": c.text("preset", preset),
        "set": c.overrides(set, "plan"),
        "reps": c.count("reps", reps),
        "null_draws": c.count("null_draws", null_draws),
        "bootstrap": c.count("bootstrap", bootstrap),
        "max_n": c.count("max_n", max_n),
        "seed": c.count("seed", seed),
    }
    return _report("plan", Plan, None, {"threads": threads, "scenario": list(set)}, options)


def _write(
    command: str, prepared: Any, request: Any, options: dict, threads: Any, scenario: Any = (), families: Any = None
) -> list:
    """Runs a file-writing command; returns its notes, collected by the library for this call
    alone (the panel's path replaced by its shown name, the "wrote FILE" line left out)."""
    threads = c.count("threads", threads, signed=True)
    path = prepared.path if prepared is not None else None
    try:
        lines = _rhoscope.write(command, path, request, options, threads)
    except _rhoscope.Failure as f:
        raise _failure(f, prepared, families, scenario=scenario) from None
    return [prepared.message(line) if prepared is not None else line for line in lines if line and not line.startswith("wrote ")]


def simulate(
    preset: str | None = None,
    *,
    n: int,
    seed: int,
    threads: int | None = None,
    **set: Any,
) -> Any:
    """A panel drawn from a scenario, as a pandas DataFrame (the numbers of the command's CSV,
    bit for bit); further keyword arguments override the preset's parameters. Judge
    families, when the design has them, are in ``df.attrs["families"]``. A scenario's
    ``ordinal=`` is ``"COLS:LEVELS"`` text (COLS judges, anchors, all or one column: e.g.
    ``ordinal="anchors:5"``), and its ``families=`` a count or a list of one label per judge."""
    import tempfile

    import pandas as pd

    n_ = c.count("n", n)
    seed_ = c.count("seed", seed)
    if n_ is None or seed_ is None:
        raise c.refuse("simulate needs n= and seed=")
    with tempfile.TemporaryDirectory(prefix="rhoscope-") as d:
        out = os.path.join(d, "panel.csv")
        options = {"preset": c.text("preset", preset), "set": c.overrides(set, "simulate"), "n": n_, "seed": seed_, "output": out}
        _write("simulate", None, None, options, threads, scenario=list(set))
        # pandas 3 parses floats exactly by default; earlier versions only when asked.
        exact: dict = {} if int(pd.__version__.split(".")[0]) >= 3 else {"float_precision": "round_trip"}
        df = pd.read_csv(out, **exact)
        side = os.path.join(d, "panel.families.csv")
        if os.path.exists(side):
            fam = pd.read_csv(side, dtype=str)
            df.attrs["families"] = dict(zip(fam["judge"], fam["family"]))
    return df


def export(
    data: str | os.PathLike[str],
    *,
    syntax: str | None = None,
    output: str | os.PathLike[str] | None = None,
    force: bool = False,
    judges: Columns = None,
    anchors: Columns = None,
    set_aside: Columns = None,
    families: FamiliesArg = None,
    id: str | int | None = None,
    continuous: str | Sequence[str] | None = None,
) -> str:
    """The model as a lavaan or semopy script (text), also written to ``output`` when given.
    The script reads the panel file again, so ``data`` is a path; a file it cannot read
    (Parquet, JSON, gzip) needs ``output``, beside which its data is written as CSV
    (``refit.R`` → ``refit.data.csv``)."""
    import tempfile

    from ._data import Prepared

    if not isinstance(data, (str, os.PathLike)):
        raise c.refuse(
            "export writes a script that reads the panel file again: give data= the path of a panel "
            "file (e.g. df.to_csv('panel.csv', index=False))"
        )
    if output is not None and not isinstance(output, (str, os.PathLike)):
        raise c.refuse(f"output= takes a path, not {output!r}")
    request = _request(locals())
    prepared = Prepared(os.fspath(data), None)
    options = {"syntax": c.text("syntax", syntax), "force": c.flag("force", force)}
    if output is not None:
        try:
            _write("export", prepared, request, {**options, "output": os.fspath(output)}, None, families=families)
        except UsageError as e:
            # The script or the data written beside it (refit.R, refit.data.csv): output= gave both.
            if str(e).startswith(os.path.splitext(os.fspath(output))[0]):
                raise UsageError(f"output=: {e}", e.exit_code) from None
            raise
        with open(os.fspath(output), encoding="utf-8") as f:
            return f.read()
    with tempfile.TemporaryDirectory(prefix="rhoscope-") as d:
        out = os.path.join(d, "model.txt")
        _write("export", prepared, request, {**options, "output": out}, None, families=families)
        if os.path.exists(os.path.join(d, "model.data.csv")):
            raise c.refuse(
                f"{os.fspath(data)}: the script cannot read this file's format: give output='refit.R' "
                "(or .py), and the panel's data is written beside the script as CSV"
            )
        with open(out, encoding="utf-8") as f:
            return f.read()


def plot(
    kind: str,
    data: PanelData | None = None,
    *,
    preset: str | None = None,
    n: int | None = None,
    ns: Sequence[int] | None = None,
    strength: float | None = None,
    reps: int | None = None,
    bootstrap: int | None = None,
    null_draws: int | None = None,
    seed: int | None = None,
    judges: Columns = None,
    anchors: Columns = None,
    set_aside: Columns = None,
    families: FamiliesArg = None,
    id: str | int | None = None,
    long: Sequence[str] | None = None,
    continuous: str | Sequence[str] | None = None,
    names: Sequence[str] | None = None,
    threads: int | None = None,
    **set: Any,
) -> str:
    """A figure as SVG text (``rho``, ``bootstrap`` and ``battery`` on a panel or a
    scenario; ``power`` and ``boundary`` on a scenario). Further keyword arguments override
    the scenario's parameters (the keys of `simulate`), so they need no data."""
    if kind is None:
        # None would reach the library as no kind at all, refused as `not ""`.
        raise c.refuse("kind= takes a string, not None")
    prepared = request = None
    if data is None and c.family_count(families):
        # Without data, a number of families is the scenario's parameter, not a panel's map.
        set = {**set, "families": families}
        families = None
    if data is not None:
        from ._data import prepare

        if kind in ("power", "boundary"):
            raise c.refuse(f'plot("{kind}") draws a scenario (preset= and its parameters), not a panel: leave data out')
        if set:
            key = next(iter(set))
            why = (
                "scenario parameters describe a simulated panel: leave data out to use them"
                if key in _rhoscope.scenario_keys()
                else "see help(rhoscope.plot)"
            )
            raise c.refuse(f"plot() got an unexpected keyword argument {key!r} ({why})")
        if c.family_count(families):
            raise c.refuse(
                f"families={families!r} is a scenario's number of families, which a panel does not take: "
                "leave data out to draw a scenario, or give the panel's judge → family pairs"
            )
        request = _request(locals())
        prepared = prepare(data, names=names, long=long)
        request["long"] = prepared.long
    else:
        _no_panel_options(locals(), "a scenario")
    import tempfile

    options = {
        "kind": c.text("kind", kind),
        "preset": c.text("preset", preset),
        "set": c.overrides(set, "plot"),
        "n": c.count("n", n),
        "ns": c.counts("ns", ns),
        "strength": c.number("strength", strength),
        "reps": c.count("reps", reps),
        "bootstrap": c.count("bootstrap", bootstrap),
        "null_draws": c.count("null_draws", null_draws),
        "seed": c.count("seed", seed),
    }
    with tempfile.TemporaryDirectory(prefix="rhoscope-") as d:
        out = os.path.join(d, "figure.svg")
        _write("plot", prepared, request, {**options, "output": out}, threads, list(set), families)
        with open(out, encoding="utf-8") as f:
            svg = f.read()
    if prepared is not None and prepared.shown:
        # The figure's title names the panel file; an in-memory panel is named by its kind.
        svg = svg.replace(os.path.basename(prepared.path), prepared.shown.strip("<>"))
    return svg
