"""dpsets' pair estimates from their two noisy halves (#44): each half is a count, clamped at 0
before the long one is scaled up, so a negative half's noise (times the scale, for the long
one) is not taken off the other half."""

from __future__ import annotations

import pytest
from helpers.stores import make_store
from hypothesis import given
from hypothesis import strategies as st

from setanon_sql import Params, anonymize
from setanon_sql.algorithms import dp_answers, dp_noise


def test_a_negative_half_takes_nothing_off_the_other() -> None:
    assert dp_answers.pair_estimate(-5, 3, 3.0) == 9  # clamping the sum would give 4
    assert dp_answers.pair_estimate(5, -3, 3.0) == 5  # and 0 here
    assert dp_answers.pair_estimate(-5, -3, 3.0) == 0
    assert dp_answers.pair_estimate(4, 2, 2.5) == 9


@given(st.integers(-50, 50), st.integers(-50, 50), st.floats(1.0, 40.0))
def test_the_estimate_is_the_scaled_sum_of_what_the_halves_can_be(short, long, scale) -> None:
    """Against the two halves taken apart: a count below 0 is 0, then the long one scaled."""
    got = dp_answers.pair_estimate(short, long, scale)
    parts = (short if short > 0 else 0) + scale * (long if long > 0 else 0)
    assert got >= 0 and abs(got - parts) <= 0.5
    if short >= 0 and long >= 0:
        assert abs(got - (short + scale * long)) <= 0.5


class HalvesNoise:
    """Exact counts, except the pair halves: every short half -4, every long half +2."""

    mechanism = "fixed halves (test)"

    def __init__(self) -> None:
        self.calls = 0

    def add(self, counts, scale):
        self.calls += 1
        if self.calls < 4:
            return list(counts)
        half = len(counts) // 2
        return [-4] * half + [2] * (len(counts) - half)

    def epsilon(self, sensitivity, scale):
        return sensitivity / scale


def test_a_run_clamps_each_half_before_scaling() -> None:
    edges = [(f"i{j}", "*") for j in range(5)]
    txs = [["i0", "i1"], ["i0", "i1", "i2"], ["i0", "i1", "i2", "i3"], ["i2", "i3", "i4"]] * 3
    options = {"epsilon": 1.0, "pair_items": 5, "limit2": 2, "longest": 4, "public_domain": True}
    store = make_store(txs, edges)  # the test's own tree, fixed before the data: public
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dp_noise, "noise_source", HalvesNoise)
        run = anonymize(store, Params(algorithm="dpsets", k=1, options=options)).run
        with store.in_run(run):
            lengths = [
                h for (h,) in store.query("SELECT noisy FROM dp_noisy_pair_lengths ORDER BY length")
            ]
            rows = store.query("SELECT short, long, estimate FROM dp_noisy_l2")
    store.close()
    scale = dp_answers.pair_scale(lengths, 2, 4)
    assert scale > 1 and rows and all(s == -4 and g == 2 for s, g, _ in rows)
    assert all(e == round(2 * scale) for _, _, e in rows)  # not round(2 * scale - 4)
