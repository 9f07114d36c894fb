"""The judging commands: `evaluate`, `report`, `compare`, `sweep` (what a release is still good
for, and what it exposes)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..errors import ParamsError
from . import options as o
from .app import app
from .dp import Epsilons, sweep_epsilons
from .output import emit, rows
from .stores import inputs, open_data, open_db, registered, run_only

if TYPE_CHECKING:
    from ..measure.kinds import Command

DEFAULT_RISK_THRESHOLD = 0.2


def _print_evaluation(data: dict[str, Any], as_json: bool, quiet: bool) -> None:
    if as_json:
        typer.echo(json.dumps(data, default=str))
        return
    if quiet:
        return
    head = {k: v for k, v in data.items() if not isinstance(v, (list, dict))}
    title = f"evaluation of {data.get('run')}"
    model = data.get("model") or {}
    if model.get("model") == "dp":  # its promise, not a k it never used (#44)
        head |= {k: model[k] for k in ("epsilon", "epsilon_spent", "mechanism")}
        title += f": {model['checked']}"
    emit(head, False, title)
    for key in ("itemset_queries", "frequent_queries", "table_queries", "mixed_queries", "attacks"):
        if data.get(key):
            rows(data[key], False, key.replace("_", " "), list(data[key][0]))


@app.command("evaluate")
def evaluate_cmd(
    source: o.Source = None,
    format: o.Format = None,
    table: o.Table = None,
    tid_col: o.TidCol = None,
    item_col: o.ItemCol = None,
    encoding: o.Encoding = None,
    dataset: o.Dataset = None,
    hierarchy: o.Hierarchy = None,
    hierarchy_format: o.HierarchyFormat = None,
    fanout: o.Fanout = None,
    code_prefix: o.CodePrefix = False,
    order: o.Order = None,
    hierarchy_encoding: o.HierarchyEncoding = None,
    db: o.Db = None,
    memory_limit: o.MemoryLimit = None,
    temp_dir: o.TempDir = None,
    threads: o.Threads = None,
    queries: o.Queries = None,
    targets: o.Targets = None,
    sizes: o.Sizes = None,
    minsup: o.Minsup = None,
    seed: o.Seed = None,
    exact: o.Exact = False,
    sample: o.Sample = None,
    sanity: o.Sanity = None,
    run: o.StoredRun = None,
    release_file: o.Release = None,
    k: Annotated[
        int | None, typer.Option("--k", "-k", help="k of a release file's promise.", min=1)
    ] = None,
    m: o.M = None,
    multiset: Annotated[
        bool, typer.Option("--multiset", help="The release file repeats nodes (Clump).")
    ] = False,
    synthesized: Annotated[
        bool,
        typer.Option(
            "--synthesized",
            help="The release file's transactions are its own (a synthesized, e.g. "
            "differentially private, release): scored as they are, not matched to the data's "
            "tids; no -k.",
        ),
    ] = False,
    sensitive: Annotated[
        str | None, typer.Option("--sensitive", help="Sensitive column (table runs).")
    ] = None,
    risk_threshold: Annotated[
        float | None,
        typer.Option(
            "--risk-threshold",
            help=f"Prosecutor risk counted as high (table runs; {DEFAULT_RISK_THRESHOLD}).",
        ),
    ] = None,
    as_json: o.Json = False,
    quiet: o.Quiet = False,
) -> None:
    """What a release is still good for (itemset-query error) and what it exposes (attacks),
    measured in SQL on a stored run or a release file; kept as eval_* tables of the run."""
    from ..measure import evaluate as ev
    from ..measure.kinds import Route, kind_of, route, unhandled
    from ..runs import Promise

    src = o.SourceOpts(source, format, table, tid_col, item_col, dataset, encoding)
    hier = o.HierOpts(hierarchy, hierarchy_format, fanout, code_prefix, order, hierarchy_encoding)
    dbo = o.DbOpts(db, memory_limit, temp_dir, threads)
    wl = o.WorkloadOpts(queries, targets, sizes, minsup, seed, exact, sample, sanity)
    workload = wl.workload()
    if run is None:
        if release_file is None or (k is None and not synthesized):
            raise ParamsError(
                "evaluate a stored run (--db, --run) or a release file (-r FILE --k K, or "
                "-r FILE --synthesized)"
            )
        o.refuse_unless(
            sensitive is None and risk_threshold is None,
            "--sensitive and --risk-threshold measure table runs; a release file holds transactions",
        )
        o.refuse_unless(
            not synthesized or (k is None and m is None and not multiset),
            "a --synthesized release promises no k, m or multiset: drop them",
        )
        model = (
            Promise(k=1, model="dp")  # its own transactions (#44); attacks promise nothing
            if synthesized
            else Promise(k=k or 1, m=m, model="km" if m else "k", multiset=multiset)
        )
        with open_data(src, hier, dbo) as store:
            data = ev.evaluate_release_file(store, release_file, model=model, workload=workload)
        return _print_evaluation(data, as_json, quiet)
    run_only(src, hier, "evaluate")
    o.refuse_unless(release_file is None, "give --run or --release, not both")
    o.refuse_unless(
        k is None and m is None and not multiset and not synthesized,
        "--k, --m, --multiset and --synthesized describe a release file; a stored run keeps its "
        "own",
    )
    with open_db(dbo, read_only=False) as store:  # eval_* tables join the run's schema
        match route("evaluate", kind_of(store, run), f"run {run!r}"):
            case Route.TABLE_SETS:
                data = _evaluate_rt(store, run, wl, sensitive, risk_threshold)
            case Route.TABLE:
                data = _evaluate_table(store, run, wl, sensitive, risk_threshold)
            case Route.GENERALIZED | Route.DISASSOCIATED | Route.SYNTHETIC:
                o.refuse_unless(
                    sensitive is None and risk_threshold is None,
                    f"--sensitive and --risk-threshold measure table runs; {run!r} holds "
                    "transactions",
                )
                data = ev.evaluate(store, run, workload=workload)
            case unknown:
                unhandled(unknown)
    _print_evaluation(data, as_json, quiet)


def _evaluate_rt(
    store: Any, run: str, wl: o.WorkloadOpts, sensitive: str | None, threshold: float | None
) -> dict[str, Any]:
    """Mixed-query error of a table with a set column (a QI value and an itemset per query),
    and attacks knowing a row's QIs and 1..m+1 of its items (--targets rows each)."""
    from ..relational.rt_evaluate import evaluate_rt

    o.refuse_unless(
        wl.minsup is None and wl.sanity is None and sensitive is None and threshold is None,
        f"--minsup, --sanity, --sensitive and --risk-threshold do not apply to {run!r}, a table "
        "with a set column (its queries and attacks: --queries, --sizes, --targets, --seed)",
    )
    return evaluate_rt(store, run, **_rt_workload(run, wl))


