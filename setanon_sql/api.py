"""The library's entry points: open a database with a dataset, anonymize, verify, measure."""

from __future__ import annotations

import resource
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import algorithms, hierarchy, metrics
from . import load as load_mod
from .algorithms import Progress, quiet
from .errors import InfeasibleError, InputError, ParamsError, VerificationError
from .params import Params
from .store import Store
from .verify import VerifyReport, verify


@dataclass(frozen=True)
class HierarchySpec:
    """Where the hierarchy comes from: a file, edges, a fan-out over the items, or code
    prefixes."""

    path: str | Path | None = None
    format: str | None = None
    edges: tuple[tuple[str, str], ...] | None = None
    fanout: int | None = None
    code_prefix: bool = False
    order: str | None = None  # the --fanout builder's leaf order; None: hierarchy.DEFAULT_ORDER

    @property
    def leaf_order(self) -> str:
        """The order the --fanout builder uses; unset, the measured default (support)."""
        return self.order or hierarchy.DEFAULT_ORDER

    def check(self) -> None:
        chosen = [self.path, self.edges, self.fanout].count(None) + (not self.code_prefix)
        if chosen != 3:
            raise ParamsError("give exactly one of --hierarchy FILE, --fanout F, --code-prefix")
        if self.leaf_order not in hierarchy.ORDERS:
            raise ParamsError(f"--order must be one of {', '.join(hierarchy.ORDERS)}")
        if self.order is not None and self.fanout is None:
            raise ParamsError("--order applies to the --fanout builder")

    def build(self, store: Store) -> hierarchy.Hierarchy:
        """The tree: read from its file or edges, or built over the items of the store's
        dataset (the fan-out builder runs in SQL there)."""
        self.check()
        if self.edges is not None:
            return hierarchy.from_edges(self.edges)
        if self.path is not None:
            return hierarchy.read(self.path, self.format)
        if self.fanout is not None:
            return store.build_fanout(self.fanout, by_support=self.leaf_order == "support")
        return hierarchy.build_code_prefix(store.item_labels())

    def describe(self) -> str:
        """How the tree was made, for the registry."""
        if self.path is not None:
            return str(Path(self.path).resolve())
        if self.fanout is not None:
            return f"fanout {self.fanout}" + (" by support" if self.leaf_order == "support" else "")
        return "code-prefix" if self.code_prefix else "edges"


def open_store(
    source: str | Path | dict | list | None = None,
    *,
    hierarchy_spec: HierarchySpec | None = None,
    db: str | Path | None = None,
    format: str | None = None,
    table: str | None = None,
    tid_col: str = "tid",
    item_col: str = "item",
    dataset: int | None = None,
    read_only: bool = False,
    memory_limit: str | None = None,
    temp_dir: str | Path | None = None,
    threads: int | None = None,
) -> tuple[Store, list[str]]:
    """A store using the dataset of `source` (loaded, or found loaded) or, with no source, the
    dataset stored in `db` (`dataset` chooses among several), with the hierarchy set.

    Returns the store and any warnings (collapsed duplicates, near-duplicate labels).
    """
    if source is not None and dataset is not None:
        raise ParamsError("give an INPUT or --dataset, not both")
    if read_only and source is not None:
        raise ParamsError("a read-only database cannot load an INPUT")
    spec = None
    if isinstance(source, (str, Path)):
        spec = load_mod.source_spec(
            source, format=format, table=table, tid_col=tid_col, item_col=item_col
        )
    if hierarchy_spec is not None:
        hierarchy_spec.check()
    if source is None and db is not None and not Path(db).exists():
        raise InputError(f"no DuckDB database at {db} (give an INPUT to load, or check --db)")
    created = db is not None and not Path(db).exists()
    store = Store(
        db, read_only=read_only, memory_limit=memory_limit, temp_dir=temp_dir, threads=threads
    )
    notes: list[str] = []
    try:
        if source is not None:
            loaded = store.load(spec if spec is not None else source)
            if loaded.duplicates_collapsed:
                notes.append(
                    f"{loaded.duplicates_collapsed} duplicate (tid, item) row(s) collapsed"
                )
        else:
            if db is not None:
                store.registry.require()
            store.use_dataset_id(dataset)
        if hierarchy_spec is not None:
            h = hierarchy_spec.build(store)
            notes.extend(h.warnings)
            store.use_hierarchy(h, hierarchy_spec.describe())
        else:
            store.use_stored_hierarchy()
    except BaseException:
        store.close()
        if created:  # a database this call made and could not fill is not left behind
            for leftover in (Path(db), Path(f"{db}.wal")):
                leftover.unlink(missing_ok=True)
        raise
    return store, notes


@dataclass(frozen=True)
class LoadSummary:
    """A loaded dataset: where it lives, whether it was there already, and its size."""

    dataset: int
    schema: str
    format: str
    reused: bool
    duplicates_collapsed: int
    transactions: int
    items: int
    occurrences: int
    longest: int
    mean_length: float


