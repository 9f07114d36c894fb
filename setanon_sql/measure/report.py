"""One self-contained HTML page per release, and the trade-off page of a comparison.

The pages read offline: styles are inline and charts are inline SVG drawn with matplotlib (no
script, font, image or style sheet is fetched). The figures come from `evaluate` and from the
run's tables; this module only lays them out.
"""

from __future__ import annotations

import html
import io
from typing import TYPE_CHECKING, Any

from ..errors import InputError, ParamsError
from ..runs import DP_CHECKED, Promise, read_info
from ..store.database import Store
from . import metrics
from .evaluate import DEFAULT_WORKLOAD, Workload, evaluation
from .kinds import Route, kind_of, promise_of, route, unhandled
from .verify import verify_promise

if TYPE_CHECKING:  # matplotlib is imported only when a chart is drawn
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

_STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;"
    "color:#222}table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ccc;"
    "padding:.2rem .5rem;text-align:right}th{background:#f3f3f3}td:first-child,th:first-child"
    "{text-align:left}.ok{color:#176f2c}.bad{color:#b00020}svg{max-width:100%;height:auto}"
)


def run_report(
    store: Store, run: str, *, model: Promise | None = None, workload: Workload = DEFAULT_WORKLOAD
) -> dict[str, Any]:
    """Everything the page of one run shows, as plain values (also usable as JSON)."""
    model = model or promise_of(store, run)
    evaluated = evaluation(store, run, model=model, workload=workload)  # `evaluate`'s, if stored
    info = read_info(store, run)
    match route("report", kind_of(store, run), f"run {run!r}"):
        case Route.DISASSOCIATED:  # its own tables (#28): no generalization to show
            return _disassociation_report(store, run, model, evaluated, info)
        case Route.TABLE_SETS:  # a table with a set column: `relational.rt_report`
            raise ParamsError(f"run {run!r} is a table with a set column: rt_report reports it")
        case Route.TABLE:  # route refuses a table run's report
            raise AssertionError(f"run {run!r}: a table run reached the transactions' report")
        case Route.GENERALIZED | Route.SYNTHETIC:
            pass
        case unknown:
            unhandled(unknown)
    if model.model == "dp":  # new transactions, judged by their budget record (#44)
        return _dp_report(store, run, model, evaluated, info)
    with store.in_run(run):
        verdict = verify_promise(store, model)
        store.run("eval_generalization")
        levels = store.run("eval_levels").dicts()
        top = store.run("eval_most_generalized", {"n": 15}).dicts()
        candidates = store.run("eval_candidates_per_known").tuples("known", "candidates")
        loss = metrics.information_loss(store, multiset=model.multiset)
    return {
        "run": run,
        "info": info,
        "verified": verdict.as_dict(),
        "loss": loss,
        "levels": levels,
        "most_generalized": top,
        "candidates": {known: values for known, values in candidates},
        "evaluation": evaluated,
    }


def _disassociation_report(
    store: Store, run: str, model: Promise, evaluation: dict[str, Any], info: dict[str, str]
) -> dict[str, Any]:
    """The figures of a disassociated release's page: its verdict from its own verifier, its
    loss (term-chunk shares), the attacks' candidates."""
    from . import verify_disassociation as vd

    with store.in_run(run):
        verdict = vd.verify(store, k=model.k, m=model.m or 1)
        candidates = store.run("eval_candidates_per_known").tuples("known", "candidates")
    return {
        "run": run,
        "kind": "disassociated",
        "info": info,
        "verified": verdict.as_dict(),
        "loss": evaluation["loss"],
        "candidates": {known: values for known, values in candidates},
        "evaluation": evaluation,
    }


