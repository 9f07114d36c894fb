"""The cover check after REFINE (`cover_figures_refined`) gives every cluster the shape the
full statement (`cover_figures`) gives: REFINE changes only joint clusters, shared and term
chunks, so the record-chunk figures are kept and only the shared rows counted again (#42)."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_disassociation import P1, PAPER

from setanon_sql import InfeasibleError, Params, anonymize, open_store
from setanon_sql.algorithms.disassociation import cover

ITEMS = [f"i{j}" for j in range(8)]


def both_shapes(data, k: int, **options) -> tuple[list, list]:
    """The shapes of the run's final state, from the refined statement, then the full one."""
    store, _ = open_store(data)
    params = Params(algorithm="disassociation", k=k, m=2, options=options, keep_intermediate=True)
    result = anonymize(store, params)
    assert result.report.ok, result.report.as_dict()
    with store.in_run(result.run):
        refined = cover.shapes(store, k=k, m=2, refined=True)
        full = cover.shapes(store, k=k, m=2)
    return refined, full


def test_the_papers_joint_cluster():
    """The paper's refinement example: one joint cluster whose shared chunk holds rows."""
    data = {r: items + (["q1"] if r in P1 else []) for r, items in PAPER.items()}
    refined, full = both_shapes(data, 3, max_cluster=6, joint_size=2)
    assert refined == full
    assert sum(s.shared_rows for s in full) > 0 and all(s.joint == 1 for s in full)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.lists(
        st.sets(st.sampled_from(ITEMS), min_size=1, max_size=5).map(sorted),
        min_size=4,
        max_size=16,
    ),
    k=st.integers(2, 3),
)
def test_refined_shapes_equal_the_full_statements(data, k):
    assume(len(data) >= k)
    try:
        refined, full = both_shapes(data, k, joint_size=2, max_cluster=4)
    except InfeasibleError:
        return
    assert refined == full


def test_term_and_joint_figures_written_once():
    """The term chunk's and the joint cluster's part of a shape is counted in one place
    (`cover_figures_read`), which the full and the refined statement both leave to it: the two
    differ only in how they count a cluster's own rows."""
    from setanon_sql.engine.sqlfiles import statement

    own = [statement(n).sql for n in ("cover_figures", "cover_figures_refined")]
    read = statement("cover_figures_read").sql
    for table in ("dis_term", "term_cover", "shared_chunks"):
        assert table in read and not any(table in text for text in own), table
