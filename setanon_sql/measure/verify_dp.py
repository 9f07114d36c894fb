"""What `verify` can say about a differentially private run (#44), and what it cannot.

No check of an output can prove a differential-privacy promise: the promise is about the
mechanism (how the release was drawn), not about any one release. What is checked: the run's
budget record (`dp_budget`: every noisy measurement with its mechanism, sensitivity, scale and
epsilon, by OpenDP's privacy map) sums to at most the run's epsilon, and the release is ordinary
transactions of original items (leaves of the hierarchy).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..algorithms.dp_noise import SEEDED_MECHANISM, TEST_SEED_ENV
from ..engine.contract import Workspace

CANNOT = (
    "no check of a release can prove differential privacy: the promise is the mechanism's; "
    "checked here: the budget record sums to at most epsilon and the release holds original items"
)
SEEDED = (
    f"a seeded test run ({TEST_SEED_ENV}): its noise can be recomputed from the seed, so its "
    "release is not differentially private"
)
TOLERANCE = 1e-9
"""Relative slack for the floating-point sum of the steps' epsilons."""


@dataclass(frozen=True)
class DPReport:
    """The budget's verdict and the release's form; `ok` when both hold."""

    schema: str
    epsilon: float
    spent: float
    steps: int
    problems: tuple[str, ...]
    model: str = "dp"
    seeded: bool = False  # the test mode's noise: a run that promises nothing (SEEDED)

    @property
    def ok(self) -> bool:
        return not self.problems and not self.seeded

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "model": "dp",
            "schema": self.schema,
            "epsilon": self.epsilon,
            "epsilon_spent": self.spent,
            "measurements": self.steps,
            "problems": [*self.problems, *([SEEDED] if self.seeded else [])],
            "seeded_test": self.seeded,
            "note": CANNOT,
        }


def budget_problems(row: dict[str, Any], epsilon: float) -> list[str]:
    """What is wrong with a budget record's summary row against the run's epsilon."""
    found = []
    if not row["steps"]:
        found.append("the run records no noisy measurement")
    if row["malformed"]:
        found.append(f"{row['malformed']} measurement(s) without mechanism, sensitivity or scale")
    if row["least"] is not None and not row["least"] > 0:
        found.append("a measurement records a non-positive epsilon")
    if row["recorded_values"] > 1 or (
        row["recorded"] is not None and not math.isclose(row["recorded"], epsilon)
    ):
        found.append(f"the record's epsilon {row['recorded']} is not the run's {epsilon}")
    if not row["spent"] <= epsilon * (1 + TOLERANCE):
        found.append(f"the measurements spend {row['spent']}, more than epsilon {epsilon}")
    return found


def has_budget(store: Workspace, schema: str | None) -> bool:
    """Whether the run holds `dp_budget`: in `schema`, or the run being made (under its staging
    schema when it replaces another), or the run the store points at."""
    found = store.has_table  # type: ignore[attr-defined]
    return bool(
        found("dp_budget", schema)
        or (schema is None and found("dp_budget", store.current_schema()))
    )


def verify(store: Workspace, *, epsilon: float, schema: str | None = None) -> DPReport:
    """Check the budget record of the run `schema` (default: the current one) against
    `epsilon`, and its release's form."""
    problems = []
    if not has_budget(store, schema):
        problems.append("the run has no budget record (dp_budget)")
        row = {"steps": 0, "spent": 0.0, "seeded": 0}
    else:
        row = store.run("dp_verify_budget", {"seeded": SEEDED_MECHANISM}).one()
        problems += budget_problems(row, epsilon)
    bad = int(store.run("dp_verify_release").one()["problems"])
    if bad:
        problems.append(f"{bad} released row(s) are not an original item of a transaction")
    where = schema or store.current_schema()
    spent, steps = float(row["spent"]), int(row["steps"])
    return DPReport(where, epsilon, spent, steps, tuple(problems), seeded=bool(row["seeded"]))
