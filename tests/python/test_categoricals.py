"""Ordinal columns in the order the user declared: integer codes, ordered pandas categoricals
and polars Enums give the same numbers; an order never declared (an unordered categorical, a
polars Categorical, words) is refused with the line that fixes it."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import rhoscope

LEVELS = ["awful", "poor", "fair", "good", "great"]


def likert_frame(n: int = 400, seed: int = 3) -> pd.DataFrame:
    """Four continuous judges, two continuous anchors and a five-level Likert anchor A3 (codes
    1..5), whose labels sort alphabetically in another order than their codes."""
    rng = np.random.default_rng(seed)
    f = rng.normal(size=n)
    cols = {f"J{j}": f + rng.normal(scale=0.7, size=n) for j in range(1, 5)}
    cols["A1"] = 0.5 * f + rng.normal(size=n)
    cols["A2"] = 0.2 * f + rng.normal(size=n)
    cols["A3"] = np.digitize(0.6 * f + rng.normal(size=n), [-1.2, -0.4, 0.4, 1.2]) + 1
    return pd.DataFrame(cols)


def labelled(codes: pd.Series) -> list:
    return [LEVELS[c - 1] for c in codes]


def rhos(result: rhoscope.Result) -> list:
    """Each anchor's ρ̂, every one defined (A3 is read as numbers: continuous=)."""
    out = [a["rho"] for a in result.to_dict()["estimate"]["anchors"]]
    assert None not in out
    return out


def test_an_ordered_categorical_is_its_declared_order():
    df = likert_frame()
    coded = rhoscope.estimate(df, continuous=['A3'])
    cat = df.assign(A3=pd.Categorical(labelled(df["A3"]), categories=LEVELS, ordered=True))
    assert rhos(rhoscope.estimate(cat, continuous=['A3'])) == rhos(coded)


def test_an_unordered_categorical_is_refused_with_its_fix():
    df = likert_frame()
    cat = df.assign(A3=pd.Categorical(labelled(df["A3"])))
    with pytest.raises(rhoscope.RhoscopeError) as e:
        rhoscope.estimate(cat, continuous=['A3'])
    message = str(e.value)
    assert "\n" not in message
    assert "column 'A3'" in message and "unordered pandas categorical" in message
    assert "pd.Categorical(df['A3'], categories=[...], ordered=True)" in message


def test_words_are_refused_with_their_fix():
    df = likert_frame()
    words = df.assign(A3=labelled(df["A3"]))
    with pytest.raises(rhoscope.RhoscopeError) as e:
        rhoscope.battery(words, bootstrap=100, null_draws=100)
    assert "column 'A3' holds text" in str(e.value)
    assert "ordered=True" in str(e.value)


def test_an_unordered_categorical_that_takes_no_role_is_no_obstacle():
    df = likert_frame().assign(model=pd.Categorical(["x", "y"] * 200))
    assert rhos(rhoscope.estimate(df, continuous=['A3'])) == rhos(rhoscope.estimate(likert_frame(), continuous=['A3']))


def test_a_polars_enum_is_its_declared_order():
    pl = pytest.importorskip("polars")
    df = likert_frame()
    coded = rhoscope.estimate(df, continuous=['A3'])
    frame = pl.from_pandas(df.assign(A3=labelled(df["A3"]))).with_columns(pl.col("A3").cast(pl.Enum(LEVELS)))
    assert rhos(rhoscope.estimate(frame, continuous=['A3'])) == rhos(coded)


def test_a_polars_categorical_is_refused_with_its_fix():
    pl = pytest.importorskip("polars")
    df = likert_frame()
    frame = pl.from_pandas(df.assign(A3=labelled(df["A3"]))).with_columns(pl.col("A3").cast(pl.Categorical))
    with pytest.raises(rhoscope.RhoscopeError) as e:
        rhoscope.estimate(frame, continuous=['A3'])
    assert "column 'A3' is a polars Categorical" in str(e.value)
    assert "pl.Enum([...])" in str(e.value)


def test_a_polars_enum_with_missing_cells_drops_them():
    pl = pytest.importorskip("polars")
    df = likert_frame()
    cells = labelled(df["A3"])
    cells[5] = None
    frame = pl.from_pandas(df.assign(A3=cells)).with_columns(pl.col("A3").cast(pl.Enum(LEVELS)))
    assert rhoscope.estimate(frame, continuous=['A3']).n_dropped == 1
