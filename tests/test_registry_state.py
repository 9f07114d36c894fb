"""A state machine over one DuckDB file that also holds the user's own schemas and tables:
loading, anonymizing with every algorithm, table runs, verify, metrics and --replace in any
order never touch the user's objects, and never change what an earlier run measures."""

from __future__ import annotations

import pytest
from helpers.cli import EX, cli
from helpers.user_files import user_db, user_objects
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

ALGORITHMS = [
    ("aa", ("-m", "2")),
    ("da", ("-m", "1")),
    ("oa", ("-m", "2")),
    ("partition", ()),
    ("lgr", ()),
    ("clump", ()),
]
SOURCES = ["fig2", "shifted"]
NAMES = ["r1", "r2", "sales", "customers"]  # the last two are the user's


class OneDatabase(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.measured: dict[str, float] = {}

    @initialize()
    def setup(self) -> None:
        import tempfile
        from pathlib import Path

        self.dir = Path(tempfile.mkdtemp(prefix="setanon-state-"))
        self.db = user_db(self.dir / "shop.duckdb")
        self.user = user_objects(self.db)
        shifted = self.dir / "shifted.csv"
        shifted.write_text("tid,item\n01,a1\n1,a1\n1,b2\n2,b1\n2,b2\n3,a2\n3,b1\n")
        table = self.dir / "people.csv"
        table.write_text("age,zip\n30,a\n31,a\n40,b\n41,b\n42,a\n43,b\n")
        self.files = {"fig2": EX / "fig2.csv", "shifted": shifted, "people": table}

    @rule(
        algo=st.sampled_from(ALGORITHMS),
        source=st.sampled_from(SOURCES),
        name=st.sampled_from(NAMES),
        k=st.integers(1, 3),
        replace=st.booleans(),
    )
    def anonymize(self, algo, source, name, k, replace) -> None:
        extra = ("--replace",) if replace else ()
        r = cli(
            "anonymize", self.files[source], "-H", EX / "fig2_hierarchy.csv", "-a", algo[0],
            *algo[1], "-k", k, "--db", self.db, "--run", name, "--json", "-q", *extra,
        )  # fmt: skip
        if name in ("sales", "customers"):
            assert r.code == 2 and "did not create" in r.stderr
        elif name in self.measured and not replace:
            assert r.code == 2 and "exists" in r.stderr
        else:
            assert r.code == 0, r.stderr
            self.measured[name] = r.json()["ncp"]

    @rule(name=st.sampled_from(["t1", "r1"]), k=st.integers(1, 3), replace=st.booleans())
    def anonymize_table(self, name, k, replace) -> None:
        extra = ("--replace",) if replace else ()
        r = cli(
            "anonymize-table", self.files["people"], "--qi", "age", "--qi", "zip",
            "-t", "age=fanout:2", "-t", "zip=suppress", "-k", k, "--db", self.db,
            "--run", name, "--json", *extra,
        )  # fmt: skip
        if name in self.measured and not replace:
            assert r.code == 2
        else:
            assert r.code == 0, r.stderr
            self.measured.pop(name, None)  # a table run has LM, not NCP
            self.measured[name] = -1.0

    @rule(source=st.sampled_from(SOURCES))
    def load(self, source) -> None:
        r = cli("load", self.files[source], "-H", EX / "fig2_hierarchy.csv", "--db", self.db)
        assert r.code == 0, r.stderr

    @rule(data=st.data())
    def verify_a_run(self, data) -> None:
        runs = [n for n, v in self.measured.items() if v >= 0]
        if runs:
            name = data.draw(st.sampled_from(runs))
            assert cli("verify", "--db", self.db, "--run", name, "-q").code == 0

    @invariant()
    def user_objects_unchanged(self) -> None:
        if hasattr(self, "db"):
            assert user_objects(self.db) == self.user

    @invariant()
    def earlier_runs_measure_the_same(self) -> None:
        for name, ncp in self.measured.items():
            if ncp < 0:
                continue
            r = cli("metrics", "--db", self.db, "--run", name, "--json")
            assert r.code == 0, r.stderr
            assert r.json()["ncp"] == pytest.approx(ncp)


OneDatabase.TestCase.settings = settings(
    max_examples=4,
    stateful_step_count=8,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
TestOneDatabase = OneDatabase.TestCase
