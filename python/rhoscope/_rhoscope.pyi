"""The compiled extension (Rust): the library's commands, called with typed options."""

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__version__: str

class Failure(Exception):
    """A command's error; ``args`` is (exit code, message)."""

class Panel:
    """A panel held in memory, registered with the library under ``path`` until this
    object goes."""

    @property
    def path(self) -> str: ...

def report(
    command: str,
    path: str | None,
    panel: dict[str, object] | None,
    options: dict[str, object],
    threads: int | None = None,
    shown: str | None = None,
) -> tuple[str, list[str], tuple[int, str] | None]: ...
def write(
    command: str,
    path: str | None,
    panel: dict[str, object] | None,
    options: dict[str, object],
    threads: int | None = None,
) -> list[str]: ...
def run_cli(argv: list[str]) -> int: ...
def wide_panel(names: list[str], columns: Sequence[object], unordered: Sequence[int] = ...) -> Panel: ...
def long_panel(
    header: tuple[str, str, str],
    items: list[str | None],
    raters: list[str | None],
    scores: npt.NDArray[np.float64] | list[str | None],
    unordered: bool = False,
) -> Panel: ...
def scenario_keys() -> list[str]: ...
