"""docs/python.md's code blocks run, in order, in one namespace, from the repository root, so
the page cannot drift from what the package does."""

from __future__ import annotations

import re

import pytest
from conftest import DATA, ROOT

PAGE = ROOT / "docs" / "python.md"


def blocks() -> list:
    return re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), flags=re.S)


def test_the_page_has_code():
    assert len(blocks()) >= 5


def test_every_block_runs(monkeypatch):
    if not (DATA / "hanna-llm").exists():
        pytest.skip("the HANNA data is not beside the checkout")
    monkeypatch.chdir(ROOT)
    namespace: dict = {}
    for i, code in enumerate(blocks()):
        try:
            exec(compile(code, f"{PAGE.name} block {i + 1}", "exec"), namespace)
        except Exception as e:  # the block's number and its error, not a bare traceback
            raise AssertionError(f"{PAGE.name}, block {i + 1}: {type(e).__name__}: {e}") from e
    assert namespace["bat"].summary().splitlines()[1].startswith("read: ")
