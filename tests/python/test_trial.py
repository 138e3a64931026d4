"""A notebook user's trial of the package (fresh environment, docs followed literally, hostile
inputs): each finding kept here as the case that failed before its fix — integer column
labels read by the command's rule, `names=` as any ordered iterable, mappings of Series,
the designated-clean fit on latent scales shown, the summary worded from the core's reading,
and every message naming the keyword typed."""

from __future__ import annotations

import json
import textwrap

import numpy as np
import pandas as pd
import pytest
import rhoscope
from conftest import ASSETS, DATA, cli, cli_json, last_error

MID = ASSETS / "mid.csv"
QUICK = {"bootstrap": 100, "null_draws": 100}


def refused(kind: type, call, *args, **kw) -> str:
    with pytest.raises(kind) as e:
        call(*args, **kw)
    message = str(e.value)
    assert "\n" not in message and "--" not in message and "rhoscope:" not in message, message
    return message


def rhos(doc: dict, key: str = "estimate") -> list:
    return [a["rho"] for a in doc[key]["anchors"]]


@pytest.fixture(scope="module")
def intcols(tmp_path_factory) -> tuple[pd.DataFrame, str]:
    """mid.csv with the integer labels `pd.DataFrame(array)` gives (0 … 7), as a frame and a file."""
    df = pd.read_csv(MID)
    df.columns = range(df.shape[1])
    path = tmp_path_factory.mktemp("intcols") / "intcols.csv"
    df.to_csv(path, index=False)
    return df, str(path)


def test_integer_labels_follow_the_command_rule(intcols):
    df, path = intcols
    want = json.loads(cli_json("estimate", path, "--judges", "1,2,3,4,5", "--anchors", "6,7"))
    assert want["judges"] == ["1", "2", "3", "4", "5"]
    for data in (path, df):
        got = rhoscope.estimate(data, judges=[1, 2, 3, 4, 5], anchors=[6, 7])
        assert got.judges == want["judges"] and got.anchors == want["anchors"]
        assert rhos(got.to_dict()) == rhos(want)
        assert got.notes[0].startswith("judges=[1, 2, 3, 4, 5] picks the columns named 1, 2, 3, 4, 5 by name")
        assert all("--" not in n and ": note: " not in n for n in got.notes), got.notes
    # A label 0 is a name too; on named columns a 0 names no column, and says so.
    assert rhoscope.estimate(df, judges=[0, 1, 2, 3], anchors=[6, 7]).judges == ["0", "1", "2", "3"]
    message = refused(rhoscope.UsageError, rhoscope.estimate, MID, judges=[0, 2, 3])
    assert message.startswith("judges=: 0 is no column's name or position (positions count from 1: 1 to ")
    message = refused(rhoscope.UsageError, rhoscope.estimate, MID, judges=[1, 2, 2**70])
    assert message.startswith(f"judges=: {2**70} is no column's name or position")


def test_names_is_any_ordered_iterable_read_once():
    mid = pd.read_csv(MID)
    want = rhos(rhoscope.estimate(mid).to_dict())
    arr = mid.to_numpy()
    for names in ((c for c in mid.columns), iter(mid.columns), mid.columns, tuple(mid.columns)):
        assert rhos(rhoscope.estimate(arr, names=names).to_dict()) == want
    message = refused(rhoscope.UsageError, rhoscope.estimate, arr, names=set(mid.columns))
    assert message == "names= is a set, which has no order: give the columns' names in their order"
    message = refused(rhoscope.UsageError, rhoscope.estimate, arr, names=dict.fromkeys(mid.columns))
    assert message == "names= takes a list, not a dict"
    message = refused(rhoscope.UsageError, rhoscope.estimate, arr, names=list(mid.columns)[:3])
    assert message == "names=: a 2-D array of 8 columns needs 8 column names (3 given)"


def test_a_mapping_reads_series_as_a_frame_does():
    mid = pd.read_csv(MID)
    levels = ["awful", "poor", "fair", "good", "great"]
    codes = np.clip(np.round(mid["A1"].to_numpy() / mid["A1"].std() + 3), 1, 5).astype(int) - 1
    a1 = pd.Series(pd.Categorical(np.array(levels)[codes], categories=levels, ordered=True))
    cols = {**{c: mid[c] for c in mid.columns[:6]}, "A1": a1, "A2": mid["A2"]}
    framed = rhoscope.estimate(pd.DataFrame(cols)).to_dict()
    mapped = rhoscope.estimate(cols).to_dict()
    assert rhos(mapped) == rhos(framed) and mapped["columns"] == framed["columns"]
    unordered = {**cols, "A1": pd.Categorical(np.array(levels)[codes])}
    message = refused(rhoscope.InputError, rhoscope.estimate, unordered)
    assert "unordered pandas categorical" in message and "ordered=True" in message
    message = refused(rhoscope.InputError, rhoscope.estimate, {"J1": mid.to_numpy()})
    assert message == "data=: column 'J1' is a 2-D array: give each column as a 1-D sequence of scores"
    message = refused(rhoscope.InputError, rhoscope.estimate, {"J1": 5, "J2": 3})
    assert message.startswith("data=: column 'J1' is one value")


