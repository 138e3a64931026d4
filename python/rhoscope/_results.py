"""Results: the command line's ``--json`` document with named attributes, a summary that leads
with the reading, tidy tables and notebook rendering."""

from __future__ import annotations

import html
import json
from typing import TYPE_CHECKING, Any

from ._freescale import (
    CORRECTED,
    bias_lines,
    corrected_rows,
    identified_line,
    neff_line,
    sets,
)

#: The columns of ``tidy()`` on an estimate or a battery.
TIDY_COLUMNS = [
    "estimator",
    "anchor",
    "estimate",
    "std_error",
    "ci_low",
    "ci_high",
    "admissible",
    "flag_list",
    "reason",
    "set_low",
    "set_high",
]
#: The columns of ``verdicts()``.
VERDICT_COLUMNS = ["test", "applicable", "statistic", "threshold", "threshold_mc_sd", "p_value", "verdict", "message"]
#: How each estimator is called in words.
ESTIMATORS = {
    "estimate": "closed form (Theorem 1)",
    "ml": "maximum likelihood",
    "free_scale": "free-scale",
    "blocked": "family-blocked",
    "designated_clean": "designated clean",
    "designated_clean_latent": "designated clean on latent scales",
    CORRECTED: "free-scale, bias-corrected (ρ̃)",
}
#: The weak-identification screen's verdict (the reading's ``evidence.weak_id.verdict``) in words.
WEAK_ID = {
    "no_fit": "no verdict: no closed-form fit to screen",
    "out_of_range": "no verdict: the closed form is out of range or gives no ρ̂ (see its flags), "
    "and T screens only an in-range fit",
    "weak": "weakly identified (T < 4): read the intervals, not the point estimates",
    "ok": "ok (T ≥ 4)",
}


#: An anchor's verdict (the reading's ``anchors[].status``, and ``undefined_because`` when
#: undefined) in the command's words.
STATUS = {
    "contaminated": "contaminated (the interval excludes 0)",
    "not_distinguishable": "not distinguishable from clean (the interval covers 0)",
    "no_estimate": "no estimate to read",
    "rho": "undefined (see the flags)",
    "interval": "no interval: too few resamples gave it a value",
}


def _said(note: str) -> str:
    """A library note without its place and "note:" (``<DataFrame>: note: X`` is X), to
    find the document's own notes said again on the way out."""
    place, sep, rest = note.partition(": note: ")
    if not sep or "\n" in place:
        return note
    # A note found at a row (the first dropped item) keeps that row and column.
    return f"{place}: {rest}" if ": row " in place else rest


def _frame(rows: list[dict[str, Any]], columns: list[str]) -> Any:
    """A pandas DataFrame when pandas is installed, else the rows themselves."""
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover - pandas is a dependency
        return rows
    return pd.DataFrame(rows, columns=columns)


def _float(v: Any) -> float:
    """A number for a float column: None (undefined) is NaN, so pandas keeps float64."""
    return float("nan") if v is None else float(v)


def _num(v: Any, decimals: int = 3) -> str:
    """A number as the summary prints it (3 decimals unless asked), or — when undefined."""
    if v is None:
        return "—"
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return str(v)
    return f"{v:.{decimals}f}" if isinstance(v, float) else str(v)


