"""Every API function against the command line's output on the same panel, bit for bit."""

from __future__ import annotations

import json
import os
import re

import numpy as np
import pandas as pd
import pytest
import rhoscope
from conftest import ASSETS, DATA, cli, cli_json

MID = ASSETS / "mid.csv"
THREE = ASSETS / "three-anchor.csv"
THREE_FAMILIES = ASSETS / "three-anchor.families.csv"
FAMILIES = ASSETS / "families.csv"
LLM_JUDGES = ["beluga_13b", "orca_platypus_13b", "mistral_7b", "llama2_13b_chat", "chatgpt"]
HUMANS = ["human1", "human2", "human3"]
QUICK = {"bootstrap": 100, "null_draws": 100}
QUICK_FLAGS = ["--bootstrap", "100", "--null-draws", "100"]


def read_exact(path: os.PathLike) -> pd.DataFrame:
    """A CSV with every number parsed exactly (Python's float), as the library parses it."""
    return pd.read_csv(path, engine="python")


def same_document(api: rhoscope.Result, cli_text: str, source: str) -> None:
    """The API's document is the CLI's, byte for byte, once the source is the same and each
    setting is read as Python words it (`continuous=` where the command line says
    `--continuous`); the next steps' changes are compared in test_wording."""
    doc = api.to_dict()
    shown = doc["source"] if "source" in doc else doc["panel"]["source"]
    def as_keywords(text: str) -> str:
        # A next step's change is the one string each front end words as code of its own.
        text = re.sub(r'(?m)^\s*"cli": .*\n', "", text)
        text = re.sub(r"--([a-z][a-z-]*)", lambda m: m.group(1).replace("-", "_") + "=", text)
        return re.sub(r'= ?\\?"?([a-z][a-z-]*)\\?"?', r"= \1", text)

    api_text = api.to_json().replace(json.dumps(shown), json.dumps(source), 1)
    from conftest import without_drop_place

    assert without_drop_place(as_keywords(api_text)) == without_drop_place(as_keywords(cli_text))


def test_estimate_on_a_path_is_the_cli_byte_for_byte():
    assert rhoscope.estimate(MID).to_json() == cli_json("estimate", MID)


def test_estimate_on_a_dataframe_is_the_cli():
    result = rhoscope.estimate(read_exact(MID))
    same_document(result, cli_json("estimate", MID), str(MID))
    assert result.source == "<DataFrame>"
    assert result.schema_version == result.to_dict()["schema_version"]


def test_estimate_every_method():
    df = read_exact(THREE)
    # A frame has no sidecar of its own, so both sides are given the same families file.
    result = rhoscope.estimate(
        df, method="all", blocked=False, designated_clean="A1", families=THREE_FAMILIES
    )
    same_document(result, cli_json("estimate", THREE, "--method", "all", "--designated-clean", "A1", "--families", THREE_FAMILIES), str(THREE))
    tidy = result.tidy()
    assert set(tidy["estimator"]) >= {"estimate", "ml", "free_scale", "designated_clean"}
    assert list(tidy.columns) == [
        "estimator", "anchor", "estimate", "std_error", "ci_low", "ci_high", "admissible", "flag_list", "reason",
        "set_low", "set_high",
    ]


def test_battery_reads_the_designated_clean_estimate_on_likert_anchors():
    likert = ASSETS.parent / "tests" / "fixtures" / "likert_anchors.csv"
    df = read_exact(likert)
    result = rhoscope.battery(df, designated_clean="A1", null_draws=100)
    same_document(
        result,
        cli_json("battery", likert, "--designated-clean", "A1", "--null-draws", "100"),
        str(likert),
    )
    reading = result.reading
    assert reading["read"] == "designated_clean_latent"
    assert reading["because"] == "designated_clean"
    a2 = next(a for a in reading["anchors"] if a["anchor"] == "A2")
    assert a2["ci"][0] < 0.5 < a2["ci"][1]


def test_estimate_designated_clean_on_likert_anchors_is_the_cli():
    """The designated-clean fit on Likert anchors (issue 38): the API's document is the
    command's, its latent fit defined for the anchors not trusted."""
    likert = ASSETS.parent / "tests" / "fixtures" / "likert_anchors.csv"
    result = rhoscope.estimate(read_exact(likert), designated_clean="A1")
    same_document(result, cli_json("estimate", likert, "--designated-clean", "A1"), str(likert))
    fit = result.to_dict()["designated_clean_latent"]
    rho = {a["name"]: a["rho"] for a in fit["anchors"]}
    assert rho["A1"] == 0 and rho["A2"] is not None and rho["A3"] is not None


