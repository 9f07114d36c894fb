"""dpsets' plan (#44): its noisy measurements with their sensitivities and budgets, from the
options alone, and what it refuses before any work: a budget that does not fit, a seed, and an
item domain that is not public.

Why the domain: every leaf of the tree gets a noisy count, so the leaves must be a public
catalogue. A tree built from the data (`--fanout`, `--code-prefix`, or a file whose leaves are
exactly the data's items) holds an item only when some transaction does: one transaction's
own item then appears in the release only when that transaction is in the data, a difference
no epsilon bounds (measured: 19 of 30 runs against 0 of 30; with a catalogue listing it, 12
against 11).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from math import comb
from typing import Any

from ..engine.contract import Workspace
from ..errors import ParamsError
from . import dp_noise

STEPS = ("lengths", "items", "pair lengths", "pairs")
"""The noisy measurements in order; the budget's split gives each its share."""
DEFAULT_SPLIT = "0.05,0.3,0.03,0.62"
"""The budget's shares of the four measurements (with max_size 1, the first two are used)."""
BUILT = re.compile(r"fanout \d+( by support)?|code-prefix")
"""How the registry names a tree built from the data's items (`HierarchySpec.describe`)."""


@dataclass(frozen=True)
class Level:
    """One noisy measurement: `what` it counts, its L1 sensitivity (what one transaction more or
    less changes the vector of counts by at most), and its share of the budget."""

    what: str
    sensitivity: int
    epsilon: float

    @property
    def scale(self) -> float:
        return self.sensitivity / self.epsilon


def plan(options: dict[str, Any]) -> list[Level]:
    """The measurements with their sensitivities and budgets, from the options alone (never
    from the data): with max_size 1, the lengths and the items only."""
    if options.get("epsilon") is None:
        raise ParamsError(
            "dpsets needs option epsilon, its privacy budget (e.g. 1): none is chosen for you"
        )
    epsilon = float(options["epsilon"])
    sizes = int(options["max_size"])
    if sizes > 2:
        raise ParamsError(f"option max_size of dpsets must be 1..2, got {sizes}")
    sensitivity = sensitivities(options)
    return [
        Level(STEPS[i], sensitivity[i], epsilon * share) for i, share in enumerate(shares(options))
    ]


def shares(options: dict[str, Any]) -> list[float]:
    """The budget's split over the measurements made, normalized: one positive share each (four
    with max_size 2, two with max_size 1, where the default's last two are not used); any
    other number of shares is refused, never cut or padded."""
    used = 2 if int(options["max_size"]) == 1 else 4
    text = str(options["split"])
    try:
        given = [float(s) for s in text.split(",")]
    except ValueError:
        given = []
    if any(not math.isfinite(s) or s <= 0 for s in given) or not given:
        raise ParamsError(
            f"option split of dpsets takes {used} positive shares separated by commas, got {text!r}"
        )
    if len(given) != used and not (used == 2 and text == DEFAULT_SPLIT):
        what = "the lengths and the items" if used == 2 else (
            "the lengths, the items, the kept items' lengths and the pairs"
        )  # fmt: skip
        raise ParamsError(
            f"option split of dpsets takes {used} shares with max_size {options['max_size']} "
            f"({what}), got {len(given)}: {text!r}"
        )
    total = sum(given[:used])
    return [s / total for s in given[:used]]


def sensitivities(options: dict[str, Any]) -> list[int]:
    """What one transaction more or less changes each measurement's counts by, at most."""
    if int(options["max_size"]) > 1 and int(options["longest"]) < int(options["limit2"]):
        raise ParamsError("option longest of dpsets must be at least limit2")
    return [1, int(options["limit1"]), 1, comb(int(options["limit2"]), 2)]


def check_run(store: Workspace, options: dict[str, Any]) -> None:
    """Refuse what voids the promise or cannot be released, before any work (and before a
    run is recorded): a seed, a budget's split that does not fit, a domain from the data."""
    plan(options)
    if not 0 < float(options["made_up"]) <= 1:
        raise ParamsError(
            f"option made_up of dpsets is a share, 0 < made_up <= 1, got {options['made_up']!r}"
        )
    if int(options["seed"]) >= 0:
        raise ParamsError(
            "dpsets takes no seed: a fixed seed lets anyone who knows it remove the noise, "
            f"which voids the differential-privacy promise (the test mode {dp_noise.TEST_SEED_ENV}"
            " is for tests only)"
        )
    check_domain(store, bool(options["public_domain"]))


def check_domain(store: Workspace, public: bool) -> None:
    """Refuse a tree built from the data's items (its registered source says so), and one whose
    leaves are exactly the data's items unless `public` says the tree is public knowledge."""
    tree = getattr(store, "hierarchy", None)  # the DuckDB store's registered hierarchy
    if tree is not None and BUILT.fullmatch(str(tree.source)):
        raise ParamsError(
            f"dpsets needs a public item domain, not a tree built from the data ({tree.source}): "
            "which items occur would leak; give a catalogue of every item that could occur"
        )
    if not public and int(store.run("dp_unused_leaves").one()["unused"]) == 0:
        raise ParamsError(
            "dpsets needs a public item domain: this tree's leaves are exactly the data's items, "
            "as a tree built from the data would be, so which items occur would leak; give a "
            "catalogue of every item that could occur, or option public_domain=true if this "
            "tree is public knowledge whatever the data holds"
        )