def load(
    store: Store,
    source: str | Path | dict | list,
    *,
    format: str | None = None,
    table: str | None = None,
    tid_col: str = "tid",
    item_col: str = "item",
) -> LoadSummary:
    """Load a source into the store as a dataset (or find it loaded) and use it."""
    what = source
    if isinstance(source, (str, Path)):
        what = load_mod.source_spec(
            source, format=format, table=table, tid_col=tid_col, item_col=item_col
        )
    loaded = store.load(what)
    stats = store.stats()
    return LoadSummary(
        dataset=loaded.dataset.id,
        schema=loaded.dataset.schema,
        format=loaded.dataset.format,
        reused=loaded.reused,
        duplicates_collapsed=loaded.duplicates_collapsed,
        transactions=int(stats["transactions"]),
        items=int(stats["items"]),
        occurrences=int(stats["occurrences"]),
        longest=int(stats["longest"] or 0),
        mean_length=float(stats["mean_length"] or 0.0),
    )


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
    peak_rss_mb: float = 0.0  # the whole process's, DuckDB included, up to the run's end
    multiset: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "run": self.run,
            "algorithm": self.algorithm,
            "k": self.params.k,
            "m": self.params.m,
            "options": self.params.options,
            "release": "multiset" if self.multiset else "set",
            "seconds": round(self.seconds, 3),
            "loss": self.loss,
            "verified": self.report.as_dict(),
            "info": self.info,
        }


def anonymize(store: Store, params: Params, *, progress: Progress = quiet) -> Result:
    """Run one algorithm into a new run schema, verify its release, measure its loss.

    A release that fails the verifier raises VerificationError: it is never returned, and its
    run is removed.
    """
    algo = algorithms.get(params.algorithm)
    if algo.needs_hierarchy:  # disassociation needs none (#28)
        store.require_hierarchy()
    else:
        store.require_data()
    n = store.scalar("SELECT count(*) FROM tids")
    if params.k > n:
        raise InfeasibleError(f"k = {params.k} is larger than the data ({n} transactions)")
    name = params.run_name or store.new_run_name(
        f"{algo.name}_k{params.k}" + (f"_m{params.m}" if params.m else "")
    )
    record = {"k": params.k, "m": params.m, "options": params.options}
    started = time.perf_counter()
    with store.run_schema(name, algorithm=algo.name, params=record, replace=params.replace) as run:
        info = algo.runner()(store, params, progress) or {}
        info["search_s"] = round(time.perf_counter() - started, 3)  # before verification
        progress("verify", 0, None)
        report, loss = checked_release(store, algo, params)
        _record_run(store, algo.name, params, info)
        run.results = {"verified": report.as_dict(), "loss": loss, "info": info}
    return finished(run.schema, algo, params, report, loss, info, started)


def checked_release(store: Any, algo: Any, params: Params) -> tuple[Any, dict[str, Any]]:
    """The release's verdict and loss; a release that fails verification is never passed on.
    `store` is a Store or a spark_run.SparkStore."""
    if algo.disassociated:  # its own release format and verifier (#28)
        from . import verify_disassociation as vd

        report = vd.verify(store, k=params.k, m=params.m or 1)
        if not report.ok:
            raise VerificationError(
                f"{algo.name} produced a release that fails verification: {report.as_dict()}"
            )
        return report, vd.information_loss(store, prepared=True)
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
    return report, metrics.information_loss(store, multiset=algo.multiset)


def finished(
    run: str, algo: Any, params: Params, report: Any, loss: dict, info: dict, started: float
) -> Result:
    """The outcome of a verified run, timed from `started`."""
    return Result(
        run=run,
        algorithm=algo.name,
        params=params,
        report=report,
        loss=loss,
        info=info,
        seconds=time.perf_counter() - started,
        peak_rss_mb=peak_rss_mb(),
        multiset=algo.multiset,
    )


def peak_rss_mb() -> float:
    """The process's peak resident memory so far (Linux reports KiB): what DuckDB and Python
    used together, at no cost to the run (tracing Python's allocations slowed it down)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _record_run(store: Store, algorithm: str, params: Params, info: dict[str, Any]) -> None:
    rows = {"algorithm": algorithm, "k": params.k, "m": params.m, **params.options, **info}
    store.execute(
        "CREATE OR REPLACE TABLE run_info AS SELECT unnest($keys) AS key, unnest($values) AS value",
        {"keys": list(rows), "values": [None if v is None else str(v) for v in rows.values()]},
        step="run_info",
    )


@dataclass(frozen=True)
class StoredRun:
    """How a stored run was made: what its release must satisfy, and how it is measured."""

    name: str
    algorithm: str
    k: int
    m: int | None
    model: str
    multiset: bool
    allows_suppression: bool
    disassociated: bool = False  # its own release tables (#28)


def stored_run(store: Store, run: str) -> StoredRun:
    """A run of the registry with its algorithm's model (for verify and metrics of a run)."""
    row = store.registry.run(run)
    if row["kind"] != "transactions":
        raise ParamsError(f"run {run!r} is a {row['kind']} run; this command takes transactions")
    import json

    params = json.loads(row["params"]) if row["params"] else {}
    algo = algorithms.get(row["algorithm"])
    return StoredRun(
        run,
        algo.name,
        int(params["k"]),
        params.get("m"),
        algo.model,
        algo.multiset,
        algo.allows_suppression,
        algo.disassociated,
    )