def render_html(report: dict[str, Any]) -> str:
    """The page of one run: parameters and verdict, loss, generalization, utility, exposure."""
    if report.get("kind") == "disassociated":
        return _render_disassociated(report)
    if report.get("kind") == "synthetic":  # differential privacy (#44)
        return _render_dp(report)
    ev, loss, model = report["evaluation"], report["loss"], report["evaluation"]["model"]
    ok, holds = report["verified"]["ok"], ev["promise_holds"]
    params = {k: v for k, v in report["info"].items() if v not in (None, "None")}
    parts = [
        f"<h1>Release {_e(report['run'])}</h1>",
        "<h2>Parameters and verdict</h2>",
        _table(["parameter", "value"], [[k, v] for k, v in params.items()]),
        f"<p>Verifier: {_verdict(ok)}. Attacks: the promise of at least k = {model['k']} "
        f"candidates {'holds' if holds else 'is broken'} ({_verdict(holds)}).</p>",
        "<h2>Information loss</h2>",
        _table(
            ["NCP", "LM", "suppressed instances", "of instances", "released items"],
            [
                [
                    _pct(loss["ncp"]),
                    _pct(loss["lm"]),
                    loss["suppressed"],
                    loss["instances"],
                    loss["released_items"],
                ]
            ],
        ),
        "<h2>How far items were generalized</h2>",
        _svg(_levels_chart(report["levels"], loss["instances"])),
        "<h3>Most generalized items</h3>",
        _table(
            ["item", "instances", "mean NCP", "mean levels up", "suppressed"],
            [
                [
                    r["item"],
                    r["instances"],
                    _pct(r["mean_ncp"]),
                    _num(r["mean_levels_up"]),
                    r["suppressed"],
                ]
                for r in report["most_generalized"]
            ],
        ),
        "<h2>Utility: itemset-support queries</h2>",
        "<p>Estimates under the uniform assumption (a node over L leaves stands for each with "
        "probability 1/L; items independent). RE = |actual - estimate| / actual.</p>",
        _svg(_are_chart(ev)),
        _query_table(ev),
        "<h2>Exposure: an adversary knowing p items of a target</h2>",
        _svg(_candidates_chart(report["candidates"], model["k"])),
        _attack_table(ev),
        f"<h2>Suppression</h2><p>{loss['suppressed']} of {loss['instances']} original item "
        f"instances ({_pct(loss['suppressed'] / max(loss['instances'], 1))}) are released "
        "under no node.</p>",
    ]
    return _page(f"setanon release {report['run']}", parts)


def _render_disassociated(report: dict[str, Any]) -> str:
    """The page of a disassociated release: no generalization; what is lost is where items
    are released (record chunks keep counts and co-occurrence inside a chunk, term chunks
    only presence)."""
    ev, loss, model = report["evaluation"], report["loss"], report["evaluation"]["model"]
    ok, holds = report["verified"]["ok"], ev["promise_holds"]
    params = {k: v for k, v in report["info"].items() if v not in (None, "None")}
    shares = ("record_chunk_share", "shared_chunk_share", "term_chunk_share", "suppressed_share")
    parts = [
        f"<h1>Release {_e(report['run'])} (disassociation)</h1>",
        "<h2>Parameters and verdict</h2>",
        _table(["parameter", "value"], [[k, v] for k, v in params.items()]),
        f"<p>Verifier (chunks, projections, k^m-anonymity of every chunk, covers): "
        f"{_verdict(ok)}. Attacks: the promise of at least k = {model['k']} candidates "
        f"{'holds' if holds else 'is broken'} ({_verdict(holds)}).</p>",
        "<h2>Where the original item instances are released</h2>",
        _table(
            [
                "record chunks",
                "shared chunks",
                "term chunks only",
                "suppressed",
                "items only in term chunks",
                "clusters",
            ],
            [[*(_pct(loss[s]) for s in shares), _pct(loss["term_only_items"]), loss["clusters"]]],
        ),  # fmt: skip
        "<h2>Utility: itemset-support queries</h2>",
        "<p>Estimates per cluster: exact inside one chunk, independent across chunks, a "
        "term-chunk term as held by one record. RE = |actual - estimate| / actual.</p>",
        _svg(_are_chart(ev)),
        _query_table(ev),
        "<h2>Exposure: an adversary knowing p items of a target</h2>",
        "<p>Candidates: the records no reconstruction consistent with the release rules out.</p>",
        _svg(_candidates_chart(report["candidates"], model["k"])),
        _attack_table(ev),
    ]
    return _page(f"setanon release {report['run']}", parts)


def _dp_report(
    store: Store, run: str, model: Promise, evaluation: dict[str, Any], info: dict[str, str]
) -> dict[str, Any]:
    """The figures of a differentially private run's page: its budget record's verdict (the
    one thing checked of it) and the evaluation; no generalization, loss or k apply."""
    from . import verify_dp

    if model.epsilon is None:
        raise InputError(f"run {run!r} records no epsilon: its budget cannot be checked")
    with store.in_run(run):
        verdict = verify_dp.verify(store, epsilon=model.epsilon, schema=run)
    return {
        "run": run,
        "kind": "synthetic",
        "info": info,
        "verified": verdict.as_dict(),
        "evaluation": evaluation,
    }


