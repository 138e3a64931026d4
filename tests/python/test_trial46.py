"""The third trial pass on the Python package (session 46), each finding as the call that
showed it: the free-scale fit's identified set and bias-corrected ρ̃ shown where a notebook
looks, the trusted anchor without an interval, one rule for a frame's column names, and
errors that name the keyword typed."""

from __future__ import annotations

import math

import pandas as pd
import pytest
import rhoscope
from conftest import cli


def _panel(tmp_path_factory, seed: int):
    path = tmp_path_factory.mktemp("three") / "three.csv"
    rhoscope.simulate("three-anchor", n=3000, seed=seed).to_csv(path, index=False)
    return path, pd.read_csv(path)


@pytest.fixture(scope="module")
def three(tmp_path_factory):
    """A three-anchor panel as a file and as the frame read from it; its free-scale ρ̂ of A1
    is undefined (a ridge), so there is a set to read and nothing to correct."""
    return _panel(tmp_path_factory, 3)


@pytest.fixture(scope="module")
def defined(tmp_path_factory):
    """A three-anchor panel whose free-scale ρ̂ are all defined."""
    return _panel(tmp_path_factory, 2)


def _cli_lines(*args: object) -> list[str]:
    run = cli(*args)
    assert run.code == 0, run.err
    return [line.strip() for line in run.out.splitlines()]


def test_the_bias_corrected_rho_is_in_summary_and_tidy_as_the_command_prints_it(defined):
    path, df = defined
    r = rhoscope.estimate(df, method="free-scale", bias_correct=True, bias_reps=10, seed=4)
    want = _cli_lines("estimate", path, "--method", "free-scale", "--bias-correct", "--bias-reps", "10", "--seed", "4")
    start = next(i for i, line in enumerate(want) if line.startswith("bias correction"))
    table = want[start + 1 : start + 5]
    summary = [line.strip() for line in r.summary().splitlines()]
    for row in table:
        assert row in summary, (row, r.summary())
    t = r.tidy()
    corrected = t[t["estimator"] == "free_scale_bias_corrected"]
    assert list(corrected["anchor"]) == ["A1", "A2", "A3"]
    for row in table[1:]:
        name, *_, shown = row.split()
        got = corrected[corrected["anchor"] == name]["estimate"].iloc[0]
        assert f"{got:.4f}" == shown, (row, got)


def test_the_identified_set_is_in_summary_and_tidy_as_the_command_prints_it(three):
    path, df = three
    r = rhoscope.estimate(df, method="free-scale")
    want = next(line for line in _cli_lines("estimate", path, "--method", "free-scale") if line.startswith("identified set"))
    assert want in [line.strip() for line in r.summary().splitlines()], r.summary()
    t = r.tidy()
    fs = t[t["estimator"] == "free_scale"]
    for _, row in fs.iterrows():
        shown = f"{row['anchor']} [{row['set_low']:.4f}, {row['set_high']:.4f}]"
        assert shown in want, (shown, want)
    other = t[t["estimator"] != "free_scale"]
    assert other["set_low"].isna().all() and other["set_high"].isna().all()


def test_a_correction_that_cannot_run_says_why(three):
    _, df = three
    r = rhoscope.estimate(df, method="free-scale", bias_correct=True, bias_reps=10, seed=1)
    b = r.to_dict()["free_scale"]["bias_correction"]
    assert f"bias correction not possible: {b['error']}" in r.summary()
    t = r.tidy()
    rows = t[t["estimator"] == "free_scale_bias_corrected"]
    assert len(rows) and rows["estimate"].map(math.isnan).all()
    assert rows["reason"].str.startswith("bias correction not possible").all()


def test_the_trusted_ordinal_anchor_has_no_interval(three):
    _, df = three
    o = df.copy()
    o["A1"] = o["A1"].add(3).round().clip(1, 5).astype(int)
    for r in (
        rhoscope.estimate(o, designated_clean="A1", seed=1),
        rhoscope.battery(o, designated_clean="A1", bootstrap=100, null_draws=100, seed=1),
    ):
        t = r.tidy()
        row = t[(t["estimator"] == "designated_clean_latent") & (t["anchor"] == "A1")].iloc[0]
        assert row["estimate"] == 0.0 and "assumed" in row["reason"]
        assert math.isnan(row["ci_low"]) and math.isnan(row["ci_high"]), row
        fit = r.to_dict()["designated_clean_latent"]
        assert fit["clean_anchor"] == "A1"
        assert fit["anchors"][0]["ci"] is None, fit["anchors"][0]
        others = [a["ci"] for a in fit["anchors"][1:]]
        assert all(ci is None or ci[0] < ci[1] for ci in others), others


def test_a_frame_read_from_a_file_is_the_panel_the_command_reads(three, tmp_path):
    """`pd.read_csv` keeps the spaces around a header's names; the command's reader trims
    them. One rule: the frame's columns are named as the command names the file's."""
    path, df = three
    spaced = tmp_path / "spaces.csv"
    text = path.read_text(encoding="utf-8").splitlines()
    header = ",".join(f" {n}" if n == "J1" else (f"{n} " if n == "A3" else n) for n in text[0].split(","))
    spaced.write_text("\n".join([header, *text[1:]]) + "\n", encoding="utf-8")
    frame = pd.read_csv(spaced)
    assert " J1" in frame.columns and "A3 " in frame.columns
    got = rhoscope.estimate(frame)
    want = rhoscope.estimate(spaced)
    assert got.judges == want.judges == [f"J{j}" for j in range(1, 7)]
    assert got.anchors == want.anchors == ["A1", "A2", "A3"]
    assert got.to_dict()["estimate"] == want.to_dict()["estimate"]
    assert not [n for n in got.notes if "in-memory" in n or "invisible" in n], got.notes
    # A name typed with its spaces still finds the column.
    assert rhoscope.estimate(frame, judges=[" J1", "J2", "J3"], anchors=["A1", "A3 "]).judges == ["J1", "J2", "J3"]


