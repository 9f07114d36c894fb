"""A stored run verified by its kind of release (`kinds.route`): the generalized verifier with
the run's own k, m, model and kind; a disassociated run's own verifier; a differentially
private run's budget record (no output check proves DP). The check's tables go to scratch,
never into the run."""

from __future__ import annotations

import dataclasses
from typing import Any

from ..errors import InputError, ParamsError
from ..store.database import Store
from .kinds import Route, promise_of, route, unhandled
from .verify import VerifyReport, verify


def verify_run(
    store: Store,
    run: str,
    *,
    k: int | None = None,
    model: str | None = None,
    m: int | None = None,
    allow_suppression: bool | None = None,
    multiset: bool | None = None,
) -> Any:
    """The verdict on stored run `run`; a flag its kind's verifier does not take is refused."""
    made = promise_of(store, run)
    match route("verify", made.kind, f"run {run!r}"):
        case Route.DISASSOCIATED:  # #28
            if model is not None or allow_suppression is not None or multiset is not None:
                raise ParamsError(
                    f"run {run!r} is disassociated: its verifier takes --k and --m only "
                    "(no --model, --allow-suppression or --multiset)"
                )
            from . import verify_disassociation as vd

            m_checked = made.m if m is None else m
            if m_checked is None:  # a disassociated run always records its m
                raise ParamsError(f"run {run!r} records no m: give --m")
            with store.in_run(run, scratch=True):
                found = vd.verify(store, k=made.k if k is None else k, m=m_checked)
            return dataclasses.replace(found, schema=run)  # checked in scratch, of the run
        case Route.SYNTHETIC:  # its budget record (#44)
            if any(v is not None for v in (k, model, m, allow_suppression, multiset)):
                raise ParamsError(
                    f"run {run!r} is differentially private: no output check proves that, and "
                    "its budget record is checked as it is (no --k, --m, --model, "
                    "--allow-suppression or --multiset)"
                )
            from . import verify_dp

            if made.epsilon is None:  # `promise_of` read it from the run's parameters
                raise InputError(f"run {run!r} records no epsilon: its budget cannot be checked")
            with store.in_run(run, scratch=True):
                checked = verify_dp.verify(store, epsilon=made.epsilon, schema=run)
            return dataclasses.replace(checked, schema=run)
        case Route.TABLE | Route.TABLE_SETS:  # promise_of refused a table run above
            raise AssertionError(f"run {run!r}: a table run reached the transactions' verifier")
        case Route.GENERALIZED:
            pass
        case unknown:
            unhandled(unknown)
    with store.in_run(run, scratch=True):
        report: VerifyReport = verify(
            store,
            k=made.k if k is None else k,
            model=model or made.model,
            m=made.m if m is None else m,
            allow_suppression=made.allows_suppression
            if allow_suppression is None
            else allow_suppression,
            multiset=made.multiset if multiset is None else multiset,
        )
    return dataclasses.replace(report, schema=run)
