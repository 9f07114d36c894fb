"""The library's entry points: open a database with a dataset, anonymize, verify, measure."""

from __future__ import annotations

import resource
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import runs
from .algorithms import get as get_algorithm
from .algorithms import on_engine
from .catalog import Algorithm, ReleaseKind
from .engine.contract import Workspace
from .errors import InputError, ParamsError, VerificationError
from .measure import metrics
from .measure.kinds import Route, label, promise_of, route, unhandled
from .measure.verify import VerifyReport, verify, verify_promise
from .params import Params
from .progress import Progress, quiet
from .store import sources as load_mod
from .store.database import Store
from .store.hierarchy_spec import HierarchySpec, refuse_catalogue
from .store.publish import RunOutputs, inputs_of

if TYPE_CHECKING:
    import duckdb
    import pyarrow as pa

    from .measure.verify_disassociation import DisassociationReport
    from .store.spark_store import SparkSource, SparkStore


def open_store(
    source: str | Path | dict | list | pa.Table | duckdb.DuckDBPyRelation | None = None,
    *,
    hierarchy_spec: HierarchySpec | None = None,
    db: str | Path | None = None,
    format: str | None = None,
    table: str | None = None,
    tid_col: str | None = None,
    item_col: str | None = None,
    encoding: str | None = None,
    dataset: int | None = None,
    read_only: bool = False,
    memory_limit: str | None = None,
    temp_dir: str | Path | None = None,
    threads: int | None = None,
) -> tuple[Store, list[str]]:
    """A store using the dataset of `source` (loaded, or found loaded) or, with no source, the
    dataset stored in `db` (`dataset` chooses among several), with the hierarchy set. A source
    is a file path, transactions held in Python (a list, or a dict tid -> items), or (tid,
    item) rows of a pyarrow Table or DuckDB relation (`tid_col`, `item_col`; an item column
    may be a LIST); anything else is refused by its type (`SourceTypeError`, a `TypeError`).

    Returns the store and any warnings (collapsed duplicates, near-duplicate labels).
    """
    if source is not None and dataset is not None:
        raise ParamsError("give an INPUT or --dataset, not both")
    if read_only and source is not None:
        raise ParamsError("a read-only database cannot load an INPUT")
    what = None
    if source is not None:
        what = _source(source, format, table, tid_col, item_col, encoding)
    elif encoding is not None:
        raise ParamsError("--encoding applies to an INPUT file")
    if hierarchy_spec is not None:
        hierarchy_spec.check()
    if source is None and db is not None and not Path(db).exists():
        raise InputError(f"no DuckDB database at {db} (give an INPUT to load, or check --db)")
    made = Path(db) if db is not None and not Path(db).exists() else None
    store = Store(
        db, read_only=read_only, memory_limit=memory_limit, temp_dir=temp_dir, threads=threads
    )
    notes: list[str] = []
    try:
        if what is not None:
            loaded = store.load(what)
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
        if made is not None:  # a database this call made and could not fill is not left behind
            for leftover in (made, Path(f"{made}.wal")):
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


def _source(
    source: str | Path | dict | list | pa.Table | duckdb.DuckDBPyRelation,
    format: str | None,
    table: str | None,
    tid_col: str | None,
    item_col: str | None,
    encoding: str | None,
) -> load_mod.SourceSpec | dict | list | load_mod.Pairs:
    """A file source as its checked spec; transactions held in Python as they are, (tid, item)
    rows of a pyarrow Table or DuckDB relation as `Pairs`; anything else refused by its type."""
    if isinstance(source, (str, Path)):
        return load_mod.source_spec(
            source,
            format=format,
            table=table,
            tid_col=tid_col,
            item_col=item_col,
            encoding=encoding,
        )
    if encoding is not None:
        raise ParamsError("--encoding applies to an INPUT file")
    if (format, table) != (None, None):
        raise ParamsError("format and table apply to a file source")
    return load_mod.in_memory(source, tid_col, item_col)


def load(
    store: Store,
    source: str | Path | dict | list | pa.Table | duckdb.DuckDBPyRelation,
    *,
    format: str | None = None,
    table: str | None = None,
    tid_col: str | None = None,
    item_col: str | None = None,
    encoding: str | None = None,
) -> LoadSummary:
    """Load a source into the store as a dataset (or find it loaded) and use it."""
    loaded = store.load(_source(source, format, table, tid_col, item_col, encoding))
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
    report: VerifyReport | DisassociationReport
    loss: dict[str, Any]
    info: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    peak_rss_mb: float = 0.0  # the whole process's, DuckDB included, up to the run's end
    multiset: bool = False
    kind: ReleaseKind = ReleaseKind.SETS

    @property
    def release(self) -> str:
        """The kind of release: a set or multiset of nodes per transaction, or disassociated
        (clusters of chunks, #28)."""
        return label(self.kind)

    def as_dict(self) -> dict[str, Any]:
        private = self.kind is ReleaseKind.SYNTHETIC  # k and m mean nothing there (#44)
        return {
            "run": self.run,
            "algorithm": self.algorithm,
            "k": None if private else self.params.k,
            "m": None if private else self.params.m,
            "options": self.params.options,
            "release": self.release,
            "seconds": round(self.seconds, 3),
            "loss": self.loss,
            "verified": self.report.as_dict(),
            "info": self.info,
        }


