"""compare / sweep on the bundled example, and the report page (offline, and in Chromium)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from setanon_sql import HierarchySpec, Store, open_store
from setanon_sql.measure.compare import compare
from setanon_sql.measure.evaluate import Workload, evaluate
from setanon_sql.measure.report import (
    compare_markdown,
    render_compare_html,
    render_html,
    run_report,
)
from setanon_sql.sweep import sweep

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SMALL = Workload(queries=20, targets=20)


@pytest.fixture
def fig2() -> Store:
    store, _ = open_store(
        EXAMPLES / "fig2.csv",
        hierarchy_spec=HierarchySpec(path=EXAMPLES / "fig2_hierarchy.csv"),
    )
    yield store
    store.close()


def test_sweep_compares_every_algorithm_and_k(fig2: Store) -> None:
    rows = sweep(fig2, algorithm_names=["aa", "partition", "clump"], ks=[2, 3], workload=SMALL)
    assert [r["run"] for r in rows] == [
        "run_aa_k2_m2",
        "run_aa_k3_m2",
        "run_partition_k2",
        "run_partition_k3",
        "run_clump_k2",
        "run_clump_k3",
    ]
    for r in rows:
        assert r["promise_holds"]
        again = evaluate(fig2, r["run"], workload=SMALL)  # the row is that run's evaluation
        assert r["ncp"] == again["ncp"]
        assert r["are_1"] == again["itemset_queries"][0]["are"]
        assert r["median_candidates_1"] == again["attacks"][0]["median_candidates"]
    table = compare_markdown(rows).splitlines()
    assert len(table) == 2 + len(rows)
    assert table[0].startswith("| run | algorithm | k | m | seconds | ncp | lm | are_1")


def test_compare_keeps_the_order_of_the_runs_given(fig2: Store) -> None:
    runs = [r["run"] for r in sweep(fig2, algorithm_names=["aa", "partition"], ks=[2])]
    rows = compare(fig2, list(reversed(runs)), workload=SMALL)
    assert [r["run"] for r in rows] == list(reversed(runs))
    page = render_compare_html(rows)
    assert page.count("<svg") == 1
    assert all(run in page for run in runs)


def _self_contained(page: str) -> None:
    """Nothing the page would fetch: no script, style sheet, image, frame, font or import;
    the SVG's references point inside the page (`url(#id)`, `href="#id"`)."""
    assert not re.search(r"<script|<link|<img|<iframe|<object|@import|url\((?!#)", page, re.I)
    assert not re.search(r"\s(src|[a-z:]*href)\s*=\s*[\"'](?!#)", page, re.I)
    assert "href" in page  # the check above does look at the SVG's references


def test_report_page_is_self_contained(fig2: Store) -> None:
    sweep(fig2, algorithm_names=["clump"], ks=[2], workload=SMALL)
    report = run_report(fig2, "run_clump_k2", workload=SMALL)
    page = render_html(report)
    _self_contained(page)
    assert page.count("<svg") == 3  # levels, ARE per size, candidates per attack
    assert report["verified"]["ok"] and "FAIL" not in page
    levels = sum(r["instances"] for r in report["levels"])
    assert levels == report["loss"]["instances"]  # every original instance is on one level
    assert report["most_generalized"]


def test_report_and_compare_reuse_the_stored_evaluation_of_their_workload(fig2: Store) -> None:
    """After `evaluate`, `report` and `compare` read its eval_* tables instead of paying it
    again, with the same figures; another workload, or a replaced run, is evaluated anew."""
    sweep(fig2, algorithm_names=["aa"], ks=[2], workload=SMALL)
    run = "run_aa_k2_m2"
    fresh = evaluate(fig2, run, workload=SMALL)

    def steps(call) -> tuple[set[str], dict]:
        log: list = []
        with fig2.ex.recording(log):
            out = call()
        return {e.step for e in log}, out

    ran, report = steps(lambda: run_report(fig2, run, workload=SMALL))
    assert "est_gen_node_tuples" not in ran and "eval_info_read" in ran
    assert report["evaluation"] == fresh
    ran, rows = steps(lambda: compare(fig2, [run], workload=SMALL))
    assert "est_gen_node_tuples" not in ran
    assert rows == compare(fig2, [run], workload=Workload(queries=20, targets=20))
    other = Workload(queries=20, targets=20, seed=1)
    ran, report = steps(lambda: run_report(fig2, run, workload=other))
    assert "est_gen_node_tuples" in ran and report["evaluation"]["workload"]["seed"] == 1
    ran, _ = steps(lambda: run_report(fig2, run, workload=SMALL))  # the seed-1 one is stored now
    assert "est_gen_node_tuples" in ran
    sweep(fig2, algorithm_names=["aa"], ks=[2], workload=SMALL, replace=True)
    with fig2.in_run(run):
        assert fig2.has_table("eval_info", schema=run)  # the sweep evaluated the new release
    ran, _ = steps(lambda: run_report(fig2, run, workload=Workload(queries=7, targets=7)))
    assert "est_gen_node_tuples" in ran


@pytest.mark.skipif(
    not (shutil.which("chromium") or shutil.which("chromium-browser")),
    reason="headless Chromium is not installed (Debian package chromium)",
)
def test_report_renders_in_chromium(fig2: Store, tmp_path: Path) -> None:
    import matplotlib.image

    sweep(fig2, algorithm_names=["aa"], ks=[2], workload=SMALL)
    page = tmp_path / "report.html"
    page.write_text(render_html(run_report(fig2, "run_aa_k2_m2", workload=SMALL)), encoding="utf-8")
    shot = tmp_path / "shot.png"
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    subprocess.run(
        [
            str(browser),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--window-size=1000,2400",
            f"--screenshot={shot}",
            page.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    pixels = matplotlib.image.imread(shot)[..., :3]
    inked = (pixels.sum(axis=2) < 2.5).mean()  # share of pixels that are not near white
    assert inked > 0.01


def test_a_release_file_evaluates_like_its_stored_run(fig2: Store, tmp_path: Path) -> None:
    from setanon_sql.measure.evaluate import evaluate_release_file
    from setanon_sql.measure.kinds import promise_of
    from setanon_sql.store.release_io import write_release

    run = sweep(fig2, algorithm_names=["clump"], ks=[2], workload=SMALL)[0]["run"]
    with fig2.in_run(run):
        path = write_release(fig2, tmp_path / "release.csv")
    stored = evaluate(fig2, run, workload=SMALL)
    from_file = evaluate_release_file(fig2, path, model=promise_of(fig2, run), workload=SMALL)
    for key in ("itemset_queries", "frequent_queries", "attacks", "ncp", "promise_holds"):
        assert from_file[key] == stored[key]
