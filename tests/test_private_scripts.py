"""A replay script holds what the release hides: the disassociation row key, the input's paths
and maybe its data. `sql --run` and `--sql-log` say so plainly at its head (issue 40)."""

from __future__ import annotations

from helpers.cli import EX, cli

NOTE = "as private as the database"


def _head(script: str) -> str:
    """The comment lines before the first statement."""
    return script.split("\n-- 1: ", 1)[0]


def test_the_replay_of_a_disassociation_run_says_it_is_private(tmp_path):
    db, log = tmp_path / "w.duckdb", tmp_path / "run.sql"
    r = cli("anonymize", EX / "fig2.csv", "-a", "disassociation", "-k", 2, "-m", 2,
            "--db", db, "--run", "d", "--sql-log", log, "-q")  # fmt: skip
    assert r.code == 0, r.stderr
    r = cli("sql", "--db", db, "--run", "d")
    assert r.code == 0, r.stderr
    assert "'key':" in r.stdout  # the key is kept: the run replays exactly
    head = _head(r.stdout)
    assert NOTE in head and "key" in head and "Never publish" in head
    assert r.stderr.startswith("note: ") and NOTE in r.stderr
    assert NOTE in _head(log.read_text(encoding="utf-8"))