def anonymize(
    store: Store | SparkStore,
    params: Params,
    *,
    progress: Progress = quiet,
    outputs: RunOutputs | None = None,
    read: Iterable[str | Path | None] = (),
) -> Result:
    """Run one algorithm into a new run, verify its release, measure its loss, and write
    `outputs` (release file or folder, table, SQL log) as the run takes its place: the same
    steps on either engine; only the run's making differs (`runs.algorithm_run`).

    A release that fails the verifier raises VerificationError: it is never returned, and its
    run is removed. Outputs are checked before the work against `read` (the files the caller
    read), the database and every source its registry names.
    """
    algo = get_algorithm(params.algorithm)
    if algo.needs_hierarchy:  # disassociation releases every term as it is: needs none (#28)
        store.require_hierarchy()
    else:
        store.require_data()
    if algo.model != "dp":  # a differentially private run takes no k (#44)
        refuse_catalogue(getattr(store, "hierarchy", None), algo.name)
        runs.check_k(params.k, store.count("tids"))
    else:  # a seed, a domain from the data: refused before a run is recorded
        from .algorithms.dp_plan import check_run

        check_run(store, params.options)
    started = time.perf_counter()
    with runs.algorithm_run(store, algo, params, outputs, read) as run:
        info = algo.run(store, params, progress) or {}
        info["search_s"] = round(time.perf_counter() - started, 3)  # before verification
        progress("verify", 0, None)
        report, loss = checked_release(store, algo, params)
        engine = {} if isinstance(store, Store) else {"engine": "spark"}  # DuckDB's says none
        runs.write_info(store, run_info(algo.name, params, info, **engine))
        run.results = {"verified": report.as_dict(), "loss": loss, "info": info}
    return finished(run.schema, algo, params, report, loss, info, started)


def open_spark(
    source: SparkSource,
    spec: HierarchySpec,
    params: Params,
    *,
    master: str | None = None,
    warehouse: str | Path | None = None,
    spark: Any = None,
    memory_limit: str | None = None,
) -> tuple[SparkStore, list[str]]:
    """Spark's `open_store`: a store for the run `params` will make (named by `--run` or, as
    on DuckDB, `run_<algorithm>_k<k>[_m<m>]`), the data and hierarchy loaded into its staged
    database; use it with `anonymize` and close it (a context manager). Returns warnings too.
    A session it starts gets `memory_limit` for its driver (default: DuckDB's share of the
    machine's memory)."""
    from .store import spark_store

    spark_store.check_algorithm(get_algorithm(params.algorithm), on_engine("spark"))
    base = runs.default_base(params.algorithm, params.k, params.m)
    name = params.run_name or f"{runs.RUN_PREFIX}{base}"
    return spark_store.open_run(
        source, spec, run=name, replace=params.replace,
        master=master or spark_store.DEFAULT_MASTER, warehouse=warehouse, spark=spark,
        memory_limit=memory_limit,
    )  # fmt: skip


