"""Keyword arguments reach the library typed, never as command-line text: any ordered
iterable of names or positions, families as a path, a mapping, a Series or a frame, names
with commas, and every refusal one line naming the keyword the user typed."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import rhoscope
from conftest import ASSETS

MID = ASSETS / "mid.csv"
QUICK = {"bootstrap": 100, "null_draws": 100}


def frame(n: int = 300, seed: int = 5) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    f = rng.normal(size=n)
    cols = {f"judge {j}": f + rng.normal(scale=0.8, size=n) for j in range(1, 5)}
    cols.update({f"anchor {k}": (0.2 * k) * f + rng.normal(size=n) for k in range(1, 4)})
    return pd.DataFrame(cols)


def rhos(result: rhoscope.Result) -> list:
    return [a["rho"] for a in result.to_dict()["estimate"]["anchors"]]


def refused(call, *args, **kw) -> str:
    with pytest.raises(rhoscope.UsageError) as e:
        call(*args, **kw)
    message = str(e.value)
    assert "\n" not in message and "--" not in message and "rhoscope:" not in message, message
    return message


def test_any_ordered_iterable_of_names_or_positions():
    df = frame()
    want = rhos(rhoscope.estimate(df, judges=list(df.columns[:4]), anchors=list(df.columns[4:])))
    for judges, anchors in [
        (df.columns[:4], df.columns[4:]),
        (np.array(df.columns[:4]), tuple(df.columns[4:])),
        ((c for c in df.columns[:4]), iter(df.columns[4:])),
        (range(1, 5), np.arange(5, 8)),
        (pd.Series(df.columns[:4]), [np.int64(5), 6, 7]),
    ]:
        assert rhos(rhoscope.estimate(df, judges=judges, anchors=anchors)) == want


def test_a_set_has_no_order():
    df = frame()
    message = refused(rhoscope.estimate, df, judges=set(df.columns[:4]), anchors=list(df.columns[4:]))
    assert message.startswith("judges= is a set, which has no order")


def test_a_comma_is_only_a_character():
    df = frame()
    want = rhos(rhoscope.estimate(df, judges=list(df.columns[:4]), anchors=list(df.columns[4:])))
    commas = df.rename(columns={"judge 1": "judge, one", "anchor 2": "anchor, two"})
    got = rhoscope.estimate(commas, judges=list(commas.columns[:4]), anchors=list(commas.columns[4:]))
    assert rhos(got) == want
    assert got.anchors[1] == "anchor, two"


def test_families_as_a_mapping_a_series_a_frame_or_a_path(tmp_path):
    df = frame()
    judges, anchors = list(df.columns[:4]), list(df.columns[4:])
    fam = {"judge 1": "a, b", "judge 2": "a, b", "judge 3": "c", "judge 4": "c"}
    path = tmp_path / "families.csv"
    pd.DataFrame({"judge": list(fam), "family": list(fam.values())}).to_csv(path, index=False)
    kw = {"judges": judges, "anchors": anchors, "blocked": True}
    want = rhoscope.estimate(df, families=fam, **kw).to_dict()["blocked"]
    assert want.get("anchors"), want
    for given in (
        pd.Series(fam),
        pd.DataFrame({"judge": list(fam), "family": list(fam.values())}),
        path,
        str(path),
    ):
        assert rhoscope.estimate(df, families=given, **kw).to_dict()["blocked"] == want
    pl = pytest.importorskip("polars")
    polars = pl.DataFrame({"judge": list(fam), "family": list(fam.values())})
    assert rhoscope.estimate(df, families=polars, **kw).to_dict()["blocked"] == want


@pytest.mark.parametrize(
    ("kw", "start"),
    [
        ({"families": {}}, "families= is empty"),
        ({"families": pd.DataFrame({"a": [1], "b": [2], "c": [3]})}, "families= as a DataFrame has two columns"),
        ({"families": 3}, "families= takes a dict of judge to family"),
        ({"families": {"judge 1": None}}, "families= has a missing value"),
        ({"judges": []}, "judges= is empty"),
        ({"anchors": []}, "anchors= is empty"),
        ({"judges": [-1, 2, 3]}, "judges=: -1 is no column's name or position (positions count from 1: 1 to "),
        ({"judges": [0, 2, 3]}, "judges=: 0 is no column's name or position (positions count from 1: 1 to "),
        ({"judges": [1.5, 2]}, "judges= takes column names (str) or 1-based positions (int), not 1.5"),
        ({"judges": [True, 2]}, "judges= takes column names (str) or 1-based positions (int), not True"),
        ({"judges": {"a": 1}}, "judges= takes a list, not a dict"),
        ({"anchors": ["anchor 1", None]}, "anchors= takes column names (str) or 1-based positions (int), not None"),
        ({"id": 0}, "id=: 0 is no column's name or position (positions count from 1: 1 to "),
        ({"continuous": [3]}, 'continuous= takes column names, or "all"'),
        ({"method": "mle"}, "method= takes one of closed, ml, both"),
        ({"method": 3}, "method= takes a string, not 3"),
        ({"blocked": "yes"}, "blocked= takes True or False, not 'yes'"),
        ({"bias_reps": True}, "bias_reps= takes a whole number, not True"),
        ({"bias_reps": 5, "bias_correct": True}, "bias_reps= takes a whole number from 10 to 100000, not 5"),
        ({"bias_reps": 50}, "bias_reps= sets the refits of bias_correct=True, which is not given"),
        ({"seed": 3}, "seed= seeds the bias_correct=True simulations and the latent designated_clean="),
        ({"seed": -1}, "seed= takes a whole number from 0 up, not -1"),
        ({"seed": 2**64}, "seed= is too large"),
        ({"seed": 1.0}, "seed= takes a whole number, not 1.0"),
        ({"threads": 0}, "threads= takes a whole number from 1 to "),
        ({"threads": 10**12}, "threads= takes a whole number from 1 to "),
        ({"designated_clean": 0}, "designated_clean=: '0' is not an anchor"),
    ],
)
def test_estimate_refusals_name_the_keyword(kw, start):
    assert refused(rhoscope.estimate, frame(60), **kw).startswith(start)


@pytest.mark.parametrize(
    ("kw", "start"),
    [
        ({"bootstrap": 10**12}, "bootstrap= takes a whole number from 100 to 1000000, not 1000000000000"),
        ({"bootstrap": True}, "bootstrap= takes a whole number, not True"),
        ({"bootstrap": 50}, "bootstrap= takes a whole number from 100 to 1000000, not 50"),
        ({"null_draws": 5}, "null_draws= takes a whole number from 20 to 10000000, not 5"),
        ({"bootstrap": "300"}, "bootstrap= takes a whole number, not '300'"),
        ({"codes_as_numbers": 1}, "codes_as_numbers= takes True or False, not 1"),
        ({"designated_clean": 0}, "designated_clean=: '0' is not an anchor"),
    ],
)
def test_battery_refusals_name_the_keyword(kw, start):
    assert refused(rhoscope.battery, frame(60), **kw).startswith(start)


@pytest.mark.parametrize(
    ("kw", "start"),
    [
        ({"n": []}, "n= is empty"),
        ({"n": [100, "x"]}, "n= takes a whole number, not 'x'"),
        ({"n": 2}, "n= takes a whole number from 3 to 10000000, not 2"),
        ({"strength": []}, "strength= is empty"),
        ({"strength": [float("nan")]}, "strength= takes a finite number"),
        ({"design": "test-z"}, "design= takes one of test-a"),
        ({"reps": 0}, "reps= takes a whole number from 1 to 1000000, not 0"),
        ({"skewed": True}, "skewed=True skews ordinal judges: give ordinal= too"),
        ({"ordinal": 11}, "ordinal= takes a whole number from 2 to 10, not 11"),
        ({"n": {3, 4}}, "n= is a set, which has no order"),
    ],
)
def test_power_refusals_name_the_keyword(kw, start):
    base = {"design": "test-a", "strength": 0.4, "n": 100, "reps": 2, "null_draws": 20}
    assert refused(rhoscope.power, **{**base, **kw}).startswith(start)


def test_validate_and_plan_refusals_name_the_keyword():
    assert refused(rhoscope.validate, frame(60), n=[5]).startswith("n= takes a whole number from 10 to 10000000, not 5")
    assert refused(rhoscope.validate, frame(60), inject=["a"]).startswith("inject= takes a number, not 'a'")
    assert refused(rhoscope.plan, target="ci-width=0.2", preset="nope").startswith("preset= takes one of")
    assert refused(rhoscope.plan, target="ci-width=0.2", max_n=True).startswith("max_n= takes a whole number, not True")


def test_a_lazy_frame_is_collected():
    pl = pytest.importorskip("polars")
    df = frame()
    eager = pl.from_pandas(df)
    kw = {"judges": list(df.columns[:4]), "anchors": list(df.columns[4:])}
    assert rhoscope.estimate(eager.lazy(), **kw) == rhoscope.estimate(eager, **kw)


def test_multiindex_columns_are_refused_with_the_fix():
    df = frame(60)
    df.columns = pd.MultiIndex.from_tuples([("s", c) for c in df.columns])
    with pytest.raises(rhoscope.InputError) as e:
        rhoscope.estimate(df)
    message = e.value.message
    assert message.startswith("data= has MultiIndex columns") and "df.columns =" in message


def test_pd_na_in_text_is_missing_as_none_and_nan():
    df = frame(80)
    judges, anchors = list(df.columns[:4]), list(df.columns[4:])
    text = df.copy()
    text["judge 2"] = df["judge 2"].map(repr).astype("string")
    text.loc[[3, 9], "judge 2"] = pd.NA
    none = df.copy()
    none.loc[[3, 9], "judge 2"] = np.nan
    got = rhoscope.estimate(text, judges=judges, anchors=anchors)
    assert got.n_dropped == 2
    assert rhos(got) == rhos(rhoscope.estimate(none, judges=judges, anchors=anchors))


def test_plot_refuses_a_misspelt_keyword():
    message = refused(rhoscope.plot, "rho", MID, bootstrp=100)
    assert message.startswith("plot() got an unexpected keyword argument 'bootstrp'")
    with pytest.raises(rhoscope.RhoscopeError) as e:
        rhoscope.plot("rho", n=200, bootstrp=100)
    assert str(e.value).startswith("bootstrp= is neither an option nor a scenario parameter")


def test_the_path_given_is_the_file_read():
    """A path is read as it is, whatever it holds (no text is split on commas)."""
    assert rhoscope.estimate(MID) == rhoscope.estimate(str(MID))


def test_no_data_is_said():
    assert refused(rhoscope.battery, None).startswith("battery() needs data=")
    assert refused(rhoscope.identify, judges=["J1"]).startswith("judges= describes a panel")
    assert refused(rhoscope.estimate, object()).startswith("data= is a object")


@pytest.mark.parametrize(
    ("call", "kw", "start"),
    [
        (rhoscope.plan, {"target": "nonsense"}, "target= nonsense: use ci-width=W"),
        (rhoscope.validate, {"data": MID, "inject": [0.1]}, "inject= needs between 3 and"),
        (rhoscope.plot, {"kind": "power", "data": MID}, "plot(\"power\") draws a scenario (preset= and its parameters), not a panel"),
        (rhoscope.estimate, {"data": MID, "method": "free-scale"}, "free-scale: the free-scale estimator needs"),
    ],
)
def test_library_refusals_name_keywords(call, kw, start):
    with pytest.raises(rhoscope.RhoscopeError) as e:
        call(**kw)
    assert str(e.value).startswith(start) or start in str(e.value), str(e.value)
    assert "--" not in str(e.value)


def test_an_existing_output_names_force(tmp_path):
    out = tmp_path / "refit.R"
    out.write_text("x")
    message = refused(rhoscope.export, MID, output=out)
    assert message.endswith("already exists: remove it, or pass force=True"), message
