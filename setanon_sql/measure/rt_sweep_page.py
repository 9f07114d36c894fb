"""The trade-off page of a (k, k^m) sweep (`setanon sweep-rt --report`): relational NCP against
item NCP, one point per run, labelled with its class size (and delta), and the table."""

from __future__ import annotations

from typing import Any

from .report import _figure, _page, _svg, _table

SHOWN = ["run", "class_size", "delta", "classes", "relational_ncp", "item_ncp", "seconds",
         "verified"]  # fmt: skip


def render_rt_sweep_html(rows: list[dict[str, Any]]) -> str:
    """The page: the chart, then the table."""
    fig, ax = _figure(6.5, 4.0)
    for delta in sorted({r["delta"] for r in rows}, key=lambda d: (d is not None, d or 0)):
        mine = sorted((r for r in rows if r["delta"] == delta), key=lambda r: r["class_size"])
        label = "class size alone" if delta is None else f"delta {delta:g}"
        ax.plot([r["item_ncp"] for r in mine], [r["relational_ncp"] for r in mine], "o-",
                label=label)  # fmt: skip
        for r in mine:
            ax.annotate(str(r["class_size"]), (r["item_ncp"], r["relational_ncp"]), fontsize=7,
                        xytext=(3, 3), textcoords="offset points")  # fmt: skip
    ax.set_xlabel("item NCP (left: more useful items)")
    ax.set_ylabel("relational NCP (down: more useful QIs)")
    ax.legend(fontsize=8)
    table = _table(SHOWN, [[_cell(r.get(c)) for c in SHOWN] for r in rows])
    parts = [
        "<h1>(k, k^m) trade-off</h1>",
        "<p>Each point is a verified release; labels are the class size it started from. "
        "Down and left is better on both losses.</p>",
        _svg(fig),
        table,
    ]
    return _page("setanon (k, k^m) sweep", parts)


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4f}"
    return "" if value is None else str(value)