def run_info(algorithm: str, params: Params, info: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """What a run records in its `run_info`: algorithm, k, m, every option, the search's figures,
    and last its kind of release (`measure.kinds.kind_of` reads it back)."""
    algo = get_algorithm(algorithm)
    k = None if algo.model == "dp" else params.k  # dpsets never reads a k (#44)
    return {
        "algorithm": algorithm, **extra, "k": k, "m": params.m, **params.options, **info,
        runs.KIND_KEY: algo.kind.value,
    }  # fmt: skip


def checked_release(
    store: Workspace, algo: Algorithm, params: Params
) -> tuple[VerifyReport | DisassociationReport, dict[str, Any]]:
    """The release's verdict and loss; a release that fails verification is never passed on.
    `store` is a Store or a store.spark_store.SparkStore."""
    match route("verify", algo.kind):
        case Route.DISASSOCIATED:  # its own format, verifier (#28)
            from .measure import verify_disassociation as vd

            checked = vd.verify(store, k=params.k, m=params.m or 1)
            if not checked.ok:
                raise VerificationError(
                    f"{algo.name} produced a release that fails verification: {checked.as_dict()}"
                )
            return checked, vd.information_loss(store, prepared=True)
        case Route.SYNTHETIC:  # no output check proves DP (#44)
            from .measure import verify_dp

            found = verify_dp.verify(store, epsilon=float(params.options["epsilon"]))
            if found.problems:  # a seeded test run is written, and says it is not private
                raise VerificationError(f"{algo.name} left a bad budget record: {found.as_dict()}")
            # every item is released as itself (no generalization); the transactions are
            # synthetic, so suppression has no meaning: `evaluate` measures what it is good for
            return found, {"ncp": 0.0, "lm": 0.0, "suppressed": None}  # type: ignore[return-value]
        case Route.TABLE | Route.TABLE_SETS:  # tables are anonymized by `relational/`
            raise AssertionError(f"{algo.name} declares a table release in the registry")
        case Route.GENERALIZED:
            pass
        case unknown:
            unhandled(unknown)
    promise = runs.Promise(
        k=params.k,
        m=params.m,
        model=algo.model,
        allows_suppression=algo.allows_suppression,
        kind=algo.kind,
    )
    report = verify_promise(store, promise)
    if not report.ok:
        raise VerificationError(
            f"{algo.name} produced a release that fails verification: {report.as_dict()}"
        )
    return report, metrics.information_loss(store, multiset=algo.multiset)


def finished(
    run: str,
    algo: Algorithm,
    params: Params,
    report: VerifyReport | DisassociationReport,
    loss: dict[str, Any],
    info: dict[str, Any],
    started: float,
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
        kind=algo.kind,
    )


def peak_rss_mb() -> float:
    """The process's peak resident memory so far (Linux reports KiB): what DuckDB and Python
    used together, at no cost to the run (tracing Python's allocations slowed it down)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


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
) -> VerifyReport | DisassociationReport:
    """Verify a release file or folder, a stored run, or (with neither) the data itself as
    released. A disassociated release folder is checked as far as it can be without the
    records' membership (`measure.verify_folder`).

    A stored run is checked against its own dataset and hierarchy, by default with its own k,
    m, model and kind of release; the check's tables go to scratch, never into the run.
    """
    from .store import release_io as rel

    if release is not None and run is not None:
        raise ParamsError("give a release file or a stored run, not both")
    if run is not None:
        from .measure.verify_run import verify_run

        return verify_run(
            store, run, k=k, model=model, m=m, allow_suppression=allow_suppression,
            multiset=multiset,
        )  # fmt: skip
    from .store.release_folder import is_folder

    if release is not None and is_folder(release):  # a disassociated release folder
        if model is not None or allow_suppression is not None or multiset is not None:
            raise ParamsError(
                f"{release} is a disassociated release folder: its verifier takes --k and --m "
                "only (no --model, --allow-suppression or --multiset)"
            )
        from .measure.verify_folder import verify_folder

        with store.scratch():
            return verify_folder(store, release, k=k, m=m)
    if k is None:
        raise ParamsError("give k (--k) to verify a release file or the data")
    store.require_hierarchy()
    with store.scratch():
        if release is not None:
            rel.read_release(store, release)
        else:
            store.run("release_identity")
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
    from .store import release_io as rel

    def measure(s: Workspace) -> dict[str, Any]:
        """The loss asked for; `multiset` is read when measuring, once a run has set it."""
        if per_copy:
            from .measure.instance_loss import instance_loss

            return instance_loss(s)
        return metrics.information_loss(s, multiset=bool(multiset))

    if (release is None) == (run is None):
        raise ParamsError("give either a release file (--release) or a stored run (--run)")
    if run is not None:
        made = promise_of(store, run)
        match route("metrics", made.kind, f"run {run!r}"):
            case Route.DISASSOCIATED:  # no NCP (#28)
                if per_copy or multiset is not None:
                    raise ParamsError(
                        f"--per-copy and --multiset measure generalized releases; {run!r} is "
                        "disassociated"
                    )
                from .measure.verify_disassociation import information_loss

                with store.in_run(run, scratch=True):
                    return {"release": "disassociated", **information_loss(store)}
            case Route.TABLE | Route.TABLE_SETS:  # promise_of refused a table run above
                raise AssertionError(f"run {run!r}: a table run reached the transactions' loss")
            case Route.GENERALIZED | Route.SYNTHETIC:
                pass
            case unknown:
                unhandled(unknown)
        multiset = made.multiset if multiset is None else multiset
        with store.in_run(run, scratch=True):
            loss = measure(store)
    elif release is not None:
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
    from .store.disassociated_files import reconstruct as draw

    route("reconstruct", promise_of(store, run).kind, f"run {run!r}")
    with store.in_run(run, scratch=True):
        return {"run": run, **draw(store, path, inputs_of(store))}


def list_runs(store: Store) -> list[dict[str, Any]]:
    """Every run of the registry, transactional and table alike, with its dataset, parameters,
    status, time and results."""
    return store.registry.runs()


def list_datasets(store: Store) -> list[dict[str, Any]]:
    """Every dataset of the registry with its hierarchies and runs counted."""
    return store.registry.datasets()