def test_identify_ridge_family_is_the_cli(tmp_path):
    """Clean anchors put the free-scale set on the equal-β ridge; `identify` reports the
    family the data allow there (`ridge_family`), the same from Python as from the command."""
    path = tmp_path / "ridge.csv"
    run = cli("simulate", "--preset", "three-anchor", "--n", "3000", "--seed", "3",
              "--set", "p=5", "--set", "rho=0,0,0", "-o", path)
    assert run.code == 0, run.err
    result = rhoscope.identify(read_exact(path))
    same_document(result, cli_json("identify", path), str(path))
    assert result.to_dict()["ridge_family"] is not None


def test_estimate_families_as_a_mapping():
    fam = pd.read_csv(ASSETS / "families.families.csv", dtype=str)
    mapping = dict(zip(fam["judge"], fam["family"]))
    result = rhoscope.estimate(read_exact(FAMILIES), blocked=True, families=mapping)
    flag = ",".join(f"{k}={v}" for k, v in mapping.items())
    same_document(result, cli_json("estimate", FAMILIES, "--blocked", "--families", flag), str(FAMILIES))


def test_battery_pandas():
    result = rhoscope.battery(read_exact(MID), **QUICK)
    same_document(result, cli_json("battery", MID, *QUICK_FLAGS), str(MID))
    verdicts = result.verdicts()
    assert list(verdicts["test"]) == list(result.tests)
    assert {"estimate", "ci_low", "ci_high"} <= set(result.tidy().columns)
    tidy = result.tidy()
    assert tidy[tidy["estimator"] == "estimate"]["ci_low"].notna().all()
    refused = tidy[tidy["estimator"] != "estimate"]
    assert refused["estimate"].isna().all() and refused["reason"].map(bool).all()


def test_battery_polars_with_text_columns_and_missing_values(hanna_llm):
    pl = pytest.importorskip("polars")
    df = pl.read_csv(hanna_llm, infer_schema_length=None)
    fam = DATA / "hanna-llm" / "families.csv"
    result = rhoscope.battery(df, judges=LLM_JUDGES, anchors=HUMANS, families=fam, **QUICK)
    expect = cli_json(
        "battery", hanna_llm, "--judges", ",".join(LLM_JUDGES), "--anchors", ",".join(HUMANS),
        "--families", fam, *QUICK_FLAGS,
    )
    same_document(result, expect, str(hanna_llm))
    assert result.n_dropped > 0
    assert any("dropped for missing values" in n for n in result.notes)


def test_pandas_with_missing_values_and_text(hanna_llm):
    df = read_exact(hanna_llm)
    # The command line adopts the folder's families.csv beside the file; a frame has no
    # folder, so both are given the same families file.
    families = hanna_llm.parent / "families.csv"
    result = rhoscope.estimate(df, judges=LLM_JUDGES, anchors=HUMANS, families=families)
    expect = cli_json(
        "estimate", hanna_llm, "--judges", ",".join(LLM_JUDGES), "--anchors", ",".join(HUMANS),
        "--families", str(families),
    )
    same_document(result, expect, str(hanna_llm))


def test_numpy_with_names():
    df = read_exact(MID)
    result = rhoscope.battery(df.to_numpy(), names=list(df.columns), **QUICK)
    same_document(result, cli_json("battery", MID, *QUICK_FLAGS), str(MID))
    assert result.source == "<array>"


def test_mapping_of_columns():
    df = read_exact(MID)
    result = rhoscope.estimate({c: df[c].to_numpy() for c in df.columns})
    same_document(result, cli_json("estimate", MID), str(MID))


def test_long_frame(hanna_long):
    df = read_exact(hanna_long)
    long = ("Story ID", "Worker ID", "Coherence")
    judges, anchors = ["A1IZ4NX41GKU4X", "A2VE5IV9OD2SK1"], ["A3CFNUD7VR2E1E"]
    result = rhoscope.identify(df, long=long, judges=judges, anchors=anchors)
    expect = cli_json(
        "identify", hanna_long, "--long", ",".join(long), "--judges", ",".join(judges),
        "--anchors", ",".join(anchors),
    )
    same_document(result, expect, str(hanna_long))


def test_long_frame_polars(hanna_long):
    pl = pytest.importorskip("polars")
    df = pl.read_csv(hanna_long)
    long = ("Story ID", "Worker ID", "Coherence")
    with pytest.raises(rhoscope.InputError) as e:
        rhoscope.identify(df, long=long)
    run = cli("identify", hanna_long, "--long", ",".join(long))
    cli_line = run.err.strip().splitlines()[-1][len("rhoscope: "):]
    api_line = str(e.value).replace("<DataFrame>", str(hanna_long))
    assert api_line == re.sub(r"--([a-z][a-z-]*)", lambda m: m.group(1).replace("-", "_") + "=", cli_line)
    judges = ["A1IZ4NX41GKU4X", "A2VE5IV9OD2SK1"]
    result = rhoscope.identify(df, long=long, judges=judges, anchors=["A3CFNUD7VR2E1E"])
    expect = cli_json("identify", hanna_long, "--long", ",".join(long), "--judges", ",".join(judges), "--anchors", "A3CFNUD7VR2E1E")
    same_document(result, expect, str(hanna_long))