class Result:
    """One command's result: ``to_dict()`` is the command line's ``--json``, its notes and next
    steps naming keyword arguments where the command names flags, and an in-memory panel's
    source ``<DataFrame>``; the document's fields are also attributes (``result.n_items``)."""

    command: str = ""
    #: The document's fields, typed for checkers; each is read from the document on access.
    schema_version: int

    def __init__(self, text: str, notes: list[str] | None = None) -> None:
        self._text = text
        self._doc: dict[str, Any] = json.loads(text)
        said = [_said(n) for n in self._doc.get("notes") or [] if isinstance(n, str)]
        #: Every note on the panel and the run, once and without its place: the document's own
        #: ``notes`` (ordinal columns, …) and the library's beside them (dropped items, costs).
        self.notes: list[str] = said + [_said(n) for n in (notes or []) if _said(n) not in said]

    def to_dict(self) -> dict[str, Any]:
        """The command line's ``--json`` document (notes worded for Python), as a fresh dict."""
        return json.loads(self._text)

    def to_json(self) -> str:
        """The command line's ``--json`` text: byte for byte on a path, but for notes and next
        steps that name a setting, worded here as the keyword argument."""
        return self._text

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._text == self._text  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._text))

    if not TYPE_CHECKING:
        # Hidden from type checkers, so a misspelt attribute is their error, not `Any`.

        def __getattr__(self, name: str) -> Any:
            doc = self.__dict__.get("_doc", {})
            if name in doc:
                return doc[name]
            raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(self._doc))

    @property
    def source(self) -> str | None:
        """The panel: its path, or ``<DataFrame>`` for one held in memory (None: no panel)."""
        src = self._doc.get("source")
        if src is None and isinstance(self._doc.get("panel"), dict):
            src = self._doc["panel"].get("source")
        return src

    def tidy(self) -> Any:
        """One row per estimate (a pandas DataFrame)."""
        return _frame([], ["name", "value"])

    def summary(self) -> str:
        """The result in words: what to read first, then the detail."""
        return "\n".join(self._lines())

    def _title(self) -> str:
        src = self.source
        return f"rhoscope {self.command}" + (f" — {src}" if src else "")

    def _lines(self) -> list[str]:
        return [self._title(), *self._body(), *[f"note: {n}" for n in self.notes]]

    def _body(self) -> list[str]:
        return _table(self.tidy())

    def __repr__(self) -> str:
        return self.summary()

    def _repr_html_(self) -> str:
        parts = [f"<strong>{html.escape(self._title())}</strong>"]
        for line in self._body():
            parts.append(f"<pre style='margin:0'>{html.escape(line)}</pre>")
        for n in self.notes:
            parts.append(f"<p>note: {html.escape(n)}</p>")
        return "<div>" + "".join(parts) + "</div>"


def _table(frame: Any) -> list[str]:
    """A frame as aligned text lines."""
    rows = frame.to_dict("records") if hasattr(frame, "to_dict") else list(frame)
    if not rows:
        return []
    cols = list(rows[0])
    cells = [[_cell(r[c]) for c in cols] for r in rows]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(cols)]
    line = lambda r: "  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip()  # noqa: E731
    return [line(cols)] + [line(r) for r in cells]


def _cell(v: Any) -> str:
    if isinstance(v, float):
        return "—" if v != v else f"{v:.4g}"
    if isinstance(v, list):
        return ",".join(map(str, v)) or "—"
    return "—" if v is None else str(v)


class _Panel(Result):
    """A result on a panel: the panel's own fields."""

    columns: list[dict[str, Any]]
    families_source: str | None


