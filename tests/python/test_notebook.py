"""docs/python.md as a notebook user meets it: a notebook built from the page's steps (pandas
and polars on the real HANNA-LLM panel) run headless by nbclient, its outputs holding the
reading (the estimate to read, each ρ̂ with its interval) and no command-line flag."""

from __future__ import annotations

import json
import re
import sys

import pytest
from conftest import DATA, ROOT
from test_wording import flags_named

PANEL = DATA / "hanna-llm" / "hanna_llm_coherence.csv"
FAMILIES = DATA / "hanna-llm" / "families.csv"

#: The cells, in docs/python.md's order: pandas, then polars, then a wrong keyword.
CELLS = [
    "import pandas as pd\nimport polars as pl\nimport rhoscope",
    f"df = pd.read_csv({str(PANEL)!r})\n"
    "judges = df.columns[2:7]\n"
    'anchors = ["human1", "human2", "human3"]\n'
    f"families = pd.read_csv({str(FAMILIES)!r})",
    'est = rhoscope.estimate(df, judges=judges, anchors=anchors, method="all")\n'
    'est.tidy()[["estimator", "anchor", "estimate", "std_error", "flag_list", "reason"]]',
    "print(est.notes)",
    "bat = rhoscope.battery(df, judges=judges, anchors=anchors, families=families, bootstrap=200)\nbat",
    "print(bat.summary())",
    f"lf = pl.scan_csv({str(PANEL)!r}, infer_schema_length=None)\n"
    "fam = pl.read_csv(" + repr(str(FAMILIES)) + ")\n"
    "bat_pl = rhoscope.battery(lf, judges=list(judges), anchors=anchors, families=fam, bootstrap=200)\n"
    "print(bat_pl.summary())\n"
    "bat_pl == bat",
    "try:\n"
    "    rhoscope.estimate(df, judges=judges, anchors=anchors, bias_reps=50)\n"
    "except rhoscope.RhoscopeError as e:\n"
    "    print(type(e).__name__, e)",
    # A simulated panel whose ρ̂ are defined (the real one's are not).
    'sim = rhoscope.simulate("mid", n=2000, seed=7)\n'
    "print(rhoscope.battery(sim, bootstrap=200).summary())",
]


def _texts(cell) -> list[str]:
    """A cell's outputs as text: streams, plain text, HTML and errors."""
    out = []
    for o in cell.get("outputs", []):
        if o.get("output_type") == "stream":
            out.append(o["text"])
        elif o.get("output_type") == "error":
            out.append("\n".join(o.get("traceback", [])))
        else:
            data = o.get("data", {})
            out += [data[k] for k in ("text/plain", "text/html") if k in data]
    return out


def test_the_docs_run_as_a_headless_notebook(tmp_path):
    if not PANEL.exists():
        pytest.skip(f"{PANEL} is not here: the notebook reads the real HANNA-LLM panel")
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    from jupyter_client.kernelspec import KernelSpecManager

    # The kernel is this interpreter (the one with the package), whatever `python` is on PATH.
    spec_dir = tmp_path / "kernels" / "here"
    spec_dir.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    kernel = {"argv": argv, "display_name": "here", "language": "python"}
    (spec_dir / "kernel.json").write_text(json.dumps(kernel))
    ksm = KernelSpecManager(kernel_dirs=[str(tmp_path / "kernels")])
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in CELLS]
    from jupyter_client.manager import AsyncKernelManager

    km = AsyncKernelManager(kernel_name="here", kernel_spec_manager=ksm)
    client = nbclient.NotebookClient(nb, km=km, timeout=600, resources={"metadata": {"path": str(ROOT)}})
    client.execute()

    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert errors == [], [_texts(c) for c in nb.cells]
    out = ["\n".join(_texts(c)) for c in nb.cells]
    battery_html = next(o["data"]["text/html"] for o in nb.cells[4].outputs if "text/html" in o.get("data", {}))
    summaries = (out[5], out[6])
    # The reading leads, in the printed summary (pandas, then polars) and the HTML display:
    # the estimate to read (here none: the command lists no anchor then, nor does the summary).
    for text in (*summaries, battery_html):
        assert text.lstrip("<div>\n").find("read") < text.find("tests"), text[:300]
        assert "No ρ̂ to read" in text and "human1: ρ̂" not in text, text[:600]
    for text in summaries:
        assert text.startswith("rhoscope battery — <DataFrame>\nread: "), text[:200]
        rows = [line for line in text.splitlines() if line.strip().startswith("human")]
        assert all(line.count("[") == 1 and line.count(",") >= 1 for line in rows), rows
    # The estimate's tidy frame shows the estimators that ran, × anchor.
    assert "ml" in out[2] and "human3" in out[2], out[2][:400]
    # The free-scale estimator's refusal is said once, with no place or "note:" before it.
    assert out[3].count("free-scale cannot run") == 1 and ": note:" not in out[3], out[3]
    # polars (a LazyFrame, collected) reads the same panel as pandas.
    assert out[6].rstrip().endswith("True"), out[6][-200:]
    # The refused keyword is named as Python writes it.
    assert out[7].startswith("UsageError bias_reps= sets the refits of bias_correct=True"), out[7]
    # Where ρ̂ is defined, each anchor's is a number with its interval.
    rows = [line for line in out[8].splitlines() if re.match(r"\s+A\d: ρ̂ = ", line)]
    assert "read: closed form (Theorem 1)" in out[8], out[8]
    assert len(rows) == 2 and all(re.search(r"ρ̂ = -?\d\.\d+ \[-?\d\.\d+, -?\d\.\d+\]", r) for r in rows), out[8]
    every = "\n".join(out)
    assert flags_named(every) == [], flags_named(every)
    # No command line either (a result's title, "rhoscope battery — <DataFrame>", is none).
    assert not re.search(r"rhoscope (?:estimate|battery|plan|power|validate|export|plot) (?!—)", every), every
