"""Results a notebook reads: a summary and an HTML display that lead with the reading, a
tidy frame for every result whose columns shadow nothing on a DataFrame, standard errors
where the estimator has them, equality, and attributes the stubs declare."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import rhoscope
from conftest import ASSETS

MID = ASSETS / "mid.csv"
QUICK = {"bootstrap": 100, "null_draws": 100}


@pytest.fixture(scope="module")
def battery() -> rhoscope.Battery:
    return rhoscope.battery(MID, **QUICK)


def test_the_summary_leads_with_the_reading(battery):
    doc = battery.to_dict()
    text = battery.summary()
    lines = text.splitlines()
    assert lines[1].startswith("read: closed form (Theorem 1)"), lines[1]
    for a in doc["estimate"]["anchors"]:
        lo, hi = a["ci"]
        line = f"  {a['name']}: ρ̂ = {a['rho']:.4f} [{lo:.4f}, {hi:.4f}]"
        assert any(x.startswith(line) for x in lines), line
    assert any(x.startswith("weak identification: T = ") for x in lines)
    assert lines.index("tests:") > 3
    assert repr(battery) == text
    html = battery._repr_html_()
    assert html.index("read: closed form") < html.index("tests:")
    assert "ρ̂ = " in html


def test_tidy_columns_shadow_nothing_on_a_dataframe(battery):
    for result in (battery, rhoscope.estimate(MID, method="ml")):
        t = result.tidy()
        shadowed = [c for c in t.columns if hasattr(pd.DataFrame, c)]
        assert not shadowed, shadowed
        assert "flag_list" in t.columns


def test_tidy_carries_ml_standard_errors():
    est = rhoscope.estimate(MID, method="ml")
    t = est.tidy().set_index(["estimator", "anchor"])
    se = est.to_dict()["ml"]["se"]["rho"]
    assert list(t.loc["ml", "std_error"]) == se
    assert t.loc["estimate", "std_error"].isna().all()


def test_every_result_has_a_tidy_frame():
    results = [
        rhoscope.identify(),
        rhoscope.power(design="test-a", strength=0.4, n=[100, 200], reps=4, null_draws=20),
        rhoscope.plan(target="ci-width=0.4", preset="three-anchor", reps=4, bootstrap=100, max_n=400),
    ]
    for r in results:
        t = r.tidy()
        assert len(t) > 0, type(r).__name__
        assert "{" not in r.summary(), r.summary()
    power = results[1].tidy()
    assert list(power["n"]) == [100, 100, 200, 200] or set(power["n"]) == {100, 200}


def test_validate_has_a_tidy_frame():
    v = rhoscope.validate(MID, reps=2, null_draws=0)
    t = v.tidy()
    assert len(t) > 0 and {"n", "estimator", "mean", "rmse"} <= set(t.columns)


def test_results_compare_by_their_document():
    a = rhoscope.estimate(MID)
    assert a == rhoscope.estimate(MID)
    assert a != rhoscope.estimate(MID, method="both")
    assert a != a.to_json()


def test_attributes_are_declared():
    est = rhoscope.estimate(MID)
    assert est.n_items == 500 and est.n_dropped == 0
    assert est.judges[0] == "J1" and est.anchors == ["A1", "A2"]
    assert est.source == str(MID)
    for name in ("n_items", "n_dropped", "judges", "anchors", "source"):
        assert isinstance(getattr(type(est), name), property), name
    assert isinstance(rhoscope.Battery.reading, property)


def test_method_all_on_ordinal_anchors_keeps_every_row():
    rng = np.random.default_rng(2)
    t = rng.normal(size=400)
    df = pd.DataFrame({f"J{j}": t + rng.normal(size=400) for j in range(1, 5)})
    for k in range(1, 4):
        df[f"A{k}"] = np.clip(np.round(2 + 0.4 * k * t + rng.normal(size=400)), 1, 4).astype(int)
    est = rhoscope.estimate(df, method="all")
    tidy = est.tidy()
    assert {"estimate", "ml"} <= set(tidy["estimator"])
    for key in ("estimate", "ml"):
        rows = tidy[tidy["estimator"] == key]
        assert rows["estimate"].isna().all()
        assert rows["reason"].map(bool).all(), rows