class _Fits(_Panel):
    """A result with fits (estimate, battery): a tidy row per estimator × anchor."""

    estimate: dict[str, Any] | None
    ml: dict[str, Any]
    free_scale: dict[str, Any]
    blocked: dict[str, Any]
    #: An estimate's designated-clean fit; in a battery, the trusted anchor's name.
    designated_clean: Any
    designated_clean_latent: dict[str, Any]
    n_eff: dict[str, Any]

    @property
    def n_items(self) -> int:
        """Items used (complete cases)."""
        return int(self._doc["n_items"])

    @property
    def n_dropped(self) -> int:
        """Items dropped for a missing value."""
        return int(self._doc["n_dropped"])

    @property
    def judges(self) -> list[str]:
        """The judge columns, in order."""
        return list(self._doc["judges"])

    @property
    def anchors(self) -> list[str]:
        """The anchor columns, in order."""
        return list(self._doc["anchors"])

    def _fits(self) -> list[tuple]:
        out = []
        for key, value in self._doc.items():
            if key in ESTIMATORS and isinstance(value, dict):
                out.append((key, value))
        return out

    def tidy(self) -> Any:
        """One row per estimator × anchor: ρ̂, its standard error (maximum likelihood), its
        interval, whether it is admissible, its flags (``flag_list``), and why an estimator
        gave no number (``reason``)."""
        rows = []
        for key, fit in self._fits():
            if "refused" in fit or fit.get("anchors") is None:
                why = fit.get("refused") or "no estimate on this panel"
                rows += [_row(key, a, None, None, None, [], why) for a in self._doc.get("anchors", [])]
                continue
            flags, start = fit.get("flags") or [], len(rows)
            se = (fit.get("se") or {}).get("rho") or []
            for i, a in enumerate(fit["anchors"]):
                mine = [f for f in flags if f.get("anchor") in (None, a["name"])]
                if a["name"] == fit.get("clean_anchor"):
                    # As the command shows it, "0 (assumed)": the trusted anchor is not estimated.
                    rows.append(_row(key, a["name"], 0.0, None, None, [f["code"] for f in mine], ASSUMED))
                    continue
                why = "; ".join(f.get("message") or f["code"] for f in mine) if a.get("rho") is None else None
                own = [f["code"] for f in mine]
                rows.append(_row(key, a["name"], a.get("rho"), se[i] if i < len(se) else None, a.get("ci"), own, why))
            for r in rows[start:] if key == "free_scale" else []:
                r["set_low"], r["set_high"] = map(_float, sets(fit).get(r["anchor"], [None, None]))
            rows += corrected_rows(fit, _row) if key == "free_scale" else []
        return _frame(rows, TIDY_COLUMNS)

    def _free_scale_lines(self) -> list[str]:
        """Under the estimates, as the command: the identified set, ρ̃ when asked for, n_eff."""
        fit = self._doc.get("free_scale")
        fit = fit if isinstance(fit, dict) else {}
        lines = [line for line in [identified_line(fit)] if line] + bias_lines(fit)
        return lines + [line for line in [neff_line(self._doc.get("n_eff"))] if line]

    def _flags_in_words(self) -> list[str]:
        out = []
        for key, fit in self._fits():
            for f in (fit.get("flags") or []) if isinstance(fit, dict) else []:
                out.append(f"{ESTIMATORS[key]}: {f.get('message') or f.get('code')}")
        return out


ASSUMED = "assumed clean (designated_clean=), not estimated"  # its 0 is the assumption

def _row(key: str, anchor: str, rho: Any, se: Any, ci: Any, flags: list[str], why: Any) -> dict[str, Any]:
    ci = ci or [None, None]
    return {
        "estimator": key,
        "anchor": anchor,
        "estimate": _float(rho),
        "std_error": _float(se),
        "ci_low": _float(ci[0]),
        "ci_high": _float(ci[1]),
        "admissible": rho is not None and -1.0 <= rho <= 1.0,
        "flag_list": flags,
        "reason": why,
        "set_low": float("nan"),
        "set_high": float("nan"),
    }


class Estimate(_Fits):
    """``rhoscope estimate``: ρ̂ of every anchor by each estimator asked for."""

    command = "estimate"

    def _body(self) -> list[str]:
        flags = self._flags_in_words()
        flagged = ["flags:"] + [f"  {f}" for f in flags] if flags else ["flags: none"]
        # The sets have a line of their own below the table, as in the command.
        table = _table(self.tidy().drop(columns=["set_low", "set_high"]))
        return [*table, *flagged, *self._free_scale_lines()]


