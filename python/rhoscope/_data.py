"""Turns what the user hands over (a pandas or polars frame, a 2-D array with names, a
mapping of columns, or a path) into a panel for the library's own loader, so roles,
missing values and the ordinal rule are the command line's. An in-memory panel is
registered with the library under a path of its own: float64 columns are read where they
lie (no copy, no text), other columns are converted once (numbers to float64, the rest to
text cells)."""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from . import _rhoscope
from ._checks import collected, items
from ._errors import InputError, UsageError

#: How an in-memory panel is named in results and messages.
IN_MEMORY = {"pandas": "<DataFrame>", "polars": "<DataFrame>", "numpy": "<array>", "mapping": "<columns>"}


class Prepared:
    """A panel ready for the library's loader: its path, the name shown for it, the long
    layout's three columns, the in-memory panel's registration (kept alive while it is
    used), a better line for an error on some columns, and a labelled index's labels."""

    def __init__(
        self,
        path: str,
        shown: str | None,
        keep: Any = None,
        long: tuple | None = None,
        hints: dict[str, Any] | None = None,
        labels: Sequence[Any] | None = None,
    ):
        self.path = path
        self.shown = shown
        self.keep = keep
        self.long = long
        self.hints = hints or {}
        self.labels = labels

    def message(self, text: str) -> str:
        """A library message in the data's own terms: the in-memory panel's path replaced by
        the shown name, a row of a labelled index named by its label, and an unusable
        column's refusal with its fix."""
        # The numbers the user gave, as the list they typed: `judges=[1, 2]`, not `judges= 1,2`.
        text = re.sub(
            r"\b(judges|anchors|set_aside|id|designated_clean)= (-?\d+(?:,-?\d+)*) picks",
            lambda m: f"{m.group(1)}={m.group(2)} picks"
            if m.group(1) in ("id", "designated_clean")
            else f"{m.group(1)}=[{', '.join(m.group(2).split(','))}] picks",
            text,
        )
        bad = re.search(r"column '((?:[^']|'')*)': not a number", text)
        if bad and isinstance(self.hints.get(bad.group(1)), str):
            return self.hints[bad.group(1)]
        # The library's refusal of an undeclared order, in the frame library's own terms.
        order = re.search(
            r"column '((?:[^']|'')*)' is a categorical whose order was never declared(, and .* takes it(?: by default)?): "
            r"declare its order \(an ordered categorical, lowest first\) or give its labels as numbers",
            text,
        )
        if order and isinstance(self.hints.get(order.group(1)), tuple):
            what, fix = self.hints[order.group(1)]
            name = order.group(1)
            text = text[: order.start()] + f"column {name!r} is {what}{order.group(2)}: {fix}" + text[order.end() :]
        if self.shown:
            text = text.replace(self.path, self.shown)
            # An in-memory panel is no file.
            text = text.replace("no data rows (the file has a header only)", "no rows").replace("; the file has ", "; the data has ")
            # A note's place (the first item dropped) counts rows from 0 too.
            text = re.sub(rf"{re.escape(self.shown)}: row (\d+)", rf"{self.shown}: row index \1", text)
        labels = self.labels
        if labels is not None:
            text = re.sub(
                r"row index (\d+)",
                lambda m: f"row {labels[int(m.group(1))]!r}" if int(m.group(1)) < len(labels) else m.group(0),
                text,
            )
        return text

    def document(self, text: str) -> str:
        """A command's JSON text with its own notes worded as :meth:`message` words the
        library's, each note's JSON string replaced in place so the rest stays byte for byte."""
        notes = json.loads(text).get("notes")
        for note in notes if isinstance(notes, list) else []:
            worded = self.message(note) if isinstance(note, str) else note
            if worded != note:
                text = text.replace(json.dumps(note, ensure_ascii=False), json.dumps(worded, ensure_ascii=False))
        return text


def _kind(data: Any) -> str:
    mod = type(data).__module__.split(".")[0]
    if mod == "pandas" and hasattr(data, "columns"):
        if getattr(data.columns, "nlevels", 1) > 1:
            raise InputError(
                "data= has MultiIndex columns: give one name per column "
                "(e.g. df.columns = ['_'.join(map(str, c)) for c in df.columns])",
                65,
            )
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
        f"data= is a {type(data).__name__}: give a pandas or polars DataFrame, a 2-D numpy "
        "array with names=, a mapping of columns, or a path",
        2,
    )


