"""The compiled extension (Rust): the library's commands by command line."""

from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np
import numpy.typing as npt

__version__: str

class Failure(Exception):
    """A command's error; ``args`` is (exit code, message)."""

class Panel:
    """A panel held in memory (its float64 arrays read in place), registered with the
    library under ``path`` until this object goes."""

    @property
    def path(self) -> str: ...

def run_json(
    args: List[str], shown: Optional[str] = None, panel: Optional[Dict[str, object]] = None
) -> Tuple[str, List[str], Optional[Tuple[int, str]]]: ...
def run_files(args: List[str], panel: Optional[Dict[str, object]] = None) -> None: ...
def run_cli(argv: List[str]) -> int: ...
def wide_panel(names: List[str], columns: Sequence[object]) -> Panel: ...
def long_panel(
    header: Tuple[str, str, str],
    items: List[Optional[str]],
    raters: List[Optional[str]],
    scores: npt.NDArray[np.float64],
) -> Panel: ...
