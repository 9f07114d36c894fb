"""The faster forms of disassociation's Python decisions (#42) against their literal
statements: VERPART's greedy with set tests against the paper's check of every bad itemset,
and the cached itemset shapes of the cover check against a fresh enumeration."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from setanon_sql.algorithms.disassociation import cover, verpart


def literal_greedy(order: list[int], bad: list[tuple[int, ...]]) -> list[list[int]]:
    """The paper's greedy as stated: an item joins the chunk unless a bad itemset holding it
    has all its other terms in the chunk already."""
    chunks: list[list[int]] = []
    left = list(order)
    while left:
        chunk: list[int] = []
        later: list[int] = []
        for item in left:
            if any(item in s and all(o == item or o in chunk for o in s) for s in bad):
                later.append(item)
            else:
                chunk.append(item)
        chunks.append(chunk)
        left = later
    return chunks


@st.composite
def orders_and_bad_sets(draw: st.DrawFn) -> tuple[list[int], list[tuple[int, ...]]]:
    items = draw(st.lists(st.integers(0, 30), min_size=1, max_size=12, unique=True))
    sets = st.lists(st.sampled_from(items), min_size=2, max_size=4, unique=True)
    bad = [tuple(sorted(s)) for s in draw(st.lists(sets, max_size=15))] if len(items) > 1 else []
    return items, bad


@settings(max_examples=300, deadline=None)
@given(orders_and_bad_sets())
def test_greedy_matches_the_papers_check(case: tuple[list[int], list[tuple[int, ...]]]) -> None:
    order, bad = case
    assert verpart.greedy(order, bad) == literal_greedy(order, bad)


def test_greedy_keeps_an_item_without_bad_sets_in_the_first_chunk() -> None:
    assert verpart.greedy([5, 1, 2], [(1, 2)]) == [[5, 1], [2]]
    assert verpart.greedy([1, 2, 3], [(1, 2, 3)]) == [[1, 2], [3]]


def fresh_shapes(c: cover.ClusterShape, m: int) -> list[tuple[int, int, int]]:
    """`itemset_shapes` as first written: enumerated for every cluster."""
    shared = c.shared_chunks if c.joint is not None else 0
    return [
        (p, q, t)
        for p in range(min(m, c.chunks) + 1)
        for q in range(min(m, shared) + 1)
        for t in range(min(m, c.terms) + 1)
        if 1 <= p + q + t <= m and not (p + q == 1 and t == 0)
    ]


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 6), st.integers(0, 6), st.integers(0, 9), st.sampled_from([None, 1]),
    st.integers(1, 5),
)  # fmt: skip
def test_cached_itemset_shapes_match_a_fresh_enumeration(
    chunks: int, shared: int, terms: int, joint: int | None, m: int
) -> None:
    c = cover.ClusterShape(1, 20, 10, 5, terms, chunks, joint, 3, shared)
    assert cover.itemset_shapes(c, m) == tuple(fresh_shapes(c, m))
