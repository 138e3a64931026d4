"""The package itself: its namespace is the public API, and its installed command is the
native program, answering as the cargo-built binary does."""

from __future__ import annotations

import os
import subprocess
import sys
import types

import rhoscope


def test_the_namespace_is_the_public_api():
    public = {n for n in dir(rhoscope) if not n.startswith("_")}
    assert public == {n for n in rhoscope.__all__ if not n.startswith("_")}
    leaked = [n for n in dir(rhoscope) if n.startswith("_") and not n.startswith("__")]
    assert all(isinstance(getattr(rhoscope, n), types.ModuleType) for n in leaked), leaked
    for name in ("os", "sys", "tempfile", "typing", "Any", "Optional", "TYPE_CHECKING"):
        assert name not in dir(rhoscope) and not hasattr(rhoscope, name), name
    for name in rhoscope.__all__:
        assert getattr(rhoscope, name) is not None, name


def test_the_command_imports_neither_numpy_nor_pandas():
    code = "import sys, rhoscope._cli; print(sorted(m for m in ('numpy', 'pandas', 'polars') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_command_prints_its_version():
    script = _installed_command()
    out = subprocess.run([script, "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == f"rhoscope {rhoscope.__version__}"


def _installed_command() -> str:
    import pytest

    script = os.path.join(os.path.dirname(sys.executable), "rhoscope")
    if not os.path.exists(script):
        pytest.skip("no installed rhoscope command beside this interpreter")
    return script


def test_the_installed_command_is_the_native_program():
    # The wheel ships the binary itself (python/backend/rhoscope_backend.py): no interpreter
    # starts before the command.
    with open(_installed_command(), "rb") as f:
        head = f.read(4)
    assert head in (b"\x7fELF", b"\xcf\xfa\xed\xfe", b"\xca\xfe\xba\xbe") or head[:2] == b"MZ", head


def test_the_installed_command_starts_in_under_60_ms():
    import time

    script = _installed_command()
    times = []
    for _ in range(7):
        start = time.perf_counter()
        subprocess.run([script, "--version"], capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    assert min(times) < 0.060, times


def test_the_command_imports_nothing_heavy():
    # `python -m rhoscope._cli` runs the command in the extension, without the binary.
    # typing, enum (through signal or re) and the API modules are what a start-up pays for.
    code = (
        "import sys, rhoscope._cli; "
        "print(sorted(m for m in ('typing', 'signal', 'rhoscope._api', 'rhoscope._data') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_installed_command_answers_as_the_native_program(tmp_path):
    # Exit codes 0, 2 (usage), 65 (data), 66 (no input), 74 (cannot write): same code, same
    # stdout, same stderr, byte for byte, from the console script and the cargo-built binary.
    from conftest import CLI, ROOT

    script = _installed_command()
    if os.path.realpath(CLI) == os.path.realpath(script):
        import pytest

        pytest.skip("no native binary to compare with (set RHOSCOPE_BIN)")
    bad = tmp_path / "bad.csv"
    bad.write_text("J1,J2,J3,A1\n1,2,3,x\n")
    cases = [
        (["--version"], 0),
        (["estimate", "assets/mid.csv"], 0),
        (["battery", "assets/mid.csv", "--bootstrap", "100", "--null-draws", "40", "--json"], 0),
        (["estimate"], 2),
        (["estimate", "--bogus", "assets/mid.csv"], 2),
        (["estimate", str(bad)], 65),
        (["estimate", str(tmp_path / "missing.csv")], 66),
        (["simulate", "--n", "50", "--seed", "1", "-o", "/dev/full"], 74),
    ]
    for args, code in cases:
        if code == 74 and not os.path.exists("/dev/full"):
            continue
        native = subprocess.run([CLI, *args], capture_output=True, cwd=ROOT)
        wrapped = subprocess.run([script, *args], capture_output=True, cwd=ROOT)
        assert native.returncode == code, (args, native.stderr)
        assert (wrapped.returncode, wrapped.stdout, wrapped.stderr) == (
            native.returncode,
            native.stdout,
            native.stderr,
        ), args


def test_mypy_sees_the_functions_and_the_attributes(tmp_path):
    import pytest

    api = pytest.importorskip("mypy.api")
    snippet = tmp_path / "use.py"
    snippet.write_text(
        "import rhoscope\n"
        "r = rhoscope.estimate('panel.csv', judges=['J1'])\n"
        "n: int = r.n_items\n"
        "wrong: str = r.n_items\n"
        "b = rhoscope.battery('panel.csv')\n"
        "reading: dict = b.reading\n"
    )
    out, _, code = api.run([str(snippet), "--no-incremental", "--cache-dir", str(tmp_path / "cache")])
    assert code == 1, out
    assert out.count("error:") == 1 and "use.py:4:" in out, out
