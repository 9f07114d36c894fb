"""Sweep algorithms and parameters into a comparison: every algorithm x k (x m) anonymized,
then the runs compared on one seeded workload."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .algorithms import get
from .api import anonymize
from .errors import ParamsError
from .measure.compare import compare
from .measure.evaluate import DEFAULT_WORKLOAD, Workload
from .params import Params
from .store.database import Store


def sweep(
    store: Store,
    *,
    algorithm_names: Iterable[str],
    ks: Iterable[int],
    ms: Iterable[int | None] = (None,),
    epsilons: Iterable[float] = (),
    workload: Workload = DEFAULT_WORKLOAD,
    replace: bool = False,
    progress: Callable[[str], None] = lambda _: None,
    tag: str = "",
) -> list[dict[str, Any]]:
    """Anonymize with every algorithm x k (x m for the k^m algorithms), then compare the runs.

    A k^m algorithm runs once per m (m = 2 when none is given); the others ignore m. A
    differentially private one runs once per epsilon (required: none is chosen for it) and
    ignores k and m (#44). `tag` names
    the hierarchy in use, in the run names and in a `hierarchy` column of the rows.
    """
    runs = []
    suffix = f"_{tag}" if tag else ""
    epsilons, names = tuple(epsilons), list(algorithm_names)
    unset = [a.name for a in map(get, names) if a.model == "dp" and not epsilons]
    if unset:  # before any run
        raise ParamsError(f"{unset[0]} needs epsilons, its privacy budgets: none is chosen")
    for name in names:
        algo = get(name)
        if algo.model == "dp":
            for eps in epsilons:
                run_name = f"run_{algo.name}_eps{eps:g}".replace(".", "_") + suffix
                progress(run_name)
                params = Params(
                    algorithm=algo.name,
                    k=1,
                    run_name=run_name,
                    replace=replace,
                    options={"epsilon": eps},
                )
                runs.append(anonymize(store, params).run)
            continue
        for k in ks:
            for m in [x or 2 for x in ms] if algo.needs_m else [None]:
                run_name = (
                    f"run_{algo.name}_k{k}" + (f"_m{m}" if m else "") + (f"_{tag}" if tag else "")
                )
                progress(run_name)
                params = Params(algorithm=algo.name, k=k, m=m, run_name=run_name, replace=replace)
                runs.append(anonymize(store, params).run)
    rows = compare(store, runs, workload=workload)
    return [{"hierarchy": tag, **r} for r in rows] if tag else rows
