"""Every error class, with the command line's message."""

from __future__ import annotations

import _thread
import threading
import time

import numpy as np
import pandas as pd
import pytest
import rhoscope
from conftest import ASSETS, cli, last_error

MID = ASSETS / "mid.csv"


def test_hierarchy():
    for cls in (rhoscope.InputError, rhoscope.IdentificationError, rhoscope.UsageError):
        assert issubclass(cls, rhoscope.RhoscopeError)
    assert issubclass(rhoscope.RhoscopeError, Exception)


def test_missing_file_is_an_input_error(tmp_path):
    path = tmp_path / "nope.csv"
    with pytest.raises(rhoscope.InputError) as e:
        rhoscope.estimate(path)
    run = cli("estimate", path)
    assert e.value.exit_code == run.code == 66
    # The command's line, named by the keyword that gave the path.
    assert str(e.value) == f"data=: {last_error(run)}"


def test_bad_data_is_an_input_error(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("J1,J2,A1,A2\n1,2,3,4\n1,x,3,4\n2,3,4,5\n3,4,5,7\n")
    with pytest.raises(rhoscope.InputError) as e:
        rhoscope.estimate(path)
    run = cli("estimate", path)
    assert e.value.exit_code == run.code == 65
    assert str(e.value) == last_error(run)
    df = pd.DataFrame({"J1": [1, 1, 2, 3], "J2": ["2", "x", "3", "4"], "A1": [3, 3, 4, 5], "A2": [4, 4, 5, 7]})
    with pytest.raises(rhoscope.InputError) as e2:
        rhoscope.estimate(df)
    assert "<DataFrame>" in str(e2.value) and "'x'" in str(e2.value)


def test_an_all_ordinal_panel_is_not_identified(tmp_path):
    rng = np.random.default_rng(1)
    t = rng.normal(size=300)
    df = pd.DataFrame({c: np.clip(np.round(3 + t + rng.normal(size=300)), 1, 5).astype(int) for c in ["J1", "J2", "J3", "A1", "A2"]})
    path = tmp_path / "ordinal.csv"
    df.to_csv(path, index=False)
    with pytest.raises(rhoscope.IdentificationError) as e:
        rhoscope.estimate(df)
    run = cli("estimate", path)
    assert e.value.exit_code == run.code == 3
    # The same sentence, pointing to the function where the command points to itself.
    worded = last_error(run).replace("`rhoscope identify`", "rhoscope.identify(data)")
    assert "rhoscope.identify(data) shows why" in worded
    assert str(e.value).replace("<DataFrame>", str(path)) == worded


def test_usage_errors_carry_the_cli_message():
    with pytest.raises(rhoscope.UsageError) as e:
        rhoscope.estimate(MID, judges=["nope"])
    run = cli("estimate", MID, "--judges", "nope")
    assert e.value.exit_code == run.code == 2
    # The command line's message, its setting named as the keyword argument.
    assert str(e.value) == last_error(run).replace("--judges", "judges=")
    assert "--" not in str(e.value)
    with pytest.raises(rhoscope.UsageError) as e2:
        rhoscope.battery(MID, bootstrap=5)
    assert str(e2.value) == "bootstrap= takes a whole number from 100 to 1000000, not 5"
    with pytest.raises(rhoscope.UsageError):
        rhoscope.estimate(np.zeros((4, 3)))
    with pytest.raises(rhoscope.UsageError):
        rhoscope.estimate(42)


def test_a_diagnostic_is_a_rhoscope_error_with_its_result():
    with pytest.raises(rhoscope.RhoscopeError) as e:
        rhoscope.battery(ASSETS / "families.csv", bootstrap=100, null_draws=100, fail_on_diagnostic=True)
    run = cli("battery", ASSETS / "families.csv", "--bootstrap", "100", "--null-draws", "100", "--fail-on-diagnostic", "--json")
    assert type(e.value) is rhoscope.RhoscopeError
    assert e.value.exit_code == run.code == 1
    # The one documented difference: a note names the keyword argument, not the flag.
    assert e.value.result.to_json() == run.out.replace("(--families overrides)", "(families= overrides)")


def test_ctrl_c_interrupts_the_work():
    # About 11 s of work uninterrupted on 2 cores, so the interrupt at 0.3 s lands mid-run
    # (on the 500-item demo panel the whole run took 0.3 s and raced the timer).
    df = rhoscope.simulate(preset="mid", n=100_000, seed=1)
    timer = threading.Timer(0.3, _thread.interrupt_main)
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        rhoscope.battery(df, bootstrap=20000, null_draws=20000)
    assert time.monotonic() - start < 10


def test_the_console_script_is_the_command(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    script = Path(sys.executable).parent / "rhoscope"
    if not script.exists():
        pytest.skip("the package's console script is not installed beside this Python")
    out = subprocess.run([script, "estimate", MID, "--json"], capture_output=True, text=True, check=False)
    assert out.returncode == 0 and out.stdout == cli("estimate", MID, "--json").out
    bad = subprocess.run([script, "estimate", MID, "--bogus"], capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and bad.stderr == cli("estimate", MID, "--bogus").err
