"""`--memory-limit` values DuckDB would misread or cannot work under are refused in one line
with exit 2 (issue 40, item 8): `0%` ended as an internal error (exit 4) and `-1GB` was taken
silently as no limit at all."""

from __future__ import annotations

import pytest
from helpers.cli import EX, cli

from setanon_sql.engine import limits
from setanon_sql.errors import ExitCode, ParamsError

FIG2 = ("anonymize", EX / "fig2.csv", "-H", EX / "fig2_hierarchy.csv", "-a", "aa", "-k", 2,
        "-m", 2, "-q")  # fmt: skip


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("0%", "below"),
        ("0", "not a size"),
        ("0B", "below"),
        ("1KB", "below"),
        ("-1GB", "negative"),
        ("101%", "at most 100%"),
        ("garbage", "not a size"),
        ("1e400GB", "more than this machine's memory"),
        ("+1GB", "not a size"),
        ("", "not a size"),
    ],
)
def test_a_memory_limit_duckdb_cannot_honour_is_refused_in_one_line(value, said) -> None:
    r = cli(*FIG2, "--memory-limit", value)
    assert r.code == ExitCode.USAGE, (r.code, r.stderr)
    assert said in r.stderr and "--memory-limit" in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr


@pytest.mark.parametrize("value", ["64MB", "64 MiB", "0.5GB", ".5GB", "1e3MB", "50%", "100%"])
def test_a_memory_limit_duckdb_takes_is_taken(value) -> None:
    r = cli(*FIG2, "--memory-limit", value)
    assert r.code == ExitCode.OK, r.stderr


def test_a_limit_too_small_for_the_work_is_the_machine_not_our_bug() -> None:
    r = cli(*FIG2, "--memory-limit", "1.5MB")
    assert r.code == ExitCode.RESOURCES, r.stderr
    assert "--memory-limit" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_sizes_are_measured_against_the_machine() -> None:
    gib = 2**30
    limits.check_memory_limit("8GiB", total=8 * gib)
    with pytest.raises(ParamsError, match="more than this machine"):
        limits.check_memory_limit("9GiB", total=8 * gib)
    with pytest.raises(ParamsError, match="below"):
        limits.check_memory_limit("0.001%", total=8 * gib)
