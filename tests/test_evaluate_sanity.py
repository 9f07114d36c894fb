"""`evaluate --sanity FRACTION` (#44): the ARE with each error over max(actual, FRACTION x |D|),
reported as `are_sanity` beside the unbounded `are`, which it leaves as it was.

Worked by hand, then against a brute force over every frequent itemset on random small data."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest
from helpers.cli import EX, cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from setanon_sql.errors import ExitCode

# 10 transactions: a in 8, b in 3 (two of them with a), c in 1
DATA = {1: "a", 2: "a", 3: "a", 4: "a", 5: "a", 6: "a", 7: "ab", 8: "ab", 9: "b", 10: "c"}


def write(path: Path, transactions: dict[int, str]) -> Path:
    rows = [f"{tid},{item}" for tid, items in transactions.items() for item in items]
    path.write_text("tid,item\n" + "".join(r + "\n" for r in rows))
    return path


def judged(tmp_path: Path, data: dict[int, str], release: dict[int, str], *extra: object):
    d = write(tmp_path / "d.csv", data)
    r = write(tmp_path / "r.csv", release)
    out = cli("evaluate", d, "--fanout", 2, "--order", "id", "--release", r, "-k", 1,
              "--json", *extra)  # fmt: skip
    assert out.code == 0, out.stderr
    return out.json()


def by_size(rows: list[dict], key: str) -> dict[int, float]:
    return {r["size"]: r[key] for r in rows}


def test_a_worked_case_with_the_bound_active(tmp_path) -> None:
    """|D| = 10, --sanity 0.5: floor 5. The release drops c and t9's b: estimates a 8, b 2,
    c 0, ab 2. Unbounded: (0 + 1/3 + 1) / 3; bounded: (0 + 1/5 + 1/5) / 3; ab exact."""
    release = {t: items for t, items in DATA.items() if t < 9}
    out = judged(tmp_path, DATA, release, "--sanity", 0.5)
    assert out["sanity_floor"] == 5.0
    assert out["workload"]["sanity"] == 0.5
    for key in ("itemset_queries", "frequent_queries"):
        assert by_size(out[key], "are") == pytest.approx({1: 4 / 9, 2: 0.0})
        assert by_size(out[key], "are_sanity") == pytest.approx({1: 2 / 15, 2: 0.0})


def test_the_empty_release_scores_below_one_only_under_the_bound(tmp_path) -> None:
    """Every estimate 0: each error is min(1, actual / floor): a 8/8, b 3/5, c 1/5; ab 2/5."""
    out = judged(tmp_path, DATA, {}, "--sanity", 0.5)
    for key in ("itemset_queries", "frequent_queries"):
        assert by_size(out[key], "are") == pytest.approx({1: 1.0, 2: 1.0})
        assert by_size(out[key], "are_sanity") == pytest.approx({1: 0.6, 2: 0.4})


def test_without_the_option_nothing_changes(tmp_path) -> None:
    """The default is today's: no are_sanity, no floor; --sanity 0 is the unbounded ARE."""
    out = judged(tmp_path, DATA, {})
    assert "sanity_floor" not in out and out["workload"]["sanity"] is None
    assert all("are_sanity" not in r for r in out["itemset_queries"] + out["frequent_queries"])
    zero = judged(tmp_path, DATA, {}, "--sanity", 0)
    for r in zero["itemset_queries"] + zero["frequent_queries"]:
        assert r["are_sanity"] == pytest.approx(r["are"])


def support(transactions: dict[int, str], itemset: tuple[str, ...]) -> int:
    return sum(1 for items in transactions.values() if set(itemset) <= set(items))


