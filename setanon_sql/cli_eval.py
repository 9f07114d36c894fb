"""The command line's judging commands: `evaluate`, `report`, `compare`, `sweep` (what a release
is still good for and what it exposes). Registered on the app of `cli.py`."""

import dataclasses
import json
from pathlib import Path
from typing import Annotated, Any

import typer

from .cli import (
    DbOpts,
    HierOpts,
    JsonOpt,
    M,
    QuietOpt,
    ReleaseOpt,
    SourceOpts,
    _emit,
    _inputs,
    _inspect,
    _open,
    _rows,
    _run_only,
    _usage,
    app,
    with_groups,
)


@dataclasses.dataclass(frozen=True)
class WorkloadOpts:
    """The seeded probes an evaluation draws."""

    queries: Annotated[
        int, typer.Option("--queries", help="Random itemset queries per size.", min=0)
    ] = 2000
    targets: Annotated[
        int, typer.Option("--targets", help="Attack targets per known-item count.", min=0)
    ] = 2000
    sizes: Annotated[str, typer.Option("--sizes", help="Query sizes, e.g. 1,2,3.")] = "1,2,3"
    minsup: Annotated[
        float,
        typer.Option("--minsup", help="Frequent itemsets: support share of the transactions."),
    ] = 0.001
    seed: Annotated[int, typer.Option("--seed", help="Seed of the workload and attacks.")] = 0

    def workload(self) -> Any:
        from .measure.evaluate import Workload

        return Workload(
            queries=self.queries,
            targets=self.targets,
            sizes=_ints(self.sizes, "--sizes"),
            minsup=self.minsup,
            seed=self.seed,
        )


def _ints(text: str, option: str) -> tuple[int, ...]:
    try:
        return tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise _usage(f"{option} wants whole numbers separated by commas, got {text!r}") from None