def test_integer_and_categorical_columns_are_ordinal_as_on_the_cli(tmp_path):
    rng = np.random.default_rng(3)
    n = 400
    truth = rng.normal(size=n)
    cols = {f"J{j}": np.clip(np.round(3 + truth + rng.normal(size=n)), 1, 5).astype(int) for j in range(1, 4)}
    cols.update({f"A{k}": truth + rng.normal(size=n) for k in range(1, 4)})
    df = pd.DataFrame(cols)
    path = tmp_path / "likert.csv"
    df.to_csv(path, index=False)
    result = rhoscope.estimate(df, method="free-scale")
    same_document(result, cli_json("estimate", path, "--method", "free-scale"), str(path))
    assert {c["scale"] for c in result.columns if c["role"] == "judge"} == {"ordinal"}
    # A declared order of the codes 1..5 is read as codes 1..5: the numbers themselves.
    cat = df.astype({"J1": pd.CategoricalDtype(sorted(df["J1"].unique()), ordered=True)})
    same_document(rhoscope.estimate(cat, method="free-scale"), cli_json("estimate", path, "--method", "free-scale"), str(path))


def test_nan_and_none_are_missing(tmp_path):
    df = read_exact(MID)
    df.loc[3, "J2"] = np.nan
    df["A1"] = df["A1"].astype(object)
    df.loc[7, "A1"] = None
    df["A1"] = df["A1"].astype(float)
    path = tmp_path / "holes.csv"
    df.to_csv(path, index=False, na_rep="")
    result = rhoscope.estimate(df)
    same_document(result, cli_json("estimate", path), str(path))
    assert result.n_dropped == 2


def test_identify_at_the_papers_design():
    assert rhoscope.identify().to_json() == cli_json("identify")


def test_validate():
    result = rhoscope.validate(read_exact(MID), reps=2, inject=[0, 0.4, 0.7])
    same_document(result, cli_json("validate", MID, "--reps", "2", "--inject", "0,0.4,0.7"), str(MID))


def test_power():
    result = rhoscope.power(design="test-a", strength=[0.4], n=200, reps=4, null_draws=100)
    expect = cli_json("power", "--design", "test-a", "--strength", "0.4", "--n", "200", "--reps", "4", "--null-draws", "100")
    assert result.to_json() == expect


def test_plan_with_set():
    result = rhoscope.plan(target="ci-width=0.3", reps=4, rho=[0.1, 0.6])
    expect = cli_json("plan", "--target", "ci-width=0.3", "--reps", "4", "--set", "rho=0.1,0.6")
    assert result.to_json() == expect


def test_simulate_is_the_cli_csv(tmp_path):
    df = rhoscope.simulate("families", n=300, seed=7, rho="0.2,0.5")
    out = tmp_path / "sim.csv"
    run = cli("simulate", "--preset", "families", "--n", "300", "--seed", "7", "--set", "rho=0.2,0.5", "-o", out)
    assert run.code == 0, run.err
    expect = read_exact(out)
    assert list(df.columns) == list(expect.columns)
    assert np.array_equal(df.to_numpy(), expect.to_numpy())
    fam = pd.read_csv(tmp_path / "sim.families.csv", dtype=str)
    assert df.attrs["families"] == dict(zip(fam["judge"], fam["family"]))


def test_whole_number_settings_reach_the_scenario_as_whole_numbers(tmp_path):
    # Trial 43 (Python) finding 11: p=3 reached the scenario as "3.0", which a whole-number
    # key refuses; the call the battery's next steps print must run as printed.
    df = rhoscope.simulate("mid", n=100, seed=1, p=3, sigma_a=[0.5, 0.5])
    out = tmp_path / "sim.csv"
    run = cli("simulate", "--preset", "mid", "--n", "100", "--seed", "1", "--set", "p=3",
              "--set", "sigma_a=0.5,0.5", "-o", out)
    assert run.code == 0, run.err
    assert np.array_equal(df.to_numpy(), read_exact(out).to_numpy())


def test_export_is_the_cli_script(tmp_path):
    out = tmp_path / "model.py"
    assert cli("export", THREE, "--syntax", "semopy", "-o", out).code == 0
    assert rhoscope.export(THREE, syntax="semopy") == out.read_text(encoding="utf-8")


