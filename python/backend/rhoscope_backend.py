"""The package's build backend: maturin's, with the native ``rhoscope`` program built first
and added to the wheel maturin made, as its ``scripts`` (maturin builds the extension or a
program, not both: PyO3/maturin#368). ``pip install .`` then puts the binary itself on the PATH, not a Python
script around it."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
import zipfile
from collections.abc import Mapping
from typing import Any

import maturin
from maturin import (  # noqa: F401  (the hooks this backend does not change)
    build_sdist,
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    get_requires_for_build_wheel,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)


def _profile(args: list[str]) -> str:
    """The cargo profile maturin builds with: ``--profile NAME``, else release."""
    for i, a in enumerate(args):
        if a.startswith("--profile="):
            return a.split("=", 1)[1]
        if a == "--profile" and i + 1 < len(args):
            return args[i + 1]
    return "release"


def _native(config_settings: Mapping[str, Any] | None) -> str:
    """Builds the ``rhoscope`` program with maturin's cargo profile; returns its path."""
    cargo = shutil.which("cargo")
    if cargo is None:
        sys.exit("building rhoscope needs the Rust toolchain (cargo on the PATH)")
    profile = _profile(maturin.get_maturin_pep517_args(config_settings))
    command = [
        cargo,
        "build",
        "-p",
        "rhoscope",
        "--bin",
        "rhoscope",
        "--profile",
        profile,
        "--message-format=json-render-diagnostics",
    ]
    print("Running `{}`".format(" ".join(command)), flush=True)
    out = subprocess.run(command, stdout=subprocess.PIPE, check=False)
    if out.returncode != 0:
        sys.exit(f"cargo build of the rhoscope program failed (exit {out.returncode})")
    exe = None
    for line in out.stdout.decode(errors="replace").splitlines():
        msg = json.loads(line) if line.startswith("{") else {}
        if msg.get("reason") == "compiler-artifact" and msg.get("executable"):
            if msg.get("target", {}).get("name") == "rhoscope":
                exe = msg["executable"]
    if exe is None:
        sys.exit("cargo built no rhoscope program")
    return exe


def _stripped(exe: str) -> bytes:
    """The program's bytes without debug info when a `strip` tool is here: the profile keeps
    it for profiling the build tree, the installed command needs none (about 70 MB against 12)."""
    tool = shutil.which("strip")
    if tool is None:
        with open(exe, "rb") as f:
            return f.read()
    import tempfile

    with tempfile.TemporaryDirectory(prefix="rhoscope-") as d:
        copy = os.path.join(d, "rhoscope")
        shutil.copyfile(exe, copy)
        if subprocess.run([tool, "--strip-debug", copy], check=False).returncode != 0:
            shutil.copyfile(exe, copy)
        with open(copy, "rb") as f:
            return f.read()


def _add_script(wheel: str, exe: str) -> None:
    """Puts `exe` in the wheel as ``<name>.data/scripts/rhoscope`` (mode 755), in RECORD."""
    body = _stripped(exe)
    digest = (
        base64.urlsafe_b64encode(hashlib.sha256(body).digest()).rstrip(b"=").decode()
    )
    fresh = wheel + ".part"
    with (
        zipfile.ZipFile(wheel) as old,
        zipfile.ZipFile(fresh, "w", zipfile.ZIP_DEFLATED) as new,
    ):
        names = old.namelist()
        record = next(n for n in names if n.endswith(".dist-info/RECORD"))
        script = record.split(".dist-info/")[0] + ".data/scripts/rhoscope"
        for name in names:
            if name not in (record, script):
                new.writestr(old.getinfo(name), old.read(name))
        info = zipfile.ZipInfo(script, date_time=(1980, 1, 1, 0, 0, 0))
        info.external_attr = (stat.S_IFREG | 0o755) << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        new.writestr(info, body)
        lines = [
            x
            for x in old.read(record).decode().splitlines()
            if x and not x.startswith(script + ",")
        ]
        lines.insert(
            len(lines) - 1
            if lines and lines[-1].startswith(record + ",")
            else len(lines),
            f"{script},sha256={digest},{len(body)}",
        )
        new.writestr(old.getinfo(record), "\n".join(lines) + "\n")
    os.replace(fresh, wheel)


def build_wheel(
    wheel_directory: str,
    config_settings: Mapping[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    """maturin's wheel, with the native program in its scripts."""
    exe = _native(config_settings)
    name = maturin.build_wheel(wheel_directory, config_settings, metadata_directory)
    _add_script(os.path.join(wheel_directory, name), exe)
    return name


def build_editable(
    wheel_directory: str,
    config_settings: Mapping[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    """maturin's editable wheel, with the native program in its scripts."""
    exe = _native(config_settings)
    name = maturin.build_editable(wheel_directory, config_settings, metadata_directory)
    _add_script(os.path.join(wheel_directory, name), exe)
    return name
