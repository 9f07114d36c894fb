"""The library's entry points: prepare a store, anonymize, verify, measure."""

from __future__ import annotations

import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import algorithms, hierarchy, load, metrics
from .algorithms import Progress, quiet
from .errors import InfeasibleError, ParamsError, VerificationError
from .params import Params
from .store import Store
from .verify import VerifyReport, verify


@dataclass(frozen=True)
class HierarchySpec:
    """Where the hierarchy comes from: a file, a fan-out over the items, or code prefixes."""

    path: str | Path | None = None
    format: str | None = None
    edges: tuple[tuple[str, str], ...] | None = None
    fanout: int | None = None
    code_prefix: bool = False

    def build(self, items: list[str]) -> hierarchy.Hierarchy:
        chosen = [self.path, self.edges, self.fanout].count(None) + (not self.code_prefix)
        if chosen != 3:
            raise ParamsError("give exactly one of --hierarchy FILE, --fanout F, --code-prefix")
        if self.edges is not None:
            return hierarchy.from_edges(self.edges)
        if self.path is not None:
            return hierarchy.read(self.path, self.format)
        if self.fanout is not None:
            return hierarchy.build_fanout(items, self.fanout)
        return hierarchy.build_code_prefix(items)


def open_store(
    source: str | Path | dict | list | None = None,
    *,
    hierarchy_spec: HierarchySpec | None = None,
    db: str | Path | None = None,
    format: str | None = None,
    table: str | None = None,
    tid_col: str = "tid",
    item_col: str = "item",
) -> tuple[Store, list[str]]:
    """A store with the data loaded (or the one already in `db`) and the hierarchy set.

    Returns the store and any warnings (collapsed duplicates, near-duplicate labels).
    """
    store = Store(db)
    notes: list[str] = []
    try:
        if isinstance(source, (dict, list)):
            load.load_transactions(store, source)
        elif source is not None:
            summary = load.load(
                store, source, format=format, table=table, tid_col=tid_col, item_col=item_col
            )
            if summary.duplicates_collapsed:
                notes.append(
                    f"{summary.duplicates_collapsed} duplicate (tid, item) row(s) collapsed"
                )
        store.require_data()
        if hierarchy_spec is not None:
            h = hierarchy_spec.build(store.item_labels())
            notes.extend(h.warnings)
            store.use_hierarchy(h)
    except BaseException:
        store.close()
        raise
    return store, notes


@dataclass(frozen=True)
class Result:
    """What a run produced: its schema (holding `release`), its verification and its loss."""

    run: str
    algorithm: str
    params: Params
    report: VerifyReport
    loss: dict[str, Any]
    info: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    peak_python_mb: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "run": self.run,
            "algorithm": self.algorithm,
            "k": self.params.k,
            "m": self.params.m,
            "seconds": round(self.seconds, 3),
            "loss": self.loss,
            "verified": self.report.as_dict(),
            "info": self.info,
        }


def anonymize(store: Store, params: Params, *, progress: Progress = quiet) -> Result:
    """Run one algorithm into a new run schema, verify its release, measure its loss.

    A release that fails the verifier raises VerificationError: it is never returned.
    """
    algo = algorithms.get(params.algorithm)
    store.require_hierarchy()
    n = store.scalar("SELECT count(*) FROM tids")
    if params.k > n:
        raise InfeasibleError(f"k = {params.k} is larger than the data ({n} transactions)")
    name = params.run_name or store.new_run_name(
        f"{algo.name}_k{params.k}" + (f"_m{params.m}" if params.m else "")
    )
    started = time.perf_counter()
    tracemalloc.start()
    try:
        with store.run_schema(name, replace=params.replace) as run:
            info = algo.runner()(store, params, progress) or {}
            info["search_s"] = round(time.perf_counter() - started, 3)  # before verification
            progress("verify", 0, None)
            report = verify(
                store,
                k=params.k,
                model=algo.model,
                m=params.m,
                allow_suppression=algo.allows_suppression,
                multiset=algo.multiset,
            )
            if not report.ok:
                raise VerificationError(
                    f"{algo.name} produced a release that fails verification: {report.as_dict()}"
                )
            loss = metrics.information_loss(store, multiset=algo.multiset)
            _record_run(store, algo.name, params, info)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return Result(
        run=run.schema,
        algorithm=algo.name,
        params=params,
        report=report,
        loss=loss,
        info=info,
        seconds=time.perf_counter() - started,
        peak_python_mb=peak / 2**20,
    )


def _record_run(store: Store, algorithm: str, params: Params, info: dict[str, Any]) -> None:
    rows = {"algorithm": algorithm, "k": params.k, "m": params.m, **params.options, **info}
    store.execute(
        "CREATE OR REPLACE TABLE run_info AS SELECT unnest($keys) AS key, unnest($values) AS value",
        {"keys": list(rows), "values": [None if v is None else str(v) for v in rows.values()]},
        step="run_info",
    )


def verify_release(
    store: Store,
    *,
    k: int,
    model: str = "k",
    m: int | None = None,
    release: str | Path | None = None,
    run: str | None = None,
    allow_suppression: bool = False,
    multiset: bool = False,
) -> VerifyReport:
    """Verify a release file, a stored run, or (with neither) the data itself as released."""
    from . import release as rel

    store.require_hierarchy()
    if run is not None:
        with store.in_run(run):
            return verify(
                store, k=k, model=model, m=m, allow_suppression=allow_suppression, multiset=multiset
            )
    name = store.new_run_name("verify")
    with store.run_schema(name):
        if release is not None:
            rel.read_release(store, release)
        else:
            store.execute(
                "CREATE TABLE release AS SELECT tid, item AS node FROM tx", step="identity"
            )
        return verify(
            store, k=k, model=model, m=m, allow_suppression=allow_suppression, multiset=multiset
        )


def release_metrics(
    store: Store,
    *,
    release: str | Path | None = None,
    run: str | None = None,
    multiset: bool = False,
) -> dict[str, Any]:
    """Information loss of a release file or of a stored run."""
    from . import release as rel

    store.require_hierarchy()
    if (release is None) == (run is None):
        raise ParamsError("give either a release file or a stored run")
    if run is not None:
        with store.in_run(run):
            return metrics.information_loss(store, multiset=multiset)
    with store.run_schema(store.new_run_name("metrics")):
        rel.read_release(store, release)
        return metrics.information_loss(store, multiset=multiset)


def run_sql_log(store: Store, run: str, step: str | None = None) -> list[tuple]:
    """The SQL a stored run executed, in order: (seq, step, sql, params)."""
    if run not in store.schemas() or not store.has_table("sql_log", run):
        raise ParamsError(f"no run {run!r} with an SQL log in this database")
    with store.in_run(run):
        return store.query(
            "SELECT seq, step, sql, params FROM sql_log WHERE $step IS NULL OR step = $step "
            "ORDER BY seq",
            {"step": step},
        )


def list_runs(store: Store) -> list[dict[str, Any]]:
    """Every run schema of the database with its tables and recorded parameters."""
    out = []
    for schema in store.schemas():
        if schema in (store.schema, "main") or not store.has_table("release", schema):
            continue
        tables = [
            r[0]
            for r in store.query(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = $s "
                "ORDER BY table_name",
                {"s": schema},
            )
        ]
        info = {}
        if "run_info" in tables:
            with store.in_run(schema):
                info = dict(store.query("SELECT key, value FROM run_info"))
        out.append({"run": schema, "tables": tables, "info": info})
    return out