def verify_release(
    store: Store,
    *,
    k: int | None = None,
    model: str | None = None,
    m: int | None = None,
    release: str | Path | None = None,
    run: str | None = None,
    allow_suppression: bool | None = None,
    multiset: bool | None = None,
) -> VerifyReport:
    """Verify a release file, a stored run, or (with neither) the data itself as released.

    A stored run is checked against its own dataset and hierarchy, by default with its own k,
    m, model and kind of release; the check's tables go to scratch, never into the run.
    """
    from . import release as rel

    if release is not None and run is not None:
        raise ParamsError("give a release file or a stored run, not both")
    if run is not None:
        made = stored_run(store, run)
        if made.disassociated:  # (#28)
            from . import verify_disassociation as vd

            with store.in_run(run, scratch=True):
                return vd.verify(store, k=made.k if k is None else k, m=made.m if m is None else m)
        with store.in_run(run, scratch=True):
            return verify(
                store,
                k=made.k if k is None else k,
                model=model or made.model,
                m=made.m if m is None else m,
                allow_suppression=made.allows_suppression
                if allow_suppression is None
                else allow_suppression,
                multiset=made.multiset if multiset is None else multiset,
            )
    if k is None:
        raise ParamsError("give k (--k) to verify a release file or the data")
    store.require_hierarchy()
    with store.scratch():
        if release is not None:
            rel.read_release(store, release)
        else:
            store.execute(
                "CREATE OR REPLACE TABLE release AS SELECT tid, item AS node FROM tx",
                step="identity",
            )
        return verify(
            store,
            k=k,
            model=model or ("km" if m else "k"),
            m=m,
            allow_suppression=bool(allow_suppression),
            multiset=bool(multiset),
        )


def release_metrics(
    store: Store,
    *,
    release: str | Path | None = None,
    run: str | None = None,
    multiset: bool | None = None,
    per_copy: bool = False,
) -> dict[str, Any]:
    """Information loss of a release file or of a stored run (measured as a set or multiset
    release as its algorithm made it), with the kind of release stated.

    `per_copy` measures instead over item instances with every released copy standing for
    exactly one original item (unmatched items suppressed, loss 1): issue 13's Clump measure."""
    from . import release as rel

    if per_copy:
        from .instance_loss import instance_loss

        measure = instance_loss
    else:

        def measure(s: Store) -> dict[str, Any]:
            return metrics.information_loss(s, multiset=bool(multiset))

    if (release is None) == (run is None):
        raise ParamsError("give either a release file (--release) or a stored run (--run)")
    if run is not None:
        made = stored_run(store, run)
        if made.disassociated:  # (#28) no NCP: every term is released as it is
            from .verify_disassociation import information_loss

            if per_copy:
                raise ParamsError(f"--per-copy measures generalized releases; {run} is not one")
            with store.in_run(run, scratch=True):
                return {"release": "disassociated", **information_loss(store)}
        multiset = made.multiset if multiset is None else multiset
        with store.in_run(run, scratch=True):
            loss = measure(store)
    else:
        store.require_hierarchy()
        with store.scratch():
            rel.read_release(store, release)
            loss = measure(store)
    kind = "per copy" if per_copy else ("multiset" if multiset else "set")
    return {"release": kind, **loss}


def reconstruct(store: Store, run: str, path: str | Path) -> dict[str, Any]:
    """Write one random reconstruction of a disassociation run's release as ordinary
    transactions (long tid,item CSV or Parquet): one dataset consistent with the release,
    rows of different chunks recombined at random; not the original (#28)."""
    from .disassociated_files import reconstruct as draw

    if not stored_run(store, run).disassociated:
        raise ParamsError(f"run {run!r} is not a disassociation run; reconstruct takes one")
    with store.in_run(run, scratch=True):
        return {"run": run, **draw(store, path)}


def list_runs(store: Store) -> list[dict[str, Any]]:
    """Every run of the registry, transactional and table alike, with its dataset, parameters,
    status, time and results."""
    return store.registry.runs()


def list_datasets(store: Store) -> list[dict[str, Any]]:
    """Every dataset of the registry with its hierarchies and runs counted."""
    return store.registry.datasets()
