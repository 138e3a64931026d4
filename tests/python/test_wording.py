"""Python names settings by keyword argument: no exception, note or ``read["why"]`` names a
command-line flag (outside a whole ``rhoscope …`` command line offered to copy), and a
comma inside a name is only a character."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
import rhoscope
from conftest import DATA

_COMMAND_LINE = re.compile(r"`rhoscope [^`]*`|rhoscope \S.*$")
_FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]*")


def flags_named(text: str) -> list:
    return [f for line in text.splitlines() for f in _FLAG.findall(_COMMAND_LINE.sub("", line))]


def test_the_checker_finds_flags():
    assert flags_named("name them with --judges") == ["--judges"]
    assert flags_named("run `rhoscope battery x.csv --codes-as-numbers` first") == []


def frame(n: int = 60) -> pd.DataFrame:
    rng = np.random.default_rng(3)
    t = rng.normal(size=n)
    return pd.DataFrame({c: t + rng.normal(size=n) for c in ["J1", "J2", "J3", "A1", "A2"]})


BAD = [
    ("judges", dict(judges=["J1", "nope"])),
    ("judges", dict(judges=["J1", "J1"])),
    ("judges", dict(judges=["J1"])),
    ("judges", dict(judges=[])),
    ("judges", dict(judges=[0, 1])),
    ("judges", dict(judges=[1.5])),
    ("anchors", dict(anchors=[99])),
    ("anchors", dict(judges=["J1", "J2"], anchors=["J2", "A1"])),
    ("families", dict(families={"A1": "f"})),
    ("families", dict(families=42)),
    ("continuous", dict(continuous=["nope"])),
    ("set_aside", dict(judges=["J1", "J2"], set_aside=["J1"])),
    ("id", dict(id="nope")),
]


@pytest.mark.parametrize("keyword,kwargs", BAD)
def test_bad_panel_inputs_name_the_keyword(keyword, kwargs):
    with pytest.raises(rhoscope.RhoscopeError) as e:
        rhoscope.estimate(frame(), **kwargs)
    message = str(e.value)
    assert flags_named(message) == [], message
    assert f"{keyword}=" in message, message


def test_notes_name_keywords(tmp_path):
    df = frame()
    df.loc[3, "J1"] = np.nan
    path = tmp_path / "p.csv"
    df.to_csv(path, index=False)
    (tmp_path / "p.families.csv").write_text("judge,family\nJ1,a\nJ2,a\n")
    result = rhoscope.estimate(path)
    notes = "\n".join(result.notes)
    assert "families= overrides" in notes, notes
    assert flags_named(notes) == [], notes


def test_a_comma_in_a_name_is_a_character():
    df = frame().rename(columns={"J1": "judge,one"})
    result = rhoscope.estimate(
        df, judges=["judge,one", "J2", "J3"], families={"judge,one": "fam,a", "J2": "fam,a"}
    )
    assert result.to_dict()["judges"][0] == "judge,one"


def test_iterables_of_names_and_positions():
    df = frame()
    a = rhoscope.estimate(df, judges=df.columns[:3], anchors=np.array([4, 5]))
    b = rhoscope.estimate(df, judges=(c for c in ["J1", "J2", "J3"]), anchors=["A1", "A2"])
    assert a.to_dict()["anchors"] == b.to_dict()["anchors"]


def test_read_why_on_the_real_panels_names_no_flag():
    llm = DATA / "hanna-llm"
    judges = ["beluga_13b", "orca_platypus_13b", "mistral_7b", "llama2_13b_chat", "chatgpt"]
    humans = ["human1", "human2", "human3"]
    runs = [
        (llm / "hanna_llm_coherence.csv", dict(judges=judges, anchors=humans)),
        (llm / "hanna_llm_coherence.csv", dict(judges=judges, anchors=humans, continuous="all")),
        (DATA / "hanna" / "hanna_coherence_panel.csv", dict(judges=[2, 3, 4])),
    ]
    for path, kwargs in runs:
        bat = rhoscope.battery(path, bootstrap=100, null_draws=100, **kwargs)
        doc = bat.to_dict()
        why = doc["read"]["why"] or ""
        assert flags_named(why) == [], (path, why)
        assert flags_named("\n".join(bat.notes)) == [], bat.notes
