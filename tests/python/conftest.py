"""Shared fixtures: the repository, the real data beside it, and the command line to compare
the API against (the cargo-built binary, else the package's own `rhoscope` command)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "data"
ASSETS = ROOT / "assets"


def _cli_path() -> str:
    env = os.environ.get("RHOSCOPE_BIN")
    if env:
        return env
    built = ROOT / "target" / "debug" / "rhoscope"
    if built.exists():
        return str(built)
    beside = Path(sys.executable).parent / "rhoscope"
    if beside.exists():
        return str(beside)
    found = shutil.which("rhoscope")
    if found is None:
        pytest.exit("no rhoscope command to compare against (set RHOSCOPE_BIN)", 2)
    return found


CLI = _cli_path()


class Run:
    """One finished command: exit code, stdout and stderr as text."""

    def __init__(self, proc: subprocess.CompletedProcess) -> None:
        self.code = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr


def cli(*args: object) -> Run:
    """Runs the command line with these arguments."""
    proc = subprocess.run(
        [CLI, *map(str, args)], capture_output=True, text=True, encoding="utf-8", check=False
    )
    return Run(proc)


DROP_NOTE = re.compile(r'"[^"\n]*?: (?:row [^"\n]*?: )?note: (\d+ of \d+ items dropped for missing values)[^"\n]*"')


def without_drop_place(text: str) -> str:
    """A document's text with the drop note's place left out: a file names its line (the
    header is row 1) and a frame its row index, by design; the counts must agree."""
    return DROP_NOTE.sub(r'"\1"', text)


def cli_json(*args: object) -> str:
    """The command line's `--json` text; the command must succeed."""
    run = cli(*args, "--json")
    assert run.code == 0, run.err
    return run.out


def last_error(run: Run) -> str:
    """The command's error line without the program prefix."""
    line = run.err.strip().splitlines()[-1]
    return line[len("rhoscope: ") :] if line.startswith("rhoscope: ") else line


@pytest.fixture(scope="session")
def hanna_llm() -> Path:
    path = DATA / "hanna-llm" / "hanna_llm_coherence.csv"
    if not path.exists():
        pytest.skip(f"{path} is not here")
    return path


@pytest.fixture(scope="session")
def hanna_long() -> Path:
    path = DATA / "hanna" / "hanna_ratings_with_workers.csv"
    if not path.exists():
        pytest.skip(f"{path} is not here")
    return path


@pytest.fixture(scope="session")
def _likert_panel():
    """The Likert panel, simulated once for the session."""
    import numpy as np
    import rhoscope

    s = rhoscope.simulate("families", n=500, seed=7)
    s["A1"] = np.clip(np.round(s.A1) + 3, 1, 5).astype(np.int64)
    return s


@pytest.fixture
def likert(_likert_panel):
    """Six judges and two anchors; A1 a five-level Likert column of int64 codes 1..5 (a fresh
    copy for each test, which may change it)."""
    return _likert_panel.copy()
