"""benchmarks/scale.py's work figures: each algorithm's units of work beside its time, so that
cost per unit can be read across sizes (issue 30)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import scale  # noqa: E402

from setanon_sql.algorithms import ALGORITHMS  # noqa: E402


def test_every_algorithm_names_its_work():
    assert set(scale.WORK) == set(ALGORITHMS)


def test_aa_work_is_support_statements_times_the_rows_they_scan():
    info = {"support_queries": 20, "expanded_rows": 1_000, "counted_itemsets": 7,
            "violations": 9, "search_s": 2.0, "anonymize_cpu_s": 4.0}  # fmt: skip
    out = scale.work_figures("aa", info, transactions=100, statements=55)
    assert out["support_rows"] == 20_000
    assert out["work_unit"] == "support_rows"
    assert out["us_per_unit"] == pytest.approx(100.0)
    assert out["cpu_us_per_unit"] == pytest.approx(200.0)
    assert (out["counted_itemsets"], out["violations"], out["statements"]) == (7, 9, 55)


def test_partition_work_is_its_bucket_rows_and_a_missing_figure_gives_no_rate():
    out = scale.work_figures("partition", {"bucket_rows": 500, "levels": 3, "search_s": 1.0}, 10, 1)
    assert (out["bucket_rows"], out["levels"], out["us_per_unit"]) == (500, 3, 2000.0)
    assert "cpu_us_per_unit" not in out
    # a run small enough for Python's rounds alone reads no SQL bucket rows: no rate
    bare = scale.work_figures("partition", {"bucket_rows": 0, "search_s": 1.0}, 10, 1)
    assert "us_per_unit" not in bare


def test_clump_work_is_its_transactions():
    out = scale.work_figures(
        "clump", {"clusters": 4, "search_s": 0.5}, transactions=1_000, statements=2
    )
    assert (out["transactions"], out["clusters"], out["us_per_unit"]) == (1_000, 4, 500.0)
