"""Dense data under -a dpsets (#44): when most transactions that hold a pair hold more kept items
than `longest`, the design would leave their pairs out (and measuring them was worse than no
pairs, benchmarks/notes/dp-utility.md), so the run is refused with one line; items alone
(max_size 1) or a larger `longest` still run."""

from __future__ import annotations

import duckdb
import pytest
from helpers.cli import cli
from helpers.stores import make_store
from hypothesis import given, settings
from hypothesis import strategies as st

from setanon_sql import Params, anonymize
from setanon_sql.algorithms import dp_noise, dp_sets
from setanon_sql.errors import ExitCode, InfeasibleError


@settings(max_examples=200, deadline=None)
@given(
    lengths=st.lists(st.integers(1, 12), max_size=40),
    longest=st.integers(2, 8),
    noise=st.lists(st.integers(-3, 3), min_size=13, max_size=13),
    scale=st.sampled_from([0.0, 0.5, 2.0]),
)
def test_mostly_left_out_against_counting_the_transactions(lengths, longest, noise, scale):
    """A brute force over the transactions' kept lengths: the histogram's bins 1..longest and
    the last bin longest+1-or-more, plus noise, decided by counting the noisy transactions."""
    bins = [sum(1 for n in lengths if min(n, longest + 1) == b) for b in range(1, longest + 2)]
    noisy = [c + e for c, e in zip(bins, noise, strict=False)]
    held = sum(max(0, noisy[b - 1]) for b in range(2, longest + 1))
    out = max(0, noisy[longest])
    wanted = out > held and out > dp_sets.SIGNIFICANT * scale
    assert dp_sets.mostly_left_out(noisy, longest, scale) == wanted


class Exact:
    """No noise: the counts as they are (a test of the path, not of the promise)."""

    mechanism = "none (test)"

    def add(self, counts, scale):
        return list(counts)

    def epsilon(self, sensitivity, scale):
        return sensitivity / scale


EDGES = [(f"i{j}", "*") for j in range(8)]
DENSE = [[f"i{j}" for j in range(8) if j != k] for k in range(8)] * 2
"""Sixteen transactions of 7 items each (of 8): every one longer than longest = 4. Epsilon 100
below: the pair histogram's noise scale 1 / 3, so 16 transactions pass SIGNIFICANT scales."""
OPTIONS = {"epsilon": 100.0, "pair_items": 8, "limit2": 2, "longest": 4}


def run_dense(txs, options):
    store = make_store(txs, EDGES)
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(dp_noise, "noise_source", Exact)
            return anonymize(store, Params(algorithm="dpsets", k=1, options=options)).report.ok
    finally:
        store.close()


def test_dense_data_is_refused_with_the_way_out() -> None:
    with pytest.raises(InfeasibleError, match="max_size=1") as refused:
        run_dense(DENSE, OPTIONS)
    assert "longest=4" in str(refused.value)


def test_items_alone_or_a_longer_limit_still_run() -> None:
    assert run_dense(DENSE, OPTIONS | {"max_size": 1})
    assert run_dense(DENSE, OPTIONS | {"longest": 7})


def test_a_few_long_transactions_are_not_refused() -> None:
    """Half the pair-holding transactions long is not most: the sparse case still runs."""
    short = [["i0", "i1"], ["i2", "i3", "i4"]] * 8
    assert run_dense(short + DENSE, OPTIONS)


def test_the_command_line_refuses_dense_data_in_one_line(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(dp_noise.TEST_SEED_ENV, "1")
    data = tmp_path / "dense.csv"
    rows = [(t, i) for t in range(40) for i in range(30) if i != t % 30]
    data.write_text("tid,item\n" + "".join(f"{t},{i}\n" for t, i in rows))
    db = tmp_path / "w.duckdb"
    args = ["anonymize", data, "--fanout", 5, "--order", "id", "-a", "dpsets", "--db", db]
    r = cli(*args, "--epsilon", 100, "--run", "dense")
    assert r.code == ExitCode.INPUT, r.stderr
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and "Traceback" not in r.stderr and "longest=20" in lines[0]
    with duckdb.connect(str(db), read_only=True) as con:
        schemas = {s for (s,) in con.execute("SELECT schema_name FROM duckdb_schemas()").fetchall()}
    assert "dense" not in schemas  # the failed run's tables are gone
    ok = cli(*args, "--epsilon", 100, "--option", "max_size=1", "--run", "items", "-q")
    assert ok.code == 0, ok.stderr


class HistogramNoise(Exact):
    """Noise that sets the kept-length histogram (the third measurement) to fixed values and
    leaves the other counts exact: the refusal then sees nothing of the data's lengths."""

    def __init__(self, histogram: list[int]) -> None:
        self.histogram, self.calls = histogram, 0

    def add(self, counts, scale):
        self.calls += 1
        return list(self.histogram) if self.calls == 3 else list(counts)


SHORT = [["i0", "i1"], ["i2", "i3", "i4"], ["i5", "i6"]] * 6


@pytest.mark.parametrize("txs", [DENSE, SHORT], ids=["dense", "short"])
def test_the_refusal_is_decided_by_the_noisy_histogram_alone(txs) -> None:
    """The same noisy histogram, the same verdict, whatever the data: dense data whose noisy
    histogram says short runs, short data whose noisy histogram says long is refused."""

    def run_with(histogram):
        store = make_store(txs, EDGES)
        try:
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(dp_noise, "noise_source", lambda: HistogramNoise(histogram))
                anonymize(store, Params(algorithm="dpsets", k=1, options=OPTIONS))
        finally:
            store.close()

    run_with([0, 50, 0, 0, 3])  # five bins: 1..4 kept items and 5 or more
    with pytest.raises(InfeasibleError, match="longest=4"):
        run_with([0, 3, 0, 0, 50])