def _render_dp(report: dict[str, Any]) -> str:
    """The page of a differentially private run: its promise (epsilon, budget spent,
    mechanism) and what was checked of it, utility, exposure (measured, judged by no k)."""
    ev, verdict, model = report["evaluation"], report["verified"], report["evaluation"]["model"]
    unused = ("k", "m")  # recorded defaults the algorithm never reads
    params = {
        k: v for k, v in report["info"].items() if v not in (None, "None") and k not in unused
    }
    problems = "; ".join(verdict["problems"])
    promised = [model["epsilon"], verdict["epsilon_spent"], verdict["measurements"]]
    promised.append(model["mechanism"])
    parts = [
        f"<h1>Release {_e(report['run'])} (differential privacy)</h1>",
        "<h2>Parameters and verdict</h2>",
        _table(["parameter", "value"], [[k, v] for k, v in params.items()]),
        f"<p>Verdict: {_e(DP_CHECKED)}. Budget record: {_verdict(verdict['ok'])}"
        + (f" ({_e(problems)})" if problems else "")
        + f". {_e(verdict['note'])}.</p>",
        _table(["epsilon", "epsilon spent", "noisy measurements", "mechanism"], [promised]),
        *_small_data(report["info"].get("made_up_share"), model["epsilon"]),
        "<h2>Utility: itemset-support queries</h2>",
        "<p>The release is new transactions of the original items: each released item stands "
        "for itself. RE = |actual - estimate| / actual.</p>",
        _svg(_are_chart(ev)),
        _query_table(ev),
        "<h2>Exposure: an adversary knowing p items of a target</h2>",
        "<p>Differential privacy promises no number of candidates: these figures measure how "
        "many released transactions hold the items known; they judge nothing.</p>",
        _attack_table(ev),
    ]
    return _page(f"setanon release {report['run']}", parts)


def _attack_table(ev: dict[str, Any]) -> str:
    return _table(
        ["known p", "targets", "< k", "unique", "no match", "min", "median", "promised"],
        [
            [
                a["known"],
                a["targets"],
                _pct(a["below_k"]),
                _pct(a["unique"]),
                _pct(a["no_match"]),
                a["min_candidates"],
                _num(a["median_candidates"]),
                "yes" if a["promised"] else "no",
            ]
            for a in ev["attacks"]
        ],
    )


def render_compare_html(rows: list[dict[str, Any]]) -> str:
    """The trade-off page of a comparison: the table and utility against exposure."""
    parts = [
        "<h1>Releases compared</h1>",
        "<p>Each point is a release: lower is more useful (mean relative error of pair "
        "queries), further right is safer (median candidates of an adversary knowing 2 items)."
        "</p>",
        _svg(_tradeoff_chart(rows)),
        compare_table_html(rows),
    ]
    return _page("setanon comparison", parts)


def compare_markdown(rows: list[dict[str, Any]]) -> str:
    """The comparison as a markdown table (for notes and issues)."""
    keys = _columns(rows)
    lines = ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
    lines += ["| " + " | ".join(_cell(r.get(k)) for k in keys) + " |" for r in rows]
    return "\n".join(lines)


def compare_table_html(rows: list[dict[str, Any]]) -> str:
    keys = _columns(rows)
    return _table(keys, [[_cell(r.get(k)) for k in keys] for r in rows])


# -- charts ---------------------------------------------------------------------------------------
def _figure(width: float = 6.5, height: float = 3.0) -> tuple[Figure, Axes]:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    plt.rcParams["svg.fonttype"] = "none"  # text stays text: no font is embedded or fetched
    plt.rcParams["svg.hashsalt"] = "setanon"  # the same figures give the same page
    return plt.subplots(figsize=(width, height))


def _levels_chart(levels: list[dict[str, Any]], instances: int) -> Figure:
    fig, ax = _figure()
    labels = ["suppressed" if r["levels_up"] is None else str(r["levels_up"]) for r in levels]
    shares = [100 * r["instances"] / max(instances, 1) for r in levels]
    ax.bar(labels, shares, color="#4c72b0")
    ax.set_xlabel("levels above the original item (0: released as is)")
    ax.set_ylabel("% of item instances")
    return fig


def _are_chart(ev: dict[str, Any]) -> Figure:
    fig, ax = _figure()
    for offset, (key, label) in enumerate(
        (("itemset_queries", "random"), ("frequent_queries", "frequent"))
    ):
        rows = ev[key]
        ax.bar(
            [r["size"] + 0.4 * offset - 0.2 for r in rows],
            [100 * r["are"] for r in rows],
            width=0.4,
            label=label,
        )
    ax.set_xlabel("itemset size")
    ax.set_ylabel("mean relative error (%)")
    ax.set_xticks(sorted({r["size"] for r in ev["itemset_queries"] + ev["frequent_queries"]}))
    ax.legend()
    return fig


def _candidates_chart(candidates: dict[int, list[int]], k: int) -> Figure:
    fig, ax = _figure()
    known = sorted(candidates)
    data = [[c for c in candidates[p] if c > 0] or [1] for p in known]
    if known:  # --targets 0: no attack, an empty chart
        ax.boxplot(data, tick_labels=[str(p) for p in known])
    ax.set_yscale("log")
    ax.axhline(k, color="#b00020", linestyle="--", label=f"k = {k}")
    ax.set_xlabel("items the adversary knows")
    ax.set_ylabel("candidate transactions")
    ax.legend()
    return fig