class Battery(_Fits):
    """``rhoscope battery``: the panel's reading (which estimate to read, each ρ̂ with its
    interval), then the weak-ID screen and each test's verdict."""

    command = "battery"
    read: dict[str, Any]
    weak_id: dict[str, Any] | None
    bootstrap: dict[str, Any] | None
    configuration: dict[str, Any]
    null: dict[str, Any]

    @property
    def reading(self) -> dict[str, Any]:
        """The panel's reading: the estimate to read, why, the anchors' answers, next steps."""
        return dict(self._doc.get("reading") or {})

    @property
    def tests(self) -> dict[str, dict[str, Any]]:
        """Each test's verdict, statistic, threshold (with its Monte-Carlo SD), p-value and message."""
        return dict(self._doc.get("tests") or {})

    def tidy(self) -> Any:
        """As an estimate's, plus the designated-clean fit the reading reads (the battery's
        document holds it in the reading only): the trusted anchor's 0 is the assumption,
        so it has no interval and says so in ``reason``."""
        frame = super().tidy()
        reading = self.reading
        key = reading.get("read")
        if key not in ("designated_clean", "designated_clean_latent") or isinstance(self._doc.get(key), dict):
            return frame
        trusted = self._doc.get("designated_clean")
        rows = []
        for a in reading.get("anchors") or []:
            if a.get("anchor") == trusted or a.get("status") == "assumed":
                rows.append(_row(key, a["anchor"], 0.0, None, None, [], ASSUMED))
            else:
                rows.append(_row(key, a["anchor"], a.get("rho"), None, a.get("ci"), [], None))
        return _frame(frame.to_dict("records") + rows, TIDY_COLUMNS)

    def verdicts(self) -> Any:
        """One row per test."""
        rows = [{"test": name, **{c: t.get(c) for c in VERDICT_COLUMNS[1:]}} for name, t in self.tests.items()]
        return _frame(rows, VERDICT_COLUMNS)

    def _body(self) -> list[str]:
        read = self._doc.get("read") or {}
        reading = self.reading
        key = reading.get("read", read.get("estimator"))
        lines = [f"read: {ESTIMATORS.get(key, key) if key else 'no estimate'} — {reading.get('headline') or read.get('why', '')}"]
        answers = reading.get("anchors")
        if answers is None:
            fit = self._doc.get(key or "estimate") or {}
            answers = [{"anchor": a["name"], "rho": a.get("rho"), "ci": a.get("ci")} for a in fit.get("anchors") or []]
        trusted = self._doc.get("designated_clean")
        # As the command: each anchor's line under an estimate read, none under "No ρ̂ to read".
        for a in answers if key else []:
            lines.append(f"  {_answer(a, trusted)}")
        for alarm in reading.get("alarms") or []:
            if not alarm.get("answered"):
                lines.append(
                    f"  Test {alarm.get('test')} fires ({_num(alarm.get('statistic'), 4)} against a threshold of "
                    f"{_num(alarm.get('threshold'), 4)}): {alarm.get('text')}"
                )
        weak = (reading.get("evidence") or {}).get("weak_id")
        if weak:
            verdict = WEAK_ID.get(weak.get("verdict"), weak.get("verdict"))
            lines.append(f"weak identification: T = {_num(weak.get('T'))}, {verdict}")
        flags = self._flags_in_words()
        lines += ["flags:"] + [f"  {f}" for f in flags] if flags else ["flags: none"]
        for step in reading.get("next") or []:
            how = f": {step['cli']}" if step.get("cli") else ""
            then = (step.get("outcome") or {}).get("text")
            lines.append(f"next: {step.get('text')}{how}" + (f" ({then})" if then else ""))
        if reading.get("no_next_step"):
            lines.append(f"next steps: {reading['no_next_step']}")
        free = self._doc.get("free_scale")
        # As the command: under the next steps, why the free-scale estimate is not among them.
        if (refused := free.get("refused") if isinstance(free, dict) else None) and (read.get("refused") is None):
            lines.append(f"  free-scale estimate not available: {refused}")
        return lines + ["tests:"] + ["  " + line for line in _table(self.verdicts()[VERDICT_COLUMNS[:-1]])]


def _answer(a: dict[str, Any], trusted: Any) -> str:
    """One anchor's line under the reading, in the command's words: ρ̂, its interval, the
    verdict. The anchor the user trusted (``designated_clean=``) is not estimated: its 0 is
    the assumption, so it shows no interval as if the data had given one."""
    status = a.get("status")
    if status == "assumed" or (isinstance(trusted, str) and a.get("anchor") == trusted):
        return f"{a['anchor']}: ρ̂ = 0 by assumption (designated_clean=), not estimated"
    if a.get("rho") is None:
        value = "ρ̂ undefined"
    else:
        ci = a.get("ci")
        value = f"ρ̂ = {_num(a['rho'], 4)} " + (f"[{_num(ci[0], 4)}, {_num(ci[1], 4)}]" if ci else "[—]")
    said = STATUS.get(a.get("undefined_because") or status or "", str(status or "").replace("_", " "))
    return f"{a['anchor']}: {value} — {said}" if said else f"{a['anchor']}: {value}"