def brute_force(data: dict[int, str], release: dict[int, str], fraction: float) -> dict:
    """Per size, the bounded ARE over every itemset of 1..3 items the data holds (the
    frequent workload's, as its least support is 1 on data this small)."""
    floor = fraction * len(data)
    out = {}
    for size in (1, 2, 3):
        sets = {s for items in data.values() for s in itertools.combinations(sorted(items), size)}
        if sets:
            errors = [
                abs(support(data, s) - support(release, s)) / max(support(data, s), floor)
                for s in sets
            ]
            out[size] = sum(errors) / len(errors)
    return out


transactions = st.dictionaries(
    st.integers(1, 12),
    st.sets(st.sampled_from("abcde"), min_size=1, max_size=4).map(lambda s: "".join(sorted(s))),
    min_size=1,
    max_size=12,
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=transactions, keep=st.randoms(use_true_random=False), fraction=st.floats(0, 0.99))
def test_the_bound_against_a_brute_force(tmp_path, data, keep, fraction) -> None:
    """A release of some of the original's rows (original items: the estimate is the exact
    count in the release) against every frequent itemset's error counted in Python."""
    release = {t: "".join(i for i in items if keep.random() < 0.6) for t, items in data.items()}
    release = {t: items for t, items in release.items() if items}
    out = judged(tmp_path, data, release, "--sanity", fraction)
    assert out["sanity_floor"] == pytest.approx(fraction * len(data))
    assert by_size(out["frequent_queries"], "are_sanity") == pytest.approx(
        brute_force(data, release, fraction)
    )


