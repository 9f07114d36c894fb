"""Options the k^m cut searches share (AA, DA, OA), declared once."""

from __future__ import annotations

from ..catalog import Option

MAX_ITEMSETS = Option(
    "max_itemsets",
    int,
    50_000_000,
    "refuse when the transactions to count hold more itemsets than this (OA: the expanded "
    "ones, 1..m nodes; DA: those generalized by the cut, one size at a time); their number "
    "grows as length^m",
    minimum=1,
)


def specialize(default: bool) -> Option:
    return Option(
        "specialize",
        bool,
        default,
        "after reaching k^m-anonymity, push generalized cut nodes back down to their children "
        "while it still holds (one statement per hierarchy depth)",
    )
