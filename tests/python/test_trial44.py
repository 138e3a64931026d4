"""The notebook trial's findings (session 44), each as the call that showed it: no silent
wrong number (integers a double cannot hold, a masked array's mask, a categorical's order),
scenario parameters as the command line takes them, and errors that name the keyword."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import rhoscope

BIG = 2**53


def _refused_beyond_2_53(call) -> None:
    with pytest.raises(rhoscope.InputError) as e:
        call()
    assert e.value.exit_code == 65
    assert "column 'A1'" in e.value.message
    assert "beyond 2^53" in e.value.message


def test_integers_beyond_2_53_are_refused_in_every_container(likert):
    """The command line refuses an integer a double cannot hold (exit 65); the API did the
    same for a Python-int object column only and rounded every other container in silence."""
    big = likert.copy()
    big["A1"] = likert.A1 + BIG
    pl = pytest.importorskip("polars")
    _refused_beyond_2_53(lambda: rhoscope.estimate(big))
    _refused_beyond_2_53(lambda: rhoscope.estimate(big.astype({"A1": "Int64"})))
    _refused_beyond_2_53(lambda: rhoscope.estimate(pl.from_pandas(big)))
    # An int64 array (every column whole numbers), and an object array of the frame's values;
    # `big.to_numpy()` itself is float64, rounded by pandas before rhoscope sees it.
    ints = (big.drop(columns="A1") * 1000).round().astype(np.int64).assign(A1=big.A1)
    _refused_beyond_2_53(lambda: rhoscope.estimate(ints.to_numpy(), names=list(ints.columns)))
    _refused_beyond_2_53(lambda: rhoscope.estimate(big.to_numpy(dtype=object), names=list(big.columns)))
    _refused_beyond_2_53(lambda: rhoscope.estimate({c: big[c].tolist() for c in big.columns}))
    _refused_beyond_2_53(lambda: rhoscope.estimate({c: big[c].to_numpy() for c in big.columns}))
    # A list of ints with a float among them, which numpy would make float64.
    mixed = {c: big[c].tolist() for c in big.columns}
    mixed["A1"] = [*mixed["A1"][:-1], 3.0]
    _refused_beyond_2_53(lambda: rhoscope.estimate(mixed))


def test_a_uint64_beyond_2_63_is_refused_not_called_constant(likert):
    big = likert.assign(A1=likert.A1.astype(np.uint64) + np.uint64(2**63))
    _refused_beyond_2_53(lambda: rhoscope.estimate(big))


def test_integers_a_double_holds_are_read_as_numbers(likert):
    """Up to 2^53 nothing changes: int64 codes and their float64 copy give one document."""
    assert rhoscope.estimate(likert) == rhoscope.estimate(likert.astype({"A1": "float64"}))


def test_a_long_score_column_beyond_2_53_is_refused(likert):
    long = likert.reset_index().melt(id_vars="index", var_name="rater", value_name="score")
    long["score"] = np.where(long.rater == "A1", long.score, 1).astype(np.int64) + BIG
    with pytest.raises(rhoscope.InputError, match="beyond 2\\^53"):
        rhoscope.estimate(long, long=("index", "rater", "score"))


def test_a_masked_array_reads_masked_cells_as_missing():
    """A masked cell is missing, as `pd.DataFrame(masked)` reads it, not its hidden value."""
    s = rhoscope.simulate("families", n=300, seed=1)
    m = np.ma.masked_greater(s.to_numpy(), 2.5)
    names = list(s.columns)
    got = rhoscope.estimate(m, names=names)
    want = rhoscope.estimate(pd.DataFrame(m, columns=names))
    assert got.n_dropped == int(m.mask.any(axis=1).sum()) > 0
    assert got.to_dict()["estimate"] == want.to_dict()["estimate"]
    in_mapping = rhoscope.estimate({c: m[:, j] for j, c in enumerate(names)})
    assert in_mapping.n_dropped == got.n_dropped


def test_families_is_a_scenario_parameter_of_simulate_plan_and_plot():
    """`--set families=3` on the command line; `families=3` here."""
    df = rhoscope.simulate("mid", n=50, seed=1, families=3)
    assert len(set(df.attrs["families"].values())) == 3
    svg = rhoscope.plot("rho", preset="mid", n=300, families=3)
    assert svg.lstrip().startswith("<")
    plan = rhoscope.plan(target="ci-width=0.3", preset="mid", families=3, reps=2, max_n=100)
    assert plan.scenario is not None
    with pytest.raises(rhoscope.UsageError, match="scenario's number of families"):
        rhoscope.plot("rho", df, families=3)


@pytest.mark.parametrize(
    "cats, ordered",
    [(["1", "2", "3", "4", "10"], True), ([1, 2, 3, 4, 10], True), ([5, 4, 3, 2, 1], True)],
)
def test_a_declared_order_is_read_as_codes_whatever_the_labels(likert, cats, ordered):
    """Declared order → codes 1, 2, … in that order, numeric labels too (a reversed order
    reverses the codes)."""
    to_label = dict(zip(range(1, 6), cats))
    lab = likert.assign(A1=pd.Categorical(likert.A1.map(to_label), categories=cats, ordered=ordered))
    want = rhoscope.estimate(likert, continuous=["A1"])
    got = rhoscope.estimate(lab, continuous=["A1"])
    assert got.to_dict()["estimate"] == want.to_dict()["estimate"]


@pytest.mark.parametrize("cats", [["1", "2", "3", "4", "10"], [1, 2, 3, 4, 10]])
def test_an_undeclared_order_of_numeric_labels_is_refused(likert, cats):
    """An unordered categorical was read as its labels' numbers; the rule refuses it, with
    both fixes (the numbers, or an order)."""
    lab = likert.assign(A1=pd.Categorical(likert.A1.map(dict(zip(range(1, 6), cats)))))
    with pytest.raises(rhoscope.InputError) as e:
        rhoscope.estimate(lab)
    assert "column 'A1'" in e.value.message and "astype(float)" in e.value.message
    assert "ordered=True" in e.value.message


def test_a_polars_categorical_of_numeric_labels_is_refused(likert):
    pl = pytest.importorskip("polars")
    lab = pl.from_pandas(likert.assign(A1=likert.A1.map({1: "1", 2: "2", 3: "3", 4: "4", 5: "10"})))
    lab = lab.with_columns(pl.col("A1").cast(pl.Categorical))
    with pytest.raises(rhoscope.InputError, match="pl.Enum"):
        rhoscope.estimate(lab)
    enum = lab.with_columns(pl.col("A1").cast(pl.Utf8).cast(pl.Enum(["1", "2", "3", "4", "10"])))
    want = rhoscope.estimate(likert, continuous=["A1"])
    assert rhoscope.estimate(enum, continuous=["A1"]).to_dict()["estimate"] == want.to_dict()["estimate"]


def test_an_undeclared_numeric_categorical_that_takes_no_role_is_no_obstacle(likert):
    """Refused where used: as an id column its labels are read as they are."""
    lab = likert.assign(item=pd.Categorical([str(i) for i in range(len(likert))]))
    got = rhoscope.estimate(lab, judges=[c for c in likert.columns if c.startswith("J")], anchors=["A1", "A2"])
    assert got.n_items == len(likert)


def test_long_layout_from_a_mapping_keeps_a_categorical_order(likert):
    long = likert.reset_index().melt(id_vars="index", var_name="rater", value_name="score")
    long = long[long.rater.isin(["J1", "J2", "J3", "A1", "A2"])].reset_index(drop=True)
    long["score"] = np.where(long.rater == "A1", long.score, np.round(long.score) + 10).astype(int)
    # Text labels in their numbers' order, with a gap (5 → 7): codes 1, 2, … are not the labels.
    levels = [str(v) for v in sorted(long.score.unique())]
    cat = long.assign(score=pd.Categorical(long.score.astype(str), categories=levels, ordered=True))
    frame = rhoscope.estimate(cat, long=("index", "rater", "score"), continuous="all")
    mapping = rhoscope.estimate({k: cat[k] for k in cat.columns}, long=("index", "rater", "score"), continuous="all")
    assert mapping.to_dict()["estimate"] == frame.to_dict()["estimate"]


def test_a_generator_in_a_mapping_is_its_values():
    s = rhoscope.simulate("families", n=200, seed=2)
    gen = rhoscope.estimate({c: (x for x in s[c]) for c in s.columns})
    assert gen.to_dict()["estimate"] == rhoscope.estimate(s).to_dict()["estimate"]


@pytest.mark.parametrize(
    "column, what",
    [
        (pd.period_range("2020-01", periods=300, freq="M"), "periods"),
        (pd.arrays.IntervalArray.from_breaks(np.arange(301)), "intervals"),
    ],
)
def test_periods_and_intervals_are_not_called_text(column, what):
    s = rhoscope.simulate("families", n=300, seed=1).assign(J1=column)
    with pytest.raises(rhoscope.InputError) as e:
        rhoscope.estimate(s)
    assert what in e.value.message and "text" not in e.value.message


def test_errors_name_the_keyword_typed():
    s = rhoscope.simulate("families", n=200, seed=2)
    with pytest.raises(rhoscope.UsageError, match=r"^judges="):
        rhoscope.estimate(s, judges="J1", anchors=["A1", "A2"])
    with pytest.raises(rhoscope.UsageError, match=r"^judges="):
        rhoscope.estimate(s, judges=3, anchors=["A1", "A2"])
    with pytest.raises(rhoscope.UsageError, match=r"^dist= 't'"):
        rhoscope.plan(target="ci-width=0.3", preset="mid", dist="t", reps=2, max_n=100)
    with pytest.raises(rhoscope.InputError, match=r"^families=: /nope\.csv"):
        rhoscope.plot("battery", s, families="/nope.csv")


def test_export_names_families_in_its_error(tmp_path):
    s = rhoscope.simulate("families", n=200, seed=2)
    path = tmp_path / "s.csv"
    s.to_csv(path, index=False)
    with pytest.raises(rhoscope.InputError, match=r"^families=: /nope\.csv"):
        rhoscope.export(path, families="/nope.csv")


def test_plot_refuses_a_keyword_it_lacks_without_pointing_to_scenarios():
    s = rhoscope.simulate("families", n=200, seed=2)
    with pytest.raises(rhoscope.UsageError) as e:
        rhoscope.plot("battery", s, designated_clean="A1")
    assert "designated_clean" in e.value.message and "scenario" not in e.value.message
    with pytest.raises(rhoscope.UsageError, match="leave data out"):
        rhoscope.plot("rho", s, rho=[0.1, 0.2])


def _trusted(tmp_path_factory, preset: str):
    """A battery with A1 trusted, on a file the command line reads too, and the command's text."""
    from conftest import cli

    path = tmp_path_factory.mktemp(preset) / f"{preset}.csv"
    rhoscope.simulate(preset, n=1000, seed=7).to_csv(path, index=False)
    text = cli("battery", path, "--designated-clean", "A1", "--bootstrap", "100").out
    return text, rhoscope.battery(path, designated_clean="A1", bootstrap=100).summary()


