"""Tables printed into a pipe or a file come out whole: rich fits a table to 80 columns when
stdout is no terminal, and `compare` and `sweep` then printed `ad…`, `k-…` for their runs,
algorithms and figures."""

from __future__ import annotations

from helpers.cli import cli, fig2

CUT = "…"


def test_sweep_and_compare_print_every_name_whole_into_a_pipe(tmp_path) -> None:
    db = tmp_path / "w.duckdb"
    r = fig2("sweep", "-a", "aa,partition", "-k", "2,3", "--db", db)
    assert r.code == 0, r.stderr
    assert CUT not in r.stdout, r.stdout
    for name in ("run_partition_k3", "algorithm", "frequent_are_2", "promise_holds"):
        assert name in r.stdout, r.stdout
    c = fig2("anonymize", "-a", "aa", "-k", "2", "-m", "2", "--db", db, "--run", "a", "-q")
    assert c.code == 0, c.stderr
    r = cli("compare", "a", "run_partition_k3", "--db", db)
    assert r.code == 0, r.stderr
    assert CUT not in r.stdout and "run_partition_k3" in r.stdout, r.stdout