def test_plot_is_the_cli_svg(tmp_path):
    out = tmp_path / "fig.svg"
    run = cli("plot", "rho", MID, "--bootstrap", "100", "-o", out)
    assert run.code == 0, run.err
    assert rhoscope.plot("rho", MID, bootstrap=100) == out.read_text(encoding="utf-8")
    svg = rhoscope.plot("rho", read_exact(MID), bootstrap=100)
    assert svg.startswith("<svg") and "DataFrame" in svg and "rhoscope-" not in svg


def test_plot_of_a_scenario(tmp_path):
    out = tmp_path / "b.svg"
    assert cli("plot", "boundary", "--reps", "10", "--n", "500", "-o", out).code == 0
    assert rhoscope.plot("boundary", reps=10, n=500) == out.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("args", "kw"),
    [
        (["plot", "boundary", "--ns", "200,500"], dict(kind="boundary", ns=[200, 500])),
        (["plot", "power", "--n", "300"], dict(kind="power", n=300)),
        (["plot", "rho", "--strength", "0.4"], dict(kind="rho", strength=0.4)),
        (["plot", "rho", MID, "--preset", "mid"], dict(kind="rho", data=MID, preset="mid")),
        (["estimate", MID, "--bias-reps", "50"], dict(bias_reps=50)),
        (["estimate", MID, "--seed", "4"], dict(seed=4)),
    ],
)
def test_a_keyword_that_cannot_apply_is_refused_as_its_flag_is(args, kw):
    run = cli(*args, "-o", "/dev/null") if args[0] == "plot" else cli(*args)
    assert run.code == 2, run.err
    flag = next(a for a in args if str(a).startswith("--"))
    assert f"{flag} does not apply" in run.err or f"{flag} se" in run.err, run.err
    with pytest.raises(rhoscope.UsageError) as e:
        if "kind" in kw:
            rhoscope.plot(**kw)
        else:
            rhoscope.estimate(MID, **kw)
    keyword = flag[2:].replace("-", "_") + "="
    # The same refusal, the flag named as the keyword.
    assert str(e.value).startswith(keyword), str(e.value)


def test_threads_and_seed_behave_as_on_the_cli():
    df = read_exact(MID)
    one = rhoscope.battery(df, threads=1, seed=5, **QUICK)
    two = rhoscope.battery(df, threads=2, seed=5, **QUICK)
    assert one.to_json() == two.to_json()
    same_document(one, cli_json("battery", MID, "--seed", "5", "--threads", "1", *QUICK_FLAGS), str(MID))
    assert rhoscope.battery(df, seed=6, **QUICK).to_json() != one.to_json()


def test_threads_differ_from_call_to_call_in_one_process(monkeypatch):
    # Each call gets a pool of its own, so a second call with another count works and the
    # numbers do not depend on it.
    df = read_exact(THREE)
    one = rhoscope.estimate(df, method="all", bias_correct=True, bias_reps=20, threads=1)
    two = rhoscope.estimate(df, method="all", bias_correct=True, bias_reps=20, threads=2)
    assert one.to_json() == two.to_json()
    sims = [rhoscope.simulate("mid", n=200, seed=3, threads=t) for t in (1, 2, 1)]
    assert all(np.array_equal(sims[0].to_numpy(), s.to_numpy()) for s in sims[1:])
    svgs = [rhoscope.plot("rho", MID, bootstrap=100, threads=t) for t in (2, 1)]
    assert svgs[0] == svgs[1]
    # RAYON_NUM_THREADS is honoured call after call as well.
    monkeypatch.setenv("RAYON_NUM_THREADS", "2")
    again = [rhoscope.simulate("mid", n=200, seed=3) for _ in range(2)]
    assert all(np.array_equal(sims[0].to_numpy(), s.to_numpy()) for s in again)
    assert rhoscope.estimate(df, method="all", bias_correct=True, bias_reps=20).to_json() == one.to_json()


def test_export_of_a_parquet_panel_writes_its_data_beside_the_script(tmp_path):
    pq = tmp_path / "three.parquet"
    read_exact(THREE).to_parquet(pq, index=False)
    with pytest.raises(rhoscope.UsageError, match="output="):
        rhoscope.export(pq)
    script = rhoscope.export(pq, syntax="semopy", output=tmp_path / "refit.py")
    assert "refit.data.csv" in script and (tmp_path / "refit.data.csv").exists()
    assert pd.read_csv(tmp_path / "refit.data.csv").shape[0] == len(read_exact(THREE))
    with pytest.raises(rhoscope.UsageError, match="force=True"):
        rhoscope.export(pq, output=tmp_path / "refit.py")


def test_results_render_in_a_notebook():
    result = rhoscope.battery(read_exact(MID), **QUICK)
    assert "tests:" in result._repr_html_()
    assert "verdict" in repr(result)
    assert "rho" in rhoscope.estimate(MID)._repr_html_() or "estimate" in repr(rhoscope.estimate(MID))
