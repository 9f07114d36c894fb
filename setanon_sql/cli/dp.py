"""`anonymize --epsilon`: the budget of a differentially private algorithm (#44), and what such
an algorithm refuses of the other options (k, m, a seed)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from ..errors import ParamsError
from . import options as o

Epsilon = Annotated[
    float | None,
    typer.Option(
        "--epsilon",
        help="Differential privacy's budget (algorithm dpsets): > 0; smaller is more private "
        "and noisier.",
    ),
]


Epsilons = Annotated[
    str | None,
    typer.Option(
        "--epsilon",
        help="Values of epsilon for a differentially private algorithm (dpsets), e.g. 0.5,1,2 "
        "(1): one run each, the utility curve.",
    ),
]


def sweep_epsilons(algorithms: list[str], text: str | None) -> list[float]:
    """The epsilons a sweep runs its differentially private algorithms at; --epsilon refused
    when none is swept."""
    o.refuse_unless(
        text is None or any(is_dp(a) for a in algorithms),
        "--epsilon is for a differentially private algorithm (dpsets); none is swept",
    )
    values = []
    for part in (text or "1").split(","):
        try:
            values.append(float(part))
        except ValueError:
            raise ParamsError(f"--epsilon takes numbers, e.g. 0.5,1,2; got {part!r}") from None
    return values


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
    not act, and a support-ordered --fanout tree before any data is read."""
    dp = is_dp(algorithm)
    o.refuse_unless(dp or epsilon is None, "--epsilon goes with a differentially private "
                    "algorithm (-a dpsets)")  # fmt: skip
    if not dp:
        return given
    from ..store.hierarchy import DEFAULT_ORDER  # not at every start of the CLI

    source = ctx.get_parameter_source("k")
    o.refuse_unless(
        source is None or source.name != "COMMANDLINE",
        f"-a {algorithm} promises differential privacy, not k-anonymity: -k does not apply",
    )
    o.refuse_unless(
        hier.fanout is None or (hier.order or DEFAULT_ORDER) != "support",
        f"-a {algorithm} refuses a support-ordered hierarchy: its shape depends on the items' "
        "supports, which leaks the data; give --order id with --fanout (its default is support)",
    )
    o.refuse_unless(
        epsilon is None or not any(p.strip().startswith("epsilon=") for p in given),
        "give epsilon once: --epsilon or --option epsilon=, not both",
    )
    return given if epsilon is None else [*given, f"epsilon={epsilon!r}"]


def dp_notes(result: Any) -> list[str]:
    """The warnings a differentially private run's figures call for (dpsets' small data)."""
    if not is_dp(result.algorithm):
        return []
    from ..algorithms.dp_sets import small_data_note

    note = small_data_note(result.info)
    return [note] if note else []
