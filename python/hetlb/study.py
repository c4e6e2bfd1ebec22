"""Reading the results of ``hetlb campaign`` (the study's CSV files: one row per run, the parameters
then the metrics) with typed columns."""
from __future__ import annotations

import csv
import os
import stat
from typing import Any, Callable, Dict, List, Optional, Union


def _as_int(text: str) -> int:
    if text.strip() != text or not text.lstrip("-").isdigit():
        raise ValueError(text)
    return int(text)


def _as_bool(text: str) -> bool:
    if text in ("true", "false"):
        return text == "true"
    raise ValueError(text)


def _as_flag(text: str) -> bool:
    """A boolean of the campaign: true/false (parameters) or 1/0 (metrics)."""
    if text in ("true", "1", "false", "0"):
        return text in ("true", "1")
    raise ValueError(text)


# The columns hetlb campaign writes, typed by what they mean, so that every results file gives the
# same types whatever values it holds (a ratio of 1 is still a float, converged 1/0 a bool): the key
# columns (src/campaign/spec.cpp), the metrics (src/campaign/results_file.cpp) and the --ranks files.
_KNOWN: Dict[str, Callable[[str], Any]] = {
    **dict.fromkeys(["spec_version", "mode", "strategy", "estimates", "platform", "topology", "initial", "status",
                     "error", "configuration", "variant", "params", "build"], str),
    **dict.fromkeys(["k", "ratio", "load_per_node", "time_limit", "min_comp_iter", "min_lb_iter", "avg_idle_time",
                     "avg_convergence_date", "max_convergence_date", "data_transfer_amount", "computed_load",
                     "load_spread_percent", "simulated_time", "tau", "wall_seconds"], float),
    **dict.fromkeys(["nodes", "seed", "iterations", "converged_nodes", "ctrl_messages", "data_messages", "rank"],
                    _as_int),
    **dict.fromkeys(["virtual_load", "integer", "converged", "streaks_computed"], _as_flag),
}
# Columns a campaign adds per spec, by prefix: a strategy's parameter as run (param_NAME) and the
# imbalance over time (load_imbalance_at_D, ..._integral) are numbers, float whatever the values (a
# parameter or an imbalance of 1 is still a float).
_KNOWN_PREFIXES = ("param_", "load_imbalance_", "time_imbalance_")


def _known_type(name: str) -> Optional[Callable[[str], Any]]:
    if name in _KNOWN:
        return _KNOWN[name]
    return float if name.startswith(_KNOWN_PREFIXES) else None


_EXPECTED = {str: "text", float: "a number", _as_int: "a whole number", _as_flag: "true, false, 1 or 0"}


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


# The most a results file may hold (as every input of the command line, docs/limits.md).
_MAX_RESULTS_BYTES = 1 << 30


def _rows(path: str) -> tuple:
    """Header and rows of a results CSV: a regular file of UTF-8 text (a named pipe, a device, a binary
    file, a field past csv's limit: one ValueError naming the file, never a hang or a bare error)."""
    if "\0" in path:
        raise ValueError(f"{path!r}: a path with a NUL byte: expected a file name")
    try:
        st = os.stat(path)
    except OSError as e:
        raise ValueError(f"{path}: cannot read the results file: {e.strerror}") from None
    if stat.S_ISDIR(st.st_mode):
        raise ValueError(f"{path}: cannot read the results file: is a directory")
    if not stat.S_ISREG(st.st_mode):  # /dev/zero never ends, a named pipe waits for a writer
        raise ValueError(f"{path}: cannot read the results file: is not a regular file")
    try:
        with open(path, "rb") as f:
            data = f.read(_MAX_RESULTS_BYTES + 1)
    except OSError as e:
        raise ValueError(f"{path}: cannot read the results file: {e.strerror}") from None
    if len(data) > _MAX_RESULTS_BYTES:
        raise ValueError(f"{path}: larger than {_MAX_RESULTS_BYTES} bytes: expected a results file of at most "
                         f"{_MAX_RESULTS_BYTES} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"{path}: byte {e.start}: not UTF-8 text: expected the CSV of hetlb campaign") from None
    if text and not text.endswith("\n"):  # a row cut by a kill: dropped, as the campaign does
        text = text[: text.rfind("\n") + 1]
    reader = csv.reader(text.splitlines())
    try:
        lines = list(reader)
    except csv.Error as e:
        raise ValueError(f"{path}: line {reader.line_num}: {e}: expected the CSV of hetlb campaign") from None
    if not lines:
        raise ValueError(f"{path}: empty file: expected a header line of column names")
    header, body = lines[0], lines[1:]
    for number, row in enumerate(body, start=2):
        if len(row) != len(header):
            raise ValueError(f"{path}: line {number}: {len(row)} fields: expected {len(header)}, one per column")
    return header, body


def read_results(path: Union[str, "os.PathLike[str]"], *, as_dataframe: Optional[bool] = None):
    """The rows of a results CSV, columns typed: the columns of ``hetlb campaign`` (its parameters,
    metrics and ``--ranks`` files) by what they mean (k, ratio, dates, ``param_NAME`` and the imbalance
    columns: float; nodes, seed, message counts: int; virtual_load, converged: bool), the others by their values (whole numbers as int,
    other numbers as float, true/false as bool, the rest as str); an empty cell is None (NaN / <NA> in
    pandas).

    Returns a pandas DataFrame when pandas is installed (``as_dataframe=None``), else a list of dicts;
    ``as_dataframe`` forces either. ValueError naming the file, line (and column) on a malformed file.
    """
    path = os.fspath(path)
    header, body = _rows(path)
    types = [_known_type(name) or _column_type([row[i] for row in body]) for i, name in enumerate(header)]
    records: List[Dict[str, Any]] = []
    for number, row in enumerate(body, start=2):
        record: Dict[str, Any] = {}
        for name, convert, cell in zip(header, types, row):
            try:
                record[name] = None if cell == "" else convert(cell)
            except ValueError:
                raise ValueError(f"{path}: line {number}: column {name}: {cell!r}: expected {_EXPECTED[convert]}") \
                    from None
        records.append(record)
    if as_dataframe is False:
        return records
    try:
        import pandas as pd
    except ImportError:
        if as_dataframe:
            raise
        return records
    frame = pd.DataFrame.from_records(records, columns=header)
    dtypes = {_as_int: "Int64", _as_bool: "boolean", _as_flag: "boolean", float: "float64", str: "string"}
    return frame.astype({name: dtypes[convert] for name, convert in zip(header, types)})
