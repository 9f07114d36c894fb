"""Partition's rounds and LGR's tree walk in Python (algorithms/partition_tail.py,
lgr_tail.py) must make exactly the release the SQL makes, whenever the hand-over happens; and
both pass the verifier."""

from __future__ import annotations

from helpers.knobs import tail_rows
from helpers.stores import make_store, release_of
from helpers.strategies import databases
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from setanon_sql import Params, anonymize


def assert_same_both_ways(store, algorithm: str, k: int, options: dict, hand_over: int) -> None:
    """The run with SQL rounds only and the run with Python taking over at `hand_over`
    buckets: both verified, with the same release and the same search figures."""
    out = []
    for rows in (0, hand_over):
        with tail_rows(rows):
            result = anonymize(store, Params(algorithm=algorithm, k=k, options=options))
        assert result.report.ok
        out.append((release_of(store, result.run), result.info))
    (sql_release, sql_info), (tail_release, tail_info) = out
    assert tail_release == sql_release
    figures = ("levels", "partitions_made", "classes", "moved", "new_classes")
    assert [sql_info.get(f) for f in figures] == [tail_info.get(f) for f in figures]


def wide_store(picks: list[set[int]]):
    """Transactions over 80 leaves, 70 of them and a group G of 10 directly under the root:
    the root's children of rank >= 64 have no bit and go to the wide list."""
    tree = [(f"i{j}", "ALL") for j in range(70)] + [(f"i{j}", "G") for j in range(70, 80)]
    tree.append(("G", "ALL"))
    return make_store([sorted(f"i{j}" for j in items) for items in picks], tree)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    db=databases(max_leaves=12, max_tx=30, max_len=5),
    k=st.integers(1, 4),
    algorithm=st.sampled_from(["partition", "lgr"]),
    leftover=st.sampled_from(["split", "final"]),
    gain=st.sampled_from(["drop", "ncp"]),
    pick=st.sampled_from(["realized", "nominal"]),
    hand_over=st.integers(1, 60),
)
def test_python_rounds_release_what_sql_rounds_release(
    db, k, algorithm, leftover, gain, pick, hand_over
):
    txs, edges = db
    assume(len(txs) >= k)
    store = make_store(txs, edges)
    options = {"leftover": leftover, "gain": gain, "pick": pick}
    assert_same_both_ways(store, algorithm, k, options, hand_over)
    store.close()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    picks=st.lists(st.sets(st.integers(0, 79), min_size=1, max_size=4), min_size=4, max_size=30),
    k=st.integers(2, 3),
    hand_over=st.integers(1, 80),
    algorithm=st.sampled_from(["partition", "lgr"]),
)
def test_python_rounds_tell_wide_buckets_apart(picks, k, hand_over, algorithm):
    store = wide_store(picks)
    options = {"leftover": "split", "gain": "ncp", "pick": "realized"}
    assert_same_both_ways(store, algorithm, k, options, hand_over)
    store.close()


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    picks=st.lists(st.sets(st.integers(56, 79), min_size=1, max_size=3), min_size=4, max_size=30),
    hand_over=st.integers(1, 80),
)
def test_python_walk_finds_the_pairs_the_sql_walk_finds(picks, hand_over):
    # The same partition tree both ways (kept tables keep Partition in SQL); wide children.
    store = wide_store(picks)
    found = []
    for rows in (0, hand_over):
        with tail_rows(rows):
            result = anonymize(store, Params(algorithm="lgr", k=2, keep_intermediate=True))
        with store.in_run(result.run):
            found.append(set(store.query("SELECT tid, pid FROM lgr_fit")))
    assert found[0] == found[1]
    store.close()
