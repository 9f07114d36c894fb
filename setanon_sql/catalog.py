"""What an algorithm declares of itself, and the words for it: its `Algorithm` (name, privacy
model, `ReleaseKind`, options, engines, `run`), each `Option`, the `Settings` a run reads, and
the bounds on k, m and run names. The declarations themselves live in the algorithm modules;
`algorithms/__init__.py` imports them, so the list of algorithms is one list of imports.

Each algorithm module exposes `ALGORITHM = Algorithm(..., run=run)`; its `run(store, params,
progress) -> dict` fills its release in the current run schema (`release(tid, node)` for
generalized sets and multisets) and returns figures about the search (cut size, levels...).
`Params` checks the options given against the declared ones, so an unknown key or an
ill-typed value is an error that lists the valid keys, never a silently ignored typo.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, NoReturn, Protocol

from .errors import ParamsError

MODELS = ("k", "km", "dp")
"""The privacy models: transactional k-anonymity (k), k^m-anonymity (km) and epsilon-differential
privacy (dp, #44: no output check can prove it; verify checks the run's budget record)."""
MAX_K = 2**31 - 1
"""k above this is refused before any data is read (no dataset holds that many records)."""
MAX_M = 8
"""m above this is refused: k^m counts itemsets of m items by m-way joins, and no transaction
data of the literature is attacked with more than a handful of known items."""
ENGINES = ("duckdb", "spark")
"""The engines an algorithm may run on (`Algorithm.engines`)."""

_RUN_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
RESERVED = ("information_schema", "pg_catalog", "main", "temp", "system", "memory", "setanon")
"""Schema names DuckDB keeps for itself, and the tool's registry."""


class ReleaseKind(str, Enum):
    """What a run releases, the one thing verify, evaluate, estimate, report, compare, metrics
    and the CLI dispatch on (`measure/kinds.py` holds their handlers, one table per command).

    Adding a kind: one member here, then mypy names every handler table that misses it."""

    SETS = "sets"  # a set of hierarchy nodes per transaction: `release(tid, node)`
    MULTISETS = "multisets"  # each released copy stands for one item (Clump)
    DISASSOCIATED = "disassociated"  # clusters of record and term chunks, its own tables (#28)
    TABLE = "table"  # a generalized table (k-ANON-CF, l-diversity)
    TABLE_SETS = "table-sets"  # a table with a set-valued column, (k, k^m) (`anonymize-rt`)
    SYNTHETIC = "synthetic"  # new transactions drawn under a privacy budget (dpsets, #44)


def unhandled(kind: NoReturn) -> NoReturn:
    """`typing.assert_never` (3.11) for 3.10: the last case of every `match` on a ReleaseKind
    or a Route; mypy refuses the call while `kind` may still be a member, so a kind or route
    without a case is a type error, and at run time an error of ours."""
    raise AssertionError(f"no handler for {kind!r}")


def check_whole(name: str, value: object, low: int, high: int) -> None:
    """A whole-number parameter within [low, high], said by name when it is not."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ParamsError(f"{name} must be a whole number in {low}..{high}, got {value!r}")


def check_run_name(name: str) -> None:
    """A run names a DuckDB schema: lower-case letters, digits and _, none DuckDB reserves."""
    if not _RUN_NAME.match(name):
        raise ParamsError(
            f"run name {name!r} must be lower-case letters, digits and _ (it names a DuckDB schema)"
        )
    if name in RESERVED:
        raise ParamsError(f"run name {name!r} is reserved by DuckDB or by the tool; choose another")


class Settings(Protocol):
    """What an algorithm's `run` reads of its parameters (`params.Params` is one): declared
    here so the algorithms need not import `params`, which imports them."""

    @property
    def algorithm(self) -> str: ...
    @property
    def k(self) -> int: ...
    @property
    def m(self) -> int | None: ...
    @property
    def keep_intermediate(self) -> bool: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def run_name(self) -> str | None: ...
    @property
    def replace(self) -> bool: ...


@dataclass(frozen=True)
class Option:
    """One declared option of an algorithm.

    `default` is a value, or a function of k for defaults that scale with it (Clump's batch).
    `choices` restricts a text option; `minimum` a number. `acts_when` says, of the resolved
    options, whether this one acts at all (`acts_when_note` says when it does): given where it
    does not, it is refused, never silently ignored.
    """

    name: str
    kind: type  # int, float, str or bool
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    acts_when: Callable[[Mapping[str, Any]], bool] | None = None
    acts_when_note: str = ""

    def default_for(self, k: int) -> Any:
        return self.default(k) if callable(self.default) else self.default

    def parse(self, value: Any, algorithm: str) -> Any:
        """The value as this option's type: text from the command line is converted, a wrong
        type or a value out of range is an error naming the option."""
        where = f"option {self.name} of {algorithm}"
        if isinstance(value, str) and self.kind is not str:
            value = _from_text(value, self.kind, where)
        if self.kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, self.kind) or (self.kind is not bool and isinstance(value, bool)):
            raise ParamsError(f"{where} must be {_kind_name(self.kind)}, got {value!r}")
        if self.choices and value not in self.choices:
            raise ParamsError(f"{where} must be one of {', '.join(self.choices)}; got {value!r}")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if self.kind is float and not math.isfinite(value):
                raise ParamsError(f"{where} must be a finite number, got {value!r}")
            if self.minimum is not None and value < self.minimum:
                raise ParamsError(f"{where} must be >= {self.minimum:g}, got {value!r}")
        return value

    def describe(self) -> str:
        what = "|".join(self.choices) if self.choices else _kind_name(self.kind)
        default = "default depends on k" if callable(self.default) else f"default {self.default!r}"
        default = "required, no default" if self.default is None else default
        return f"{self.name} ({what}, {default}): {self.help}"


def _kind_name(kind: type) -> str:
    return {int: "a whole number", float: "a number", bool: "true or false", str: "text"}[kind]


def _from_text(text: str, kind: type, where: str) -> Any:
    try:
        if kind is bool:
            lowered = text.strip().lower()
            if lowered in ("true", "1", "yes", "on"):
                return True
            if lowered in ("false", "0", "no", "off"):
                return False
            raise ValueError(text)
        return kind(text.strip())
    except ValueError:
        raise ParamsError(f"{where} must be {_kind_name(kind)}, got {text!r}") from None


@dataclass(frozen=True)
class Algorithm:
    """One algorithm as its module declares it: how to run it, which privacy model and kind of
    release it makes, its options and the engines it runs on."""

    name: str
    model: str  # "k" (transactional k-anonymity) or "km" (k^m-anonymity)
    kind: ReleaseKind
    run: Callable[..., dict[str, Any]]  # run(store: Workspace, params: Settings, progress)
    allows_suppression: bool = False
    summary: str = ""
    options: tuple[Option, ...] = ()
    needs_hierarchy: bool = True  # disassociation releases every term as it is (#28)
    engines: tuple[str, ...] = ("duckdb",)

    def __post_init__(self) -> None:
        if self.model not in MODELS:
            raise ValueError(f"{self.name}: model {self.model!r} is not one of {MODELS}")
        if not set(self.engines) <= set(ENGINES):
            raise ValueError(f"{self.name}: engines {self.engines} not among {ENGINES}")

    @property
    def needs_m(self) -> bool:
        """k^m-anonymity is said of an adversary knowing m items: its algorithms need m."""
        return self.model == "km"

    @property
    def multiset(self) -> bool:
        return self.kind is ReleaseKind.MULTISETS

    def resolve(self, given: Mapping[str, Any], k: int) -> dict[str, Any]:
        """Every declared option with its value: the given one parsed, else the default."""
        known = {o.name: o for o in self.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            valid = ", ".join(known) if known else "none"
            raise ParamsError(
                f"unknown option(s) for {self.name}: {', '.join(unknown)}; valid keys: {valid}"
            )
        resolved = {
            name: opt.parse(given[name], self.name) if name in given else opt.default_for(k)
            for name, opt in known.items()
        }
        idle = [n for n in given if (acts := known[n].acts_when) and not acts(resolved)]
        if idle:
            notes = "; ".join(f"{n} acts only {known[n].acts_when_note}" for n in idle)
            raise ParamsError(f"option(s) of {self.name} that do not act here: {notes}")
        return resolved
