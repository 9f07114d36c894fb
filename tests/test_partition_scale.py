"""Partition's lean bookkeeping for large data (issue 15): a transaction leaves the frontier
once, into `partition_done`, instead of a log of every move; and DuckDB's default limits."""

from __future__ import annotations

import pytest
from helpers.knobs import tail_rows
from helpers.stores import make_store
from helpers.strategies import databases
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from setanon_sql import Params, anonymize
from setanon_sql.engine.duckdb import Executor
from setanon_sql.engine.limits import default_memory_limit, mib, spill_cap


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    db=databases(max_leaves=12, max_tx=30, max_len=5),
    k=st.integers(1, 4),
    leftover=st.sampled_from(["split", "final"]),
    pick=st.sampled_from(["realized", "nominal"]),
)
def test_retired_partition_is_the_last_move(db, k, leftover, pick):
    # Kept tables make the SQL rounds log every move (ids grow level by level), so the last
    # move of each transaction is its partition, as the old partition_of took it; the
    # partitions retired into partition_done must say the same, and the release verify.
    txs, edges = db
    assume(len(txs) >= k)
    store = make_store(txs, edges)
    options = {"leftover": leftover, "gain": "ncp", "pick": pick}
    result = anonymize(
        store, Params(algorithm="partition", k=k, options=options, keep_intermediate=True)
    )
    assert result.report.ok
    with store.in_run(result.run):
        by_moves = dict(
            store.query(
                "SELECT t.tid, coalesce(max(m.pid), 0) FROM tids t "
                "LEFT JOIN partition_moves m ON m.tid = t.tid GROUP BY t.tid"
            )
        )
        of = dict(store.query("SELECT tid, pid FROM partition_of"))
        done = store.query("SELECT tid, count(*) FROM partition_done GROUP BY tid")
    assert of == by_moves
    assert all(n == 1 for _, n in done)  # each transaction leaves the frontier once
    store.close()


def test_default_limits_are_a_share_of_the_machine(tmp_path):
    assert default_memory_limit(16 * 2**30) == "8192MiB"
    assert default_memory_limit(2**20) == "1024MiB"  # never below 1 GiB
    assert spill_cap(tmp_path, free=8 * 2**30) == "4096MiB"
    assert mib(3 * 2**20 + 5) == "3MiB"
    ex = Executor(temp_dir=tmp_path)
    settings_now = dict(
        ex.query(
            "SELECT name, value FROM duckdb_settings() "
            "WHERE name IN ('memory_limit', 'max_temp_directory_size')"
        )
    )
    ex.close()
    assert set(settings_now) == {"memory_limit", "max_temp_directory_size"}
    assert all(v not in ("", "0 bytes") for v in settings_now.values())


def test_a_given_memory_limit_is_kept(tmp_path):
    ex = Executor(memory_limit="512MB", temp_dir=tmp_path)
    limit = ex.scalar("SELECT current_setting('memory_limit')")
    ex.close()
    assert limit == "488.2 MiB"


@pytest.mark.parametrize("rows", [0, 4000])
def test_tiny_frontier_retires_everyone(rows):
    # Every transaction ends in some partition whichever way the rounds end (SQL or Python).
    store = make_store([["a1"], ["a1"], ["a2"], ["a2"], ["b1"]], [
        ("a1", "A"), ("a2", "A"), ("b1", "B"), ("A", "ALL"), ("B", "ALL")
    ])  # fmt: skip
    with tail_rows(rows):
        result = anonymize(store, Params(algorithm="partition", k=2))
    assert result.report.ok
    with store.in_run(result.run):
        assert store.scalar("SELECT count(*) FROM partition_of") == 5
        assert store.scalar("SELECT count(DISTINCT pid) FROM partition_of") >= 2
    store.close()
