"""The synthetic basket generator: deterministic for a seed whatever the thread count, the
shape it promises, and data the algorithms anonymize into verified releases."""

from __future__ import annotations

import pytest

from setanon_sql import HierarchySpec, Params, Store, anonymize, open_store
from setanon_sql.errors import ParamsError
from setanon_sql.measure.synthetic import SynthSpec, scatter, write_baskets


def rows_of(path) -> list[tuple[int, int]]:
    with Store() as s:
        return s.query("SELECT tid, item FROM read_parquet($p)", {"p": str(path)})


def write_with_threads(path, spec: SynthSpec, threads: int) -> dict:
    with Store() as s:
        s.execute(f"SET threads = {int(threads)}")
        return write_baskets(path, spec, store=s)


def test_same_seed_same_file_whatever_the_threads(tmp_path):
    spec = SynthSpec(transactions=30_000, items=2_000, seed=7)
    one = write_with_threads(tmp_path / "one.parquet", spec, 1)
    four = write_with_threads(tmp_path / "four.parquet", spec, 4)
    assert one["rows"] == four["rows"]
    assert rows_of(tmp_path / "one.parquet") == rows_of(tmp_path / "four.parquet")


def test_another_seed_other_baskets(tmp_path):
    a = write_baskets(tmp_path / "a.parquet", SynthSpec(transactions=500, items=300, seed=1))
    b = write_baskets(tmp_path / "b.parquet", SynthSpec(transactions=500, items=300, seed=2))
    assert a["rows"] > 500 and b["rows"] > 500
    assert rows_of(tmp_path / "a.parquet") != rows_of(tmp_path / "b.parquet")


def test_shape(tmp_path):
    spec = SynthSpec(transactions=20_000, items=1_000, seed=3, max_length=40)
    write_baskets(tmp_path / "s.parquet", spec)
    rows = rows_of(tmp_path / "s.parquet")
    assert rows == sorted(rows) and len(set(rows)) == len(rows)  # tid order, a set per tid
    lengths: dict[int, int] = {}
    for tid, item in rows:
        assert 0 <= item < spec.items
        lengths[tid] = lengths.get(tid, 0) + 1
    assert sorted(lengths) == list(range(spec.transactions))
    counts = sorted(lengths.values())
    assert counts[-1] <= spec.max_length + 5  # independent items plus one pattern
    assert 3 < sum(counts) / len(counts) < 6 and counts.count(1) > 0.1 * len(counts)
    per_item: dict[int, int] = {}
    for _, item in rows:
        per_item[item] = per_item.get(item, 0) + 1
    popularity = sorted(per_item.values(), reverse=True)
    assert popularity[0] > 50 * popularity[len(popularity) // 2]  # a Zipf-like head


def test_scatter_is_a_bijection():
    for n in (2, 10, 1000, 10_000):
        m = scatter(n)
        assert sorted(r * m % n for r in range(n)) == list(range(n))


def test_bad_specs():
    with pytest.raises(ParamsError, match="pattern_share"):
        SynthSpec(transactions=10, pattern_share=2)
    with pytest.raises(ParamsError, match="transaction"):
        SynthSpec(transactions=0)


@pytest.mark.parametrize("algorithm", ["partition", "lgr"])
def test_baskets_anonymize_into_verified_releases(tmp_path, algorithm):
    path = tmp_path / "s.parquet"
    write_baskets(path, SynthSpec(transactions=3_000, items=400, seed=5))
    store, _ = open_store(path, hierarchy_spec=HierarchySpec(fanout=5))
    result = anonymize(store, Params(algorithm=algorithm, k=5))
    assert result.report.ok and 0 < result.loss["ncp"] < 1
    store.close()
