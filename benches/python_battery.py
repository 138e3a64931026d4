"""The battery through the Python API on a 20 000-item DataFrame against the library's own
time on the same panel (the release `rhoscope battery FILE --json`: load, battery, JSON).

Run from the repository root after `pip install .` (a release build):

    python benches/python_battery.py [--n 20000] [--runs 3] [--bin target/release/rhoscope]

It prints both times (best of the runs) and the API's overhead in percent. What the API
copies: a float64 column passes to the extension without a copy, but the panel reaches the
library's loader as a temporary CSV file, which the loader parses into its own column-major
matrix (as it does for any file); so the cost is one text rendering of the frame on top of
the library's work.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
import time

import rhoscope


def best(f, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=20_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--bin", default=os.path.join("target", "release", "rhoscope"))
    a = ap.parse_args()
    df = rhoscope.simulate("mid", n=a.n, seed=1)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "panel.csv")
        subprocess.run([a.bin, "simulate", "--preset", "mid", "--n", str(a.n), "--seed", "1", "-o", path], check=True)
        lib = best(lambda: subprocess.run([a.bin, "battery", path, "--json"], check=True, capture_output=True), a.runs)
        api = best(lambda: rhoscope.battery(df), a.runs)
        same = rhoscope.battery(df).to_json().replace('"<DataFrame>"', f'"{path}"', 1) == subprocess.run(
            [a.bin, "battery", path, "--json"], check=True, capture_output=True, text=True
        ).stdout
    print(f"battery, N = {a.n}, {df.shape[1]} columns, best of {a.runs}")
    print(f"  library (release CLI on the CSV): {lib:.3f} s")
    print(f"  Python API on the DataFrame:      {api:.3f} s")
    print(f"  API overhead: {100 * (api - lib) / lib:+.1f} %  (same JSON: {same})")


if __name__ == "__main__":
    main()
