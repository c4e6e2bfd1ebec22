"""hetlb.study.read_results: typed columns, pandas when installed, a list of dicts otherwise."""
import pytest

from hetlb import study

CSV = """spec_version,mode,strategy,k,virtual_load,ratio,seed,status,converged,avg_convergence_date,wall_seconds,error
study-1,short,besteffort,1,false,10,1,ok,1,52.5,0.069,
study-1,short,simple,2,true,0.1,2,timeout,0,,0.5,too long
study-1,short,simple,2,true,0.1,3,ok,1,7,0.5,
"""


def write(tmp_path, text):
    f = tmp_path / "results.csv"
    f.write_text(text)
    return f


def test_typed_rows(tmp_path):
    rows = study.read_results(write(tmp_path, CSV), as_dataframe=False)
    assert len(rows) == 3
    r = rows[1]
    assert r["k"] == 2 and type(r["k"]) is float and type(r["seed"]) is int
    assert r["virtual_load"] is True and rows[0]["virtual_load"] is False
    assert r["converged"] is False and rows[0]["converged"] is True  # the campaign writes 1/0
    assert r["ratio"] == 0.1 and type(rows[0]["ratio"]) is float
    assert r["avg_convergence_date"] is None and rows[2]["avg_convergence_date"] == 7.0
    assert r["status"] == "timeout" and r["error"] == "too long" and rows[0]["error"] is None


def test_the_campaign_columns_have_one_type_whatever_their_values(tmp_path):
    whole = CSV.replace(",10,1,ok,", ",1,1,ok,").replace(",0.1,", ",1,")  # every ratio a whole number
    rows = study.read_results(write(tmp_path, whole), as_dataframe=False)
    assert [type(r["ratio"]) for r in rows] == [float] * 3 and [type(r["k"]) for r in rows] == [float] * 3


def test_parameter_and_imbalance_columns_are_numbers_whatever_their_values(tmp_path):
    added = "param_alpha,param_residue_equal,load_imbalance_at_0,time_imbalance_integral"
    text = "".join(line + "," + (added if i == 0 else "1,0,4," if i == 1 else ",1,16,2.5") + "\n"
                   for i, line in enumerate(CSV.splitlines()))
    rows = study.read_results(write(tmp_path, text), as_dataframe=False)
    assert [r["param_alpha"] for r in rows] == [1.0, None, None] and type(rows[0]["param_alpha"]) is float
    assert [type(r["param_residue_equal"]) for r in rows] == [float] * 3
    assert [type(r["load_imbalance_at_0"]) for r in rows] == [float] * 3
    assert rows[2]["time_imbalance_integral"] == 2.5 and rows[0]["time_imbalance_integral"] is None


def test_other_columns_are_typed_by_their_values(tmp_path):
    extra = "".join(line + ("," + ("count" if i == 0 else str(i)) + "\n") for i, line in enumerate(CSV.splitlines()))
    rows = study.read_results(write(tmp_path, extra), as_dataframe=False)
    assert [r["count"] for r in rows] == [1, 2, 3] and type(rows[0]["count"]) is int


def test_a_bad_cell_of_a_campaign_column(tmp_path):
    with pytest.raises(ValueError, match=r"results.csv: line 3: column seed: 'two': expected a whole number"):
        study.read_results(write(tmp_path, CSV.replace(",0.1,2,", ",0.1,two,")), as_dataframe=False)


def test_a_row_cut_by_a_kill_is_dropped(tmp_path):
    rows = study.read_results(write(tmp_path, CSV + "study-1,short,sim"), as_dataframe=False)
    assert len(rows) == 3


def test_malformed_file(tmp_path):
    with pytest.raises(ValueError, match=r"results.csv: line 3: 2 fields: expected 12"):
        study.read_results(write(tmp_path, CSV.splitlines()[0] + "\n" + CSV.splitlines()[1] + "\na,b\n"))
    with pytest.raises(ValueError, match="cannot read the results file"):
        study.read_results(tmp_path / "missing.csv")


def test_dataframe(tmp_path):
    pd = pytest.importorskip("pandas")
    df = study.read_results(write(tmp_path, CSV))
    assert isinstance(df, pd.DataFrame) and len(df) == 3
    assert str(df["k"].dtype) == "float64" and str(df["seed"].dtype) == "Int64"
    assert str(df["converged"].dtype) == "boolean" and str(df["ratio"].dtype) == "float64"
    assert df["avg_convergence_date"].isna().tolist() == [False, True, False]


def test_without_pandas_a_list(tmp_path, monkeypatch):
    import builtins
    real = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name == "pandas":
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pandas)
    assert isinstance(study.read_results(write(tmp_path, CSV)), list)


def test_files_that_are_not_results_are_refused_in_one_error(tmp_path):
    # A device, a named pipe (it would wait for a writer), a binary or Latin-1 file, a field past csv's
    # limit, a NUL byte in the path: one ValueError naming the file.
    import os
    with pytest.raises(ValueError, match="/dev/zero: cannot read the results file: is not a regular file"):
        study.read_results("/dev/zero")
    fifo = tmp_path / "fifo.csv"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="is not a regular file"):
        study.read_results(fifo)
    with pytest.raises(ValueError, match="is a directory"):
        study.read_results(tmp_path)
    latin1 = tmp_path / "latin1.csv"
    latin1.write_bytes("nodes,ville\n16,Besan\xe7on\n".encode("latin-1"))
    with pytest.raises(ValueError, match=r"latin1.csv: byte 20: not UTF-8 text"):
        study.read_results(latin1)
    wide = tmp_path / "wide.csv"
    wide.write_text('a,b\n1,"' + "x" * 200000 + '"\n')
    with pytest.raises(ValueError, match=r"wide.csv: line \d+: .*expected the CSV of hetlb campaign"):
        study.read_results(wide)
    with pytest.raises(ValueError, match="a path with a NUL byte"):
        study.read_results(str(tmp_path / "a.csv") + "\0/etc/shadow")


def test_import_hetlb_gives_the_study_module():
    import hetlb
    assert hetlb.study.read_results is study.read_results