@pytest.fixture(scope="module")
def stored(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("sanity") / "s.duckdb"
    r = cli("anonymize", EX / "fig2.csv", "-H", EX / "fig2_hierarchy.csv", "-a", "aa", "-k", 2,
            "-m", 2, "--db", db, "--run", "r", "-q")  # fmt: skip
    assert r.code == 0, r.stderr
    return db


@pytest.mark.parametrize("value", ["-0.1", "1", "1.5", "nan", "inf", "x"])
def test_bad_values_are_refused(stored, value) -> None:
    for command in (["evaluate", "--run", "r"], ["compare", "r"]):
        r = cli(*command, "--db", stored, "--sanity", value)
        assert r.code == ExitCode.USAGE, (command, value, r.code, r.stderr)
        assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_a_stored_evaluation_gets_the_bound_without_a_new_one(stored, tmp_path) -> None:
    """`evaluate` stores the scores; `compare --sanity` and `report --sanity` read them."""
    first = cli("evaluate", "--db", stored, "--run", "r", "--json")
    assert first.code == 0, first.stderr
    row = cli("compare", "r", "--db", stored, "--sanity", 0.3, "--json").json()[0]
    plain = first.json()
    assert row["are_2"] == by_size(plain["itemset_queries"], "are")[2]
    assert row["sanity_floor"] == pytest.approx(0.3 * 4)  # fig2 holds 4 transactions
    assert 0 <= row["are_sanity_2"] <= row["are_2"]
    assert "frequent_are_sanity_2" in row
    page = tmp_path / "r.html"
    r = cli("report", "--db", stored, "--run", "r", "-o", page, "--sanity", 0.3)
    assert r.code == 0, r.stderr
    assert "sanity bound 1.2" in page.read_text()
    again = cli("evaluate", "--db", stored, "--run", "r", "--json").json()
    assert all("are_sanity" not in r for r in again["itemset_queries"])
    assert not math.isnan(row["are_sanity_1"])


def test_a_synthesized_release_is_scored_on_its_own_transactions(tmp_path) -> None:
    """12 new transactions (more than the data's 10, tids it lacks): a in 7, ab in 3, b alone
    in 2, no c. Estimates a 10, b 5, c 0, ab 3 against 8, 3, 1, 2."""
    release = {100 + t: "a" for t in range(7)} | {200 + t: "ab" for t in range(3)}
    release |= {300: "b", 301: "b"}
    d, r = write(tmp_path / "d.csv", DATA), write(tmp_path / "r.csv", release)
    out = cli("evaluate", d, "--fanout", 2, "--order", "id", "-r", r, "--synthesized",
              "--sanity", 0.5, "--json")  # fmt: skip
    assert out.code == 0, out.stderr
    found = out.json()
    assert found["model"]["model"] == "dp"
    for key in ("itemset_queries", "frequent_queries"):
        # unbounded: (2/8 + 2/3 + 1) / 3, ab 1/2; floor 5: (2/8 + 2/5 + 1/5) / 3, ab 1/5
        assert by_size(found[key], "are") == pytest.approx({1: (1 / 4 + 2 / 3 + 1) / 3, 2: 0.5})
        assert by_size(found[key], "are_sanity") == pytest.approx({1: 0.85 / 3, 2: 0.2})


def test_a_synthesized_file_scores_as_its_stored_run(tmp_path) -> None:
    """The same dpsets release, once as a stored run, once written and read back as a file."""
    d = write(tmp_path / "d.csv", {t: "abcde"[t % 5 :] + "a" for t in range(40)})
    db, r, tree = tmp_path / "dp.duckdb", tmp_path / "dp.csv", tmp_path / "catalogue.csv"
    tree.write_text("child,parent\n" + "".join(f"{x},ALL\n" for x in "abcdefg"))  # public
    made = cli("anonymize", d, "-H", tree, "-a", "dpsets", "--epsilon", 4,
               "--db", db, "--run", "p", "-o", r, "-q")  # fmt: skip
    assert made.code == 0, made.stderr
    stored = cli("evaluate", "--db", db, "--run", "p", "--sanity", 0.1, "--json").json()
    read = cli("evaluate", d, "-H", tree, "-r", r, "--synthesized",
               "--sanity", 0.1, "--json").json()  # fmt: skip
    for key in ("itemset_queries", "frequent_queries"):
        assert read[key] == stored[key]


@pytest.mark.parametrize(
    ("extra", "code"),
    [(["-k", 2], ExitCode.USAGE), (["-m", 2], ExitCode.USAGE), (["--multiset"], ExitCode.USAGE)],
)
def test_a_synthesized_release_promises_no_k(tmp_path, extra, code) -> None:
    d, r = write(tmp_path / "d.csv", DATA), write(tmp_path / "r.csv", {1: "a"})
    out = cli("evaluate", d, "--fanout", 2, "-r", r, "--synthesized", *extra)
    assert out.code == code, out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_a_synthesized_release_with_an_item_the_data_lacks_is_bad_input(tmp_path) -> None:
    d, r = write(tmp_path / "d.csv", DATA), write(tmp_path / "r.csv", {1: "az"})
    out = cli("evaluate", d, "--fanout", 2, "-r", r, "--synthesized", "--db", tmp_path / "x.db")
    assert out.code == ExitCode.INPUT, out.stderr
    assert "'z'" in out.stderr and "Traceback" not in out.stderr
    runs = cli("runs", "--db", tmp_path / "x.db", "--json")
    assert runs.code == 0 and all(r["status"] != "complete" for r in runs.json()), runs.stdout


def test_a_sweep_reports_the_bound_beside_the_are(tmp_path) -> None:
    """`sweep --sanity` (the utility curve over epsilon): each row has both figures."""
    out = cli("sweep", EX / "fig2.csv", "--fanout", 2, "-a", "partition", "-k", 2,
              "--queries", 5, "--targets", 5, "--sanity", 0.5, "--json")  # fmt: skip
    assert out.code == 0, out.stderr
    row = out.json()[0]
    assert row["sanity_floor"] == pytest.approx(2.0)  # fig2: 4 transactions
    assert 0 <= row["are_sanity_1"] <= row["are_1"] + 1e-12
    plain = cli("sweep", EX / "fig2.csv", "--fanout", 2, "-a", "partition", "-k", 2,
                "--queries", 5, "--targets", 5, "--json").json()[0]  # fmt: skip
    assert "are_sanity_1" not in plain and plain["are_1"] == row["are_1"]
