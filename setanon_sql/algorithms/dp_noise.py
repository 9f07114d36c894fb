"""The noise of the differentially private release (#44): discrete Laplace from OpenDP.

Why OpenDP: its samplers draw exact discrete Laplace noise from the operating system's secure
randomness, safe from the floating-point attacks on textbook Laplace; the privacy loss of each
measurement is OpenDP's own privacy map, not a formula of ours. Python's `random` and numpy are
never used for the release's noise.

A fixed seed voids the promise (anyone who knows it can subtract the noise), so it exists only
in a documented test mode: with the environment variable SETANON_DP_TEST_SEED set to a whole
number, the noise is drawn from a seeded generator instead, and the run records that it was.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ..errors import ParamsError

TEST_SEED_ENV = "SETANON_DP_TEST_SEED"
"""The test mode's environment variable: its value seeds the noise, which voids the promise."""
MECHANISM = "discrete Laplace (OpenDP make_laplace over integer counts, L1 sensitivity)"
SEEDED_MECHANISM = "discrete Laplace, SEEDED TEST MODE (no privacy promise)"
"""What the budget record says of the test mode's noise: `verify` fails a run that used it."""


class Noise(Protocol):
    """Adds noise of `scale` to integer counts; says what it spends for a given sensitivity."""

    mechanism: str

    def add(self, counts: Sequence[int], scale: float) -> list[int]: ...

    def epsilon(self, sensitivity: int, scale: float) -> float: ...


class OpenDPNoise:
    """The production noise: OpenDP's discrete Laplace over a vector of integer counts."""

    mechanism = MECHANISM

    def __init__(self) -> None:
        try:
            import opendp.prelude as dp
        except ImportError:
            raise ParamsError(
                "dpsets draws its noise with OpenDP, which is not installed: "
                "pip install 'setanon-sql[dp]'"
            ) from None
        dp.enable_features("contrib")
        self._dp = dp

    def _measurement(self, scale: float):  # type: ignore[no-untyped-def]
        dp = self._dp
        space = dp.vector_domain(dp.atom_domain(T=int)), dp.l1_distance(T=int)
        return space >> dp.m.then_laplace(scale=float(scale))

    def add(self, counts: Sequence[int], scale: float) -> list[int]:
        if not counts:
            return []
        return list(self._measurement(scale)([int(c) for c in counts]))

    def epsilon(self, sensitivity: int, scale: float) -> float:
        """OpenDP's privacy map: the epsilon one measurement spends at this L1 sensitivity."""
        return float(self._measurement(scale).map(int(sensitivity)))


@dataclass
class SeededNoise:
    """The test mode's noise: discrete Laplace as the difference of two geometric draws of a
    seeded generator. Reproducible, hence no promise at all; never chosen without the env var."""

    seed: int
    mechanism: str = SEEDED_MECHANISM

    def __post_init__(self) -> None:
        import numpy as np

        self._gen = np.random.Generator(np.random.PCG64(self.seed))

    def add(self, counts: Sequence[int], scale: float) -> list[int]:
        if not counts:
            return []
        p = 1.0 - math.exp(-1.0 / scale)
        g1 = self._gen.geometric(p, size=len(counts)) - 1
        g2 = self._gen.geometric(p, size=len(counts)) - 1
        return [int(c) + int(x) - int(y) for c, x, y in zip(counts, g1, g2, strict=True)]

    def epsilon(self, sensitivity: int, scale: float) -> float:
        return sensitivity / scale


def noise_source() -> Noise:
    """OpenDP's noise, or the seeded test noise when SETANON_DP_TEST_SEED is set."""
    seed = os.environ.get(TEST_SEED_ENV)
    if seed is None or seed == "":
        return OpenDPNoise()
    try:
        return SeededNoise(int(seed))
    except ValueError:
        raise ParamsError(f"{TEST_SEED_ENV} must be a whole number, got {seed!r}") from None
