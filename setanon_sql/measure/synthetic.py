"""Seeded synthetic market baskets written to Parquet, for benchmarks at any scale.

Why: the public transaction datasets stop at ~10^5 transactions; growth with |D| is measured
on data that keeps the same shape at 10^5, 10^6 and 10^7 transactions. The baskets follow
IBM Quest's generator in spirit: Zipf-like item popularity scattered over the ids, lengths
with a long (Pareto) tail, and correlated patterns of 2..5 items, half of them inside one
subtree of the balanced fan-out hierarchy that `--fanout F` builds over the ids. The SQL is
in `sql/synthetic.sql`; every draw hashes (seed, tid, position), so a file depends on the
seed alone, not on the thread count.

Example:
    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "baskets.parquet"
    >>> write_baskets(out, SynthSpec(transactions=1000, items=500, seed=1))["transactions"]
    1000
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..catalog import check_whole
from ..engine import ddl, sqlfiles
from ..errors import ParamsError
from ..store.database import Store
from ..store.outputs import Publication

_MACROS = ("u", "rank", "item", "pattern_item")
MAX_TRANSACTIONS = 10**9  # 10^8 is the largest benchmark; beyond is a typo, not a wish
MAX_ITEMS = 10**8
MAX_LENGTH = 10**4


@dataclass(frozen=True)
class SynthSpec:
    """The shape of the baskets. Lengths: floor(min_length / U^(1 / tail)) independent items
    (mean about tail / (tail - 1) x min_length), capped at max_length; patterns: `patterns`
    of them (default items / 10), one in a share `pattern_share` of the transactions; the
    in-subtree patterns stay in blocks of fanout^3 leaves."""

    transactions: int
    items: int = 10_000
    seed: int = 0
    patterns: int | None = None
    pattern_share: float = 0.5
    min_length: float = 1.5
    tail: float = 1.8
    max_length: int = 200
    fanout: int = 5

    def __post_init__(self) -> None:
        check_whole("transactions", self.transactions, 1, MAX_TRANSACTIONS)
        check_whole("items", self.items, 2, MAX_ITEMS)
        check_whole("seed", self.seed, 0, 2**31 - 1)
        if self.patterns is not None:
            check_whole("patterns", self.patterns, 0, self.items)
        check_whole("max_length", self.max_length, 1, MAX_LENGTH)
        check_whole("fanout", self.fanout, 2, self.items)
        for name in ("pattern_share", "min_length", "tail"):
            if not math.isfinite(getattr(self, name)):
                raise ParamsError(f"{name} must be a finite number, got {getattr(self, name)}")
        if not 0 <= self.pattern_share <= 1:
            raise ParamsError(f"pattern_share must be in [0, 1], got {self.pattern_share}")
        if not 1 <= self.min_length <= self.max_length or self.tail <= 1:
            raise ParamsError("need 1 <= min_length <= max_length and tail > 1")

    def parameters(self) -> dict[str, Any]:
        """The bound parameters of `synthetic_baskets`."""
        return {
            "seed": self.seed,
            "transactions": self.transactions,
            "items": self.items,
            "scatter": scatter(self.items),
            "patterns": max(2, self.patterns or self.items // 10),
            "pattern_share": self.pattern_share,
            "min_length": self.min_length,
            "tail": self.tail,
            "max_length": self.max_length,
            "block": min(self.items, self.fanout**3),
        }


def scatter(n: int) -> int:
    """A multiplier prime to n near n / golden ratio: rank -> id is then a bijection that
    puts consecutive ranks far apart."""
    m = max(1, int(n * 0.6180339887))
    while math.gcd(m, n) != 1:
        m += 1
    return m


def baskets_sql() -> str:
    """The query the Parquet file is written from (its twin for `setanon sql`)."""
    return sqlfiles.statement("synthetic_baskets").sql


def write_baskets(path: str | Path, spec: SynthSpec, *, store: Store | None = None) -> dict:
    """Write the baskets as Parquet `(tid BIGINT, item BIGINT)`, one row per item, in tid
    order; return what was written. The file appears whole or not at all."""
    path = Path(path)
    own = store is None
    store = store or Store()
    started = time.perf_counter()
    try:
        with Publication().written() as files:
            partial = files.file(path)
            for name in _MACROS:
                store.run(f"synthetic_macro_{name}")
            copy = ddl.copy_to(
                baskets_sql(), str(partial), "parquet", compression="zstd", row_group_size=1000000
            )
            store.execute(copy, spec.parameters(), step="synthetic_baskets")
        written = store.run("synthetic_written", {"p": str(path)}).one()
    finally:
        if own:
            store.close()
    return {
        "path": str(path),
        **asdict(spec),
        "rows": written["rows"],
        "distinct_items": written["items"],
        "seconds": round(time.perf_counter() - started, 2),
    }