def _rt_workload(run: str, wl: o.WorkloadOpts) -> dict[str, Any]:
    """The mixed queries and attacks of a table with a set column: --queries, --targets,
    --sizes (1,2 unless given), --seed; the transaction workload's other knobs are refused."""
    o.refuse_unless(
        wl.minsup is None and wl.sanity is None and not wl.exact and wl.sample is None,
        f"--minsup, --sanity, --exact and --sample do not apply to {run!r}, a table with a set "
        "column (its queries and attacks: --queries, --sizes, --targets, --seed)",
    )
    workload = wl.workload()
    sizes = workload.sizes if wl.sizes is not None else (1, 2)
    return {"queries": workload.queries, "targets": workload.targets, "sizes": sizes,
            "seed": workload.seed}  # fmt: skip


def _is_rt(store: Any, run: str, command: Command) -> bool:
    from ..measure.kinds import to_relational

    return to_relational(store, run, command)


def _evaluate_table(
    store: Any, run: str, wl: o.WorkloadOpts, sensitive: str | None, threshold: float | None
) -> dict[str, Any]:
    """COUNT-query error and prosecutor risk of a table run (no targets, no frequent sets)."""
    from ..relational.evaluate import table_exposure, table_utility

    o.refuse_unless(
        wl.targets is None and wl.minsup is None and wl.sanity is None,
        f"--targets, --minsup and --sanity are for transaction runs; {run!r} is a table run",
    )
    workload = wl.workload()
    data = {"run": run} | table_utility(
        store, run, queries=workload.queries, dims=workload.sizes, seed=workload.seed
    )
    return data | table_exposure(
        store,
        run,
        sensitive=sensitive,
        threshold=DEFAULT_RISK_THRESHOLD if threshold is None else threshold,
    )


