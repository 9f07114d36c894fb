"""The page of a (k, k^m) run of a table with a set column (issue 41): verdict, relational loss
per QI, item loss, mixed-query error and attacks, laid out from the plain values
`relational/rt_report.rt_report` gathers (this layer does not read relational runs itself).
Self-contained like every page of `report`: inline styles, inline SVG."""

from __future__ import annotations

from typing import Any

from .report import _e, _figure, _page, _pct, _svg, _table, _verdict, compare_table_html


def render_rt_html(report: dict[str, Any]) -> str:
    """The HTML page of one (k, k^m) run."""
    ev = report["evaluation"]
    verified = report["verified"]
    parts = [
        f"<h1>Release {_e(report['run'])}: (k, k^m) = ({report['k']}, {report['k']}^"
        f"{report['m']})</h1>",
        f"<p>Quasi-identifiers {_e(', '.join(report['qi']))}; set column "
        f"{_e(report['items'])}"
        + (
            " (disassociated inside every class: its chunks, and every row's cluster)"
            if report.get("set_release") == "disassociate"
            else ""
        )
        + f"; algorithm {_e(report['algorithm'])}.</p>",
        f"<h2>Verdict: {_verdict(verified['ok'])}</h2>",
        _table(["check", "offending"], _checks(report)),
        f"<p>{verified['classes']} classes over {verified['rows']} rows.</p>",
        "<h2>Information loss (NCP)</h2>",
        _table(
            ["", "NCP"],
            [["relational (mean over rows and QIs)", f"{report['relational_ncp']:.4f}"]]
            + [[f"  {c}", f"{v:.4f}"] for c, v in report["qi_ncp"].items()]
            + [_item_loss(report)],
        ),
        _svg(_qi_chart(report["qi_ncp"], report["item_ncp"])),
        "<h2>Mixed queries: a QI value and an itemset</h2>",
        _table(
            ["items", "queries", "mean relative error", "median relative error"],
            [
                [
                    q["size"],
                    q["queries"],
                    _pct(q["mean_relative_error"]),
                    _pct(q["median_relative_error"]),
                ]
                for q in ev["mixed_queries"]
            ],
        ),  # fmt: skip
        "<h2>Attacks: an adversary knowing a row's QIs and some of its items</h2>",
        _table(
            [
                "known items",
                "promised",
                "targets",
                f"below k = {report['k']}",
                "no match",
                "fewest",
                "median",
            ],
            [
                [
                    a["known_items"],
                    "yes" if a["promised"] else "no",
                    a["targets"],
                    a["below_k"],
                    a.get("no_match", 0),
                    a["fewest"],
                    a["median"],
                ]
                for a in ev["attacks"]
            ],
        ),  # fmt: skip
        f"<p>Seed {ev['seed']}. Up to m known items no target may have fewer than k candidates; "
        "beyond m the model promises nothing.</p>",
    ]
    return _page(f"setanon report: {report['run']}", parts)


def _checks(report: dict[str, Any]) -> list[list[Any]]:
    """The verdict's checks: the generalized set column's, or the disassociated one's (its
    chunks per cluster, and clusters inside one class)."""
    v, m = report["verified"], report["m"]
    rows: list[list[Any]] = [
        ["released QI values that generalize no original", v["validity_problems"]],
        ["rows in classes below k", v["failing_k"]],
    ]
    if report.get("set_release") == "disassociate":
        sets = v["sets"]
        return rows + [
            ["chunks that are not their records' projections", sets["validity_problems"]],
            [f"itemsets of <= {m} items in a chunk held by 1..k-1 of its rows",
             sum(sets["failing_itemsets"].values())],
            ["clusters a reconstruction could narrow below k (covers)", sets["unsafe_clusters"]],
            ["clusters or joint clusters across classes",
             v["crossing_clusters"] + v["crossing_joints"]],
            ["rows not linked to the cluster holding their items", v["unlinked_rows"]],
        ]  # fmt: skip
    return rows + [
        ["released items that generalize no original (or originals left out)",
         v["item_problems"]],
        [f"itemsets of <= {m} items held by 1..k-1 rows of a class", v["failing_km"]],
    ]  # fmt: skip


def _item_loss(report: dict[str, Any]) -> list[str]:
    """The items' row of the loss table: a disassociated set column generalizes nothing."""
    if report.get("set_release") == "disassociate":
        return ["items (disassociated)", "0, items as given: judged by query error"]
    return ["items (over item instances)", f"{report['item_ncp']:.4f}"]


def _qi_chart(qi_ncp: dict[str, float], item_ncp: float) -> Any:
    fig, ax = _figure(6.5, 3.0)
    names = [*qi_ncp, "items"]
    values = [*qi_ncp.values(), item_ncp]
    ax.barh(names, values, color=["#4c72b0"] * len(qi_ncp) + ["#dd8452"])
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    ax.set_xlabel("NCP (0: released as given, 1: fully generalized)")
    return fig


def render_rt_compare_html(rows: list[dict[str, Any]]) -> str:
    """The trade-off page of (k, k^m) runs compared: item loss against relational loss, the
    picture a user chooses a release from, and the table."""
    parts = [
        "<h1>Releases of a table with a set column compared</h1>",
        "<p>Each point is a release: left loses less of the QIs, lower less of the items. "
        "A release whose set column is disassociated (orange) releases its items as given: "
        "its item NCP is 0 by definition, its items are judged by the mixed-query error "
        "below.</p>",
        _svg(_loss_chart(rows)),
        compare_table_html(rows),
    ]
    return _page("setanon comparison", parts)


def _loss_chart(rows: list[dict[str, Any]]) -> Any:
    fig, ax = _figure(6.5, 4.0)
    xs = [r["relational_ncp"] for r in rows]
    ys = [r["item_ncp"] for r in rows]
    dis = [r.get("set_release") == "disassociate" for r in rows]
    ax.scatter(xs, ys, color=["#dd8452" if d else "#4c72b0" for d in dis])
    for r, x, y in zip(rows, xs, ys, strict=True):
        ax.annotate(str(r["run"]), (x, y), fontsize=7, xytext=(3, 3), textcoords="offset points")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("relational NCP")
    ax.set_ylabel("item NCP")
    return fig
