"""A hostile notebook user: wrong types, shapes, missing-value kinds, categoricals, empty
frames, huge values, wrong keywords, LazyFrames, MultiIndex, threads. Each input gives a
correct result or one line naming the keyword (never a flag, never a traceback from inside)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Callable

import numpy as np
import pandas as pd
import polars as pl
import pytest
import rhoscope
from conftest import ASSETS
from test_wording import flags_named

MID = ASSETS / "mid.csv"


def frame(n: int = 80) -> pd.DataFrame:
    """Three judges, two continuous anchors, one common factor."""
    rng = np.random.default_rng(11)
    t = rng.normal(size=n)
    return pd.DataFrame({c: t + rng.normal(size=n) for c in ["J1", "J2", "J3", "A1", "A2"]})


DF = frame()
REF = rhoscope.estimate(DF)


def est(data: Any = None, **kw: Any) -> Any:
    return rhoscope.estimate(DF if data is None else data, **kw)


def bat(data: Any = None, **kw: Any) -> Any:
    return rhoscope.battery(DF if data is None else data, bootstrap=100, null_draws=50, **kw)


def same(r: Any) -> bool:
    """The reference panel's estimate (whatever the data's shown name)."""
    return r.n_items == REF.n_items and r.tidy().equals(REF.tidy())


def with_col(name: str, values: Any) -> pd.DataFrame:
    d = DF.copy()
    d[name] = values
    return d


def likert(n: int = 80) -> pd.DataFrame:
    """Judges' scores with a 1–5 anchor."""
    d = DF.copy()
    d["A2"] = np.clip(np.round(d["A2"] + 3), 1, 5).astype(int)
    return d


def ordinal_judges() -> pd.DataFrame:
    """Judges on 1–5 codes and two continuous anchors: ρ is not identified (Section 7)."""
    d = DF.copy()
    for j in ["J1", "J2", "J3"]:
        d[j] = np.clip(np.round(d[j] + 3), 1, 5).astype(int)
    return d


LEVELS = ["awful", "poor", "fair", "good", "great"]


def labelled() -> pd.DataFrame:
    d = likert()
    d["A2"] = [LEVELS[int(v) - 1] for v in d["A2"]]
    return d


def multiindex() -> pd.DataFrame:
    d = DF.copy()
    d.columns = pd.MultiIndex.from_tuples([("s", c) for c in d.columns])
    return d


def na_frame(kind: Any) -> pd.DataFrame:
    d = DF.astype(object)
    d.loc[4, "J2"] = kind
    return d


