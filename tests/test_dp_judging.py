"""A differentially private run as the judging commands show it (issue 44): its promise is
its epsilon, the budget its record spent and the mechanism, never the default k its
parameters hold; and every verdict says what was checked, the budget record, since no
output proves differential privacy (not "release (verified)" nor a promise of k that holds).
Through the command line."""

from __future__ import annotations

import pytest
from helpers.cli import EX, cli

from setanon_sql.runs import DP_CHECKED

FIG2, FIG2_H, CATALOGUE = EX / "fig2.csv", EX / "fig2_hierarchy.csv", EX / "fig2_catalogue.csv"
SMALL = ["--queries", 5, "--targets", 5]


def words(text: str) -> str:
    """The text with its line breaks and table padding folded (rich wraps long titles)."""
    return " ".join(text.replace("│", " ").split())


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> dict:
    """A database with a dpsets run `dp` (epsilon 1.5) and an aa run `aa` beside it, and what
    anonymize printed of each."""
    db = tmp_path_factory.mktemp("dp_judging") / "w.duckdb"
    dp = cli("anonymize", FIG2, "-H", CATALOGUE, "-a", "dpsets", "--epsilon", 1.5, "--db", db,
             "--run", "dp")  # fmt: skip
    assert dp.code == 0, dp.stderr
    aa = cli("anonymize", FIG2, "-H", FIG2_H, "-a", "aa", "-k", 2, "-m", 2, "--db", db,
             "--run", "aa")  # fmt: skip
    assert aa.code == 0, aa.stderr
    return {"db": db, "dp": words(dp.stdout), "aa": words(aa.stdout)}


@pytest.fixture(scope="module")
def db(made):
    return made["db"]


def test_anonymize_says_what_was_checked(made) -> None:
    assert DP_CHECKED in made["dp"] and "(verified)" not in made["dp"]
    assert "release (verified)" in made["aa"]


def test_evaluate_json_shows_the_dp_promise(db) -> None:
    r = cli("evaluate", "--db", db, "--run", "dp", "--json", *SMALL)
    assert r.code == 0, r.stderr
    out = r.json()
    model = out["model"]
    assert model["model"] == "dp" and model["k"] is None and model["m"] is None
    assert model["epsilon"] == 1.5 and model["epsilon_spent"] == pytest.approx(1.5)
    assert "Laplace" in model["mechanism"] and model["checked"] == DP_CHECKED
    assert out["promise_holds"] is None  # nothing the output can hold to
    assert all(a["below_k"] is None and not a["promised"] for a in out["attacks"])


def test_evaluate_and_verify_say_what_was_checked(db) -> None:
    r = cli("evaluate", "--db", db, "--run", "dp", *SMALL)
    assert r.code == 0, r.stderr
    shown = words(r.stdout)
    assert f"evaluation of dp: {DP_CHECKED}" in shown and "epsilon_spent 1.5" in shown
    assert "promise_holds" not in shown
    r = cli("verify", "--db", db, "--run", "dp")
    assert r.code == 0 and f"verification: {DP_CHECKED}" in words(r.stdout)
    r = cli("verify", "--db", db, "--run", "aa")
    assert r.code == 0 and "verification: passed" in words(r.stdout)


def test_the_report_page_shows_the_budget_not_a_verifier_or_k(db, tmp_path) -> None:
    page = tmp_path / "dp.html"
    r = cli("report", "--db", db, "--run", "dp", "-o", page, *SMALL)
    assert r.code == 0, r.stderr
    text = page.read_text()
    assert "(differential privacy)" in text and DP_CHECKED in text
    assert 'Budget record: <span class="ok">pass</span>' in text
    assert "<td>1.5</td>" in text and "Laplace" in text
    assert "Verifier" not in text and "at least k =" not in text
    assert "<td>k</td>" not in text  # the parameters' default k is not shown as its promise
    # fig2's 12 transactions are far too few for any epsilon: the page says so, as anonymize does
    assert "<strong>Warning:</strong> the length histogram&#x27;s noise alone" in text


def test_compare_shows_epsilon_where_the_others_show_k(db, monkeypatch) -> None:
    r = cli("compare", "dp", "aa", "--db", db, "--json", *SMALL)
    assert r.code == 0, r.stderr
    dp, aa = r.json()
    assert dp["k"] is None and dp["epsilon"] == 1.5 and dp["epsilon_spent"] == pytest.approx(1.5)
    assert dp["promise_holds"] is None and dp["checked"] == DP_CHECKED
    assert dp["below_k_1"] is None
    assert aa["k"] == 2 and aa["promise_holds"] is True and "epsilon" not in aa
    monkeypatch.setenv("COLUMNS", "400")  # the whole table, unwrapped
    r = cli("compare", "dp", "aa", "--db", db, *SMALL)
    assert (
        r.code == 0 and "epsilon_spent" in r.stdout and "budget record checked" in words(r.stdout)
    )
