"""Every option of every command either acts or is refused (issue 26, defects 7 and 8).

The walk: each command's options, read from the command line itself, must each have a rule
here, either what it does or a command line where it does not apply, which must end with exit
2 and one line. A new option without a rule fails the walk.

The property: any option given an out-of-range or odd value ends with 0, 1 (verify found
violations), 2, 3 or 5 (the machine), never 4, which means a bug of ours, and never a
traceback.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import typer.main
from helpers.cli import EX, cli
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from setanon_sql.cli import app
from setanon_sql.errors import ExitCode

FIG2, FIG2_H = EX / "fig2.csv", EX / "fig2_hierarchy.csv"


def all_options() -> list[tuple[str, str, bool]]:
    """(command, option, is a flag) for every option of every command."""
    out = []

    def walk(c, prefix: tuple[str, ...]) -> None:
        if hasattr(c, "commands"):
            for name, sub in c.commands.items():
                walk(sub, (*prefix, name))
            return
        for p in c.params:
            if type(p).__name__.endswith("Option"):
                out.append((" ".join(prefix), p.opts[0], bool(p.is_flag)))

    walk(typer.main.get_command(app), ())
    return out


@pytest.fixture(scope="module")
def ctx(tmp_path_factory) -> dict[str, Path]:
    """A database with a transaction run `r`, a disassociation run `d` and a table run `t`, and
    the files they read."""
    d = tmp_path_factory.mktemp("options")
    db = d / "w.duckdb"
    r = cli("anonymize", FIG2, "-H", FIG2_H, "-a", "aa", "-k", 2, "-m", 2, "--db", db,
            "--run", "r", "-q")  # fmt: skip
    assert r.code == 0, r.stderr
    r = cli("anonymize", FIG2, "-a", "disassociation", "-k", 2, "-m", 2, "--db", db,
            "--run", "d", "-q")  # fmt: skip
    assert r.code == 0, r.stderr
    table, sex = d / "t.csv", d / "sex.csv"
    table.write_text("sex,age\nF,30\nM,31\nF,32\nM,33\n")
    sex.write_text("child,parent\nF,*\nM,*\n")
    r = cli("anonymize-table", table, "--qi", "sex", "-t", f"sex={sex}", "-k", 2, "--db", db,
            "--run", "t", "--drop", "age", "-q")  # fmt: skip
    assert r.code == 0, r.stderr
    rt, items = d / "rt.csv", d / "items.csv"
    rt.write_text("sex,items\nF,a;b\nF,a\nM,c\nM,c;d\n")
    items.write_text("child,parent\na,A\nb,A\nc,B\nd,B\nA,*\nB,*\n")
    r = cli("anonymize", FIG2, "-H", FIG2_H, "-k", 2, "-m", 2, "-q", "-o", d / "rel.csv")
    assert r.code == 0, r.stderr
    return {
        "dir": d, "db": db, "table": table, "sex": sex, "rt": rt, "items": items,
        "release": d / "rel.csv",
    }  # fmt: skip


def rt_line(command: str, c: dict[str, Path]) -> list[object]:
    """The table-with-items arguments `anonymize-rt` and `sweep-rt` share: the rt table, its
    QI and taxonomy, the items column and hierarchy, k=2 and m=1."""
    return [command, c["rt"], "--qi", "sex", "-t", f"sex={c['sex']}", "--items", "items",
            "-H", c["items"], "-k", 2, "-m", 1]  # fmt: skip


def base(command: str, c: dict[str, Path]) -> list[object]:
    """A command line of `command` that succeeds as it is."""
    d, db = c["dir"], c["db"]
    return {
        "anonymize": ["anonymize", FIG2, "-H", FIG2_H, "-a", "aa", "-k", 2, "-m", 2, "-q"],
        "load": ["load", FIG2, "-H", FIG2_H, "--db", d / "load.duckdb", "-q"],
        "datasets": ["datasets", "--db", db],
        "runs": ["runs", "--db", db],
        "sql": ["sql"],
        "algorithms": ["algorithms"],
        "synth": ["synth", d / "s.parquet", "-n", 50, "--items", 20],
        "verify": ["verify", "--db", db, "--run", "r", "-q"],
        "metrics": ["metrics", "--db", db, "--run", "r"],
        "evaluate": ["evaluate", "--db", db, "--run", "r", "--queries", 5, "--targets", 5, "-q"],
        "report": [
            "report",
            "--db",
            db,
            "--run",
            "r",
            "-o",
            d / "r.html",
            "--queries",
            5,
            "--targets",
            5,
        ],  # fmt: skip
        "compare": ["compare", "r", "--db", db, "--queries", 5, "--targets", 5],
        "sweep": [
            "sweep",
            FIG2,
            "--fanout",
            2,
            "-a",
            "partition",
            "-k",
            2,
            "--queries",
            5,
            "--targets",
            5,
        ],  # fmt: skip
        "anonymize-table": [
            "anonymize-table",
            c["table"],
            "--qi",
            "sex",
            "-t",
            f"sex={c['sex']}",
            "-k",
            2,
            "--drop",
            "age",
            "-q",
        ],  # fmt: skip
        "anonymize-rt": [*rt_line("anonymize-rt", c), "-q"],
        "sweep-rt": [*rt_line("sweep-rt", c), "--class-size", 2, "--json"],
        "reconstruct": ["reconstruct", "d", "--db", db, "-o", d / "rec.csv"],
        "estimate": ["estimate", c["release"], "-H", FIG2_H, "-i", "a1 b1"],
        "hierarchy build": ["hierarchy", "build", FIG2, "--fanout", 2, "-o", d / "h.csv"],
        "hierarchy check": ["hierarchy", "check", FIG2_H],
        "hierarchy show": ["hierarchy", "show", FIG2_H],
    }[command]


def refused(*args: object) -> tuple[str, tuple[object, ...]]:
    """The rule of an option that does not apply here: these arguments, added to the command's
    base line, are refused (exit 2)."""
    return ("refused", args)


def acts(why: str) -> tuple[str, str]:
    return ("acts", why)


SOURCE = {
    "--format": acts("reads the INPUT as this format"),
    "--table": refused("--table", "x"),  # a CSV input has no tables
    "--tid-col": acts("names the tid column of a CSV/Parquet/DuckDB input"),
    "--item-col": acts("names the item column"),
    "--dataset": refused("--dataset", 1),  # with an INPUT as well
    "--encoding": acts("decodes the INPUT"),
}
HIER = {
    "--hierarchy": acts("reads the hierarchy"),
    "--hierarchy-format": acts("parses the hierarchy file"),
    "--fanout": refused("--fanout", 2),  # with -H as well
    "--code-prefix": refused("--code-prefix"),  # with -H as well
    "--order": refused("--order", "id"),  # not with a hierarchy file
    "--hierarchy-encoding": acts("decodes the hierarchy file"),
}
DB = {
    "--db": acts("the database to use"),
    "--memory-limit": acts("DuckDB's memory limit"),
    "--temp-dir": acts("DuckDB's spill folder"),
    "--threads": acts("DuckDB's threads"),
}
WORKLOAD = {
    "--queries": acts("random queries per size"),
    "--targets": acts("attack targets per size"),
    "--sizes": acts("query sizes"),
    "--minsup": acts("frequent itemsets' support"),
    "--seed": acts("draws the workload"),
}
# the base lines of these commands read a stored run: reading options do not apply
STORED = {
    "--format": refused("--format", "csv"),
    "--table": refused("--table", "x"),
    "--tid-col": refused("--tid-col", "x"),
    "--item-col": refused("--item-col", "x"),
    "--dataset": refused("--dataset", 1),
    "--hierarchy": refused("-H", FIG2_H),
    "--hierarchy-format": refused("--hierarchy-format", "csv"),
    "--fanout": refused("--fanout", 2),
    "--code-prefix": refused("--code-prefix"),
    "--order": refused("--order", "id"),
    "--encoding": refused("--encoding", "latin-1"),
    "--hierarchy-encoding": refused("--hierarchy-encoding", "latin-1"),
}
RULES: dict[str, dict[str, tuple]] = {
    "anonymize": {
        **SOURCE,
        **HIER,
        **DB,
        "--engine": acts("chooses DuckDB or Spark"),
        "--spark-master": refused("--spark-master", "local[1]"),
        "--spark-warehouse": refused("--spark-warehouse", "wh"),
        "--algorithm": acts("the algorithm"),
        "--k": acts("k"),
        "--m": refused("-a", "partition", "-m", 2),
        "--epsilon": refused("--epsilon", 1),  # only for -a dpsets (#44)
        "--output": acts("writes the release"),
        "--files": refused("--files", "csv"),  # only for -a disassociation's folder
        "--per-transaction": refused("--per-transaction"),  # no -o nor --output-table
        "--output-table": refused("--output-table", " "),
        "--run": acts("names the run"),
        "--replace": refused("--replace"),  # no --run nor --output-table
        "--keep-intermediate": acts("keeps every per-level table (all algorithms)"),
        "--option": refused("--option", "nosuch=1"),
        "--sql-log": acts("writes the replay script"),
        "--json": acts("prints JSON"),
        "--quiet": acts("prints nothing"),
    },  # fmt: skip
    "load": {
        **{k: v for k, v in SOURCE.items() if k != "--dataset"},
        **HIER,
        **DB,
        "--json": acts("prints JSON"),
        "--quiet": acts("prints nothing"),
    },  # fmt: skip
    "datasets": {**DB, "--json": acts("prints JSON")},
    "runs": {
        **DB,
        "--spark-warehouse": refused("--spark-warehouse", "wh"),  # with --db as well
        "--json": acts("prints JSON"),
    },
    "sql": {
        "--db": refused("--db", "x.duckdb"),  # no --run
        "--memory-limit": refused("--memory-limit", "1GB"),
        "--temp-dir": refused("--temp-dir", "."),
        "--threads": refused("--threads", 1),
        "--run": refused("--run", "r"),  # without --db
        "--spark-warehouse": refused("--spark-warehouse", "wh"),  # without --run
    },
    "algorithms": {"--json": acts("prints JSON")},
    "synth": {
        "--transactions": acts("how many transactions"),
        "--items": acts("how many items"),
        "--seed": acts("the draws"),
        "--patterns": refused("--patterns", -3),
        "--pattern-share": refused("--pattern-share", "nan"),
        "--min-length": refused("--min-length", "nan"),
        "--tail": refused("--tail", "nan"),
        "--max-length": acts("the longest transaction"),
        "--fanout": acts("the patterns' subtrees"),
        "--replace": acts("replaces an existing file"),
        "--json": acts("prints JSON"),
    },
    "verify": {
        **STORED,
        **DB,
        "--k": acts("checks against this k"),
        "--m": refused("--model", "k", "-m", 2),
        "--model": refused("--model", "x"),
        "--release": refused("-r", "x.csv"),  # with --run as well
        "--run": acts("the run to verify"),
        "--allow-suppression": acts("items may be missing"),
        "--multiset": acts("checks as a multiset release"),
        "--show": refused("--show", 3),  # with -q: nothing is shown
        "--json": acts("prints JSON"),
        "--quiet": acts("prints nothing"),
    },  # fmt: skip
    "metrics": {
        **STORED,
        **DB,
        "--release": refused("-r", "x.csv"),  # with --run as well
        "--run": acts("the run to measure"),
        "--multiset": refused("--multiset", "--per-copy"),
        "--per-copy": acts("measures per released copy"),
        "--json": acts("prints JSON"),
    },  # fmt: skip
    "evaluate": {
        **STORED,
        **DB,
        **WORKLOAD,
        "--run": acts("the run to evaluate"),
        "--release": refused("-r", "x.csv"),  # with --run as well
        "--k": refused("-k", 2),  # a stored run keeps its own
        "--m": refused("-m", 2),
        "--multiset": refused("--multiset"),
        "--synthesized": refused("--synthesized"),  # a stored run keeps its own
        "--sensitive": refused("--sensitive", "sex"),  # r holds transactions
        "--risk-threshold": refused("--risk-threshold", 0.5),
        "--exact": acts("counts on every transaction"),
        "--sample": refused("--sample", 2),  # a share is at most 1
        "--sanity": refused("--sanity", 1),  # a share below 1 (#44)
        "--json": acts("prints JSON"),
        "--quiet": acts("prints nothing"),
    },  # fmt: skip
    "report": {
        **DB,
        **WORKLOAD,
        "--exact": acts("counts on every transaction"),
        "--sample": refused("--sample", 0),  # a share is above 0
        "--sanity": acts("bounds the ARE's denominator (are_sanity)"),
        "--run": refused("--run", "t"),  # a table run has no such page
        "--output": refused("-o", "/nonexistent/r.html"),
        "--replace": acts("replaces an existing page"),
        "--json": acts("prints JSON"),
    },  # fmt: skip
    "compare": {
        **DB,
        **WORKLOAD,
        "--report": refused("--report", "/nonexistent/c.html"),
        "--replace": refused("--replace"),  # without --report
        "--sanity": refused("--sanity", "nan"),
        "--json": acts("prints JSON"),
    },  # fmt: skip
    "sweep": {
        **SOURCE,
        **DB,
        **WORKLOAD,
        "--algorithm": acts("the algorithms swept"),
        "--k": acts("the values of k"),
        "--m": refused("-m", 2),  # partition alone takes no m
        "--hierarchy": refused("-H", FIG2_H),  # with --fanout as well
        "--fanout": acts("builds the hierarchies"),
        "--order": acts("leaf orders of --fanout"),
        "--replace": acts("replaces earlier sweep runs"),
        "--report": refused("--report", "/nonexistent/c.html"),
        "--epsilon": refused("--epsilon", "1"),  # no dpsets swept (#44)
        "--sanity": refused("--sanity", "-1"),  # a share of at least 0
        "--json": acts("prints JSON"),
    },  # fmt: skip
    "anonymize-table": {
        **DB,
        "--qi": acts("the quasi-identifiers"),
        "--taxonomy": refused("-t", "nonsense"),
        "--k": acts("k"),
        "--keep": refused("--keep", "age"),  # dropped as well
        "--drop": acts("leaves a column out of the release"),
        "--sensitive": refused("--sensitive", "age"),  # without --l
        "--l": refused("--l", 2),  # without --sensitive
        "--w": refused("--w", 0.5),  # without --l
        "--output": acts("writes the release"),
        "--columns": refused("--columns", ""),
        "--table": refused("--table", "x"),  # a CSV input has no tables
        "--drop-missing": acts("drops rows holding the token"),
        "--encoding": acts("decodes the CSV table and taxonomy files"),
        "--run": acts("names the run"),
        "--replace": refused("--replace"),  # without --run
        "--no-improve": acts("releases the cover as it is"),
        "--mine-beam": acts("records kept per mining level"),
        "--cover-cap": acts("the capped cover"),
        "--json": acts("prints JSON"),
        "--quiet": acts("prints nothing"),
    },
    "estimate": {
        "--itemset": acts("the itemsets estimated"),
        "--queries": acts("a file of itemsets"),
        "--sep": refused("--sep", ""),
        "--hierarchy": acts("the generalized release's hierarchy"),
        "--synthetic": refused("--synthetic"),  # with -H, which a synthetic release needs not
        "--items": acts("the set column of anonymize-rt's table release"),
        "--items-sep": refused("--items-sep", ";"),  # without --items
        "--taxonomy": refused("-t", "a=x.csv"),  # without --items
        "--memory-limit": acts("DuckDB's memory limit"),
        "--threads": acts("DuckDB's threads"),
        "--json": acts("prints JSON"),
    },
    "anonymize-rt": {
        **DB,
        "--qi": acts("the quasi-identifiers"),
        "--taxonomy": refused("-t", "nonsense"),
        "--items": acts("the set column"),
        "--hierarchy": acts("the items' hierarchy"),
        "--hierarchy-format": acts("parses the hierarchy file"),
        "--code-prefix": refused("--code-prefix"),  # with -H as well
        "--hierarchy-encoding": acts("decodes the hierarchy file"),
        "--items-sep": refused("--items-sep", ""),
        "--items-table": refused("--items-table", "rows.csv"),  # without --key
        "--key": refused("--key", "id"),  # without --items-table
        "--items-output": refused("--items-output", "rows_out.csv"),  # without --items-table
        "--k": acts("k"),
        "--m": acts("m"),
        "--keep": refused("--keep", "sex"),  # a QI as well
        "--drop": refused("--drop", "sex"),  # a QI as well
        "--class-size": refused("--class-size", 1),  # below k
        "--classes": refused("--classes", "kmeans"),
        "--item-search": refused("--item-search", "greedy"),
        "--delta": refused("--delta", 1.5),  # not an NCP
        "--set-release": refused("--set-release", "shuffle"),
        "--chunks-output": refused("--chunks-output", "chunks"),  # without disassociate
        "--max-cluster": refused("--max-cluster", 5),  # without disassociate
        "--joint-size": refused("--joint-size", 4),  # without disassociate
        "--no-refine": refused("--no-refine"),  # without disassociate
        "--sensitive": refused("--sensitive", "sex"),  # without --l
        "--l": refused("--l", 2),  # without --sensitive
        "--output": acts("writes the release"),
        "--columns": refused("--columns", ""),
        "--table": refused("--table", "x"),  # a CSV input has no tables
        "--drop-missing": acts("drops rows holding the token"),
        "--encoding": acts("decodes the CSV table and taxonomy files"),
        "--run": acts("names the run"),
        "--replace": refused("--replace"),  # without --run
        "--json": acts("prints JSON"),
        "--quiet": acts("prints nothing"),
    },
    "sweep-rt": {
        **DB,
        "--qi": acts("the quasi-identifiers"),
        "--taxonomy": refused("-t", "nonsense"),
        "--items": acts("the set column"),
        "--hierarchy": acts("the items' hierarchy"),
        "--hierarchy-format": acts("parses the hierarchy file"),
        "--hierarchy-encoding": acts("decodes the hierarchy file"),
        "--items-sep": refused("--items-sep", ""),
        "--k": acts("k"),
        "--m": acts("m"),
        "--keep": refused("--keep", "sex"),  # a QI as well
        "--drop": refused("--drop", "sex"),  # a QI as well
        "--class-size": refused("--class-size", "x"),
        "--delta": refused("--delta", "0.5,2"),  # 2 is not an NCP
        "--classes": refused("--classes", "kmeans"),
        "--item-search": refused("--item-search", "greedy"),
        "--set-release": refused("--set-release", "shuffle"),
        "--max-cluster": refused("--max-cluster", 5),  # without disassociate
        "--columns": refused("--columns", ""),
        "--table": refused("--table", "x"),  # a CSV input has no tables
        "--drop-missing": acts("drops rows holding the token"),
        "--encoding": acts("decodes the CSV table and taxonomy files"),
        "--replace": acts("replaces earlier sweep runs"),
        "--report": refused("--report", "/nonexistent/c.html"),
        "--json": acts("prints JSON"),
    },
    "reconstruct": {
        **DB,
        "--output": refused("-o", "/nonexistent/x.csv"),
        "--replace": acts("replaces an existing file"),
        "--json": acts("prints JSON"),
    },
    "hierarchy build": {
        "--output": acts("the file written"),
        "--replace": acts("replaces an existing file"),
        "--format": acts("reads the INPUT as this format"),
        "--table": refused("--table", "x"),
        "--tid-col": acts("names the tid column"),
        "--item-col": acts("names the item column"),
        "--encoding": acts("decodes the INPUT"),
        "--fanout": acts("the fan-out"),
        "--code-prefix": refused("--code-prefix"),  # with --fanout as well
        "--order": acts("leaf order of --fanout"),
        "--json": acts("prints JSON"),
    },
    "hierarchy check": {
        "--data": acts("checks the data is covered"),
        "--hierarchy-format": acts("parses the file"),
        "--format": refused("--format", "csv"),  # without --data
        "--hierarchy-encoding": acts("decodes the file"),
        "--json": acts("prints JSON"),
    },
    "hierarchy show": {
        "--depth": acts("levels printed"),
        "--hierarchy-format": acts("parses the file"),
        "--hierarchy-encoding": acts("decodes the file"),
    },
}


def test_every_option_has_a_rule() -> None:
    missing = [(c, o) for c, o, _ in all_options() if o not in RULES.get(c, {})]
    stale = [
        (c, o) for c, opts in RULES.items() for o in opts if (c, o) not in
        {(cc, oo) for cc, oo, _ in all_options()}
    ]  # fmt: skip
    assert not missing, f"options without a rule (acts, or where refused): {missing}"
    assert not stale, f"rules for options that no longer exist: {stale}"


REFUSALS = [
    pytest.param(c, o, rule[1], id=f"{c} {o}")
    for c, opts in RULES.items()
    for o, rule in opts.items()
    if rule[0] == "refused"
]


@pytest.mark.parametrize(("command", "option", "extra"), REFUSALS)
def test_an_option_that_does_not_apply_is_refused(ctx, command, option, extra) -> None:
    r = cli(*base(command, ctx), *extra)
    assert r.code == ExitCode.USAGE, (r.code, r.stderr)
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert "Traceback" not in r.stderr and lines, r.stderr


def test_every_base_line_succeeds(ctx) -> None:
    for command in RULES:
        r = cli(*base(command, ctx))
        assert r.code == 0, (command, r.stderr)


ODD = ["-1", "0", "nan", "inf", "-inf", "1e400", "99999999999999999999", "", " ", "x", "ü",
       "a=b", "1,2", "0.5", "/nonexistent/x", "'", '"']  # fmt: skip
VALUED = [(c, o) for c, o, flag in all_options() if not flag]


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(case=st.sampled_from(VALUED), value=st.sampled_from(ODD))
@example(case=("anonymize", "--threads"), value="100000")
@example(case=("anonymize", "--m"), value="99999999999999999999")
@example(case=("anonymize", "--fanout"), value="99999999999999999999")
@example(case=("anonymize", "--run"), value="information_schema")
@example(case=("anonymize", "--run"), value="pg_catalog")
@example(case=("verify", "--show"), value="-1")
@example(case=("verify", "--k"), value="99999999999999999999")
@example(case=("synth", "--tail"), value="nan")
@example(case=("synth", "--patterns"), value="-3")
@example(case=("anonymize-table", "--l"), value="nan")
@example(case=("evaluate", "--sizes"), value="99999999999999999999")
@example(case=("anonymize", "--memory-limit"), value="0%")
@example(case=("anonymize", "--memory-limit"), value="0")
@example(case=("anonymize", "--memory-limit"), value="-1GB")
@example(case=("anonymize", "--memory-limit"), value="1KB")
@example(case=("anonymize", "--memory-limit"), value="101%")
@example(case=("anonymize", "--memory-limit"), value="garbage")
@example(case=("anonymize", "--memory-limit"), value="1e400GB")
def test_odd_values_never_end_as_our_bug(ctx, case, value, monkeypatch) -> None:
    monkeypatch.chdir(ctx["dir"])  # an odd value may name an output: it lands here
    command, option = case
    line = base(command, ctx)
    if command == "evaluate" and option in ("--sensitive", "--risk-threshold"):
        line = [*line[:4], "t", "-q"]  # the table run, where these apply
    r = cli(*line, option, value)
    assert r.code in (0, 1, 2, 3, 5), (command, option, value, r.code, r.stderr)
    assert "Traceback" not in r.stderr


# what the defects issue found ending as "internal error" (exit 4), each with its own code now
FOUND = [
    (("anonymize", "--threads", 100000), ExitCode.USAGE, "per core"),
    (("anonymize", "--memory-limit", "0%"), ExitCode.USAGE, "--memory-limit"),
    (("anonymize", "--memory-limit", "-1GB"), ExitCode.USAGE, "negative"),
    (("anonymize", "--run", "information_schema"), ExitCode.USAGE, "reserved"),
    (("anonymize", "--run", "pg_catalog"), ExitCode.USAGE, "reserved"),
    (("verify", "--show", -1), ExitCode.USAGE, "--show"),
    (("synth", "--tail", "nan"), ExitCode.USAGE, "tail"),
    (("synth", "--patterns", -3), ExitCode.USAGE, "patterns"),
    (("evaluate-table", "--sensitive", "nosuch"), ExitCode.USAGE, "nosuch"),
    (("clump", "--option", "coarse=nan"), ExitCode.USAGE, "coarse"),
]


@pytest.mark.parametrize(
    ("case", "code", "said"), FOUND, ids=[" ".join(map(str, c[0])) for c in FOUND]
)
def test_what_ended_as_our_bug_is_said_with_its_own_code(ctx, case, code, said) -> None:
    command, option, value = case
    if command == "clump":
        line = ["anonymize", FIG2, "-H", FIG2_H, "-a", "clump", "-k", 2, "-q"]
    elif command == "evaluate-table":
        line = ["evaluate", "--db", ctx["db"], "--run", "t", "-q"]
    else:
        line = base(command, ctx)
    r = cli(*line, option, value)
    assert r.code == code, (r.code, r.stderr)
    assert said in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
