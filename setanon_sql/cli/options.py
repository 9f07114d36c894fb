"""The options several commands share, declared once as annotated types, and the plain values
a command groups them into (where the data comes from, its hierarchy, the database, the
evaluation's workload).

Every option either acts or is refused: `refuse_unless` says in one line (exit 2) why an option
given does not apply, so none is silently ignored. Options whose default must be told apart
from a value given default to None and get their value here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..errors import ParamsError

if TYPE_CHECKING:
    from ..measure.evaluate import Workload
    from ..store.hierarchy_spec import HierarchySpec

# -- where the transactions come from -----------------------------------------------------------
Source = Annotated[
    Path | None,
    typer.Argument(
        help="Transactions: SPMF/lines .txt, long tid,item .csv, .parquet or .duckdb "
        "(omit to use a dataset stored in --db)."
    ),
]
Format = Annotated[
    str | None, typer.Option("--format", help="spmf, lines, csv, parquet or duckdb.")
]
Table = Annotated[str | None, typer.Option("--table", help="Table of a DuckDB input.")]
TidCol = Annotated[
    str | None, typer.Option("--tid-col", help="Transaction id column (default tid).")
]
ItemCol = Annotated[
    str | None,
    typer.Option("--item-col", help="Item column, or a LIST column (default item)."),
]
Encoding = Annotated[
    str | None,
    typer.Option("--encoding", help="Text encoding of INPUT, e.g. latin-1 (default utf-8)."),
]
Dataset = Annotated[
    int | None,
    typer.Option("--dataset", help="Id of a dataset stored in --db (see `setanon datasets`)."),
]
# -- the item hierarchy -----------------------------------------------------------------------
Hierarchy = Annotated[
    Path | None, typer.Option("--hierarchy", "-H", help="child,parent CSV or leaf;...;root file.")
]
HierarchyFormat = Annotated[
    str | None, typer.Option("--hierarchy-format", help="csv or paths (with --hierarchy).")
]
Fanout = Annotated[
    int | None,
    typer.Option("--fanout", help="Build a balanced hierarchy of this fan-out.", min=2, max=10**6),
]
CodePrefix = Annotated[
    bool,
    typer.Option("--code-prefix", help="Build a hierarchy by dropping trailing code digits."),
]
Order = Annotated[
    str | None,
    typer.Option(
        "--order", help="Leaf order of --fanout: support (most frequent first; default) or id."
    ),
]
HierarchyEncoding = Annotated[
    str | None,
    typer.Option(
        "--hierarchy-encoding", help="Text encoding of the hierarchy file (default utf-8)."
    ),
]
# -- the database and what it may use -----------------------------------------------------------
Db = Annotated[
    Path | None,
    typer.Option("--db", help="DuckDB file to use (created if missing; default: in memory)."),
]
MemoryLimit = Annotated[
    str | None,
    typer.Option(
        "--memory-limit",
        help="DuckDB memory limit, e.g. 4GB (spills beyond); with --engine spark, its driver's.",
    ),
]
TempDir = Annotated[
    Path | None, typer.Option("--temp-dir", help="Folder for DuckDB's spill files.")
]
Threads = Annotated[
    int | None,
    typer.Option("--threads", help="DuckDB worker threads (at most 4 per core).", min=1),
]
# -- runs, releases, output ----------------------------------------------------------------------
Json = Annotated[bool, typer.Option("--json", help="Machine-readable output on stdout.")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress display or table.")]
K = Annotated[int, typer.Option("--k", "-k", help="Anonymity parameter k.", min=1)]
M = Annotated[
    int | None, typer.Option("--m", "-m", help="Adversary knowledge m (k^m-anonymity).", min=1)
]
StoredRun = Annotated[str | None, typer.Option("--run", help="A run stored in --db.")]
Release = Annotated[
    Path | None,
    typer.Option(
        "--release",
        "-r",
        help="Release file (long tid,item or per transaction), or release folder.",
    ),
]
# -- the evaluation's workload -------------------------------------------------------------------
Queries = Annotated[
    int | None,
    typer.Option("--queries", help="Random itemset queries per size (2000).", min=0, max=10**6),
]
Targets = Annotated[
    int | None,
    typer.Option("--targets", help="Attack targets per known-item count (2000).", min=0, max=10**6),
]
Sizes = Annotated[str | None, typer.Option("--sizes", help="Query sizes (1,2,3).")]
Minsup = Annotated[
    float | None,
    typer.Option("--minsup", help="Frequent itemsets: support share of the transactions (0.001)."),
]
Seed = Annotated[
    int | None,
    typer.Option("--seed", help="Seed of the workload and attacks (0).", min=0, max=2**31 - 1),
]
Exact = Annotated[
    bool,
    typer.Option("--exact", help="Count on every transaction, however many (no sample)."),
]
Sample = Annotated[
    float | None,
    typer.Option(
        "--sample",
        help="Score the queries on this share of the transactions, with 95 % intervals "
        "(default: exact up to 10^6 transactions, then about 500,000 of them).",
    ),
]
Sanity = Annotated[
    float | None,
    typer.Option(
        "--sanity",
        help="Also report each ARE with its denominator at least this share of the "
        "transactions (are_sanity; the DP literature's 0.001). Default: no bound.",
    ),
]


def refuse_unless(applies: bool, message: str) -> None:
    """An option given where it does not apply is refused (exit 2), never ignored."""
    if not applies:
        raise ParamsError(message)


def disassociates(set_release: str, item_search: str | None) -> bool:
    """Whether `--set-release` asks for disassociation; an unknown shape, or an item search
    (which generalizes) beside disassociation, refused (exit 2)."""
    dis = set_release == "disassociate"
    refuse_unless(
        set_release in ("generalize", "disassociate"),
        f"--set-release must be 'generalize' or 'disassociate', got {set_release!r}",
    )
    refuse_unless(
        not dis or item_search is None,
        "--item-search generalizes the items; --set-release disassociate releases them as given",
    )
    return dis


def option_pairs(pairs: list[str]) -> dict[str, Any]:
    """`--option key=value` pairs as a dict; a pair without `=` or given twice is refused."""
    opts: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ParamsError(f"--option wants key=value, got {pair!r}")
        if key.strip() in opts:
            raise ParamsError(f"--option {key.strip()} given twice")
        opts[key.strip()] = value
    return opts


def taxonomies(pairs: list[str]) -> dict[str, str]:
    """`--taxonomy column=FILE|SPEC` pairs as {column: spec}, for the table commands; a pair
    without `=` or a column given twice is refused (the last would win without a word)."""
    out: dict[str, str] = {}
    for pair in pairs:
        column, sep, spec = pair.partition("=")
        if not sep or not column or not spec:
            raise ParamsError(f"--taxonomy wants column=FILE or column=SPEC, got {pair!r}")
        if column in out:
            raise ParamsError(
                f"--taxonomy {column}= given twice ({out[column]}, {spec}); give one a column"
            )
        out[column] = spec
    return out


def taxonomy_files(specs: dict[str, str]) -> list[Path]:
    """The taxonomies given as files (not as specs): the command reads them, so no output may
    name one."""
    return [Path(s) for s in specs.values() if Path(s).is_file()]


def whole_numbers(text: str, option: str) -> tuple[int, ...]:
    """`1,2,3` as (1, 2, 3)."""
    try:
        return tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise ParamsError(
            f"{option} wants whole numbers separated by commas, got {text!r}"
        ) from None


def names(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


# -- the table commands' options (anonymize-table, anonymize-rt), declared once ------------------
Sensitive = Annotated[str | None, typer.Option("--sensitive", help="Sensitive column (for --l).")]
Ell = Annotated[float | None, typer.Option("--l", help="ℓ-diversity of the sensitive column.")]
TableOutput = Annotated[
    Path | None, typer.Option("--output", "-o", help="Release file: .csv or .parquet.")
]
Columns = Annotated[
    str | None,
    typer.Option("--columns", help="Comma-separated column names of a header-less CSV."),
]
TableOfFile = Annotated[str | None, typer.Option("--table", help="Table of a DuckDB input file.")]
MaxCluster = Annotated[
    int | None,
    typer.Option(
        "--max-cluster",
        help="With --set-release disassociate: HORPART splits a part of a class while it "
        "holds this many records or more (100).",
    ),
]
DropMissing = Annotated[
    str | None, typer.Option("--drop-missing", help="Drop rows holding this token (e.g. '?').")
]
TableEncoding = Annotated[
    str | None, typer.Option("--encoding", help="Text encoding of a CSV table and taxonomy files.")
]
TableRun = Annotated[str | None, typer.Option("--run", help="Name of the run's schema.")]
TableReplace = Annotated[
    bool, typer.Option("--replace", help="Replace a run the tool made before, or an output file.")
]
ReplaceOutput = Annotated[bool, typer.Option("--replace", help="Replace an existing output file.")]

# -- the options the table commands share (anonymize-table, anonymize-rt, sweep-rt) -------------
TableSource = Annotated[
    Path, typer.Argument(help="Table: .csv (header row unless --columns), .parquet or .duckdb.")
]
Qi = Annotated[list[str], typer.Option("--qi", help="A quasi-identifier column (repeat).")]
Keep = Annotated[
    list[str] | None,
    typer.Option(
        "--keep",
        help="A column released as given (repeat); refused when a QI determines it or it "
        "determines one. Every column is a --qi, --sensitive, --keep or --drop.",
    ),
]
Drop = Annotated[
    list[str] | None, typer.Option("--drop", help="A column left out of the release (repeat).")
]
Taxonomy = Annotated[
    list[str],
    typer.Option(
        "--taxonomy",
        "-t",
        help="column=FILE (child,parent CSV), or column=suppress, "
        "fanout:F, widths:W1,W2,... or edges:E1,E2,...;E1,... for numeric columns, or "
        "median or median:N (data-driven intervals: Mondrian's median cuts, none under N "
        "rows).",
    ),
]
ItemsKnown = Annotated[int, typer.Option("--m", "-m", help="Items an adversary knows.", min=1)]
RtClasses = Annotated[
    str,
    typer.Option(
        "--classes",
        help="How the QI classes are made: 'cover' (k-ANON-CF, as anonymize-table) or "
        "'cuts' (top-down cuts along the taxonomies, faster at large --class-size).",
    ),
]
ItemSearch = Annotated[
    str,
    typer.Option(
        "--item-search",
        help="How each class's items are generalized: 'topdown' (the default: nodes chosen "
        "from the root down; a node and a descendant may both be released, each item as "
        "the deepest chosen node above it; 20-45 % less item loss than 'lift' on Adult + "
        "WV2 at every class size, no slower) or 'lift' (one cut of the hierarchy per "
        "class, lifted level by level, as AA).",
    ),
]


@dataclass(frozen=True)
class SourceOpts:
    """Where the transactions come from: a file, or a dataset stored in --db."""

    source: Path | None = None
    format: str | None = None
    table: str | None = None
    tid_col: str | None = None
    item_col: str | None = None
    dataset: int | None = None
    encoding: str | None = None

    def check(self) -> None:
        """The reading options apply to an INPUT file only."""
        refuse_unless(
            self.source is not None
            or not (self.format or self.table or self.columns_given or self.encoding),
            "--format, --table, --tid-col, --item-col and --encoding describe an INPUT file; "
            "give one",
        )

    @property
    def columns_given(self) -> bool:
        return self.tid_col is not None or self.item_col is not None

    def reader(self) -> dict[str, Any]:
        """The keyword arguments `api.open_store` takes for reading the source."""
        return {
            "format": self.format,
            "table": self.table,
            "tid_col": self.tid_col,
            "item_col": self.item_col,
            "encoding": self.encoding,
            "dataset": self.dataset,
        }


@dataclass(frozen=True)
class HierOpts:
    """Where the item hierarchy comes from."""

    hierarchy: Path | None = None
    hierarchy_format: str | None = None
    fanout: int | None = None
    code_prefix: bool = False
    order: str | None = None
    hierarchy_encoding: str | None = None
    catalogue: bool = False  # the data's items the file lacks are dropped, unnamed (dpsets)

    def spec(self) -> HierarchySpec | None:
        from ..store.hierarchy_spec import HierarchySpec

        refuse_unless(
            self.hierarchy_format is None or self.hierarchy is not None,
            "--hierarchy-format is the format of a --hierarchy file; give one",
        )
        if self.hierarchy is None and self.fanout is None and not self.code_prefix:
            refuse_unless(self.order is None, "--order applies to the --fanout builder")
            refuse_unless(
                self.hierarchy_encoding is None,
                "--hierarchy-encoding applies to a --hierarchy file",
            )
            return None
        spec = HierarchySpec(
            path=self.hierarchy,
            format=self.hierarchy_format,
            fanout=self.fanout,
            code_prefix=self.code_prefix,
            order=self.order,
            encoding=self.hierarchy_encoding,
            catalogue=self.catalogue,
        )
        spec.check()
        return spec


@dataclass(frozen=True)
class DbOpts:
    """The DuckDB database and how much of the machine it may use."""

    db: Path | None = None
    memory_limit: str | None = None
    temp_dir: Path | None = None
    threads: int | None = None

    def settings(self) -> dict[str, Any]:
        return {
            "memory_limit": self.memory_limit,
            "temp_dir": self.temp_dir,
            "threads": self.threads,
        }

    @property
    def settings_given(self) -> bool:
        return any(v is not None for v in self.settings().values())


@dataclass(frozen=True)
class WorkloadOpts:
    """The seeded probes an evaluation draws (None: the default workload's value)."""

    queries: int | None = None
    targets: int | None = None
    sizes: str | None = None
    minsup: float | None = None
    seed: int | None = None
    exact: bool = False
    sample: float | None = None
    sanity: float | None = None

    def workload(self) -> Workload:
        from ..measure.evaluate import DEFAULT_WORKLOAD, Workload

        d = DEFAULT_WORKLOAD
        return Workload(
            queries=d.queries if self.queries is None else self.queries,
            targets=d.targets if self.targets is None else self.targets,
            sizes=d.sizes if self.sizes is None else whole_numbers(self.sizes, "--sizes"),
            minsup=d.minsup if self.minsup is None else self.minsup,
            seed=d.seed if self.seed is None else self.seed,
            sample=self.sample_share(),
            sanity=self.sanity,
        )

    def sample_share(self) -> float | None:
        """The share asked: 1 for --exact, --sample's, or None (decided by the data's size)."""
        refuse_unless(
            not (self.exact and self.sample is not None), "give --exact or --sample, not both"
        )
        return 1.0 if self.exact else self.sample