@app.command("report")
def report_cmd(
    run: Annotated[str, typer.Option("--run", help="A run stored in --db.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="The HTML page to write.")],
    db: o.Db = None,
    memory_limit: o.MemoryLimit = None,
    temp_dir: o.TempDir = None,
    threads: o.Threads = None,
    queries: o.Queries = None,
    targets: o.Targets = None,
    sizes: o.Sizes = None,
    minsup: o.Minsup = None,
    seed: o.Seed = None,
    exact: o.Exact = False,
    sample: o.Sample = None,
    sanity: o.Sanity = None,
    replace: o.ReplaceOutput = False,
    as_json: o.Json = False,
) -> None:
    """One self-contained HTML page on a stored run: verdict, loss, generalization, query error,
    attacks (charts inline, nothing loaded from elsewhere); for a table with a set column, the
    loss per QI and of the items, mixed-query error and attacks knowing QIs and items."""
    from ..measure.report import render_html, run_report
    from ..measure.rt_page import render_rt_html
    from ..relational.rt_report import rt_report
    from ..store import outputs

    page(output, [db, *registered(db)], replace=replace)
    wl = o.WorkloadOpts(queries, targets, sizes, minsup, seed, exact, sample, sanity)
    with open_db(o.DbOpts(db, memory_limit, temp_dir, threads), read_only=False) as store:
        target = page(output, [db], store, replace=replace)
        if _is_rt(store, run, "report"):
            text = render_rt_html(rt_report(store, run, **_rt_workload(run, wl)))
        else:
            text = render_html(run_report(store, run, workload=wl.workload()))
    outputs.write_text(target, text)
    emit({"run": run, "output": str(output)}, as_json, "report written")


@app.command("compare")
def compare_cmd(
    runs: Annotated[list[str], typer.Argument(help="Runs stored in --db.")],
    db: o.Db = None,
    memory_limit: o.MemoryLimit = None,
    temp_dir: o.TempDir = None,
    threads: o.Threads = None,
    queries: o.Queries = None,
    targets: o.Targets = None,
    sizes: o.Sizes = None,
    minsup: o.Minsup = None,
    seed: o.Seed = None,
    sanity: o.Sanity = None,
    report: Annotated[
        Path | None, typer.Option("--report", help="Also write the trade-off page (HTML).")
    ] = None,
    replace: o.ReplaceOutput = False,
    as_json: o.Json = False,
) -> None:
    """Evaluate stored runs on one seeded workload and print them side by side (a table with a
    set column: both losses, mixed-query error and attacks knowing QIs and items)."""
    from ..measure.compare import compare
    from ..relational.rt_report import compare_row, rt_report

    o.refuse_unless(not replace or report is not None, "--replace replaces the --report page")
    if report is not None:
        page(report, [db, *registered(db)], replace=replace)
    wl = o.WorkloadOpts(queries, targets, sizes, minsup, seed, sanity=sanity)
    with open_db(o.DbOpts(db, memory_limit, temp_dir, threads), read_only=False) as store:
        target = page(report, [db], store, replace=replace) if report is not None else None
        found = [
            compare_row(rt_report(store, r, **_rt_workload(r, wl)))
            if _is_rt(store, r, "compare")
            else compare(store, [r], workload=wl.workload())[0]
            for r in runs
        ]
    _comparison(found, as_json, target)


SHOWN = [
    "hierarchy", "run", "algorithm", "k", "m", "set_release", "epsilon", "epsilon_spent", "ncp", "relational_ncp", "item_ncp", "are_1",
    "are_2", "are_3", "are_sanity_1", "are_sanity_2", "are_sanity_3", "mixed_are_1",
    "mixed_are_2", "mixed_are_3", "frequent_are_2", "frequent_are_sanity_2",
    "below_k_1", "below_k_2", "below_k_3", "promise_holds", "checked",
]  # fmt: skip


def page(path: Path, read: list[Path | None], store: Any = None, *, replace: bool) -> Path:
    """An HTML page to write, checked before the work: `.html`, no input of the command
    (with `store`, none its registry names either), and new unless `replace`."""
    from ..store import outputs
    from ..store.publish import inputs_of

    every = read if store is None else inputs_of(store, read)
    return outputs.check_file(path, every, replace=replace, formats=("html",))[0]


def _comparison(found: list[dict[str, Any]], as_json: bool, report: Path | None) -> None:
    if report is not None:
        from ..measure.report import render_compare_html
        from ..measure.rt_page import render_rt_compare_html
        from ..store import outputs

        rt = all("item_ncp" in r for r in found)  # tables with a set column only
        outputs.write_text(report, (render_rt_compare_html if rt else render_compare_html)(found))
    present = {c for r in found for c in r}
    columns = [c for c in SHOWN if c in present]  # --json has every figure
    rows(found, as_json, "comparison", columns)


@app.command("sweep")
def sweep_cmd(
    source: o.Source = None,
    format: o.Format = None,
    table: o.Table = None,
    tid_col: o.TidCol = None,
    item_col: o.ItemCol = None,
    encoding: o.Encoding = None,
    dataset: o.Dataset = None,
    db: o.Db = None,
    memory_limit: o.MemoryLimit = None,
    temp_dir: o.TempDir = None,
    threads: o.Threads = None,
    queries: o.Queries = None,
    targets: o.Targets = None,
    sizes: o.Sizes = None,
    minsup: o.Minsup = None,
    seed: o.Seed = None,
    algorithm: Annotated[
        str, typer.Option("--algorithm", "-a", help="Algorithms, e.g. aa,partition,clump.")
    ] = "aa,partition",
    k: Annotated[str, typer.Option("--k", "-k", help="Values of k, e.g. 5,10,25.")] = "10",
    m: Annotated[
        str | None, typer.Option("--m", "-m", help="Values of m for k^m algorithms (2).")
    ] = None,
    hierarchy: Annotated[
        str | None,
        typer.Option("--hierarchy", "-H", help="Hierarchy files, comma-separated."),
    ] = None,
    fanout: Annotated[
        int | None, typer.Option("--fanout", help="Build fan-out hierarchies.", min=2, max=10**6)
    ] = None,
    order: Annotated[
        str | None,
        typer.Option("--order", help="With --fanout: leaf orders, e.g. id,support (support)."),
    ] = None,
    replace: Annotated[
        bool, typer.Option("--replace", help="Replace earlier sweep runs and the --report page.")
    ] = False,
    report: Annotated[
        Path | None, typer.Option("--report", help="Also write the trade-off page (HTML).")
    ] = None,
    epsilon: Epsilons = None,
    sanity: o.Sanity = None,
    as_json: o.Json = False,
) -> None:
    """Anonymize with every algorithm x k (x m) x hierarchy, evaluate each release on one
    workload, and print the trade-off in one table (and chart, with --report)."""
    from ..algorithms import get
    from ..sweep import sweep

    src = o.SourceOpts(source, format, table, tid_col, item_col, dataset, encoding)
    dbo = o.DbOpts(db, memory_limit, temp_dir, threads)
    algorithms = o.names(algorithm)
    o.refuse_unless(
        m is None or any(get(a).needs_m for a in algorithms),
        "--m is for the k^m algorithms (aa, da, oa); none is swept",
    )
    epsilons = sweep_epsilons(algorithms, epsilon)  # dpsets runs once per epsilon (#44)
    needed = any(get(a).needs_hierarchy for a in algorithms)
    specs = _hierarchies(hierarchy, fanout, order, needed=needed)
    read = inputs(src, o.HierOpts(), dbo) + [spec.path for _, spec in specs if spec is not None]
    if report is not None:
        page(report, read, replace=replace)
    workload = o.WorkloadOpts(queries, targets, sizes, minsup, seed, sanity=sanity).workload()
    found: list[dict[str, Any]] = []
    with open_data(src, o.HierOpts(), dbo) as store:
        target = page(report, read, store, replace=replace) if report is not None else None
        for tag, spec in specs:
            if spec is not None:
                store.use_hierarchy(spec.build(store), spec.describe())
            found += sweep(
                store,
                algorithm_names=algorithms,
                ks=o.whole_numbers(k, "--k"),
                ms=o.whole_numbers(m or "2", "--m"),
                epsilons=epsilons,
                workload=workload,
                replace=replace,
                tag=tag if len(specs) > 1 else "",
                progress=lambda name: None,
            )
    _comparison(found, as_json, target)


def _hierarchies(
    files: str | None, fanout: int | None, order: str | None, *, needed: bool = True
) -> list[tuple[str, Any]]:
    """(tag, HierarchySpec) per hierarchy to sweep over; one untagged None when no algorithm
    swept needs a hierarchy (disassociation's) and none is given."""
    from ..store.hierarchy_spec import HierarchySpec

    if files is None and fanout is None and not needed:
        o.refuse_unless(order is None, "--order applies to the --fanout builder")
        return [("", None)]
    if (files is None) == (fanout is None):
        raise ParamsError("sweep needs --hierarchy FILES or --fanout F (with --order id,support)")
    if files is not None:
        o.refuse_unless(order is None, "--order applies to the --fanout builder")
        paths = [Path(p) for p in o.names(files)]
        specs = [(f"h{i + 1}", HierarchySpec(path=p)) for i, p in enumerate(paths)]
    else:
        orders = o.names(order or "support")
        specs = [(leaves, HierarchySpec(fanout=fanout, order=leaves)) for leaves in orders]
    for _, spec in specs:
        spec.check()
    return specs
