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
    for name in ("os", "sys", "tempfile", "typing", "Any", "Optional"):
        assert not hasattr(rhoscope, name), name


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