def _tradeoff_chart(rows: list[dict[str, Any]]) -> Figure:
    fig, ax = _figure(6.5, 4.0)
    markers = iter("osD^vP*X<>")
    by_algorithm: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        if r.get("median_candidates_2") is not None and r.get("are_2") is not None:
            by_algorithm.setdefault(str(r.get("algorithm") or r["run"]), []).append(r)
    for algorithm, group in by_algorithm.items():
        xs = [r["median_candidates_2"] for r in group]
        ys = [100 * r["are_2"] for r in group]
        ax.scatter(xs, ys, label=algorithm, marker=next(markers, "o"), alpha=0.8)
        for r, x, y in zip(group, xs, ys, strict=True):
            ax.annotate(
                f"k={r['k']}", (x, y), fontsize=7, xytext=(3, 3), textcoords="offset points"
            )
    ax.set_xscale("log")
    ax.set_xlabel("median candidates, adversary knowing 2 items (right: safer)")
    ax.set_ylabel("ARE of pair queries (%) (down: more useful)")
    ax.legend(fontsize=8)
    return fig


# -- HTML pieces ----------------------------------------------------------------------------------
def _svg(fig: Figure) -> str:
    from matplotlib import pyplot as plt

    buf = io.StringIO()
    fig.tight_layout()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg") :]


def _page(title: str, parts: list[str]) -> str:
    body = "\n".join(parts)
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{_e(title)}'
        f"</title><style>{_STYLE}</style></head><body>\n{body}\n</body></html>\n"
    )


def _table(head: list[str], rows: list[list[Any]]) -> str:
    th = "".join(f"<th>{_e(h)}</th>" for h in head)
    trs = "".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><tr>{th}</tr>{trs}</table>"


def _query_table(ev: dict[str, Any]) -> str:
    floor = ev.get("sanity_floor")  # --sanity: the bounded ARE beside the ARE
    rows = [
        [
            name,
            r["size"],
            r["queries"],
            _pct(r["are"]) + _interval(r.get("are_ci")),
            *([] if floor is None else [_pct(r["are_sanity"])]),
            _pct(r["median_re"]),
            _pct(r["over_50"]) + _interval(r.get("over_50_ci")),
            _pct(r["underestimated"]),
        ]
        for key, name in (("itemset_queries", "random"), ("frequent_queries", "frequent"))
        for r in ev[key]
    ]
    bounded = [] if floor is None else [f"ARE, sanity bound {floor:g}"]
    head = ["workload", "size", "queries", "ARE", *bounded, "median RE", "RE > 50 %",
            "underestimated"]  # fmt: skip
    return (
        _table(head, rows) + _estimator_note(ev.get("estimator")) + _sample_note(ev.get("sample"))
    )


def _estimator_note(estimator: str | None) -> str:
    """Which estimator answered the queries (`setanon estimate`'s, #42)."""
    if estimator is None:
        return ""
    return f"<p>Estimates: {_e(estimator)} (the estimator of <code>setanon estimate</code>).</p>"


def _interval(ci: list[float] | None) -> str:
    """A sampled figure's 95 % interval, after it."""
    return "" if ci is None else f" [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def _sample_note(sample: dict[str, Any] | None) -> str:
    """What a sampled evaluation counted on, under its table."""
    if sample is None:
        return ""
    return (
        f"<p>Queries scored on a uniform sample of {sample['transactions']:,} of "
        f"{sample['of_transactions']:,} transactions (share {sample['share']:.4g}, seed "
        f"{sample['seed']}, {sample['groups']} replicate groups); brackets: 95 % intervals of "
        "the figures on every transaction. Attacks and random itemsets' supports are exact.</p>"
    )


def _columns(rows: list[dict[str, Any]]) -> list[str]:
    keys: list[str] = []
    for r in rows:
        keys += [k for k in r if k not in keys]
    return keys


def _verdict(ok: bool) -> str:
    return '<span class="ok">pass</span>' if ok else '<span class="bad">FAIL</span>'


def _e(value: Any) -> str:
    return html.escape("" if value is None else str(value))


def _pct(x: float | None) -> str:
    return "" if x is None else f"{100 * x:.1f} %"


def _num(x: float | None) -> str:
    return "" if x is None else f"{x:g}"


def _cell(x: Any) -> str:
    return f"{x:.4g}" if isinstance(x, float) else ("" if x is None else str(x))


def _small_data(share: Any, epsilon: Any) -> list[str]:
    """dpsets' small-data warning (`anonymize` prints it too), from the run's recorded
    `made_up_share` (text in run_info; absent in a run of an earlier version)."""
    from ..algorithms.dp_sets import small_data_note

    try:
        value = float(share)
    except (TypeError, ValueError):
        return []
    note = small_data_note({"made_up_share": value, "epsilon": epsilon})
    return [f"<p><strong>Warning:</strong> {_e(note)}.</p>"] if note else []
