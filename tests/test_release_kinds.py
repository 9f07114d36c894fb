"""One release kind: every kind answered by every command, a run's kind recorded with it and
derived for a run made before kinds were recorded, and the registry a new algorithm joins by
one declaration (a toy algorithm shows it)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import duckdb
import pytest
from helpers.cli import cli
from helpers.cli import fig2 as on_fig2

from setanon_sql import Store, algorithms, api, runs
from setanon_sql.catalog import Algorithm, Option, ReleaseKind
from setanon_sql.errors import ExitCode, ParamsError
from setanon_sql.measure import kinds
from setanon_sql.measure.kinds import COMMANDS, Route, kind_of, route
from setanon_sql.params import Params

# what each command does with each kind; None: refused in one line (exit 2)
G, D, T, TS = Route.GENERALIZED, Route.DISASSOCIATED, Route.TABLE, Route.TABLE_SETS
EXPECTED: dict[ReleaseKind, dict[str, Route | None]] = {
    ReleaseKind.SETS: {c: (None if c == "reconstruct" else G) for c in COMMANDS},
    ReleaseKind.MULTISETS: {c: (None if c == "reconstruct" else G) for c in COMMANDS},
    ReleaseKind.DISASSOCIATED: {c: D for c in COMMANDS},
    ReleaseKind.TABLE: {c: (T if c == "evaluate" else None) for c in COMMANDS},
    ReleaseKind.TABLE_SETS: {
        c: (TS if c in ("verify", "metrics", "evaluate", "report", "compare") else None)
        for c in COMMANDS
    },
    ReleaseKind.SYNTHETIC: {
        c: (None if c == "reconstruct" else Route.SYNTHETIC if c == "verify" else G)
        for c in COMMANDS
    },
}


def answer(command: Any, kind: ReleaseKind) -> Route | None:
    try:
        return route(command, kind, "run 'r'")
    except ParamsError as e:
        assert "\n" not in str(e) and "'r'" in str(e)
        return None


@pytest.mark.parametrize("kind", list(ReleaseKind))
def test_every_kind_is_answered_by_every_command(kind: ReleaseKind) -> None:
    assert kind in EXPECTED, f"a new kind {kind}: say here what each command does with it"
    assert {c: answer(c, kind) for c in COMMANDS} == EXPECTED[kind]


def test_each_algorithm_declares_a_kind_and_engines_the_tool_reads() -> None:
    for algo in algorithms.ALGORITHMS.values():
        assert route("verify", algo.kind) in (G, D, Route.SYNTHETIC), algo.name
        assert algo.multiset == (algo.kind is ReleaseKind.MULTISETS)
    assert algorithms.get("clump").kind is ReleaseKind.MULTISETS
    assert algorithms.get("disassociation").kind is ReleaseKind.DISASSOCIATED
    assert algorithms.get("dpsets").kind is ReleaseKind.SYNTHETIC
    assert algorithms.on_engine("spark") == ("aa", "da", "partition")


@contextmanager
def opened(db) -> Iterator[Store]:
    store = Store(db)
    try:
        yield store
    finally:
        store.close()


def forget_kind(db, run: str) -> None:
    """The run as one made before kinds were recorded: no release_kind in its run_info."""
    con = duckdb.connect(str(db))
    con.execute(f'DELETE FROM "{run}".run_info WHERE key = ?', [runs.KIND_KEY])
    con.close()


def record_kind(db, run: str, kind: str) -> None:
    con = duckdb.connect(str(db))
    con.execute(f'UPDATE "{run}".run_info SET value = ? WHERE key = ?', [kind, runs.KIND_KEY])
    con.close()


@pytest.mark.parametrize(
    ("algorithm", "extra", "kind"),
    [
        ("partition", [], ReleaseKind.SETS),
        ("clump", [], ReleaseKind.MULTISETS),
        ("disassociation", ["--m", 2], ReleaseKind.DISASSOCIATED),
    ],
)
def test_a_run_records_its_kind_and_an_older_run_is_judged_alike(
    tmp_path, algorithm: str, extra: list, kind: ReleaseKind
) -> None:
    db = tmp_path / "w.duckdb"
    made = on_fig2("anonymize", "-a", algorithm, "--k", 2, *extra, "--db", db, "--json", "-q")
    assert made.code == 0, made.stderr
    run = made.json()["run"]
    before = {c: cli(c, "--db", db, "--run", run, "--json") for c in ("verify", "metrics")}
    assert all(r.code == 0 for r in before.values()), [r.stderr for r in before.values()]
    with opened(db) as store:
        assert runs.recorded_info(store, run)[runs.KIND_KEY] == kind.value
        assert runs.KIND_KEY not in runs.read_info(store, run)  # reports show what they did
        assert kind_of(store, run) is kind
    forget_kind(db, run)
    with opened(db) as store:
        assert runs.KIND_KEY not in runs.recorded_info(store, run)
        assert kind_of(store, run) is kind
        assert kinds.promise_of(store, run).multiset == (kind is ReleaseKind.MULTISETS)
    after = {c: cli(c, "--db", db, "--run", run, "--json") for c in ("verify", "metrics")}
    assert {c: (r.code, r.stdout) for c, r in after.items()} == {
        c: (r.code, r.stdout) for c, r in before.items()
    }


def test_a_run_of_a_kind_the_commands_do_not_take_is_refused_in_one_line(tmp_path) -> None:
    """The kind recorded with the run decides, not the algorithm's name: a run recorded as
    synthetic is verified by its budget record, which an aa run lacks (one line, exit 3, never
    judged as sets); a kind this version does not know is refused (exit 2)."""
    db = tmp_path / "w.duckdb"
    made = on_fig2("anonymize", "-a", "aa", "--k", 2, "--m", 2, "--db", db, "--json", "-q")
    run = made.json()["run"]
    record_kind(db, run, ReleaseKind.SYNTHETIC.value)
    r = cli("verify", "--db", db, "--run", run)
    assert r.code == ExitCode.INPUT, r.stderr
    assert "records no epsilon" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    record_kind(db, run, "hologram")
    r = cli("verify", "--db", db, "--run", run)
    assert r.code == ExitCode.USAGE and "does not know: 'hologram'" in r.stderr


def toy_run(store: Any, params: Any, progress: Any) -> dict[str, Any]:
    """A toy algorithm: every item released as itself (k-anonymous for k = 1 only)."""
    store.run("release_identity")
    return {"copies": params.options["copies"]}


TOY = Algorithm(
    "toy",
    "k",
    ReleaseKind.SETS,
    toy_run,
    summary="every item as itself",
    options=(Option("copies", int, 1, "how many", minimum=1),),
)


def test_a_toy_algorithm_joins_by_its_declaration(monkeypatch, fig2) -> None:
    """What a new algorithm touches: its module (its ALGORITHM and run) and one line of the
    registry; Params, anonymize, the verifier and `setanon algorithms` then know it."""
    monkeypatch.setitem(algorithms.ALGORITHMS, "toy", TOY)
    with pytest.raises(ParamsError, match="valid keys: copies"):
        Params(algorithm="toy", k=1, options={"copys": 2})
    result = api.anonymize(fig2, Params(algorithm="toy", k=1, options={"copies": "3"}))
    assert result.report.ok and result.info["copies"] == 3 and result.release == "set"
    assert kind_of(fig2, result.run) is ReleaseKind.SETS
    with pytest.raises(Exception, match="fails verification"):
        api.anonymize(fig2, Params(algorithm="toy", k=2, run_name="toy2"))
    listed = cli("algorithms", "--json")
    assert "toy" in [a["name"] for a in listed.json()]
