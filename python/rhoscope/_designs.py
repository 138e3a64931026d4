"""Results of the commands without fits: identification, validation, power and planning,
each with a tidy table of its own."""

from __future__ import annotations

from typing import Any

from ._results import Result, _float, _frame, _Panel, _table


class Identify(_Panel):
    """``rhoscope identify``: Section 7's identification hierarchy."""

    command = "identify"
    n_items: int
    n_dropped: int
    judges: list[str]
    anchors: list[str]
    point: dict[str, Any]
    data_identification: dict[str, Any] | None
    all_ordinal: dict[str, Any]
    mixed_scale: dict[str, Any]
    family: dict[str, Any]

    def tidy(self) -> Any:
        """One row per check: all columns ordinal, then ordinal judges with continuous anchors."""
        rows = []
        for check in ("all_ordinal", "mixed_scale"):
            c = self._doc.get(check) or {}
            rows.append(
                {
                    "check": check,
                    "parameters": c.get("n_params"),
                    "moments": c.get("n_correlations", c.get("n_moments")),
                    "rank": c.get("rank"),
                    "null_dim": c.get("null_dim"),
                    "identified": c.get("identified"),
                }
            )
        return _frame(rows, ["check", "parameters", "moments", "rank", "null_dim", "identified"])


class Validate(Result):
    """``rhoscope validate``: recovery of injected ρ on panels with the judges' own textures."""

    command = "validate"
    panel: dict[str, Any]
    inject: list[float]
    reps: int
    seed: int
    bootstrap: int
    null_draws: int
    thresholds: str
    design: dict[str, Any]
    cells: list[dict[str, Any]]

    def tidy(self) -> Any:
        """One row per N × estimator × anchor: mean, SD and RMSE of ρ̂, coverage, defined."""
        rows = []
        for cell in self._doc.get("cells") or []:
            for est in cell.get("estimators") or []:
                for i, a in enumerate(est.get("anchors") or []):
                    rows.append(
                        {
                            "n": cell.get("n"),
                            "estimator": est.get("estimator"),
                            "anchor": a.get("name", i + 1) if isinstance(a, dict) else i + 1,
                            **{k: _float(a.get(k)) for k in ("injected", "mean", "sd", "rmse", "coverage")},
                            "defined": a.get("defined"),
                        }
                    )
        cols = ["n", "estimator", "anchor", "injected", "mean", "sd", "rmse", "coverage", "defined"]
        return _frame(rows, cols)


class Power(Result):
    """``rhoscope power``: each test's false-positive rate and power."""

    command = "power"
    design: str
    description: str
    target_test: str
    reps: int
    null_draws: int
    seed: int
    cells: list[dict[str, Any]]

    def tidy(self) -> Any:
        """One row per (N, strength): the target test's rate and its Monte-Carlo SE."""
        rows = [
            {"n": c.get("n"), "strength": c.get("strength"), "rate": _float(c.get("rate")), "mc_se": _float(c.get("mc_se"))}
            for c in self._doc.get("cells") or []
        ]
        return _frame(rows, ["n", "strength", "rate", "mc_se"])


class Plan(Result):
    """``rhoscope plan``: the N a design needs."""

    command = "plan"
    scenario: dict[str, Any]
    target: str
    quantity: str
    n: int | None
    reps: int
    null_draws: int
    resamples: int
    seed: int
    max_n: int
    evaluations: list[dict[str, Any]]

    def tidy(self) -> Any:
        """One row per N tried: the target quantity, its Monte-Carlo SE, whether it is reached."""
        rows = [
            {"n": e.get("n"), "value": _float(e.get("value")), "mc_se": _float(e.get("mc_se")), "reached": e.get("reached")}
            for e in self._doc.get("evaluations") or []
        ]
        return _frame(rows, ["n", "value", "mc_se", "reached"])

    def _body(self) -> list[str]:
        n = self._doc.get("n")
        head = f"N = {n} reaches {self._doc.get('target')}" if n is not None else f"{self._doc.get('target')} not reached"
        return [head, *_table(self.tidy())]
