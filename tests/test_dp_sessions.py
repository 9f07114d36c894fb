"""The modeled long sessions' affinity (#44): kept items that the measured transactions hold
together more often than their estimates predict are drawn together more often."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from setanon_sql.algorithms import dp_sessions


@settings(max_examples=50, deadline=None)
@given(
    estimates=st.lists(st.integers(-3, 50), min_size=2, max_size=7),
    measured=st.integers(0, 500),
    data=st.data(),
)
def test_lift_against_its_definition(estimates, measured, data) -> None:
    """Brute force: estimate x measured / (own x own), estimates below 1 taken as 1, a negative
    pair estimate as 0, symmetric, 0 where no pair was measured."""
    n = len(estimates)
    kept = sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=2)))
    chosen = data.draw(st.lists(st.sampled_from(list(combinations(kept, 2))), unique=True))
    pairs = [(a, b, data.draw(st.integers(-5, 40))) for a, b in chosen]
    got = dp_sessions.lift(np.array(estimates), np.array(kept), pairs, measured)
    given_pairs = {(a, b): e for a, b, e in pairs}
    for x, a in enumerate(kept):
        for y, b in enumerate(kept):
            e = given_pairs.get((min(a, b), max(a, b)), 0) if a != b else 0
            own = max(1, estimates[a]) * max(1, estimates[b])
            assert got[x, y] == pytest.approx(max(0, e) * max(1, measured) / own)


def within_share(session: np.ndarray, index: np.ndarray) -> float:
    """The share of the sessions' pairs whose items are both in 0..2 or both in 3..5."""
    members: dict[int, list[int]] = {}
    for s, i in zip(session.tolist(), index.tolist(), strict=True):
        members.setdefault(s, []).append(i)
    pairs = Counter(
        (a < 3) == (b < 3) for items in members.values() for a, b in combinations(items, 2)
    )
    return pairs[True] / max(1, pairs[True] + pairs[False])


def test_affinity_draws_the_pairs_the_measured_transactions_hold() -> None:
    """Six items of equal estimates in two groups whose pairs the measured transactions hold
    four times as often as independence predicts (lift 4), across the groups never (lift 0):
    sessions of 3 hold clearly more within-group pairs than independent draws (2 / 5 of
    pairs), and no more than all of them."""
    estimates = np.full(6, 100_000)
    kept = np.arange(6)
    lifts = np.array([[4.0 if (a < 3) == (b < 3) and a != b else 0.0 for b in range(6)]
                      for a in range(6)])  # fmt: skip
    plain = dp_sessions.long_sessions(estimates, [(3, 5_000)])
    raised = dp_sessions.long_sessions(estimates, [(3, 5_000)], kept, lifts)
    assert within_share(*plain) == pytest.approx(0.4, abs=0.03)
    assert within_share(*raised) > 0.55


def test_sessions_outside_the_kept_items_are_drawn_by_estimate() -> None:
    """Kept items 0..1 with no lift, the rest outside: items land in sessions in proportion to
    their estimates (sessions of one item: exactly the estimates' shares, within 5 %)."""
    estimates = np.array([40, 10, 30, 20]) * 1_000
    session, index = dp_sessions.long_sessions(
        estimates, [(1, 20_000)], np.array([0, 1]), np.zeros((2, 2))
    )
    seen = np.bincount(index, minlength=4) / len(index)
    assert np.allclose(seen, [0.4, 0.1, 0.3, 0.2], rtol=0.05)
    assert len(np.unique(session)) == 20_000