class _Unordered(list):
    """A categorical's labels whose order was never declared: handed to the library as such
    (typed, no mark in its cells), which refuses the column where a role reads its scores
    and reads it as it is (an id) otherwise."""


def _undeclared(name: str, labels: list, how: str, hints: dict[str, Any]) -> _Unordered:
    """A categorical whose order was never declared: its cells, typed so the library refuses
    them where a role uses the column; `hints` gets what it is and its two fixes, in the
    frame library's own code."""
    cells = _text(labels)
    numeric = all(c is None or _is_number(c) for c in cells)
    if how == "pandas":
        what, declare = "an unordered pandas categorical", f"pd.Categorical(df[{name!r}], categories=[...], ordered=True)"
        numbers = f"df[{name!r}].astype(float)" if numeric else "map its labels to numbers"
    else:
        what, declare = "a polars Categorical (ordered by first appearance)", f"df.with_columns(pl.col({name!r}).cast(pl.Enum([...])))"
        numbers = (
            f"df.with_columns(pl.col({name!r}).cast(pl.Utf8).cast(pl.Float64))" if numeric else "map its labels to numbers"
        )
    hints[name] = (what, f"declare its order, lowest first, {declare}, or read it as numbers, {numbers}")
    return _Unordered(cells)


def _words(name: str, cells: list, how: str, hints: dict[str, Any]) -> list:
    """Text cells; a column of labels (no cell a number, even written with a decimal comma or
    a percent sign) gets the refusal that names the fix; numbers written otherwise keep the
    library's own refusal, which names the first cell, its row and its value."""
    if not any(c is not None and _is_number(c.replace(",", ".").rstrip("% ")) for c in cells):
        fix = (
            f"pd.Categorical(df[{name!r}], categories=[...], ordered=True)"
            if how == "pandas"
            else f"df.with_columns(pl.col({name!r}).cast(pl.Enum([...])))"
        )
        hints[name] = (
            f"data=: column {name!r} holds text, whose order rhoscope cannot know; give numeric codes, "
            f"or declare the order, lowest first: {fix}"
        )
    return cells


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def _missing(v: Any) -> bool:
    """None, NaN, pandas' NA and NaT: a missing cell."""
    return v is None or (isinstance(v, float) and math.isnan(v)) or type(v).__name__ in ("NAType", "NaTType")


def _missing_text(cell: str | None) -> bool:
    """A text cell the loader reads as missing: empty, NA, NaN or null, in any case."""
    return cell is None or cell.strip().lower() in ("", "na", "nan", "null", "+nan", "-nan")


def _floats(values: Any) -> np.ndarray:
    """float64, contiguous; a float64 column that already is passes without a copy."""
    return np.ascontiguousarray(values, dtype=np.float64)


#: The largest magnitude every integer up to which a double holds exactly.
_EXACT = 2**53


def _whole(values: Any, low: Any, high: Any) -> Any:
    """An integer column as float64 when its extremes fit a double exactly; otherwise its
    values as text, so the loader refuses an integer beyond 2^53 with the command line's
    own check (row, column, value), not rounded in silence. `values` is a thunk."""
    if low is not None and high is not None and -_EXACT <= int(low) and int(high) <= _EXACT:
        return None
    return _text(values())


def _decimals(name: str, values: list) -> Any:
    """Decimals read as the loader reads the same digits in a file (and as pandas' Decimal
    objects are read): each to its nearest double; a whole number beyond 2^53, which a
    double cannot hold, goes as text, refused where it is used as an integer is."""
    out = np.full(len(values), np.nan)
    text = False
    for i, d in enumerate(values):
        if d is None or d.is_nan():
            continue
        out[i] = float(d)
        if d == d.to_integral_value() and abs(d) > _EXACT:
            text = True
    if text:
        return [None if d is None or d.is_nan() else (str(int(d)) if d == d.to_integral_value() else repr(float(d))) for d in values]
    return out


