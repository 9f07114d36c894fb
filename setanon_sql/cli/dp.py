"""`anonymize --epsilon`: the budget of a differentially private algorithm (#44), and what such
an algorithm refuses of the other options (k, m, a seed)."""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any

import typer

from ..errors import ParamsError
from . import options as o
from .output import warn

Epsilon = Annotated[
    float | None,
    typer.Option(
        "--epsilon",
        help="Differential privacy's budget (algorithm dpsets, required there): > 0; smaller "
        "is more private and noisier.",
    ),
]


Epsilons = Annotated[
    str | None,
    typer.Option(
        "--epsilon",
        help="Values of epsilon for a differentially private algorithm (dpsets, required "
        "there), e.g. 0.5,1,2: one run each, the utility curve.",
    ),
]


def sweep_epsilons(algorithms: list[str], text: str | None) -> list[float]:
    """The epsilons a sweep runs its differentially private algorithms at (none when none is
    swept); --epsilon refused when none is, and required when one is."""
    dp = [a for a in algorithms if is_dp(a)]
    o.refuse_unless(
        text is None or bool(dp),
        "--epsilon is for a differentially private algorithm (dpsets); none is swept",
    )
    if text is None:
        o.refuse_unless(
            not dp, f"-a {dp[0] if dp else ''} needs --epsilon, its privacy budget (e.g. "
            "--epsilon 0.5,1,2): none is chosen for you",
        )  # fmt: skip
        return []
    seeded_sweep_note()
    values = []
    for part in text.split(","):
        try:
            values.append(float(part))
        except ValueError:
            raise ParamsError(f"--epsilon takes numbers, e.g. 0.5,1,2; got {part!r}") from None
    return values


def seeded_sweep_note() -> None:
    """A line before a sweep's runs, under --quiet too, when the test mode's seed is set."""
    import os

    from ..algorithms.dp_noise import TEST_SEED_ENV  # not at every start of the CLI

    if os.environ.get(TEST_SEED_ENV):
        warn([f"{TEST_SEED_ENV} is set: the dpsets runs of this sweep are seeded test runs, "
              "NOT differentially private"])  # fmt: skip


def is_dp(algorithm: str) -> bool:
    """Whether `algorithm` names a differentially private algorithm (unknown: refused later)."""
    from ..algorithms import ALGORITHMS

    found = ALGORITHMS.get(algorithm.lower())
    return found is not None and found.model == "dp"


def dp_options(
    ctx: typer.Context,
    algorithm: str,
    epsilon: float | None,
    given: list[str],
    hier: o.HierOpts,
) -> list[str]:
    """The --option pairs with --epsilon among them; --epsilon and -k refused where they do
    not act, a missing --epsilon, and a tree built from the data, before any data is read."""
    dp = is_dp(algorithm)
    o.refuse_unless(dp or epsilon is None, "--epsilon goes with a differentially private "
                    "algorithm (-a dpsets)")  # fmt: skip
    if not dp:
        return given
    source = ctx.get_parameter_source("k")
    o.refuse_unless(
        source is None or source.name != "COMMANDLINE",
        f"-a {algorithm} promises differential privacy, not k-anonymity: -k does not apply",
    )
    built = "--fanout" if hier.fanout is not None else "--code-prefix" if hier.code_prefix else ""
    o.refuse_unless(
        not built,
        f"-a {algorithm} needs a public item domain: a {built} tree is built from the data's "
        "items, so which items occur would leak; give -H with a catalogue of every item that "
        'could occur (README, "Differential privacy")',
    )
    named = any(p.strip().startswith("epsilon=") for p in given)
    o.refuse_unless(
        epsilon is None or not named, "give epsilon once: --epsilon or --option epsilon=, not both"
    )
    o.refuse_unless(
        epsilon is not None or named,
        f"-a {algorithm} needs --epsilon, its privacy budget (e.g. --epsilon 1): none is chosen "
        "for you",
    )
    return given if epsilon is None else [*given, f"epsilon={epsilon!r}"]


def dp_catalogue(algorithm: str, hier: o.HierOpts) -> o.HierOpts:
    """A differentially private run's -H file read as a catalogue: the data's items it lacks
    are dropped, never named (which items the data holds is what the run keeps to itself)."""
    if not is_dp(algorithm) or hier.hierarchy is None:
        return hier
    return dataclasses.replace(hier, catalogue=True)


def dp_notes(result: Any) -> list[str]:
    """The warnings a differentially private run's figures call for: a seeded test run, an
    epsilon too large to promise anything, and small data."""
    if not is_dp(result.algorithm):
        return []
    from ..algorithms.dp_sets import epsilon_note, seeded_note, small_data_note

    notes = (seeded_note(result.info), epsilon_note(result.info), small_data_note(result.info))
    return [n for n in notes if n]


def dp_exit(result: Any) -> None:
    """A seeded test run promised nothing: exit 1 once its release is written and reported."""
    if is_dp(result.algorithm) and result.info.get("seeded_test"):
        raise typer.Exit(1)
