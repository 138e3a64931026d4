"""Messages in the user's language: no program name, no doubled "note:", rows of a labelled
index by their label, and the reading's next steps as keyword arguments."""

from __future__ import annotations

import numpy as np
import pandas as pd
import rhoscope


def frame(n: int = 200, seed: int = 4) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    f = rng.normal(size=n)
    cols = {f"J{j}": f + rng.normal(scale=0.8, size=n) for j in range(1, 5)}
    cols.update({f"A{k}": 0.3 * k * f + rng.normal(size=n) for k in range(1, 4)})
    return pd.DataFrame(cols)


def test_a_dropped_item_note_is_one_sentence_naming_the_row_by_label():
    df = frame()
    df.index = [f"story-{i}" for i in range(len(df))]
    df.loc["story-7", "A2"] = np.nan
    est = rhoscope.estimate(df)
    dropped = [n for n in est.notes if "dropped" in n]
    assert dropped == ["<DataFrame>: row 'story-7', column 'A2': 1 of 200 items dropped for missing values (first here)"]
    for note in est.notes:
        assert not note.startswith(("rhoscope", "note:")), note
    assert "note: note:" not in repr(est)


def test_an_error_names_the_row_by_label():
    df = frame(20).astype({"J2": object})
    df.index = [f"s{i}" for i in range(20)]
    df.loc["s5", "J2"] = "oops"
    try:
        rhoscope.estimate(df)
    except rhoscope.InputError as e:
        assert str(e) == "<DataFrame>: row 's5', column 'J2': not a number (value 'oops')"
    else:
        raise AssertionError("no error")


def test_next_steps_are_keyword_arguments():
    # A panel from the model (unit loadings, a shared judge residual) with one anchor coded as
    # its rounded score: marking it continuous makes the closed form readable, so the battery
    # (which offers only steps it has checked) offers that step.
    rng = np.random.default_rng(4)
    n = 2000
    f, c = rng.normal(size=n), rng.normal(size=n)
    cols = {f"J{j}": f + 0.6 * c + rng.normal(scale=0.6, size=n) for j in range(1, 5)}
    cols.update({f"A{k}": f + rng.normal(scale=0.7, size=n) for k in range(1, 4)})
    df = pd.DataFrame(cols)
    df["A3"] = np.round(df["A3"]).astype(int)
    bat = rhoscope.battery(df, bootstrap=100, null_draws=100)
    steps = bat.reading["next"]
    changes = [s["cli"] for s in steps if s.get("cli")]
    assert changes, steps
    for change in changes:
        assert "--" not in change, change
    marked = [c for c in changes if c.startswith("continuous=")]
    assert marked == ['continuous=["A3"]'], changes
    assert 'continuous=["A3"]' in bat.summary()
