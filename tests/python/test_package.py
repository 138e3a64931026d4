"""The package itself: its namespace is the public API, and its installed command starts
fast (no pandas or numpy import on the way)."""

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
    script = os.path.join(os.path.dirname(sys.executable), "rhoscope")
    if not os.path.exists(script):
        import pytest

        pytest.skip("no installed rhoscope command beside this interpreter")
    out = subprocess.run([script, "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == f"rhoscope {rhoscope.__version__}"


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
