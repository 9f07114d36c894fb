"""`setanon verify` and `setanon metrics`: check a release, measure its information loss."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any

import typer

from . import options as o
from .app import app
from .output import emit, rows, warn
from .stores import open_data, open_db, run_only

if TYPE_CHECKING:
    from ..measure.kinds import Command

SHOWN_BY_DEFAULT = 10


@app.command("verify")
def verify_cmd(
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
    k: Annotated[
        int | None,
        typer.Option("--k", "-k", help="Anonymity parameter k (default: the run's).", min=1),
    ] = None,
    m: o.M = None,
    model: Annotated[
        str | None,
        typer.Option("--model", help="k (transactional) or km; default km when --m is given."),
    ] = None,
    release_file: o.Release = None,
    run: o.StoredRun = None,
    allow_suppression: Annotated[
        bool, typer.Option("--allow-suppression", help="Items may be missing from the release.")
    ] = False,
    multiset: Annotated[
        bool, typer.Option("--multiset", help="The release may repeat a node in a transaction.")
    ] = False,
    show: Annotated[
        int | None,
        typer.Option(
            "--show",
            help=f"How many offending rows to print (default {SHOWN_BY_DEFAULT}).",
            min=0,
            max=10**6,
        ),
    ] = None,
    as_json: o.Json = False,
    quiet: o.Quiet = False,
) -> None:
    """Check a release file, a stored run, or (with neither) the data itself for k- or
    k^m-anonymity. Exit code 1 when anything is violated; the offending rows are printed."""
    from .. import api
    from ..measure import verify_disassociation as vd
    from ..measure.verify import violations

    src = o.SourceOpts(source, format, table, tid_col, item_col, dataset, encoding)
    hier = o.HierOpts(hierarchy, hierarchy_format, fanout, code_prefix, order, hierarchy_encoding)
    dbo = o.DbOpts(db, memory_limit, temp_dir, threads)
    o.refuse_unless(model in (None, "k", "km"), f"--model must be k or km, got {model!r}")
    o.refuse_unless(model != "k" or m is None, "--m is the k^m model's; --model k takes none")
    o.refuse_unless(
        show is None or as_json or not quiet, "--show prints offending rows; --quiet prints none"
    )
    if run is not None:
        run_only(src, hier, "verify")
        store = open_db(dbo)
    else:
        store = open_data(src, hier, dbo)
    if run is not None and _rt_run(store, run, "verify"):
        o.refuse_unless(
            k is None and m is None and model is None and not allow_suppression and not multiset,
            f"run {run!r} is a table with a set column: it is verified with its own k and m "
            "(no --k, --m, --model, --allow-suppression or --multiset)",
        )
        return _verify_rt(store, run, as_json, quiet)
    with store:
        report = api.verify_release(
            store,
            k=k,
            model=model,
            m=m,
            release=release_file,
            run=run,
            allow_suppression=allow_suppression or None,
            multiset=multiset or None,
        )
        names = ["violations_validity", "violations_k" if report.model == "k" else "violations_km"]
        limit = SHOWN_BY_DEFAULT if show is None else show
        with store.in_run(run, scratch=True) if run else store.scratch():
            if isinstance(report, vd.DisassociationReport):  # its own verifier's rows (#28)
                shown = {"dv_violations": vd.violations(store, limit)}
            elif report.model == "dp":  # a budget record's verdict has no rows to show (#44)
                shown = {}
            else:
                shown = {n: violations(store, n, limit) for n in names}
    data = report.as_dict()
    if getattr(report, "seeded", False):  # said even under --quiet: the release is not private
        from ..measure.verify_dp import SEEDED

        warn([SEEDED])
    if as_json:
        typer.echo(json.dumps(data | {"examples": shown}, default=str))
    elif not quiet:
        from ..runs import DP_CHECKED

        passed = DP_CHECKED if report.model == "dp" else "passed"  # what was checked (#44)
        emit(
            {key: v for key, v in data.items() if key != "schema"},
            False,
            "verification: " + (passed if report.ok else "FAILED"),
        )
        for name, found in shown.items():
            if found:
                rows(found, False, f"{name} (first {len(found)})", list(found[0]))
    raise typer.Exit(0 if report.ok else 1)


@app.command("metrics")
def metrics_cmd(
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
    release_file: o.Release = None,
    run: o.StoredRun = None,
    multiset: Annotated[
        bool, typer.Option("--multiset", help="Each released copy stands for one item.")
    ] = False,
    per_copy: Annotated[
        bool,
        typer.Option(
            "--per-copy",
            help="Match every released copy to one original item (unmatched items suppressed).",
        ),
    ] = False,
    as_json: o.Json = False,
) -> None:
    """Information loss of a release file or a stored run: NCP, LM and suppressed items."""
    from .. import api

    src = o.SourceOpts(source, format, table, tid_col, item_col, dataset, encoding)
    hier = o.HierOpts(hierarchy, hierarchy_format, fanout, code_prefix, order, hierarchy_encoding)
    dbo = o.DbOpts(db, memory_limit, temp_dir, threads)
    o.refuse_unless(
        not (multiset and per_copy), "--per-copy matches copies itself; --multiset does not apply"
    )
    if run is not None:
        run_only(src, hier, "metrics")
        store = open_db(dbo)
    else:
        store = open_data(src, hier, dbo)
    if run is not None and _rt_run(store, run, "metrics"):
        o.refuse_unless(
            not multiset and not per_copy,
            f"--multiset and --per-copy are for transaction releases; {run!r} is a table "
            "with a set column",
        )
        from ..relational.rt_judge import rt_metrics

        with store:
            return emit(rt_metrics(store, run), as_json, "information loss")
    with store:
        loss = api.release_metrics(
            store, release=release_file, run=run, multiset=multiset or None, per_copy=per_copy
        )
    emit(loss, as_json, "information loss")


def _rt_run(store: Any, run: str, command: Command) -> bool:
    """Is the run a table with a set column, judged by `relational/` (closing the store when
    the check fails)? Its recorded kind says (`measure.kinds`); other kinds go to the library."""
    from ..measure.kinds import to_relational

    try:
        return to_relational(store, run, command)
    except BaseException:
        store.close()
        raise


def _verify_rt(store: Any, run: str, as_json: bool, quiet: bool) -> None:
    """Verify a stored (k, k^m) run; exit 1 when anything is violated."""
    from ..relational.rt_judge import verify_rt_run

    with store:
        report = verify_rt_run(store, run)
    data = {"run": run} | report.as_dict()
    if as_json:
        typer.echo(json.dumps(data, default=str))
    elif not quiet:
        emit(data, False, "verification: " + ("passed" if report.ok else "FAILED"))
    raise typer.Exit(0 if report.ok else 1)
