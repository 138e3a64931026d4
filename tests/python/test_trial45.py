"""The session-45 notebook trial's findings: an int-labelled frame's notes worded once in
Python's terms, exit codes that match their exception, one range for threads=, a missing
data file named by data=, and a frame with no rows said plainly."""

from __future__ import annotations

import json

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


def test_an_int_labelled_frames_notes_are_worded_for_python_and_shown_once(intlabels):
    r = rhoscope.estimate(intlabels, judges=[0, 1, 2, 3], anchors=[4, 5, 6])
    said = [
        PICK.format(key="judges", named="1, 2, 3", shifted="0, 1, 2"),
        PICK.format(key="anchors", named="4, 5, 6", shifted="3, 4, 5"),
    ]
    assert r.to_dict()["notes"] == [f"<DataFrame>: note: {s}" for s in said]
    assert r.notes == said
    text = r.summary() + r._repr_html_() + r.to_json()
    assert "in-memory panel" not in text and "judges= 1,2,3" not in text
    for s in said:
        assert r.summary().count(s) == 1, r.summary()


def test_a_documents_own_note_is_worded_in_place_and_said_once():
    """The wiring of the test above without the extension: the document's note as the library
    writes it for an in-memory panel, and the same note beside the document."""
    from rhoscope._data import Prepared
    from rhoscope._results import Result

    library = "judges= 1,2,3 picks the columns named 1, 2, 3 by name"
    text = json.dumps({"notes": [f"in-memory panel #1: note: {library}"], "rho": 0.5}, indent=2) + "\n"
    prepared = Prepared("in-memory panel #1", "<DataFrame>")
    worded = prepared.document(text)
    r = Result(worded, [prepared.message(library)])
    assert r.to_dict() == {"notes": ["<DataFrame>: note: judges=[1, 2, 3] picks the columns named 1, 2, 3 by name"], "rho": 0.5}
    assert worded.replace("<DataFrame>: note: judges=[1, 2, 3]", "in-memory panel #1: note: judges= 1,2,3") == text
    assert r.notes == ["judges=[1, 2, 3] picks the columns named 1, 2, 3 by name"]


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


def test_threads_below_one_is_refused_with_one_range(intlabels):
    said = []
    for t in (-1, 0):
        with pytest.raises(rhoscope.UsageError) as e:
            rhoscope.estimate(intlabels, judges=[0, 1, 2, 3], anchors=[4, 5, 6], threads=t)
        said.append(str(e.value))
    assert said[0].startswith("threads= takes a whole number from 1 to ") and said[0].endswith(", not -1")
    assert said[1] == said[0].replace(", not -1", ", not 0")


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