def test_a_duplicate_id_names_both_rows_on_one_base(three):
    _, df = three
    items = [0, 5, 0, *range(10, 10 + len(df) - 3)]
    with pytest.raises(rhoscope.InputError) as e:
        rhoscope.estimate(df.assign(item=items), id="item")
    assert e.value.message == (
        "<DataFrame>: row index 2, column 'item': a second row for item '0' (the first is row index 0)"
    )
    d = df.assign(item=[i // 2 for i in range(len(df))])
    d.index = [f"s{i}" for i in range(len(df))]
    with pytest.raises(rhoscope.InputError) as e:
        rhoscope.estimate(d, id="item")
    assert e.value.message == "<DataFrame>: row 's1', column 'item': a second row for item '0' (the first is row 's0')"


@pytest.mark.parametrize(
    ("call", "start"),
    [
        (lambda: rhoscope.simulate("mid", n=50, seed=1, ordinal="J1,J2:5"), "ordinal=: no column 'J1,J2'"),
        (
            lambda: rhoscope.simulate("mid", n=50, seed=1, ordinal=5),
            'ordinal= takes "COLS:LEVELS" text (COLS is judges, anchors, all or one column (J1, A2, …); '
            'e.g. ordinal="anchors:5"), not 5',
        ),
        (
            lambda: rhoscope.plot("rho", families=2.5, preset="families", n=200),
            "families= '2.5' is not a count; give a count of families (0 to 256) or a list of one label per judge",
        ),
        (
            lambda: rhoscope.plan(target="ci-width=0.5", preset="families", families={"J1": "F1"}),
            "families= in a scenario is a count of judge families or one label per judge (a list), not a dict",
        ),
        (
            lambda: rhoscope.simulate("families", n=50, seed=1, families=["a", "b,c"]),
            "families=: a family label has no comma in it, not 'b,c'",
        ),
    ],
)
def test_scenario_parameters_are_refused_naming_the_keyword(call, start):
    with pytest.raises(rhoscope.UsageError) as e:
        call()
    assert e.value.message.startswith(start), e.value.message
    assert "--" not in e.value.message


def test_a_scenarios_family_labels_are_a_list():
    labels = ["a", "a", "b", "b", "c", "c"]
    got = rhoscope.simulate("families", n=50, seed=1, families=labels)
    want = rhoscope.simulate("families", n=50, seed=1, families=",".join(labels))
    assert got.equals(want) and got.attrs["families"] == want.attrs["families"]


def test_a_polars_series_of_families_is_told_what_it_lacks(three):
    pl = pytest.importorskip("polars")
    _, df = three
    with pytest.raises(rhoscope.UsageError) as e:
        rhoscope.estimate(df, blocked=True, families=pl.Series(["a"] * 6))
    assert e.value.message.startswith("families= is a polars Series, which has no judge names: give a dict")


@pytest.mark.parametrize("written", [lambda x: f"{x:.3f}".replace(".", ","), lambda x: f"{x:.2f}%"])
def test_numbers_written_otherwise_are_refused_by_cell_not_called_labels(three, written):
    _, df = three
    e_ = df.assign(J1=[written(x) for x in df.J1])
    with pytest.raises(rhoscope.InputError) as e:
        rhoscope.estimate(e_)
    first = written(df.J1[0])
    assert e.value.message == f"<DataFrame>: row index 0, column 'J1': not a number (value '{first}')"


def test_labels_are_still_told_to_declare_their_order(three):
    _, df = three
    words = df.assign(A1=["good" if x > 0 else "poor" for x in df.A1])
    with pytest.raises(rhoscope.InputError) as e:
        rhoscope.estimate(words)
    assert "pd.Categorical(df['A1'], categories=[...], ordered=True)" in e.value.message


def test_calls_from_threads_print_nothing_on_the_process_stderr(tmp_path):
    """Each file-writing call's notes are its own (collected by the library), not lines
    caught from the process's stderr, which every thread shares."""
    import subprocess
    import sys

    script = tmp_path / "threads.py"
    script.write_text(
        "import threading, rhoscope\n"
        "df = rhoscope.simulate('three-anchor', n=300, seed=1)\n"
        "frames = [df.sample(frac=1, random_state=i).reset_index(drop=True) for i in range(4)]\n"
        "svgs = [None] * 4\n"
        "def run(i):\n"
        "    svgs[i] = rhoscope.plot('rho', frames[i], bootstrap=100)\n"
        "ts = [threading.Thread(target=run, args=(i,)) for i in range(4)]\n"
        "[t.start() for t in ts]; [t.join() for t in ts]\n"
        "assert all(s and s.lstrip().startswith('<') for s in svgs)\n",
        encoding="utf-8",
    )
    for _ in range(3):
        run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=False)
        assert run.returncode == 0, run.stderr
        assert run.stderr == "", run.stderr


def test_an_export_onto_an_existing_file_names_output(three, tmp_path):
    path, _ = three
    out = tmp_path / "refit.R"
    rhoscope.export(path, output=out)
    with pytest.raises(rhoscope.UsageError) as e:
        rhoscope.export(path, output=out)
    assert e.value.message.startswith(f"output=: {out} already exists"), e.value.message
    assert "force=True" in e.value.message