def test_summary_says_the_commands_verdicts(tmp_path_factory):
    text, summary = _trusted(tmp_path_factory, "three-anchor")
    lines = [line.strip() for line in text.splitlines() if line.strip().startswith(("A2: ρ̂", "A3: ρ̂"))]
    assert len(lines) == 2
    for line in lines:
        assert line in summary
    a1 = next(line for line in summary.splitlines() if line.strip().startswith("A1:"))
    # Trusted, not estimated: no [0, 0] "interval" read as evidence.
    assert "[0.0000, 0.0000]" not in a1 and "by assumption" in a1


def test_a_batterys_tidy_has_the_designated_clean_fit_it_reads():
    """The reading reads the designated-clean fit; tidy() had no row of it. The trusted
    anchor's row is the assumption: ρ̂ 0, no interval, the reason said."""
    s = rhoscope.simulate("three-anchor", n=1000, seed=7)
    bat = rhoscope.battery(s, designated_clean="A1", bootstrap=100, null_draws=100)
    assert bat.reading["read"] == "designated_clean"
    rows = bat.tidy().set_index(["estimator", "anchor"])
    a1, a2 = rows.loc[("designated_clean", "A1")], rows.loc[("designated_clean", "A2")]
    assert a1.estimate == 0 and np.isnan(a1.ci_low) and "assumed" in a1.reason
    want = next(a for a in bat.reading["anchors"] if a["anchor"] == "A2")
    assert [a2.estimate, a2.ci_low, a2.ci_high] == [want["rho"], *want["ci"]]