@pytest.fixture(scope="module")
def likert() -> pd.DataFrame:
    return rhoscope.simulate("three-anchor", n=1000, seed=2, ordinal="all:5")


def test_the_designated_clean_fit_on_latent_scales_is_shown(likert):
    r = rhoscope.estimate(likert, designated_clean="A1", seed=1)
    doc = r.to_dict()["designated_clean_latent"]
    rows = r.tidy()
    latent = rows[rows["estimator"] == "designated_clean_latent"]
    assert list(latent["anchor"]) == [a["name"] for a in doc["anchors"]]
    assert list(latent["estimate"]) == [a["rho"] for a in doc["anchors"]]
    # The trusted anchor's 0 is assumed: no interval in the document or the table.
    assert doc["anchors"][0]["ci"] is None
    assert [None if x != x else x for x in latent["ci_low"]] == [a["ci"] and a["ci"][0] for a in doc["anchors"]]
    text = r.summary()
    assert "designated_clean_latent" in text  # the tidy table's estimator column
    for flag in doc.get("flags") or []:
        assert f"designated clean on latent scales: {flag['message']}" in text
    assert "designated clean on latent scales" in r._repr_html_() or not doc.get("flags")
    bat = rhoscope.battery(likert, designated_clean="A1", **QUICK)
    first = bat.summary().splitlines()[1]
    if bat.reading["read"] == "designated_clean_latent":
        assert first.startswith("read: designated clean on latent scales — "), first
    assert "read: designated_clean_latent" not in bat.summary()
    assert not bat.tidy()[bat.tidy()["estimator"] == "designated_clean_latent"].empty


@pytest.fixture(scope="module")
def hanna_battery(hanna_llm) -> rhoscope.Battery:
    df = pd.read_csv(hanna_llm)
    fam = pd.read_csv(DATA / "hanna-llm" / "families.csv")
    return rhoscope.battery(df, judges=df.columns[2:7], anchors=["human1", "human2", "human3"], families=fam)


def test_the_summary_words_the_cores_reading(hanna_battery, hanna_llm):
    reading = hanna_battery.reading
    text = hanna_battery.summary()
    verdict = reading["evidence"]["weak_id"]["verdict"]
    assert verdict == "out_of_range" and hanna_battery.weak_id["flag"]
    assert "weak identification: T = —, no verdict: the closed form is out of range" in text
    assert "weakly identified" not in text
    for alarm in reading["alarms"]:
        if not alarm["answered"]:
            assert f"Test {alarm['test']} fires (" in text and alarm["text"] in text
    assert reading["no_next_step"].startswith("none found")
    assert f"next steps: {reading['no_next_step']}" in text
    # The command prints the same sentences.
    fam = DATA / "hanna-llm" / "families.csv"
    run = cli("battery", hanna_llm, "--judges", "3,4,5,6,7", "--anchors", "human1,human2,human3", "--families", fam)
    assert run.code == 0, run.err
    assert reading["no_next_step"] in " ".join(run.out.split())
    for alarm in reading["alarms"]:
        if not alarm["answered"]:
            assert alarm["text"] in run.out


def test_fail_on_diagnostic_says_which_alarm(hanna_battery, hanna_llm):
    df = pd.read_csv(hanna_llm)
    with pytest.raises(rhoscope.RhoscopeError) as e:
        rhoscope.battery(
            df, judges=df.columns[2:7], anchors=["human1", "human2", "human3"], fail_on_diagnostic=True, **QUICK
        )
    message = str(e.value)
    assert message.startswith("a diagnostic fired, weak identification was flagged, or no estimate can be read")
    assert message.endswith("no estimate can be read") and ": here, Test " in message, message


def test_a_families_file_is_named_by_its_keyword(tmp_path):
    panel = pd.read_csv(ASSETS / "families.csv")
    missing = tmp_path / "nope.csv"
    message = refused(rhoscope.InputError, rhoscope.estimate, panel, blocked=True, families=str(missing))
    assert message == f"families=: {missing}: cannot read: no such file"
    message = refused(rhoscope.InputError, rhoscope.estimate, panel, blocked=True, families=str(MID))
    run = cli("estimate", ASSETS / "families.csv", "--blocked", "--families", MID)
    assert message == f"families=: {last_error(run)}"
    assert ": row 1: " in message and "row index" not in message