def threaded() -> bool:
    out: list = []
    ts = [threading.Thread(target=lambda k=k: out.append(est(threads=k % 2 + 1))) for k in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return len(out) == 4 and all(r == REF for r in out)


# (id, call, expected): expected is what the one-line error names (a RhoscopeError, unless
# given as (exception, text): Python's own TypeError for a keyword that does not exist), or a
# check that the result is right.
CASES: list[tuple[str, Callable[[], Any], Any]] = [
    # data= of the wrong kind or shape
    ("data-int", lambda: est(5), "data="),
    ("data-list", lambda: est([[1, 2], [3, 4]]), "data="),
    ("data-1d-array", lambda: est(np.zeros(5)), "data="),
    ("data-3d-array", lambda: est(np.zeros((3, 3, 3)), names=["a", "b", "c"]), "data="),
    ("data-array-no-names", lambda: est(np.zeros((10, 5))), "names="),
    ("data-array-short-names", lambda: est(DF.to_numpy(), names=["J1", "J2"]), "names="),
    ("data-array-names", lambda: est(DF.to_numpy(), names=list(DF.columns)), same),
    ("data-array-names-tuple", lambda: est(DF.to_numpy(), names=tuple(DF.columns)), same),
    ("data-none", lambda: rhoscope.estimate(None), "data="),
    ("data-missing-path", lambda: est("/no/such/panel.csv"), "/no/such/panel.csv"),
    ("data-empty-frame", lambda: est(pd.DataFrame()), "data="),
    ("data-no-rows", lambda: est(DF.iloc[:0]), "<DataFrame>"),
    ("data-one-row", lambda: est(DF.iloc[:1]), "<DataFrame>"),
    ("data-series", lambda: est(DF["J1"]), "data="),
    ("data-mapping", lambda: est({c: DF[c].to_list() for c in DF.columns}), same),
    ("data-ordered-dict", lambda: est(OrderedDict((c, DF[c].to_numpy()) for c in DF.columns)), same),
    ("data-mapping-ragged", lambda: est({"J1": [1.0, 2.0], "J2": [1.0]}), "data="),
    ("data-polars", lambda: est(pl.from_pandas(DF)), same),
    ("data-lazyframe", lambda: est(pl.from_pandas(DF).lazy()), same),
    ("data-multiindex", lambda: est(multiindex()), "data="),
    ("data-int-column-names", lambda: est(DF.set_axis(range(5), axis=1), judges=[0, 1, 2], anchors=[3, 4]), lambda r: r.judges == ["0", "1", "2"]),
    ("data-duplicate-columns", lambda: est(DF.set_axis(["J1", "J1", "J3", "A1", "A2"], axis=1)), "J1"),
    ("data-labelled-index", lambda: est(DF.set_axis([f"item{i}" for i in range(80)])), same),
    ("data-multiindex-rows", lambda: est(DF.set_axis(pd.MultiIndex.from_arrays([range(80), range(80)]))), same),
    ("data-lazyframe-failing-query", lambda: est(pl.from_pandas(DF).lazy().select(pl.col("nope"))), "data= is a LazyFrame"),
    ("data-polars-list-column-unused", lambda: est(pl.from_pandas(DF).with_columns(pl.concat_list("J1", "J2").alias("L"))), same),
    ("data-polars-list-column-used", lambda: est(pl.from_pandas(DF).with_columns(pl.concat_list("J1", "J2").alias("A3"))), "A3"),
    ("data-pandas-list-cells-unused", lambda: est(with_col("Z", [[1]] * 80)), same),
    ("data-pyarrow-dtype", lambda: est(DF.astype("float64[pyarrow]")), same),
    ("data-float32", lambda: est(DF.astype(np.float32)), lambda r: r.n_items == 80),
    ("data-sparse", lambda: est(DF.astype(pd.SparseDtype(float))), same),
    ("data-fortran-array", lambda: est(np.asfortranarray(DF.to_numpy()), names=list(DF.columns)), same),
    ("data-strided-array", lambda: est(np.repeat(DF.to_numpy(), 2, axis=1)[:, ::2], names=list(DF.columns)), same),
    ("data-huge-values", lambda: est(DF * 1e300), "column 'J1'"),
    ("data-tiny-values", lambda: est(DF * 1e-300), "column 'J1'"),
    ("data-constant-column", lambda: est(with_col("J1", 1.0)), "column 'J1'"),
    ("data-timedelta", lambda: est(with_col("A2", pd.to_timedelta(DF.A2.abs(), unit="s"))), "durations"),
    # missing values of every kind
    ("na-nan", lambda: est(na_frame(np.nan)), lambda r: r.n_dropped == 1),
    ("na-none", lambda: est(na_frame(None)), lambda r: r.n_dropped == 1),
    ("na-pd-na", lambda: est(na_frame(pd.NA)), lambda r: r.n_dropped == 1),
    ("na-nat", lambda: est(na_frame(pd.NaT)), lambda r: r.n_dropped == 1),
    ("na-nullable-int", lambda: est(with_col("A2", pd.array([1, 2, None, 4] * 20, dtype="Int64"))), lambda r: r.n_dropped == 20),
    ("na-nullable-float", lambda: est(with_col("J1", pd.array(list(DF.J1[:-1]) + [None], dtype="Float64"))), lambda r: r.n_dropped == 1),
    ("na-polars-null", lambda: est(pl.from_pandas(DF).with_columns(pl.when(pl.int_range(80) == 3).then(None).otherwise(pl.col("J1")).alias("J1"))), lambda r: r.n_dropped == 1),
    ("na-all-missing-column", lambda: est(with_col("J2", np.nan)), "<DataFrame>"),
    ("na-inf", lambda: est(with_col("J1", [np.inf] + list(DF.J1[1:]))), "J1"),
    ("na-text-cell", lambda: est(with_col("J1", ["x"] + list(DF.J1[1:]))), "J1"),
    # categoricals and text
    ("cat-unordered", lambda: est(labelled().astype({"A2": "category"})), "pd.Categorical"),
    ("cat-ordered", lambda: est(labelled().assign(A2=lambda d: pd.Categorical(d.A2, categories=LEVELS, ordered=True))), lambda r: r.n_items == 80),
    ("cat-ordered-is-codes", lambda: est(labelled().assign(A2=lambda d: pd.Categorical(d.A2, categories=LEVELS, ordered=True))) == est(likert()), True),
    ("cat-numeric", lambda: est(likert().astype({"A2": "category"})), "astype(float)"),
    ("cat-text", lambda: est(labelled()), "ordered=True"),
    ("cat-polars-categorical", lambda: est(pl.from_pandas(labelled()).with_columns(pl.col("A2").cast(pl.Categorical))), "pl.Enum"),
    ("cat-polars-enum", lambda: est(pl.from_pandas(labelled()).with_columns(pl.col("A2").cast(pl.Enum(LEVELS)))) == est(likert()), True),
    ("cat-bool-column", lambda: est(with_col("A2", DF.A2 > 0)), lambda r: r.n_items == 80),
    ("cat-string-dtype", lambda: est(labelled().astype({"A2": "string"})), "ordered=True"),
    ("cat-bytes-cells", lambda: est(with_col("A2", [b"1"] * 80)), "A2"),
    ("cat-dates", lambda: est(with_col("A2", pd.date_range("2020", periods=80))), "A2"),
    ("cat-complex", lambda: est(with_col("A2", DF.A2 + 1j)), "A2"),
    # judges= / anchors= of every shape
    ("judges-index", lambda: est(judges=DF.columns[:3], anchors=DF.columns[3:]), same),
    ("judges-array", lambda: est(judges=np.array(["J1", "J2", "J3"])), same),
    ("judges-series", lambda: est(judges=pd.Series(["J1", "J2", "J3"])), same),
    ("judges-tuple", lambda: est(judges=("J1", "J2", "J3")), same),
    ("judges-generator", lambda: est(judges=(c for c in ["J1", "J2", "J3"])), same),
    ("judges-positions", lambda: est(judges=[1, 2, 3], anchors=[4, 5]), same),
    ("judges-numpy-ints", lambda: est(judges=np.array([1, 2, 3]), anchors=np.array([4, 5])), same),
    ("judges-set", lambda: est(judges={"J1", "J2", "J3"}), "judges="),
    ("judges-dict", lambda: est(judges={"J1": 1}), "judges="),
    ("judges-empty", lambda: est(judges=[]), "judges="),
    ("judges-one", lambda: est(judges="J1"), "judges="),
    ("judges-unknown", lambda: est(judges=["J1", "J2", "nope"]), "judges="),
    ("judges-zero", lambda: est(judges=[0, 1, 2]), "judges="),
    ("judges-negative", lambda: est(judges=[-1, 1, 2]), "judges="),
    ("judges-float", lambda: est(judges=[1.0, 2.0, 3.0]), "judges="),
    ("judges-bool", lambda: est(judges=[True, False]), "judges="),
    ("judges-none-inside", lambda: est(judges=["J1", None, "J3"]), "judges="),
    ("judges-nan-inside", lambda: est(judges=["J1", np.nan, "J3"]), "judges="),
    ("judges-huge-position", lambda: est(judges=[1, 2, 10**30]), "judges="),
    ("judges-duplicate", lambda: est(judges=["J1", "J1", "J2"]), "judges="),
    ("judges-int", lambda: est(judges=3), "judges="),
    ("judges-object", lambda: est(judges=object()), "judges="),
    ("anchors-overlap", lambda: est(judges=["J1", "J2", "J3"], anchors=["J3", "A1"]), "anchors="),
    ("anchors-empty", lambda: est(anchors=[]), "anchors="),
    ("set-aside-unknown", lambda: est(set_aside=["nope"]), "set_aside="),
    ("id-unknown", lambda: est(id="nope"), "id="),
    ("id-float", lambda: est(id=1.5), "id="),
    ("continuous-int", lambda: est(continuous=[1]), "continuous="),
    ("continuous-all", lambda: est(continuous="ALL"), lambda r: r.n_items == 80),
    ("continuous-unknown", lambda: est(continuous=["nope"]), "continuous="),
    # families= of every shape
    ("families-int", lambda: est(families=3), "families="),
    ("families-empty", lambda: est(families={}), "families="),
    ("families-list", lambda: est(families=[("J1", "a")]), "families="),
    ("families-series", lambda: est(families=pd.Series({"J1": "a", "J2": "a"})), lambda r: r.n_items == 80),
    ("families-frame-3col", lambda: est(families=pd.DataFrame({"a": [1], "b": [2], "c": [3]})), "families="),
    ("families-nan", lambda: est(families={"J1": np.nan}), "families="),
    ("families-unknown-judge", lambda: est(families={"Z9": "a"}), "families="),
    ("families-missing-file", lambda: est(families="/no/such/families.csv"), "families"),
    ("families-polars", lambda: est(families=pl.DataFrame({"judge": ["J1", "J2"], "family": ["a", "a"]})), lambda r: r.n_items == 80),
    ("families-lazyframe", lambda: est(families=pl.DataFrame({"judge": ["J1", "J2"], "family": ["a", "a"]}).lazy()), lambda r: r.n_items == 80),
    ("families-list-value", lambda: est(families={"J1": ["a"]}), "families="),
    # numbers: wrong types, huge, negative
    ("bootstrap-true", lambda: rhoscope.battery(DF, bootstrap=True), "bootstrap="),
    ("bootstrap-str", lambda: rhoscope.battery(DF, bootstrap="300"), "bootstrap="),
    ("bootstrap-float", lambda: rhoscope.battery(DF, bootstrap=300.0), "bootstrap="),
    ("bootstrap-huge", lambda: rhoscope.battery(DF, bootstrap=10**12), "bootstrap="),
    ("bootstrap-huger", lambda: rhoscope.battery(DF, bootstrap=10**40), "bootstrap="),
    ("bootstrap-negative", lambda: rhoscope.battery(DF, bootstrap=-1), "bootstrap="),
    ("bootstrap-numpy", lambda: rhoscope.battery(DF, bootstrap=np.int64(100), null_draws=np.uint16(50)), lambda r: r.n_items == 80),
    ("null-draws-nan", lambda: rhoscope.battery(DF, null_draws=float("nan")), "null_draws="),
    ("seed-negative", lambda: bat(seed=-5), "seed="),
    ("seed-huge", lambda: bat(seed=2**64), "seed="),
    ("seed-max", lambda: bat(seed=2**64 - 1), lambda r: r.n_items == 80),
    ("threads-zero", lambda: est(threads=0), "threads="),
    ("threads-huge", lambda: est(threads=10**6), "threads="),
    ("threads-str", lambda: est(threads="2"), "threads="),
    ("threads-many-callers", threaded, True),
    ("codes-as-numbers-int", lambda: bat(codes_as_numbers=1), "codes_as_numbers="),
    ("blocked-str", lambda: est(blocked="yes"), "blocked="),
    ("method-unknown", lambda: est(method="bayes"), "method="),
    ("method-int", lambda: est(method=1), "method="),
    ("method-upper", lambda: est(method="ML") == est(method="ml"), True),
    # keywords that cannot apply, or do not exist
    ("bias-reps-alone", lambda: est(bias_reps=50), "bias_reps="),
    ("seed-alone", lambda: est(seed=3), "seed="),
    ("bias-reps-zero", lambda: est(method="free-scale", bias_correct=True, bias_reps=0), "bias_reps="),
    ("misspelt-keyword", lambda: est(bootstrp=100), (TypeError, "bootstrp")),
    ("battery-misspelt", lambda: rhoscope.battery(DF, judge=["J1"]), (TypeError, "judge")),
    ("plot-misspelt-with-data", lambda: rhoscope.plot("rho", DF, bootstrp=100), "bootstrp"),
    ("plot-ns-on-rho", lambda: rhoscope.plot("rho", ns=[100]), "ns="),
    ("plot-n-on-power", lambda: rhoscope.plot("power", n=100), "n="),
    ("plot-preset-on-panel", lambda: rhoscope.plot("rho", DF, preset="three-anchor"), "preset="),
    ("plot-null-draws-boundary", lambda: rhoscope.plot("boundary", null_draws=10), "null_draws="),
    ("plot-kind-unknown", lambda: rhoscope.plot("pie"), "kind="),
    ("plot-kind-int", lambda: rhoscope.plot(3), "kind="),
    ("plot-unknown-scenario-key", lambda: rhoscope.plot("rho", n=100, zzz=1), "zzz"),
    ("power-n-empty", lambda: rhoscope.power(design="test-a", strength=[0.4], n=[]), "n="),
    ("power-strength-str", lambda: rhoscope.power(design="test-a", strength="x", n=[100]), "strength="),
    ("power-design-unknown", lambda: rhoscope.power(design="test-z", strength=[0.4], n=[100]), "design="),
    ("plan-no-target", lambda: rhoscope.plan(target=""), "target="),
    ("plan-target-int", lambda: rhoscope.plan(target=3), "target="),
    ("plan-rho-str-list", lambda: rhoscope.plan(target="ci-width=0.3", rho=["a"]), "rho="),
    ("simulate-n-zero", lambda: rhoscope.simulate("families", n=0, seed=1), "n="),
    ("simulate-preset-unknown", lambda: rhoscope.simulate("nope", n=10, seed=1), "preset="),
    ("simulate-seed-float", lambda: rhoscope.simulate("families", n=10, seed=1.5), "seed="),
    ("validate-inject-str", lambda: rhoscope.validate(DF, inject="x", n=[100], reps=2), "inject="),
    ("identify-judges-without-data", lambda: rhoscope.identify(judges=["J1"]), "judges="),
    ("export-a-frame", lambda: rhoscope.export(DF), "data="),
    ("export-syntax-unknown", lambda: rhoscope.export(MID, syntax="stan"), "syntax="),
    ("export-syntax-int", lambda: rhoscope.export(MID, syntax=1), "syntax="),
    ("long-two-columns", lambda: est(DF, long=("a", "b")), "long="),
    ("long-unknown-column", lambda: est(DF, long=("item", "rater", "score")), "long="),
    # names= belongs to an array: beside a frame, a mapping or a path it would be ignored
    ("names-with-frame", lambda: est(DF, names=list(DF.columns)), "names="),
    ("names-with-polars", lambda: est(pl.from_pandas(DF), names=list(DF.columns)), "names="),
    ("names-with-mapping", lambda: est(DF.to_dict("list"), names=list(DF.columns)), "names="),
    ("names-with-path", lambda: est(MID, names=["a"]), "names="),
    # the identification refusal points to the function, not to the command
    ("not-identified-points-to-identify", lambda: est(ordinal_judges()), "rhoscope.identify(data) shows why"),
]


@pytest.mark.parametrize("name,call,expected", CASES, ids=[c[0] for c in CASES])
def test_a_hostile_input_is_refused_by_keyword_or_read_right(name, call, expected):
    if isinstance(expected, (str, tuple)):
        kind, expected = expected if isinstance(expected, tuple) else (rhoscope.RhoscopeError, expected)
        with pytest.raises(kind) as e:
            call()
        message = str(e.value)
        assert "\n" not in message.strip(), message
        assert expected in message, message
        assert flags_named(message) == [], message
    elif expected is True:
        assert call() is True
    else:
        assert expected(call())


def test_there_are_a_hundred_hostile_inputs():
    assert len(CASES) >= 100