def test_summary_keeps_the_free_scale_line(tmp_path_factory):
    text, summary = _trusted(tmp_path_factory, "families")
    free = next(line.strip() for line in text.splitlines() if "free-scale estimate not available" in line)
    assert free in summary
    assert not any(flag in summary for flag in ("--continuous", "--anchors", "--judges"))


def test_usage_and_input_errors_are_distinct_classes_of_one_base():
    """A bad keyword value is a UsageError (exit 2), bad data an InputError (65): both
    RhoscopeError, neither the other."""
    assert issubclass(rhoscope.UsageError, rhoscope.RhoscopeError)
    assert issubclass(rhoscope.InputError, rhoscope.RhoscopeError)
    assert not issubclass(rhoscope.UsageError, rhoscope.InputError)
    assert not issubclass(rhoscope.InputError, rhoscope.UsageError)
    s = rhoscope.simulate("families", n=200, seed=2)
    with pytest.raises(rhoscope.UsageError) as usage:
        rhoscope.battery(s, bootstrap="many")
    assert usage.value.exit_code == 2
    for bad in (
        s.assign(J1=pd.date_range("2020-01-01", periods=200)),
        s.assign(J1=s.J1 + 1j),
        {"J1": [1.0, 2.0], "J2": [1.0]},
    ):
        with pytest.raises(rhoscope.InputError) as data:
            rhoscope.estimate(bad)
        assert data.value.exit_code == 65


def test_a_masked_object_array_and_a_period_index_in_a_mapping():
    """An object array's mask is missing too (numpy's fill value for objects is '?'), and a
    pandas Index in a mapping is read as a frame's column is (periods named as such)."""
    s = rhoscope.simulate("families", n=300, seed=1)
    names = list(s.columns)
    as_float = np.ma.masked_greater(s.to_numpy(), 2.5)
    as_object = np.ma.masked_greater(s.to_numpy(dtype=object), 2.5)
    assert rhoscope.estimate(as_object, names=names) == rhoscope.estimate(as_float, names=names)
    mapping = {**{c: s[c] for c in names}, "J1": pd.period_range("2020-01", periods=300, freq="M")}
    with pytest.raises(rhoscope.InputError, match="holds periods"):
        rhoscope.estimate(mapping)