def test_scenario_keywords_are_named_as_typed():
    message = refused(rhoscope.UsageError, rhoscope.plan, target="ci-width=abc")
    assert message.startswith("target= ci-width=abc: the width W 'abc' is not a decimal number")
    assert "--target" in last_error(cli("plan", "--target", "ci-width=abc"))
    message = refused(rhoscope.UsageError, rhoscope.plan, target="ci-width=0.3", data=pd.read_csv(MID))
    assert message.startswith("plan() takes no data=: it works on a scenario")
    message = refused(rhoscope.UsageError, rhoscope.simulate, "mid", n=100, seed=1, rho=[0.2, 0.5, 0.3])
    assert message == (
        "rho gives 3 anchors, but the preset's sigma_a has 2 values: "
        "give 2 values of rho, or set sigma_a too (one value or 3)"
    )
    message = refused(rhoscope.UsageError, rhoscope.simulate, "mid", n=100, seed=1, rho=2.0)
    assert message == "rho 2: each ρ must be strictly between -1 and 1"
    assert rhoscope.simulate("mid", n=50, seed=1, rho=[0.2, 0.5, 0.3], sigma_a=1.0).shape == (50, 9)
    message = refused(rhoscope.UsageError, rhoscope.simulate, "mid", n=10, seed=1, rho="0.2,abc")
    assert message == "rho= 'abc' is not a finite number"
    message = refused(rhoscope.UsageError, rhoscope.plan, target=None)
    assert message.startswith("plan() needs target=: ci-width=W")
    message = refused(rhoscope.UsageError, rhoscope.plot, "power", MID)
    assert message == 'plot("power") draws a scenario (preset= and its parameters), not a panel: leave data out'


def test_null_draws_on_the_rho_figure_is_refused(tmp_path):
    message = refused(rhoscope.UsageError, rhoscope.plot, "rho", MID, null_draws=50)
    assert message == 'null_draws= does not apply to plot("rho"): it draws the tests\' nulls, and this figure shows no test'
    refused(rhoscope.UsageError, rhoscope.plot, "bootstrap", null_draws=50)
    run = cli("plot", "rho", MID, "--null-draws", "50", "-o", tmp_path / "r.svg")
    assert run.code == 2 and "--null-draws does not apply to plot rho" in run.err, run.err


def test_other_columns_a_notebook_meets():
    import polars as pl

    mid = pd.read_csv(MID)
    dated = pl.from_pandas(mid).with_columns(pl.Series("A2", pd.date_range("2020-01-01", periods=len(mid))))
    message = refused(rhoscope.InputError, rhoscope.estimate, dated)
    assert message == "data=: column 'A2' holds dates or times, not scores: give numbers"
    flags = mid.assign(J6=(mid["J6"] > mid["J6"].median()).astype(object))
    as_bool = mid.assign(J6=(mid["J6"] > mid["J6"].median()))
    assert rhoscope.estimate(flags, continuous="all") == rhoscope.estimate(as_bool, continuous="all")
    long = mid.reset_index().melt(id_vars="index", var_name="rater", value_name="score")
    text = long.assign(score=long["score"].map(repr))
    assert rhoscope.estimate(text, long=("index", "rater", "score")) == rhoscope.estimate(
        long, long=("index", "rater", "score")
    )


def test_mypy_sees_a_misspelt_attribute(tmp_path):
    mypy = pytest.importorskip("mypy.api")
    script = tmp_path / "typo.py"
    script.write_text(
        textwrap.dedent(
            """
            import rhoscope
            b = rhoscope.battery("panel.csv")
            n: int = b.n_items
            w = b.weak_id
            b.weak_idd
            """
        )
    )
    out, _, code = mypy.run([str(script), "--no-incremental", "--cache-dir", str(tmp_path / "cache")])
    assert code == 1, out
    assert 'has no attribute "weak_idd"' in out and out.count("error:") == 1, out


def test_a_mapping_of_series_with_other_indexes_is_refused_not_paired_by_place() -> None:
    """A Series in another row order would be paired by position: a silent wrong ρ̂."""
    df = pd.read_csv(ASSETS / "mid.csv")
    cols = {c: df[c] for c in df.columns}
    cols["A2"] = df["A2"].sample(frac=1, random_state=1)
    with pytest.raises(rhoscope.InputError, match="different indexes"):
        rhoscope.estimate(cols)
    same = {c: df[c] for c in df.columns}
    assert rhos(rhoscope.estimate(same).to_dict()) == rhos(rhoscope.estimate(df).to_dict())
