"""Reading the results of ``hetlb campaign`` (the study's CSV files: one row per run, the parameters
then the metrics) with typed columns."""
from __future__ import annotations

import csv
import os
from typing import Any, Callable, Dict, List, Optional, Union


def _as_int(text: str) -> int:
    if text.strip() != text or not text.lstrip("-").isdigit():
        raise ValueError(text)
    return int(text)


def _as_bool(text: str) -> bool:
    if text in ("true", "false"):
        return text == "true"
    raise ValueError(text)


def _column_type(values: List[str]) -> Callable[[str], Any]:
    present = [v for v in values if v != ""]
    for convert in (_as_bool, _as_int, float):
        try:
            for v in present:
                convert(v)
        except ValueError:
            continue
        return convert
    return str


def _rows(path: str) -> tuple:
    try:
        with open(path, newline="", encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise ValueError(f"{path}: cannot read the results file: {e.strerror}") from None
    if text and not text.endswith("\n"):  # a row cut by a kill: dropped, as the campaign does
        text = text[: text.rfind("\n") + 1]
    lines = list(csv.reader(text.splitlines()))
    if not lines:
        raise ValueError(f"{path}: empty file: expected a header line of column names")
    header, body = lines[0], lines[1:]
    for number, row in enumerate(body, start=2):
        if len(row) != len(header):
            raise ValueError(f"{path}: line {number}: {len(row)} fields: expected {len(header)}, one per column")
    return header, body


def read_results(path: Union[str, "os.PathLike[str]"], *, as_dataframe: Optional[bool] = None):
    """The rows of a results CSV, columns typed: whole numbers as int, other numbers as float,
    true/false as bool, the rest as str; an empty cell is None (NaN / <NA> in pandas).

    Returns a pandas DataFrame when pandas is installed (``as_dataframe=None``), else a list of dicts;
    ``as_dataframe`` forces either. ValueError naming the file and line on a malformed file.
    """
    path = os.fspath(path)
    header, body = _rows(path)
    types = [_column_type([row[i] for row in body]) for i in range(len(header))]
    records: List[Dict[str, Any]] = [
        {name: (None if cell == "" else convert(cell)) for name, convert, cell in zip(header, types, row)}
        for row in body
    ]
    if as_dataframe is False:
        return records
    try:
        import pandas as pd
    except ImportError:
        if as_dataframe:
            raise
        return records
    frame = pd.DataFrame.from_records(records, columns=header)
    dtypes = {_as_int: "Int64", _as_bool: "boolean", float: "float64", str: "string"}
    return frame.astype({name: dtypes[convert] for name, convert in zip(header, types)})
