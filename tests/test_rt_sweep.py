"""`setanon sweep-rt` (issue 41): one verified (k, k^m) run per class size x delta, the table of
both losses and the trade-off page, through the CLI with its exit codes."""

from __future__ import annotations

import pytest

from setanon_sql.errors import ExitCode
from tests.helpers.cli import cli
from tests.test_rt_merge import ITEMS, QI, QS, SETS


def _files(tmp_path):
    table, qi, h = tmp_path / "t.csv", tmp_path / "q.csv", tmp_path / "h.csv"
    table.write_text("q,items\n" + "".join(f"{q},{s}\n" for q, s in zip(QS, SETS, strict=True)))
    qi.write_text("child,parent\n" + "".join(f"{c},{p}\n" for c, p in QI))
    h.write_text("child,parent\n" + "".join(f"{c},{p}\n" for c, p in ITEMS))
    return ("sweep-rt", table, "--qi", "q", "-t", f"q={qi}", "--items", "items", "-H", h,
            "-k", "2", "-m", "1", "--item-search", "lift")  # fmt: skip


def test_sweep_points_are_the_runs_anonymize_rt_makes(tmp_path):
    """Class sizes 2 and 4, deltas none and 0.4: the points at delta 0.4 are the hand-worked
    ones of test_rt_merge (2 classes, relational NCP 1/3, item NCP 1/12); every point is a
    stored run, verified, and `anonymize-rt` with the same knobs gives the same figures."""
    db, page = tmp_path / "w.duckdb", tmp_path / "sweep.html"
    base = _files(tmp_path)
    r = cli(*base, "--class-size", "2,4", "--delta", "0.4", "--db", db, "--report", page,
            "--json")  # fmt: skip
    assert r.code == 0, r.stderr
    rows = {(p["class_size"], p["delta"]): p for p in r.json()}
    assert set(rows) == {(2, 0.4), (4, 0.4)}
    assert all(p["verified"] for p in rows.values())
    two = rows[(2, 0.4)]
    assert two["run"] == "run_rt_sweep_s2_d0_4" and two["classes"] == 2
    assert two["relational_ncp"] == pytest.approx(1 / 3)
    assert two["item_ncp"] == pytest.approx(1 / 12)
    text = page.read_text()
    assert "<svg" in text and "run_rt_sweep_s4_d0_4" in text
    one = cli("anonymize-rt", *base[1:], "--class-size", "4", "--delta", "0.4", "--json")
    assert one.code == 0, one.stderr
    assert one.json()["relational_ncp"] == pytest.approx(rows[(4, 0.4)]["relational_ncp"])
    assert one.json()["item_ncp"] == pytest.approx(rows[(4, 0.4)]["item_ncp"])
    again = cli(*base, "--class-size", "2", "--delta", "0.4", "--db", db)
    assert again.code == ExitCode.USAGE and "already" in again.stderr
    assert cli(*base, "--class-size", "2", "--delta", "0.4", "--db", db, "--replace").code == 0


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (("--class-size", "2", "--delta", "x"), "--delta wants numbers"),
        (("--class-size", "2", "--delta", "0.5,2"), "delta must be a relational NCP"),
        (("--class-size", "1,2"), "--class-size (1) must be at least k"),
        (("--class-size", ""), "at least one size"),
        (("--class-size", "7"), "larger than the table"),
    ],
)
def test_bad_knobs_say_one_line_and_write_nothing(tmp_path, extra, says):
    page = tmp_path / "sweep.html"
    r = cli(*_files(tmp_path), *extra, "--report", page)
    assert r.code in (ExitCode.USAGE, ExitCode.INPUT) and says in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and not page.exists()
