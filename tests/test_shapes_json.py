"""benchmarks/shapes.py (issue 44): `--from-json` prints the tables a live run printed, the
columns against REV included (it printed none of them: the JSON did not say the REV)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import shapes  # noqa: E402

HEADER = "# host: 2 cores, Python 3.12, HEAD abc1234 against d71f1f5"


def figures(wall: float, md5: str) -> dict:
    return {"dataset": "wv1", "algorithm": "aa", "k": 5, "status": "ok", "wall_s": wall,
            "cpu_s": wall, "peak_rss_mb": 100, "ncp": 0.1, "lm": 0.2, "verified": True,
            "release_md5": md5,
            "statements": {"cut": {"n": 1, "s": wall / 2, "rows": 10, "widest": 10}}}  # fmt: skip


PAIRS = [(figures(2.0, "x"), figures(1.0, "y"))]


def from_json(monkeypatch, capsys, *args: str) -> str:
    monkeypatch.setattr(sys, "argv", ["shapes.py", "--from-json", *args])
    shapes.main()
    return capsys.readouterr().out


def test_from_json_prints_what_the_live_run_printed(tmp_path, monkeypatch, capsys):
    print(HEADER)  # as main prints it before the matrix runs
    shapes.print_tables(None, PAIRS, "d71f1f5", 10)
    live = capsys.readouterr().out
    path = tmp_path / "runs.json"
    shapes.write_json(path, HEADER, PAIRS, "d71f1f5")
    again = from_json(monkeypatch, capsys, str(path))
    assert again == live
    for column in ("wall_s d71f1f5", "wall ratio", "s d71f1f5", "slower, release differs"):
        assert column in again


def test_an_older_file_is_labelled_rev_or_as_told(tmp_path, monkeypatch, capsys):
    path = tmp_path / "old.json"
    path.write_text(json.dumps([{"new": a, "old": b} for a, b in PAIRS]))
    assert "wall_s REV" in from_json(monkeypatch, capsys, str(path))
    assert "wall_s d71f1f5" in from_json(monkeypatch, capsys, str(path), "--against", "d71f1f5")


def test_files_against_different_revs_are_refused(tmp_path, monkeypatch, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    shapes.write_json(a, HEADER, PAIRS, "d71f1f5")
    shapes.write_json(b, HEADER, PAIRS, "1234567")
    with pytest.raises(SystemExit, match="different commits"):
        from_json(monkeypatch, capsys, str(a), str(b))
