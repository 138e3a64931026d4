"""In-memory panels (read by the library from their columns, with no file in between) give the
command line's JSON on the same table written as a CSV file, bit for bit, and its errors, with
the file's row named by its row index."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest
import rhoscope
from conftest import cli, cli_json, last_error

QUICK = {"bootstrap": 100, "null_draws": 100}
QUICK_FLAGS = ["--bootstrap", "100", "--null-draws", "100"]


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


def as_table(message: str, path: object, shown: str = "<DataFrame>") -> str:
    """A file's message as an in-memory table's: its name, and the file row (the header is
    row 1) as the row index."""
    message = message.replace(str(path), shown)
    return re.sub(r": row (\d+),", lambda m: f": row index {int(m.group(1)) - 2},", message)


def factor_frame(n: int = 300, seed: int = 7) -> pd.DataFrame:
    """Four judges and three anchors on one common factor, as floats."""
    rng = np.random.default_rng(seed)
    f = rng.normal(size=n)
    cols = {f"J{j}": f + rng.normal(scale=0.8, size=n) for j in range(1, 5)}
    cols["A1"] = 0.6 * f + rng.normal(size=n)
    cols["A2"] = rng.normal(size=n)
    cols["A3"] = 0.3 * f + rng.normal(size=n)
    return pd.DataFrame(cols)


def check_estimate(df: pd.DataFrame, tmp_path, *flags: str, **kw) -> rhoscope.Result:
    path = tmp_path / "panel.csv"
    df.to_csv(path, index=False)
    result = rhoscope.estimate(df, **kw)
    same_document(result, cli_json("estimate", path, *flags), str(path))
    return result


def test_float_frame(tmp_path):
    result = check_estimate(factor_frame(), tmp_path)
    assert result.source == "<DataFrame>"


def test_float_frame_battery(tmp_path):
    df = factor_frame()
    path = tmp_path / "panel.csv"
    df.to_csv(path, index=False)
    same_document(rhoscope.battery(df, **QUICK), cli_json("battery", path, *QUICK_FLAGS), str(path))


def test_numpy_fortran_array_columns(tmp_path):
    df = factor_frame()
    arr = np.asfortranarray(df.to_numpy())
    path = tmp_path / "panel.csv"
    df.to_csv(path, index=False)
    result = rhoscope.estimate(arr, names=list(df.columns))
    same_document(result, cli_json("estimate", path), str(path))


def test_integer_judges_are_ordinal_as_on_the_cli(tmp_path):
    df = factor_frame()
    for j in ("J1", "J2", "J3"):
        df[j] = np.clip(np.round(df[j] + 3), 1, 5).astype("int64")
    check_estimate(df, tmp_path)


def test_nullable_integer_and_missing_values(tmp_path):
    df = factor_frame()
    df["J1"] = pd.array(np.clip(np.round(df["J1"] + 3), 1, 5).astype(int), dtype="Int64")
    df.loc[[3, 10], "J1"] = pd.NA
    df.loc[[5], "A2"] = np.nan
    result = check_estimate(df, tmp_path)
    assert result.n_dropped == 3


def test_text_columns_with_none_and_numbers_as_text(tmp_path):
    df = factor_frame()
    df.insert(0, "story", [f"s{i}" for i in range(len(df))])
    text = df["J2"].map(repr).astype(object)
    text[[4, 8]] = None
    df["J2"] = text
    result = check_estimate(df, tmp_path)
    assert result.n_dropped == 2


def test_categorical_columns_are_their_codes(tmp_path):
    df = factor_frame()
    levels = ["low", "mid", "high"]
    codes = np.digitize(df["J1"], [-0.5, 0.5])
    df["J1"] = pd.Categorical.from_codes(codes, categories=levels, ordered=True)
    result = rhoscope.estimate(df)
    coded = df.copy()
    coded["J1"] = codes + 1
    path = tmp_path / "coded.csv"
    coded.to_csv(path, index=False)
    same_document(result, cli_json("estimate", path), str(path))


def test_polars_frame(tmp_path):
    pl = pytest.importorskip("polars")
    df = factor_frame()
    path = tmp_path / "panel.csv"
    df.to_csv(path, index=False)
    result = rhoscope.estimate(pl.from_pandas(df))
    same_document(result, cli_json("estimate", path), str(path))


def test_long_frame(tmp_path):
    wide = factor_frame(120)
    wide.insert(0, "item", [f"it{i}" for i in range(len(wide))])
    long = wide.melt(id_vars="item", var_name="rater", value_name="score")
    long = long.drop(index=[5, 400]).reset_index(drop=True)
    path = tmp_path / "long.csv"
    long.to_csv(path, index=False)
    result = rhoscope.estimate(long, long=("item", "rater", "score"))
    same_document(result, cli_json("estimate", path, "--long", "item,rater,score"), str(path))
    assert result.n_dropped == 2


def expect_same_error(df: pd.DataFrame, tmp_path, *flags: str, **kw) -> str:
    path = tmp_path / "bad.csv"
    df.to_csv(path, index=False)
    with pytest.raises(rhoscope.RhoscopeError) as e:
        rhoscope.estimate(df, **kw)
    run = cli("estimate", path, *flags)
    assert e.value.exit_code == run.code
    assert str(e.value) == as_table(last_error(run), path)
    return str(e.value)


def test_a_bad_text_cell_names_its_column_and_row_index(tmp_path):
    df = factor_frame(20)
    df["J2"] = df["J2"].map(repr).astype(object)
    df.loc[7, "J2"] = "oops"
    message = expect_same_error(df, tmp_path)
    assert message == "<DataFrame>: row index 7, column 'J2': not a number (value 'oops')"


def test_an_infinite_value_names_its_column_and_row_index(tmp_path):
    df = factor_frame(20)
    df.loc[4, "A1"] = np.inf
    message = expect_same_error(df, tmp_path)
    assert message == "<DataFrame>: row index 4, column 'A1': infinite value (value 'inf')"


def test_the_first_bad_cell_in_row_order(tmp_path):
    df = factor_frame(20).astype({"J1": object, "J3": object})
    df.loc[9, "J1"] = "x"
    df.loc[2, "J3"] = "y"
    assert "row index 2, column 'J3'" in expect_same_error(df, tmp_path)


def test_a_constant_column(tmp_path):
    df = factor_frame(20)
    df["J3"] = 2.0
    expect_same_error(df, tmp_path)


def test_too_few_complete_items(tmp_path):
    df = factor_frame(5)
    df.loc[[0, 1, 2], "J1"] = np.nan
    expect_same_error(df, tmp_path)


def test_unknown_judge_is_a_usage_error(tmp_path):
    with pytest.raises(rhoscope.UsageError) as e:
        rhoscope.estimate(factor_frame(20), judges=["J1", "Nobody"])
    path = tmp_path / "p.csv"
    factor_frame(20).to_csv(path, index=False)
    cli_message = last_error(cli("estimate", path, "--judges", "J1,Nobody"))
    assert str(e.value) == cli_message.replace("--judges", "judges=")


def test_duplicate_column_names_name_the_column():
    df = factor_frame(20)
    df.columns = ["J1", "J1", "J3", "J4", "A1", "A2", "A3"]
    with pytest.raises(rhoscope.InputError) as e:
        rhoscope.estimate(df)
    assert str(e.value) == "<DataFrame>, column 'J1': duplicate column name (columns 1 and 2)"


def test_long_second_score_names_the_row_index(tmp_path):
    long = pd.DataFrame(
        {"item": ["1", "1", "1"], "rater": ["J1", "J2", "J1"], "score": [3.0, 4.0, 5.0]}
    )
    path = tmp_path / "long.csv"
    long.to_csv(path, index=False)
    with pytest.raises(rhoscope.InputError) as e:
        rhoscope.estimate(long, long=("item", "rater", "score"))
    run = cli("estimate", path, "--long", "item,rater,score")
    assert str(e.value) == as_table(last_error(run), path)
    assert str(e.value).startswith("<DataFrame>: row index 2, column 'rater': a second score")


def test_an_in_memory_panel_is_no_file():
    """The panel handed to the library is registered under a name of its own, not written."""
    from rhoscope import _rhoscope

    x = np.arange(5.0)
    panel = _rhoscope.wide_panel(["J1"], [x])
    assert panel.path.startswith("in-memory panel #")
    del panel


def test_a_missing_long_column_is_a_usage_error_naming_the_columns():
    long = pd.DataFrame({"item": ["1"], "rater": ["J1"], "score": [3.0]})
    with pytest.raises(rhoscope.UsageError) as e:
        rhoscope.estimate(long, long=("item", "judge", "score"))
    assert str(e.value) == "long=: no column 'judge' (columns: item, rater, score)"


def test_tidy_keeps_float_columns_and_notes_carry_the_documents_own():
    """An undefined ρ̂ and a missing interval are NaN in float64 columns, and the document's
    notes (here: an ordinal anchor) reach ``notes`` and the printed table."""
    df = factor_frame()
    df["A3"] = np.clip(np.round(df["A3"]), -2, 2).astype(int)
    est = rhoscope.estimate(df)
    t = est.tidy()
    for c in ("estimate", "ci_low", "ci_high"):
        assert t[c].dtype == np.float64, c
    assert t["estimate"].isna().all(), "an ordinal anchor read as numbers leaves ρ̂ undefined"
    assert t["flag_list"].map(lambda f: "ordinal_anchor" in f).all(), "a flag of the whole fit"
    own = est.to_dict()["notes"]
    assert own and all(n in est.notes for n in own)
    assert "note: ordinal columns (A3)" in repr(est)
