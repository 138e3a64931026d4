"""Turns what the user hands over (a pandas or polars frame, a 2-D array with names, a
mapping of columns, or a path) into a panel for the library's own loader, so roles,
missing values and the ordinal rule are the command line's. An in-memory panel is
registered with the library under a path of its own: float64 columns are read where they
lie (no copy, no text), other columns are converted once (numbers to float64, the rest to
text cells)."""

from __future__ import annotations

import math
import os
from typing import Any, Mapping, Optional, Sequence

import numpy as np

from . import _rhoscope
from ._errors import UsageError

#: How an in-memory panel is named in results and messages.
IN_MEMORY = {"pandas": "<DataFrame>", "polars": "<DataFrame>", "numpy": "<array>", "mapping": "<columns>"}


class Prepared:
    """A panel ready for the library's loader: its path, the name shown for it, the long
    layout's three columns, and the in-memory panel's registration, kept alive while it is
    used."""

    def __init__(self, path: str, shown: Optional[str], keep: Any = None, long: Optional[tuple] = None):
        self.path = path
        self.shown = shown
        self.keep = keep
        self.long = long

    def message(self, text: str) -> str:
        """A library message with the in-memory panel's path replaced by the shown name."""
        return text.replace(self.path, self.shown) if self.shown else text


def _kind(data: Any) -> str:
    mod = type(data).__module__.split(".")[0]
    if mod == "pandas" and hasattr(data, "columns"):
        return "pandas"
    if mod == "polars" and hasattr(data, "columns"):
        return "polars"
    if isinstance(data, np.ndarray):
        return "numpy"
    if isinstance(data, Mapping):
        return "mapping"
    if isinstance(data, (str, os.PathLike)):
        return "path"
    raise UsageError(
        f"data is a {type(data).__name__}: give a pandas or polars DataFrame, a 2-D numpy "
        "array with names=, a mapping of columns, or a path",
        2,
    )


def _floats(values: Any) -> np.ndarray:
    """float64, contiguous; a float64 column that already is passes without a copy."""
    return np.ascontiguousarray(values, dtype=np.float64)


def _text(values: Sequence[Any]) -> list:
    out = []
    for v in values:
        if v is None or (isinstance(v, float) and math.isnan(v)):
            out.append(None)
        else:
            out.append(str(v))
    return out


def _pandas_column(s: Any) -> Any:
    import pandas as pd

    dtype = s.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        cats = dtype.categories
        if pd.api.types.is_numeric_dtype(cats.dtype):
            return _floats(s.astype("float64").to_numpy())
        codes = s.cat.codes.to_numpy()
        return np.where(codes < 0, np.nan, codes + 1.0)
    if dtype == np.float64:
        return _floats(s.to_numpy())
    if pd.api.types.is_bool_dtype(dtype) or pd.api.types.is_numeric_dtype(dtype):
        return _floats(s.to_numpy(dtype=np.float64, na_value=np.nan))
    return _text(s.tolist())


def _polars_column(s: Any) -> Any:
    import polars as pl

    dtype = s.dtype
    if dtype == pl.Categorical or isinstance(dtype, pl.Enum) or dtype == pl.Enum:
        codes = s.to_physical().cast(pl.Float64).to_numpy()
        return codes + 1.0
    if dtype == pl.Float64 and s.null_count() == 0:
        return _floats(s.to_numpy())
    if dtype.is_numeric() or dtype == pl.Boolean:
        return _floats(s.cast(pl.Float64).fill_null(float("nan")).to_numpy())
    return _text(s.cast(pl.Utf8).to_list())


def _columns(data: Any, kind: str, names: Optional[Sequence[str]]) -> tuple:
    if kind == "pandas":
        return [str(c) for c in data.columns], [_pandas_column(data.iloc[:, j]) for j in range(data.shape[1])]
    if kind == "polars":
        return list(data.columns), [_polars_column(data.get_column(c)) for c in data.columns]
    if kind == "numpy":
        if data.ndim != 2:
            raise UsageError(f"a {data.ndim}-D array: give a 2-D array (items × columns) with names=", 2)
        if names is None or len(names) != data.shape[1]:
            raise UsageError(
                f"a 2-D array of {data.shape[1]} columns needs names= with {data.shape[1]} column names", 2
            )
        if data.dtype.kind in "fiub":
            return [str(n) for n in names], [_floats(data[:, j]) for j in range(data.shape[1])]
        return [str(n) for n in names], [_text(data[:, j].tolist()) for j in range(data.shape[1])]
    cols = []
    for v in data.values():
        arr = np.asarray(v)
        cols.append(_floats(arr) if arr.dtype.kind in "fiub" else _text(list(v)))
    return [str(k) for k in data.keys()], cols


def _long_frame(data: Any, kind: str, long: Sequence[str]) -> Any:
    item, rater, score = (str(c) for c in long)
    if kind in ("pandas", "polars", "mapping"):
        have = [str(c) for c in (data.keys() if kind == "mapping" else data.columns)]
        for c in (item, rater, score):
            if c not in have:
                raise UsageError(f"long=: no column {c!r} (columns: {', '.join(have)})", 2)
    if kind == "pandas":
        col = lambda c: data[c]  # noqa: E731
        items, raters = _text(col(item).tolist()), _text(col(rater).tolist())
        scores = _pandas_column(col(score))
    elif kind == "polars":
        items = _text(data.get_column(item).cast(str).to_list())
        raters = _text(data.get_column(rater).cast(str).to_list())
        scores = _polars_column(data.get_column(score))
    elif kind == "mapping":
        items, raters = _text(list(data[item])), _text(list(data[rater]))
        scores = np.asarray(data[score])
    else:
        raise UsageError("long= reads a DataFrame or a mapping of columns (item, rater, score)", 2)
    if not isinstance(scores, np.ndarray):
        raise UsageError(f"long=: the score column {score!r} is not numeric", 2)
    return _rhoscope.long_panel((item, rater, score), items, raters, _floats(scores))


def prepare(data: Any, names: Optional[Sequence[str]] = None, long: Optional[Sequence[str]] = None) -> Prepared:
    """The panel for ``data``: an in-memory panel, or a path used as it is."""
    kind = _kind(data)
    long_flag = None
    if long is not None:
        long = [long] if isinstance(long, str) else list(long)
        if len(long) != 3:
            raise UsageError("long= names three columns: (item, rater, score)", 2)
        long_flag = tuple(str(c) for c in long)
    if kind == "path":
        return Prepared(os.fspath(data), None, long=long_flag)
    if long is not None:
        temp = _long_frame(data, kind, long)
    else:
        col_names, cols = _columns(data, kind, names)
        if not cols:
            raise UsageError("the data has no columns", 2)
        temp = _rhoscope.wide_panel(col_names, cols)
    return Prepared(temp.path, IN_MEMORY[kind], keep=temp, long=long_flag)
