"""Results: the command line's ``--json`` document with named attributes, tidy tables and
notebook rendering."""

from __future__ import annotations

import html
import json
from typing import Any, Dict, List, Optional

#: The columns of ``tidy()``.
TIDY_COLUMNS = ["estimator", "anchor", "estimate", "ci_low", "ci_high", "admissible", "flags"]
#: The columns of ``verdicts()``.
VERDICT_COLUMNS = ["test", "applicable", "statistic", "threshold", "p_value", "verdict", "message"]


def _frame(rows: List[Dict[str, Any]], columns: List[str]) -> Any:
    """A pandas DataFrame when pandas is installed, else the rows themselves."""
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover - pandas ships with the test environment
        return rows
    return pd.DataFrame(rows, columns=columns)


class Result:
    """One command's result: ``to_dict()`` is exactly the command line's ``--json``."""

    command: str = ""

    def __init__(self, text: str, notes: Optional[List[str]] = None) -> None:
        self._text = text
        self._doc: Dict[str, Any] = json.loads(text)
        #: Every note on the panel and the run: the document's own ``notes`` (ordinal columns,
        #: …) and the lines the command line prints on stderr (dropped items, cost warnings).
        own = self._doc.get("notes") if isinstance(self._doc.get("notes"), list) else []
        self.notes: List[str] = list(own) + [n for n in (notes or []) if n not in own]

    def to_dict(self) -> Dict[str, Any]:
        """The command line's ``--json`` document, as a fresh dict."""
        return json.loads(self._text)

    def to_json(self) -> str:
        """The command line's ``--json`` text, byte for byte."""
        return self._text

    def __getattr__(self, name: str) -> Any:
        doc = self.__dict__.get("_doc", {})
        if name in doc:
            return doc[name]
        raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")

    def __dir__(self) -> List[str]:
        return sorted(set(super().__dir__()) | set(self._doc))

    def _estimators(self) -> List[tuple]:
        out = []
        for key, value in self._doc.items():
            if isinstance(value, dict) and isinstance(value.get("anchors"), list):
                anchors = value["anchors"]
                if anchors and isinstance(anchors[0], dict) and "rho" in anchors[0] and "name" in anchors[0]:
                    out.append((key, value))
        return out

    def tidy(self) -> Any:
        """One row per estimator × anchor: estimate, CI, admissible, flags (as broom's tidy)."""
        rows = []
        for key, fit in self._estimators():
            flags = fit.get("flags") or []
            for a in fit["anchors"]:
                ci = a.get("ci") or [None, None]
                own = [f["code"] for f in flags if f.get("anchor") in (None, a["name"])]
                rho = a.get("rho")
                rows.append(
                    {
                        "estimator": key,
                        "anchor": a["name"],
                        "estimate": _float(rho),
                        "ci_low": _float(ci[0]),
                        "ci_high": _float(ci[1]),
                        "admissible": rho is not None and -1.0 <= rho <= 1.0,
                        "flags": ",".join(own),
                    }
                )
        return _frame(rows, TIDY_COLUMNS)

    def verdicts(self) -> Any:
        """One row per test of the battery (empty for a result without tests)."""
        rows = []
        for name, t in (self._doc.get("tests") or {}).items():
            rows.append({"test": name, **{c: t.get(c) for c in VERDICT_COLUMNS[1:]}})
        return _frame(rows, VERDICT_COLUMNS)

    def _table_rows(self) -> tuple:
        if self._doc.get("tests"):
            return VERDICT_COLUMNS[:-1], [
                [name, t.get("applicable"), t.get("statistic"), t.get("threshold"), t.get("p_value"), t.get("verdict")]
                for name, t in self._doc["tests"].items()
            ]
        if self._estimators():
            rows = []
            for key, fit in self._estimators():
                for a in fit["anchors"]:
                    ci = a.get("ci") or [None, None]
                    rows.append([key, a["name"], a.get("rho"), ci[0], ci[1]])
            return ["estimator", "anchor", "estimate", "ci_low", "ci_high"], rows
        return ["key", "value"], [[k, json.dumps(v)[:80]] for k, v in self._doc.items()]

    def _title(self) -> str:
        src = self._doc.get("source")
        return f"rhoscope {self.command}" + (f" — {src}" if src else "")

    def __repr__(self) -> str:
        cols, rows = self._table_rows()
        cells = [[_fmt(v) for v in r] for r in rows]
        widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(cols)]
        line = lambda r: "  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip()  # noqa: E731
        notes = [f"note: {n}" for n in self.notes]
        return "\n".join([self._title(), line(cols)] + [line(r) for r in cells] + notes)

    def _repr_html_(self) -> str:
        cols, rows = self._table_rows()
        head = "".join(f"<th>{html.escape(c)}</th>" for c in cols)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(_fmt(v))}</td>" for v in r) + "</tr>" for r in rows)
        notes = "".join(f"<p>note: {html.escape(n)}</p>" for n in self.notes)
        return (
            f"<div><strong>{html.escape(self._title())}</strong>"
            f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{notes}</div>"
        )


def _float(v: Any) -> float:
    """A number for a float column: None (undefined) is NaN, so pandas keeps float64."""
    return float("nan") if v is None else float(v)


def _fmt(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


class Estimate(Result):
    """``rhoscope estimate``: ρ̂ of every anchor by each estimator asked for."""

    command = "estimate"


class Battery(Result):
    """``rhoscope battery``: CIs, the weak-ID screen and each test's verdict."""

    command = "battery"


class Identify(Result):
    """``rhoscope identify``: Section 7's identification hierarchy."""

    command = "identify"


class Validate(Result):
    """``rhoscope validate``: recovery of injected ρ on panels with the judges' own textures."""

    command = "validate"


class Power(Result):
    """``rhoscope power``: each test's false-positive rate and power."""

    command = "power"


class Plan(Result):
    """``rhoscope plan``: the N a design needs."""

    command = "plan"
