"""The free-scale fit's own results, as the command prints them under its table: the identified
set of ρ each anchor's flag tells the user to read, the bias-corrected ρ̃ that
``bias_correct=True`` asks for (or why there is none), and the effective number of judges."""

from __future__ import annotations

from typing import Any

#: The tidy rows' estimator name of the bias-corrected free-scale ρ̃.
CORRECTED = "free_scale_bias_corrected"


def _n(v: Any) -> str:
    return "—" if v is None else f"{v:.4f}"


def _pair(p: Any) -> str:
    return f"[{_n(p[0])}, {_n(p[1])}]" if p else "[—]"


def sets(fit: dict[str, Any]) -> dict[str, list[Any]]:
    """Each anchor's identified set of ρ, [low, high], by name (empty: not computed)."""
    ident = fit.get("identified_set") or {}
    return {r["name"]: r.get("set") or [None, None] for r in ident.get("rho") or []}


def identified_line(fit: dict[str, Any]) -> str | None:
    """The identified set of ρ in the command's words (None: the fit has no free-scale part)."""
    if "identified_set" not in fit:
        return None
    ident = fit["identified_set"]
    if ident is None:
        return "identified set: not computed (no admissible judge loadings, or a jackknife sample could not be fitted)"
    if ident.get("empty"):
        return "identified set: empty at 95 % — no (σ_t², σ_c²) fits the anchors' covariances within sampling error"
    if ident.get("point"):
        how = "a point is reported: the set is bounded"
    elif ident.get("unbounded"):
        how = "NOT a point: no ρ̂ is reported"
    else:
        how = "ρ̂ only where an anchor's set is narrower than 1"
    level = round(100 * float(ident.get("level") or 0.95))
    anchors = ", ".join(f"{r['name']} {_pair(r.get('set'))}" for r in ident.get("rho") or [])
    edge = ", reaching the edge of the parameter space" if ident.get("unbounded") else ""
    return f"identified set of ρ ({level} %, {how}): {anchors}; σ_t² in {_pair(ident.get('sigma_t2'))}{edge}"


def bias_lines(fit: dict[str, Any]) -> list[str]:
    """The bias-correction block: each anchor's ρ̂, bias ± its Monte-Carlo SE and ρ̃, or why
    the correction could not run; nothing when it was not asked for."""
    b = fit.get("bias_correction")
    if not isinstance(b, dict):
        return []
    if "error" in b:
        return [f"bias correction not possible: {b['error']}"]
    head = f"bias correction (Section 7; {b.get('reps')} refits simulated from this fit at the panel's N, seed {b.get('seed')}):"
    rows = [["anchor", "ρ̂", "bias ± MC SE", "ρ̃ corrected"]]
    for k, a in enumerate(fit.get("anchors") or []):
        bias, se, rt = (b.get(key, [])[k] for key in ("bias", "bias_se", "corrected"))
        said = f"{_n(bias)} ± {_n(se)}" if bias is not None and se is not None else (
            f"undefined ({b.get('admissible', [0] * (k + 1))[k]} of {b.get('reps')} admissible)"
        )
        shown = _n(rt) if rt is None or abs(rt) <= 1 else f"{_n(rt)} (outside [−1, 1]: overshoots; read ρ̂)"
        rows.append([a["name"], "undefined" if a.get("rho") is None else _n(a["rho"]), said, shown])
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    table = ["  " + "  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in rows]
    # The core's one sentence on which of ρ̂ and ρ̃ to read (the command prints the same).
    advice = b.get("advice")
    return [head, *table, *([f"  {advice}"] if advice else [])]


def corrected_rows(fit: dict[str, Any], row: Any) -> list[dict[str, Any]]:
    """The tidy rows of ρ̃, one per anchor, made by ``row`` (the estimate's row maker); none
    when the correction was not asked for, its reason on every row when it could not run."""
    b = fit.get("bias_correction")
    if not isinstance(b, dict):
        return []
    out = []
    for k, a in enumerate(fit.get("anchors") or []):
        if "error" in b:
            out.append(row(CORRECTED, a["name"], None, None, None, [], f"bias correction not possible: {b['error']}"))
            continue
        rt = (b.get("corrected") or [None] * (k + 1))[k]
        why = None
        if rt is None:
            why = f"undefined ({(b.get('admissible') or [0] * (k + 1))[k]} of {b.get('reps')} refits admissible)"
        elif abs(rt) > 1:
            why = "outside [−1, 1]: the correction overshoots; read ρ̂"
        out.append(row(CORRECTED, a["name"], rt, None, None, [], why))
    return out


def neff_line(n: Any) -> str | None:
    """The effective number of judges in the command's words (None: not in the document)."""
    if not isinstance(n, dict) or n.get("value") is None:
        return None
    ci = f" {_pair(n['ci'])}" if n.get("ci") else ""
    return f"effective number of judges: {n.get('p')} judges ≈ {n['value']:.2f}{ci} independent votes (r̄ = {_n(n.get('r_bar'))})"
