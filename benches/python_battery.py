"""The battery through the Python API on a 20 000-item DataFrame against the library's own
time on the same panel.

Run from the repository root after `pip install .` (a release build):

    python benches/python_battery.py [--n 20000] [--runs 7]

"Library" is the crate's battery command on the panel's CSV file, run in this process by the
extension (the loader, the battery and the JSON: what `rhoscope battery FILE --json` does,
without starting a process); "API" is `rhoscope.battery(df)` on the same panel held in a
pandas DataFrame. Both print the best of the runs; the overhead is their difference.

What the API copies: nothing of a float64 column on its way in. The extension registers the
frame's arrays with the library as an in-memory panel and the library's loader reads them in
place (the same roles, checks and ordinal rule as for a file, no text in between), copying each
column once into the panel's column-major matrix, as it copies a file's parsed values. Both runs go
through `rhoscope.battery` (the JSON comes back the same way), so the difference is the
Python-side preparation of the frame's columns against the parse of the CSV file.

Measured (dev-profile build, 2 cores shared with other builds, best of 7): library 0.117 s,
API 0.106 s, -10 %; preparing the frame's columns takes 0.2 ms. See docs/benchmarks.md
("Through the Python API").
"""

from __future__ import annotations

import argparse
import os
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
    ap.add_argument("--runs", type=int, default=7)
    a = ap.parse_args()
    df = rhoscope.simulate("mid", n=a.n, seed=1)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "panel.csv")
        df.to_csv(path, index=False)
        lib = best(lambda: rhoscope.battery(path), a.runs)
        api = best(lambda: rhoscope.battery(df), a.runs)
        on_file = rhoscope.battery(path).to_json()
        on_frame = rhoscope.battery(df).to_json().replace('"<DataFrame>"', '"' + path + '"', 1)
    print(f"battery, N = {a.n} items, {df.shape[1]} columns, best of {a.runs}")
    print(f"  library (the CSV file):   {lib:.3f} s")
    print(f"  Python API (DataFrame):   {api:.3f} s")
    print(f"  API overhead: {100 * (api - lib) / lib:+.1f} %  (same JSON: {on_file == on_frame})")


if __name__ == "__main__":
    main()
