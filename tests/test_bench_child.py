"""benchmarks/child.py (issue 44): the one whole-process timer the disassociation and dp
benchmarks share, instead of a copy each."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import child  # noqa: E402
import disassociation  # noqa: E402
import dp  # noqa: E402


def test_both_benchmarks_use_the_one_timer() -> None:
    assert dp.timed is child.timed is disassociation.timed
    assert dp.setanon is child.setanon is disassociation.setanon


def test_timed_reports_the_child_and_its_output() -> None:
    got = child.timed([sys.executable, "-c", "print('hello')"])
    assert got["stdout"] == "hello\n"
    assert got["wall"] > 0 and got["cpu"] > 0 and got["rss_mb"] > 1


def test_a_failing_child_ends_the_benchmark_with_its_stderr() -> None:
    with pytest.raises(SystemExit, match=r"failed \(3\).*\nno"):
        child.timed([sys.executable, "-c", "import sys; sys.stderr.write('no'); sys.exit(3)"])
