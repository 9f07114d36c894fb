"""hypothesis strategies: small random hierarchies and databases over their leaves."""

from __future__ import annotations

from hypothesis import strategies as st


@st.composite
def trees(draw, max_leaves: int = 8, max_fanout: int = 4) -> list[tuple[str, str]]:
    """(child, parent) edges of a random tree with 2..max_leaves leaves named i0, i1, ..."""
    n_leaves = draw(st.integers(2, max_leaves))
    level = [f"i{j}" for j in range(n_leaves)]
    edges: list[tuple[str, str]] = []
    counter = 0
    while len(level) > 1:
        nxt = []
        pos = 0
        while pos < len(level):
            size = draw(st.integers(1, max_fanout))
            group = level[pos : pos + size]
            pos += size
            if len(group) == 1 and len(level) > 1 and draw(st.booleans()):
                nxt.append(group[0])
                continue
            counter += 1
            parent = f"g{counter}"
            edges.extend((c, parent) for c in group)
            nxt.append(parent)
        if len(nxt) == len(level):  # no progress: merge everything under one parent
            counter += 1
            edges.extend((c, f"g{counter}") for c in nxt)
            nxt = [f"g{counter}"]
        level = nxt
    return edges


@st.composite
def databases(draw, max_leaves: int = 8, max_tx: int = 12, max_len: int = 4):
    """(transactions, edges): a random tree and 1..max_tx non-empty transactions over its leaves."""
    edges = draw(trees(max_leaves=max_leaves))
    children = {c for c, _ in edges}
    parents = {p for _, p in edges}
    leaves = sorted(children - parents)
    n = draw(st.integers(1, max_tx))
    txs = [
        sorted(
            draw(st.sets(st.sampled_from(leaves), min_size=1, max_size=min(max_len, len(leaves))))
        )
        for _ in range(n)
    ]
    return txs, edges


def random_release(draw, txs: list[list[str]], tree) -> dict[str, list[str]]:
    """A release that generalizes each item of `txs` to a random ancestor in `tree` (a
    `reference.Tree`), as tid label -> sorted nodes; `draw` is hypothesis' `data.draw`."""
    out = {}
    for i, t in enumerate(txs):
        nodes = set()
        for item in t:
            nodes.add(draw(st.sampled_from(tree.ancestors(item))))
        out[str(i)] = sorted(nodes)
    return out