def _unmasked(arr: Any) -> np.ndarray:
    """A numpy masked array as a plain one whose masked cells are missing (NaN, or None in
    an object array: integers stay exact), as `pd.DataFrame(masked)` reads it."""
    if arr.dtype.kind in "fb":
        return np.ma.filled(arr.astype(np.float64), np.nan)
    # Not `filled(…, None)`: None there means the array's own fill value ('?' for objects).
    out = np.ma.getdata(arr).astype(object)
    out[np.ma.getmaskarray(arr)] = None
    return out


def _inexact(x: Any) -> bool:
    """A Python or numpy integer a double cannot hold."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool) and abs(int(x)) > _EXACT


def _numbers(arr: np.ndarray) -> Any:
    """A 1-D numeric numpy column as float64, or as text when its integers exceed 2^53."""
    if arr.dtype.kind in "iu" and arr.size:
        big = _whole(arr.tolist, arr.min(), arr.max())
        if big is not None:
            return big
    return _floats(arr)


def _text(values: Sequence[Any]) -> list:
    out: list[str | None] = []
    for v in values:
        if _missing(v):
            out.append(None)
        else:
            out.append(str(v))
    return out


def _pandas_column(s: Any, hints: dict[str, Any]) -> Any:
    """A pandas column as float64 or text cells; a categorical is its values (numeric
    categories) or its declared order (an ordered one), never an order of its labels."""
    import pandas as pd

    dtype = s.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        # One rule for every label type: a declared order is read as codes in that order
        # (numeric categories too: [5, 4, 3, 2, 1] reverses), an undeclared one is refused.
        if not dtype.ordered:
            return _undeclared(str(s.name), s.astype(object).tolist(), "pandas", hints)
        codes = s.cat.codes.to_numpy()
        return np.where(codes < 0, np.nan, codes + 1.0)
    if dtype == np.float64:
        return _floats(s.to_numpy())
    if isinstance(dtype, (pd.PeriodDtype, pd.IntervalDtype)):
        what = "periods (spans of time)" if isinstance(dtype, pd.PeriodDtype) else "intervals"
        raise InputError(f"data=: column {str(s.name)!r} holds {what}, not scores: give numbers", 65)
    if dtype.kind in "mM":
        what = "durations" if dtype.kind == "m" else "dates"
        raise InputError(f"data=: column {str(s.name)!r} holds {what}, not scores: give numbers", 65)
    if pd.api.types.is_complex_dtype(dtype):
        # Cast to float64, numpy would drop the imaginary parts in silence.
        raise InputError(f"data=: column {str(s.name)!r} holds complex numbers: give real scores", 65)
    if dtype.kind in "iu" and s.notna().any():
        big = _whole(s.tolist, s.min(), s.max())
        if big is not None:
            return big
    if pd.api.types.is_bool_dtype(dtype) or pd.api.types.is_numeric_dtype(dtype):
        return _floats(s.to_numpy(dtype=np.float64, na_value=np.nan))
    cells = s.tolist()
    if cells and all(_missing(v) or isinstance(v, (bool, np.bool_)) for v in cells):
        # An object column of True/False is read as a bool column is: 0/1.
        return np.array([np.nan if _missing(v) else float(v) for v in cells])
    return _words(str(s.name), _text(cells), "pandas", hints)


def _polars_column(s: Any, hints: dict[str, Any]) -> Any:
    """A polars column as float64 or text cells; an `Enum` is its declared order, a
    `Categorical` (ordered by first appearance) is refused."""
    import polars as pl

    dtype = s.dtype
    if isinstance(dtype, pl.Enum) or dtype == pl.Enum:
        return _floats(s.to_physical().cast(pl.Float64).fill_null(float("nan")).to_numpy() + 1.0)
    if dtype == pl.Categorical:
        return _undeclared(s.name, s.cast(pl.Utf8).to_list(), "polars", hints)
    if dtype.is_temporal():
        what = "durations" if dtype == pl.Duration else "dates or times"
        raise InputError(f"data=: column {s.name!r} holds {what}, not scores: give numbers", 65)
    if dtype == pl.Float64 and s.null_count() == 0:
        return _floats(s.to_numpy())
    if dtype.is_integer() and s.null_count() < len(s):
        big = _whole(s.to_list, s.min(), s.max())
        if big is not None:
            return big
    if dtype == pl.Decimal:
        return _decimals(s.name, s.to_list())
    if dtype.is_numeric() or dtype == pl.Boolean:
        return _floats(s.cast(pl.Float64).fill_null(float("nan")).to_numpy())
    if dtype.is_nested() or dtype == pl.Object:
        # Lists, arrays and structs are no scores; as text, the loader refuses them if used.
        return _text([None if v is None else str(v) for v in s.to_list()])
    return _words(s.name, _text(s.cast(pl.Utf8).to_list()), "polars", hints)


def _columns(data: Any, kind: str, names: Sequence[str] | None, hints: dict[str, Any]) -> tuple:
    if kind == "pandas":
        return [str(c) for c in data.columns], [_pandas_column(data.iloc[:, j], hints) for j in range(data.shape[1])]
    if kind == "polars":
        return list(data.columns), [_polars_column(data.get_column(c), hints) for c in data.columns]
    if kind == "numpy":
        if data.ndim != 2:
            raise UsageError(f"data= is a {data.ndim}-D array: give a 2-D array (items × columns) with names=", 2)
        if names is None or len(names) != data.shape[1]:
            given = "none" if names is None else str(len(names))
            raise UsageError(
                f"names=: a 2-D array of {data.shape[1]} columns needs {data.shape[1]} column names ({given} given)", 2
            )
        if data.dtype.kind in "fiub":
            return names, [_numbers(data[:, j]) for j in range(data.shape[1])]
        return names, [_text(data[:, j].tolist()) for j in range(data.shape[1])]
    keys = [str(k) for k in data.keys()]
    _same_index(keys, list(data.values()))
    return keys, [_mapped(k, v, hints) for k, v in zip(keys, data.values())]


def _same_index(keys: list[str], values: list[Any]) -> None:
    """A mapping is read row by row by position: pandas Series whose indexes differ would be
    paired by place, not by label, so they are refused with the way to align them."""
    first: Any = None
    for k, v in zip(keys, values):
        if type(v).__module__.split(".")[0] != "pandas" or type(v).__name__ != "Series":
            continue
        if first is None:
            first = (k, v.index)
        elif not v.index.equals(first[1]):
            raise InputError(
                f"data=: the Series {first[0]!r} and {k!r} have different indexes, and a mapping "
                "is read by position, which would pair other rows: align them first, e.g. "
                "pd.DataFrame(data) or s.reindex(...)",
                65,
            )


def _mapped(name: str, v: Any, hints: dict[str, Any]) -> Any:
    """One column of a mapping: a pandas or polars Series read as in a frame (a categorical
    in its declared order), anything else as a 1-D sequence of values."""
    v = collected("data", v)
    if isinstance(v, Iterator):
        # A generator (or any one-pass iterator) is its values, read once.
        v = list(v)
    if np.ma.isMaskedArray(v):
        v = _unmasked(v)
    mod = type(v).__module__.split(".")[0]
    if mod == "pandas" and hasattr(v, "dtype"):
        # A Series, an Index or an array of any dtype (categorical, period, …): read as in a frame.
        import pandas as pd

        return _pandas_column(pd.Series(v, name=name).reset_index(drop=True), hints)
    if mod == "polars" and type(v).__name__ == "Series":
        return _polars_column(v.alias(name), hints)
    try:
        arr = np.asarray(v)
    except Exception:
        arr = np.asarray(list(v), dtype=object)
    if arr.ndim != 1:
        what = "one value" if arr.ndim == 0 else f"a {arr.ndim}-D array"
        raise InputError(f"data=: column {name!r} is {what}: give each column as a 1-D sequence of scores", 65)
    if arr.dtype.kind == "f" and not isinstance(v, np.ndarray) and any(_inexact(x) for x in v):
        # A list of ints and floats becomes float64 in numpy, its large ints rounded: as text,
        # the loader checks each as a file's cell.
        return _text(list(v))
    if arr.dtype.kind in "fiub":
        return _numbers(arr)
    if arr.dtype.kind in "mM":
        raise InputError(f"data=: column {name!r} holds dates or durations, not scores: give numbers", 65)
    return _words(name, _text(arr.tolist()), "pandas", hints)


def _long_frame(data: Any, kind: str, long: Sequence[str], hints: dict[str, Any]) -> Any:
    item, rater, score = (str(c) for c in long)
    if kind in ("pandas", "polars", "mapping"):
        have = [str(c) for c in (data.keys() if kind == "mapping" else data.columns)]
        for c in (item, rater, score):
            if c not in have:
                raise UsageError(f"long=: no column {c!r} (columns: {', '.join(have)})", 2)
    if kind == "pandas":
        items, raters = _text(data[item].tolist()), _text(data[rater].tolist())
        scores = _pandas_column(data[score], hints)
    elif kind == "polars":
        items = _text(data.get_column(item).cast(str).to_list())
        raters = _text(data.get_column(rater).cast(str).to_list())
        scores = _polars_column(data.get_column(score), hints)
    elif kind == "mapping":
        items, raters = _text(list(data[item])), _text(list(data[rater]))
        # Read as a wide column is: a Series (a categorical in its declared order) or values.
        scores = _mapped(score, data[score], hints)
    else:
        raise UsageError("long= reads a DataFrame or a mapping of columns (item, rater, score)", 2)
    if isinstance(scores, np.ndarray):
        if scores.dtype.kind not in "fiub":
            raise InputError(f"long=: the score column {score!r} is not numeric", 65)
        return _rhoscope.long_panel((item, rater, score), items, raters, _floats(scores))
    if isinstance(scores, _Unordered):
        return _rhoscope.long_panel((item, rater, score), items, raters, scores, True)
    if score not in hints and not all(_missing_text(v) or _is_number(v) for v in scores):
        hints[score] = f"long=: the score column {score!r} is not numeric"
    if score in hints:
        raise InputError(hints[score], 65)
    # Text numbers ("0.25", or integers beyond 2^53) go to the loader as text, which reads
    # them as a file's cells are read, with the same checks.
    return _rhoscope.long_panel((item, rater, score), items, raters, scores)


def _labels(data: Any, kind: str) -> list | None:
    """A pandas frame's index labels, unless it is the default 0, 1, 2, …"""
    if kind != "pandas":
        return None
    index = data.index
    if type(index).__name__ == "RangeIndex" and index.start == 0 and index.step == 1:
        return None
    return list(index)


