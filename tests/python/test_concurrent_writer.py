"""A numpy column written by another Python thread while a call runs: the extension copies
each column while it holds the GIL, so the call sees one whole state of the array (the one
before or after a write), never a torn mix, and never crashes."""

from __future__ import annotations

import threading

import numpy as np
import rhoscope


def test_a_column_written_from_another_thread_is_read_whole():
    rng = np.random.default_rng(11)
    n = 300  # below numpy's threshold for releasing the GIL, so each write is whole
    f = rng.normal(size=n)
    cols = {f"J{j}": f + rng.normal(scale=0.8, size=n) for j in range(1, 5)}
    cols["A1"] = 0.6 * f + rng.normal(size=n)
    cols["A2"] = rng.normal(size=n)
    cols["A3"] = 0.3 * f + rng.normal(size=n)
    before = cols["A1"].copy()
    after = before[::-1].copy()
    allowed = set()
    for state in (before, after):
        cols["A1"][:] = state
        allowed.add(rhoscope.estimate(cols).to_json())
    assert len(allowed) == 2

    stop = threading.Event()

    def writer() -> None:
        while not stop.is_set():
            cols["A1"][:] = after
            cols["A1"][:] = before

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        seen = {rhoscope.estimate(cols).to_json() for _ in range(40)}
    finally:
        stop.set()
        thread.join()
    assert seen <= allowed, "a call read a column mid-write"