def _names(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


def _store_for_run(dbo: DbOpts) -> Any:
    """A stored run is evaluated in place: its eval_* tables join the run's schema."""
    return _inspect(dbo, read_only=False)


def _print_evaluation(data: dict[str, Any], as_json: bool, quiet: bool) -> None:
    if as_json:
        typer.echo(json.dumps(data, default=str))
        return
    if quiet:
        return
    head = {k: v for k, v in data.items() if not isinstance(v, (list, dict))}
    _emit(head, False, f"evaluation of {data.get('run')}")
    for key in ("itemset_queries", "frequent_queries", "table_queries", "attacks"):
        if data.get(key):
            _rows(data[key], False, key.replace("_", " "), list(data[key][0]))


@app.command("evaluate")
@with_groups(src=SourceOpts, hier=HierOpts, dbo=DbOpts, wl=WorkloadOpts)
def evaluate_cmd(
    src: SourceOpts,
    hier: HierOpts,
    dbo: DbOpts,
    wl: WorkloadOpts,
    run: Annotated[str | None, typer.Option("--run", help="A run stored in --db.")] = None,
    release_file: ReleaseOpt = None,
    k: Annotated[
        int | None, typer.Option("--k", "-k", help="k of a release file's promise.", min=1)
    ] = None,
    m: M = None,
    multiset: Annotated[
        bool, typer.Option("--multiset", help="The release file repeats nodes (Clump).")
    ] = False,
    sensitive: Annotated[
        str | None, typer.Option("--sensitive", help="Sensitive column (table runs).")
    ] = None,
    risk_threshold: Annotated[
        float, typer.Option("--risk-threshold", help="Prosecutor risk counted as high.")
    ] = 0.2,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """What a release is still good for (itemset-query error) and what it exposes (attacks),
    measured in SQL on a stored run or a release file; kept as eval_* tables of the run."""
    from .measure import evaluate as ev
    from .runs import Promise

    workload = wl.workload()
    if run is not None:
        _run_only(src, hier, "evaluate")
        if release_file is not None:
            raise _usage("give --run or --release, not both")
        store = _store_for_run(dbo)
        try:
            made = store.registry.run(run)
            if made["kind"] == "table":
                from .relational.evaluate import table_exposure, table_utility

                data = {"run": run} | table_utility(
                    store, run, queries=wl.queries, dims=workload.sizes, seed=wl.seed
                )
                data |= table_exposure(store, run, sensitive=sensitive, threshold=risk_threshold)
            else:
                data = ev.evaluate(store, run, workload=workload)
        finally:
            store.close()
    else:
        if release_file is None or k is None:
            raise _usage("evaluate a stored run (--db, --run) or a release file (-r FILE --k K)")
        model = Promise(k=k, m=m, model="km" if m else "k", multiset=multiset)
        store = _open(src, hier, dbo)
        try:
            data = ev.evaluate_release_file(store, release_file, model=model, workload=workload)
        finally:
            store.close()
    _print_evaluation(data, as_json, quiet)


@app.command("report")
@with_groups(dbo=DbOpts, wl=WorkloadOpts)
def report_cmd(
    dbo: DbOpts,
    wl: WorkloadOpts,
    run: Annotated[str, typer.Option("--run", help="A run stored in --db.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="The HTML page to write.")],
    as_json: JsonOpt = False,
) -> None:
    """One self-contained HTML page on a stored run: verdict, loss, generalization, query error,
    attacks (charts inline, nothing loaded from elsewhere)."""
    from .measure.report import render_html, run_report
    from .store import release_io as release

    release.check_output(output, [dbo.db], fmt="html", formats=("html",))
    workload = wl.workload()
    store = _store_for_run(dbo)
    try:
        data = run_report(store, run, workload=workload)
    finally:
        store.close()
    release.write_text_atomic(output, render_html(data))
    _emit({"run": run, "output": str(output)}, as_json, "report written")


@app.command("compare")
@with_groups(dbo=DbOpts, wl=WorkloadOpts)
def compare_cmd(
    dbo: DbOpts,
    wl: WorkloadOpts,
    runs: Annotated[list[str], typer.Argument(help="Runs stored in --db.")],
    report: Annotated[
        Path | None, typer.Option("--report", help="Also write the trade-off page (HTML).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Evaluate stored runs on one seeded workload and print them side by side."""
    from .measure import compare
    from .store import release_io as release

    if report is not None:
        release.check_output(report, [dbo.db], fmt="html", formats=("html",))
    workload = wl.workload()
    store = _store_for_run(dbo)
    try:
        rows = compare.compare(store, runs, workload=workload)
    finally:
        store.close()
    _comparison(rows, as_json, report)


SHOWN = [
    "hierarchy", "run", "algorithm", "k", "m", "ncp", "are_1", "are_2", "are_3",
    "frequent_are_2", "below_k_1", "below_k_2", "below_k_3", "promise_holds",
]  # fmt: skip


def _comparison(rows: list[dict[str, Any]], as_json: bool, report: Path | None) -> None:
    if report is not None:
        from .measure.report import render_compare_html
        from .store import release_io as release

        release.write_text_atomic(report, render_compare_html(rows))
    present = {c for r in rows for c in r}
    columns = [c for c in SHOWN if c in present]  # --json has every figure
    _rows(rows, as_json, "comparison", columns)


@app.command("sweep")
@with_groups(src=SourceOpts, dbo=DbOpts, wl=WorkloadOpts)
def sweep_cmd(
    src: SourceOpts,
    dbo: DbOpts,
    wl: WorkloadOpts,
    algorithm: Annotated[
        str, typer.Option("--algorithm", "-a", help="Algorithms, e.g. aa,partition,clump.")
    ] = "aa,partition",
    k: Annotated[str, typer.Option("--k", "-k", help="Values of k, e.g. 5,10,25.")] = "10",
    m: Annotated[str, typer.Option("--m", "-m", help="Values of m for k^m algorithms.")] = "2",
    hierarchy: Annotated[
        str | None,
        typer.Option("--hierarchy", "-H", help="Hierarchy files, comma-separated."),
    ] = None,
    fanout: Annotated[
        int | None, typer.Option("--fanout", help="Build fan-out hierarchies.", min=2)
    ] = None,
    order: Annotated[
        str, typer.Option("--order", help="With --fanout: leaf orders, e.g. id,support.")
    ] = "support",
    replace: Annotated[bool, typer.Option("--replace", help="Replace earlier sweep runs.")] = False,
    report: Annotated[
        Path | None, typer.Option("--report", help="Also write the trade-off page (HTML).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Anonymize with every algorithm x k (x m) x hierarchy, evaluate each release on one
    workload, and print the trade-off in one table (and chart, with --report)."""
    from .store import release_io as release
    from .sweep import sweep

    specs = _hierarchies(hierarchy, fanout, order)
    if report is not None:
        release.check_output(report, _inputs(src, HierOpts(), dbo), fmt="html", formats=("html",))
    workload = wl.workload()
    store = _open(src, HierOpts(), dbo)
    rows: list[dict[str, Any]] = []
    try:
        for tag, spec in specs:
            store.use_hierarchy(spec.build(store), spec.describe())
            rows += sweep(
                store,
                algorithm_names=_names(algorithm),
                ks=_ints(k, "--k"),
                ms=_ints(m, "--m"),
                workload=workload,
                replace=replace,
                tag=tag if len(specs) > 1 else "",
                progress=lambda name: None,
            )
    finally:
        store.close()
    _comparison(rows, as_json, report)


def _hierarchies(files: str | None, fanout: int | None, order: str) -> list[tuple[str, Any]]:
    """(tag, HierarchySpec) per hierarchy to sweep over."""
    from .store.hierarchy_spec import HierarchySpec

    if (files is None) == (fanout is None):
        raise _usage("sweep needs --hierarchy FILES or --fanout F (with --order id,support)")
    if files is not None:
        paths = [Path(p) for p in _names(files)]
        specs = [(f"h{i + 1}", HierarchySpec(path=p)) for i, p in enumerate(paths)]
    else:
        specs = [(o, HierarchySpec(fanout=fanout, order=o)) for o in _names(order)]
    for _, spec in specs:
        spec.check()
    return specs


@app.command("synth")
def synth_cmd(
    output: Annotated[Path, typer.Argument(help="Parquet file to write (tid, item).")],
    transactions: Annotated[
        int, typer.Option("--transactions", "-n", help="How many transactions.", min=1)
    ],
    items: Annotated[int, typer.Option("--items", help="Distinct items.", min=2)] = 10_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed: same seed, same file.")] = 0,
    patterns: Annotated[
        int | None, typer.Option("--patterns", help="Correlated patterns (default items/10).")
    ] = None,
    pattern_share: Annotated[
        float, typer.Option("--pattern-share", help="Share of transactions holding a pattern.")
    ] = 0.5,
    min_length: Annotated[
        float, typer.Option("--min-length", help="Pareto scale of lengths.")
    ] = 1.5,
    tail: Annotated[float, typer.Option("--tail", help="Pareto tail of lengths (> 1).")] = 1.8,
    max_length: Annotated[int, typer.Option("--max-length", help="Longest transaction.")] = 200,
    fanout: Annotated[
        int, typer.Option("--fanout", help="Fan-out the in-subtree patterns follow.", min=2)
    ] = 5,
    as_json: JsonOpt = False,
) -> None:
    """Write seeded synthetic baskets (Zipf-like popularity, correlated patterns) as Parquet,
    for scale tests and benchmarks."""
    from .measure.synthetic import SynthSpec, write_baskets
    from .store import release_io as release

    release.check_output(output, [], formats=("parquet",))
    spec = SynthSpec(
        transactions=transactions, items=items, seed=seed, patterns=patterns,
        pattern_share=pattern_share, min_length=min_length, tail=tail,
        max_length=max_length, fanout=fanout,
    )  # fmt: skip
    _emit(write_baskets(output, spec), as_json, f"baskets written to {output}")