def _name(n: Any) -> str:
    """One of `names=`: a column name, or a whole number written as one."""
    if isinstance(n, bool) or not isinstance(n, (str, int, np.integer)):
        raise UsageError(f"names= takes column names (str), not {n!r}", 2)
    return n if isinstance(n, str) else str(int(n))


def prepare(data: Any, names: Sequence[str] | None = None, long: Sequence[str] | None = None) -> Prepared:
    """The panel for ``data``: an in-memory panel, or a path used as it is. A polars
    LazyFrame is collected first."""
    data = collected("data", data)
    if np.ma.isMaskedArray(data):
        data = _unmasked(data)
    kind = _kind(data)
    if names is not None and kind != "numpy":
        raise UsageError("names= names a 2-D numpy array's columns; this data= has its own", 2)
    if names is not None:
        # Read once: a generator gives its names a single time.
        names = [_name(n) for n in items("names", names)]
    long_flag = None
    if long is not None:
        long = [long] if isinstance(long, str) else list(long) if isinstance(long, Iterable) else []
        if len(long) != 3 or not all(isinstance(c, str) for c in long):
            raise UsageError("long= names three columns: (item, rater, score)", 2)
        long_flag = tuple(long)
    if kind == "path":
        return Prepared(os.fspath(data), None, long=long_flag)
    hints: dict[str, Any] = {}
    if long is not None:
        temp = _long_frame(data, kind, long, hints)
    else:
        col_names, cols = _columns(data, kind, names, hints)
        if not cols:
            raise InputError("data= has no columns", 65)
        lengths = {len(c) for c in cols}
        if len(lengths) > 1:
            shown = ", ".join(f"{n!r}: {len(c)}" for n, c in zip(col_names, cols))
            raise InputError(f"data=: the columns differ in length ({shown})", 65)
        unordered = [j for j, c in enumerate(cols) if isinstance(c, _Unordered)]
        temp = _rhoscope.wide_panel(col_names, cols, unordered)
    return Prepared(temp.path, IN_MEMORY[kind], keep=temp, long=long_flag, hints=hints, labels=_labels(data, kind))
