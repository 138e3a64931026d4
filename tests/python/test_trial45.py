"""The session-45 notebook trial's findings: an int-labelled frame's notes worded once in
Python's terms, exit codes that match their exception, one range for threads=, a missing
data file named by data=, and a frame with no rows said plainly."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import rhoscope

PICK = (
    "{key}=[{named}] picks the columns named {named} by name; by position it would pick the "
    "columns named {shifted} (a number that is a column's name is read as the name)"
)


@pytest.fixture(scope="module")
def intlabels() -> pd.DataFrame:
    """Seven columns labelled 0 … 6, as ``pd.DataFrame(array)`` gives them."""
    rng = np.random.default_rng(1)
    n = 400
    q = rng.normal(size=n)
    judges = [q + rng.normal(scale=0.7, size=n) for _ in range(4)]
    anchors = [q + rng.normal(scale=0.6, size=n) + 0.3 * rng.normal(size=n) for _ in range(3)]
    return pd.DataFrame(np.column_stack(judges + anchors))


def test_designated_clean_by_number_is_worded_as_typed(intlabels):
    r = rhoscope.estimate(intlabels, judges=[0, 3, 5, 6], anchors=[2, 1, 4], designated_clean=1)
    said = "designated_clean=1 picks the anchor named 1 by name; by position among the anchors it would pick 2"
    assert [n for n in r.notes if n.startswith("designated_clean")] == [said], r.notes
    assert "designated_clean= " not in r.summary() + r.to_json()


def test_a_usage_error_carries_the_usage_exit_code():
    for data in (np.zeros(5), np.zeros((2, 3, 4))):
        with pytest.raises(rhoscope.UsageError) as e:
            rhoscope.estimate(data, names=["J1"])
        assert e.value.exit_code == 2, e.value
    frame = pd.DataFrame({"item": [1], "rater": ["a"], "score": [1.0]})
    with pytest.raises(rhoscope.UsageError) as e:
        rhoscope.estimate(frame, long=("item", "judge", "score"))
    assert e.value.exit_code == 2 and str(e.value).startswith("long=: no column 'judge'"), e.value


def test_a_missing_data_file_is_named_by_data(tmp_path):
    missing = str(tmp_path / "nope.csv")
    with pytest.raises(rhoscope.InputError) as e:
        rhoscope.estimate(missing)
    assert e.value.exit_code == 66 and str(e.value).startswith(f"data=: {missing}: cannot read"), e.value


def test_a_frame_with_no_rows_says_so_once(intlabels):
    with pytest.raises(rhoscope.InputError) as e:
        rhoscope.estimate(intlabels.iloc[:0], judges=[0, 1, 2, 3], anchors=[4, 5, 6])
    assert str(e.value) == "<DataFrame>: no rows"


def test_plot_without_a_kind_says_none():
    with pytest.raises(rhoscope.UsageError) as e:
        rhoscope.plot(None)  # type: ignore[arg-type]
    assert str(e.value) == "kind= takes a string, not None" and e.value.exit_code == 2


def test_a_wrongly_typed_long_or_output_is_a_usage_error(intlabels, tmp_path):
    for long in (5, object()):
        with pytest.raises(rhoscope.UsageError) as e:
            rhoscope.estimate(intlabels, long=long)  # type: ignore[arg-type]
        assert str(e.value) == "long= names three columns: (item, rater, score)"
    panel = tmp_path / "panel.csv"
    intlabels.add_prefix("J").to_csv(panel, index=False)
    for output in ([[1]], object()):
        with pytest.raises(rhoscope.UsageError) as e:
            rhoscope.export(panel, output=output)  # type: ignore[arg-type]
        assert str(e.value).startswith("output= takes a path, not "), e.value
